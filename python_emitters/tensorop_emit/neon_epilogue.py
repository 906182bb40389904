"""The fused epilogue of the NEON GEMM microkernel (arm_gemm_neon.py).

After the last K panel the kernel spills its accumulators to the scratch
tile of the epilogue block (operand $7, layout in epilogue.py; one row of nr
floats per C row), which frees every vector register, then loops over the
rows r < m_rem and, within a row, over the columns j < n_rem: four at a
time with q loads and stores while at least four are left, then one at a
time with s loads and stores (lane 0; the other lanes are zero and their
results unused), so nothing past column n_rem is read or written. The steps
are emitted once for each of the two widths.

Registers: v0 X (the running value), v1 U (the rational's argument), v2 U2
(its square), v3/v4 and v5/v6 the two Horner chains, v6 also a constant or a loaded
operand, v7 the row's bias_m value. Constants are 4 of the block's 16
copies (ldr q). Same approximations as x86 (epilogue.py), Horner with fmla
as x86 does with vfmadd; relu and clamp use fmaxnm / fminnm, which, like
x86's vmaxps / vminps, return the constant for a NaN input.
"""

from .epilogue import (
    ConstantTable, ERF_CLAMP, ERF_P, ERF_Q, GELU_CUBIC, SQRT_2_OVER_PI,
    TANH_CLAMP, TANH_P, TANH_Q,
)

BLOCK = "$7"
X, U, U2, PA, PB, Q, T, BM = range(8)
VREGS = list(range(8))
# GPRs, caller-saved temporaries: x9 the column byte offset, x10 columns
# left, x11 the scratch row, x12 large offsets / the residual's row stride,
# x13 the bias, x14 the residual row.
COL, LEFT, SCRATCH, TMP, BIAS, RES = "x9", "x10", "x11", "x12", "x13", "x14"
GPR_NUMBERS = (9, 10, 11, 12, 13, 14)


class NeonEpilogue:
    """Emits the epilogue C update for one Kernel (arm_gemm_neon.Kernel)."""

    def __init__(self, kernel, steps):
        self.k = kernel
        self.steps = steps
        self.consts = ConstantTable()
        self.has_bias = any(s.kind in ("bias_n", "bias_m") for s in steps)
        self.has_residual = any(s.kind == "residual" for s in steps)

    # ------------------------------------------------------------ helpers
    def _const(self, w, value, reg=T):
        """v<reg> = 4 copies of `value` from its slot in the block."""
        off = self.consts.offset(value)
        if off <= 65520:  # ldr q: unsigned 12-bit offset scaled by 16
            w.ins("ldr q%d, [%s, #%d]" % (reg, BLOCK, off))
        else:
            w.ins("mov %s, #%d" % (TMP, off & 0xFFFF))
            w.ins("movk %s, #%d, lsl #16" % (TMP, off >> 16))
            w.ins("ldr q%d, [%s, %s]" % (reg, BLOCK, TMP))
        return reg

    @staticmethod
    def _op(w, op, dst, a, b):
        w.ins("%s v%d.4s, v%d.4s, v%d.4s" % (op, dst, a, b))

    def _opk(self, w, op, dst, a, value):
        self._op(w, op, dst, a, self._const(w, value))

    def _load(self, w, reg, base, wide):
        w.ins("ldr %s%d, [%s, %s]" % ("q" if wide else "s", reg, base, COL))

    def _rational(self, w, clamp, p_coefs, q_coefs, dst):
        """v<dst> = u*P(u^2)/Q(u^2) on U clamped to [-clamp, clamp]."""
        self._opk(w, "fmaxnm", U, U, -clamp)
        self._opk(w, "fminnm", U, U, clamp)
        self._op(w, "fmul", U2, U, U)
        results = []
        for first, coefs in ((PA, p_coefs), (Q, q_coefs)):
            # acc = c + acc * u^2, alternating between two registers
            cur, other = first, (PB if first == PA else T)
            self._const(w, coefs[-1], cur)
            for c in reversed(coefs[:-1]):
                self._const(w, c, other)
                self._op(w, "fmla", other, cur, U2)
                cur, other = other, cur
            results.append(cur)
        p, q = results
        self._op(w, "fmul", p, U, p)
        self._op(w, "fdiv", dst, p, q)

    def _half_plus_half(self, w, reg):
        """v<reg> = 0.5 * v<reg> + 0.5"""
        self._opk(w, "fmul", reg, reg, 0.5)
        self._opk(w, "fadd", reg, reg, 0.5)

    def _steps(self, w, wide):
        for s in self.steps:
            if s.kind == "bias_n":
                self._load(w, T, BIAS, wide)
                self._op(w, "fadd", X, X, T)
            elif s.kind == "bias_m":
                self._op(w, "fadd", X, X, BM)
            elif s.kind == "residual":
                self._load(w, T, RES, wide)
                self._op(w, "fadd", X, X, T)
            elif s.kind == "scale":
                self._opk(w, "fmul", X, X, s.args[0])
            elif s.kind == "relu":
                self._opk(w, "fmaxnm", X, X, 0.0)
            elif s.kind == "clamp":
                self._opk(w, "fmaxnm", X, X, s.args[0])
                self._opk(w, "fminnm", X, X, s.args[1])
            elif s.kind == "tanh":
                w.ins("mov v%d.16b, v%d.16b" % (U, X))
                self._rational(w, TANH_CLAMP, TANH_P, TANH_Q, X)
            elif s.kind in ("sigmoid", "silu"):
                # sigmoid(x) = 0.5 + 0.5 tanh(x / 2)
                self._opk(w, "fmul", U, X, 0.5)
                self._rational(w, TANH_CLAMP, TANH_P, TANH_Q, U2)
                self._half_plus_half(w, U2)
                if s.kind == "silu":
                    self._op(w, "fmul", X, U2, X)
                else:
                    w.ins("mov v%d.16b, v%d.16b" % (X, U2))
            elif s.kind == "gelu_tanh":
                # u = sqrt(2/pi) * (x + 0.044715 x^3) = x * (k0 + k0 k1 x^2)
                self._op(w, "fmul", U, X, X)
                self._opk(w, "fmul", U, U, SQRT_2_OVER_PI * GELU_CUBIC)
                self._opk(w, "fadd", U, U, SQRT_2_OVER_PI)
                self._op(w, "fmul", U, U, X)
                self._rational(w, TANH_CLAMP, TANH_P, TANH_Q, U2)
                self._half_plus_half(w, U2)
                self._op(w, "fmul", X, U2, X)
            elif s.kind == "gelu_erf":
                self._opk(w, "fmul", U, X, 1.0 / 2.0 ** 0.5)
                self._rational(w, ERF_CLAMP, ERF_P, ERF_Q, U2)
                self._half_plus_half(w, U2)
                self._op(w, "fmul", X, U2, X)
            else:  # parse_epilogue admits only the kinds above
                raise AssertionError(s.kind)

    def _columns(self, w, c, wide):
        """One column group at byte offset COL: 4 columns or 1."""
        self._load(w, X, SCRATCH, wide)
        self._load(w, T, c, wide)
        self._op(w, "fadd", X, X, T)
        self._steps(w, wide)
        w.ins("str %s%d, [%s, %s]" % ("q" if wide else "s", X, c, COL))
        w.ins("add %s, %s, #%d" % (COL, COL, 16 if wide else 4))
        w.ins("sub %s, %s, #%d" % (LEFT, LEFT, 4 if wide else 1))

    def _add(self, w, reg, base, imm):
        """reg = base + imm (imm >= 0)"""
        if imm < 4096:
            w.ins("add %s, %s, #%d" % (reg, base, imm))
        else:
            w.ins("mov %s, #%d" % (TMP, imm & 0xFFFF))
            if imm >> 16:
                w.ins("movk %s, #%d, lsl #16" % (TMP, (imm >> 16) & 0xFFFF))
            w.ins("add %s, %s, %s" % (reg, base, TMP))

    def c_update(self, w, c, ldc, m_rem, n_rem):
        """The epilogue C update (after the K loop); ends by falling
        through or branching to label 9."""
        k = self.k
        # The steps' constants come first in the table, so the scratch
        # offset is known before the rows are emitted: a dry run fills it.
        dry = type(w)()
        self._steps(dry, True)
        n_before = len(self.consts.values)
        self._add(w, SCRATCH, BLOCK, self.consts.scratch_offset())
        for r in range(k.mr):
            for v in range(k.nv):
                # unsigned offset scaled by 16: mr * nv <= 32 vectors
                w.ins("str q%d, [%s, #%d]" % (k.acc[r][v], SCRATCH, 16 * (r * k.nv + v)))
        if self.has_bias:
            w.ins("ldr %s, [%s]" % (BIAS, BLOCK))
        if self.has_residual:
            w.ins("ldr %s, [%s, #8]" % (RES, BLOCK))
        w.label("10")
        if any(s.kind == "bias_m" for s in self.steps):
            w.ins("ld1r {v%d.4s}, [%s], #4" % (BM, BIAS))
        w.ins("mov %s, #0" % COL)
        w.ins("mov %s, %s" % (LEFT, n_rem))
        w.ins("cmp %s, #4" % LEFT)
        w.ins("b.lt 12f")
        w.label("11")
        self._columns(w, c, True)
        w.ins("cmp %s, #4" % LEFT)
        w.ins("b.ge 11b")
        w.label("12")
        w.ins("cbz %s, 13f" % LEFT)
        self._columns(w, c, False)
        w.ins("b 12b")
        w.label("13")
        if k.mr > 1:
            w.ins("subs %s, %s, #1" % (m_rem, m_rem))
            w.ins("b.eq 9f")
            w.ins("add %s, %s, %s" % (c, c, ldc))
            w.ins("add %s, %s, #%d" % (SCRATCH, SCRATCH, 4 * k.nr))
            if self.has_residual:
                w.ins("ldr %s, [%s, #16]" % (TMP, BLOCK))
                w.ins("add %s, %s, %s" % (RES, RES, TMP))
            w.ins("b 10b")
        assert len(self.consts.values) == n_before, "constant table grew after the dry run"

    def block_bytes(self):
        return self.consts.scratch_offset() + 4 * self.k.mr * self.k.nr
