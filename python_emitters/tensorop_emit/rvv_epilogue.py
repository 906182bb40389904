"""The fused epilogue of the RVV GEMM microkernel (riscv_gemm_rvv.py).

After the last K panel the kernel spills its accumulator groups to the
scratch tile of the epilogue block (operand $7, layout in epilogue.py; one
row of nr floats per C row), which frees every vector register, then loops
over the rows r < m_rem: loads the row's accumulators at vl = n_rem, adds C,
applies the steps and stores C once. vl = n_rem <= nr <= VLMAX covers the
whole row at the kernel's LMUL, so the N edge needs no mask and nothing past
column n_rem is read or written, on any VLEN >= vlen_min.

Four register groups at the kernel's LMUL (so LMUL 8 fits): X (the running
value), U (the rational's argument, its square, or a loaded operand), P and
Q (numerator and denominator). The rational recomputes its argument after
the two Horner chains instead of keeping a fifth group. Constants are
scalars: flw from the block, then the .vf forms. Same approximations as
x86 (epilogue.py); Horner is a multiply then an add (no FMA), which is how
docs/Epilogues.md measured their error.
"""

from .epilogue import (
    ConstantTable, ERF_CLAMP, ERF_P, ERF_Q, GELU_CUBIC, SQRT_2_OVER_PI,
    TANH_CLAMP, TANH_P, TANH_Q,
)

BLOCK = "$7"
# Scratch GPRs (caller-saved temporaries): t2 addresses far constants, t3
# the scratch row, t4 the bias, t5 the residual row, t6 its row stride.
CONST_GPR, SCRATCH_GPR, BIAS_GPR, RES_GPR, RES_STRIDE_GPR = "t2", "t3", "t4", "t5", "t6"
GPR_NUMBERS = {"t2": 7, "t3": 28, "t4": 29, "t5": 30, "t6": 31}
# Scalar FP registers: a constant, the row's bias_m value (free after the
# K loop: the A elements live there during it).
CONST_FPR, BIAS_FPR = "ft0", "ft1"
FPR_NUMBERS = (0, 1)


class RvvEpilogue:
    """Emits the epilogue C update for one Kernel (riscv_gemm_rvv.Kernel)."""

    def __init__(self, kernel, steps):
        self.k = kernel
        self.steps = steps
        self.consts = ConstantTable()
        lm = kernel.lmul
        self.x, self.u, self.p, self.q = ("v%d" % (i * lm) for i in range(4))
        self.has_bias = any(s.kind in ("bias_n", "bias_m") for s in steps)
        self.has_residual = any(s.kind == "residual" for s in steps)
        self.used_gprs = set()

    def vector_registers(self):
        return 4 * self.k.lmul

    def _g(self, name):
        self.used_gprs.add(GPR_NUMBERS[name])
        return name

    # ------------------------------------------------------------ helpers
    def _const(self, w, value, freg=CONST_FPR):
        """freg = the constant `value` (flw from its slot in the block)."""
        off = self.consts.offset(value)
        if off <= 2047:
            w.ins("flw %s, %d(%s)" % (freg, off, BLOCK))
        else:
            t = self._g(CONST_GPR)
            w.ins("li %s, %d" % (t, off))
            w.ins("add %s, %s, %s" % (t, t, BLOCK))
            w.ins("flw %s, 0(%s)" % (freg, t))
        return freg

    def _vf(self, w, op, dst, src, value):
        w.ins("%s.vf %s, %s, %s" % (op, dst, src, self._const(w, value)))

    def _rational(self, w, arg, clamp, p_coefs, q_coefs, dst):
        """dst = a*P(a^2)/Q(a^2), a = `arg` (emits a into U) clamped to
        [-clamp, clamp]; clobbers U, P, Q (dst is P or X)."""
        u, p, q = self.u, self.p, self.q

        def clamped():
            arg(w)
            self._vf(w, "vfmax", u, u, -clamp)
            self._vf(w, "vfmin", u, u, clamp)

        clamped()
        w.ins("vfmul.vv %s, %s, %s" % (u, u, u))
        for reg, coefs in ((q, q_coefs), (p, p_coefs)):
            w.ins("vfmv.v.f %s, %s" % (reg, self._const(w, coefs[-1])))
            for c in reversed(coefs[:-1]):
                w.ins("vfmul.vv %s, %s, %s" % (reg, reg, u))
                self._vf(w, "vfadd", reg, reg, c)
        clamped()  # the argument again (its square was in U)
        w.ins("vfmul.vv %s, %s, %s" % (p, p, u))
        w.ins("vfdiv.vv %s, %s, %s" % (dst, p, q))

    def _half_plus_half(self, w, reg):
        """reg = 0.5 * reg + 0.5"""
        self._vf(w, "vfmul", reg, reg, 0.5)
        self._vf(w, "vfadd", reg, reg, 0.5)

    def _steps(self, w):
        x, u, p = self.x, self.u, self.p

        def scaled(factor):
            return lambda w: self._vf(w, "vfmul", u, x, factor)

        def gelu_tanh_arg(w):
            # u = sqrt(2/pi) * (x + 0.044715 x^3) = x * (k0 + k0 k1 x^2)
            w.ins("vfmul.vv %s, %s, %s" % (u, x, x))
            self._vf(w, "vfmul", u, u, SQRT_2_OVER_PI * GELU_CUBIC)
            self._vf(w, "vfadd", u, u, SQRT_2_OVER_PI)
            w.ins("vfmul.vv %s, %s, %s" % (u, u, x))

        for s in self.steps:
            if s.kind == "bias_n":
                w.ins("vle32.v %s, (%s)" % (u, BIAS_GPR))
                w.ins("vfadd.vv %s, %s, %s" % (x, x, u))
            elif s.kind == "bias_m":
                w.ins("flw %s, 0(%s)" % (BIAS_FPR, BIAS_GPR))
                w.ins("vfadd.vf %s, %s, %s" % (x, x, BIAS_FPR))
            elif s.kind == "residual":
                w.ins("vle32.v %s, (%s)" % (u, RES_GPR))
                w.ins("vfadd.vv %s, %s, %s" % (x, x, u))
            elif s.kind == "scale":
                self._vf(w, "vfmul", x, x, s.args[0])
            elif s.kind == "relu":
                self._vf(w, "vfmax", x, x, 0.0)
            elif s.kind == "clamp":
                self._vf(w, "vfmax", x, x, s.args[0])
                self._vf(w, "vfmin", x, x, s.args[1])
            elif s.kind == "tanh":
                self._rational(w, lambda w: w.ins("vmv.v.v %s, %s" % (u, x)),
                               TANH_CLAMP, TANH_P, TANH_Q, x)
            elif s.kind in ("sigmoid", "silu"):
                # sigmoid(x) = 0.5 + 0.5 tanh(x / 2)
                self._rational(w, scaled(0.5), TANH_CLAMP, TANH_P, TANH_Q, p)
                self._half_plus_half(w, p)
                if s.kind == "silu":
                    w.ins("vfmul.vv %s, %s, %s" % (x, p, x))
                else:
                    w.ins("vmv.v.v %s, %s" % (x, p))
            elif s.kind == "gelu_tanh":
                self._rational(w, gelu_tanh_arg, TANH_CLAMP, TANH_P, TANH_Q, p)
                self._half_plus_half(w, p)
                w.ins("vfmul.vv %s, %s, %s" % (x, p, x))
            elif s.kind == "gelu_erf":
                self._rational(w, scaled(1.0 / 2.0 ** 0.5), ERF_CLAMP, ERF_P, ERF_Q, p)
                self._half_plus_half(w, p)
                w.ins("vfmul.vv %s, %s, %s" % (x, p, x))
            else:  # parse_epilogue admits only the kinds above
                raise AssertionError(s.kind)

    def _point(self, w, reg, offset):
        """reg = BLOCK + offset"""
        if offset <= 2047:
            w.ins("addi %s, %s, %d" % (reg, BLOCK, offset))
        else:
            w.ins("li %s, %d" % (reg, offset))
            w.ins("add %s, %s, %s" % (reg, reg, BLOCK))

    def c_update(self, w, c, ldc, m_rem, n_rem):
        """The epilogue C update (after the K loop, vtype at the kernel's
        LMUL); ends by falling through or branching to label 9."""
        k = self.k
        # The steps' constants come first in the table, so the scratch
        # offset is known before the rows are emitted: a dry run fills it.
        dry = type(w)()
        self._steps(dry)
        n_before = len(self.consts.values)
        scratch = self._g(SCRATCH_GPR)
        k._vset(w, n_rem)
        self._point(w, scratch, self.consts.scratch_offset())
        for r in range(k.mr):
            w.ins("vse32.v %s, (%s)" % (k.acc[r], scratch))
            if r + 1 < k.mr:
                k._addi(w, scratch, 4 * k.nr)
        self._point(w, scratch, self.consts.scratch_offset())
        if self.has_bias:
            w.ins("ld %s, 0(%s)" % (self._g(BIAS_GPR), BLOCK))
        if self.has_residual:
            w.ins("ld %s, 8(%s)" % (self._g(RES_GPR), BLOCK))
            w.ins("ld %s, 16(%s)" % (self._g(RES_STRIDE_GPR), BLOCK))
        w.label("10")
        w.ins("vle32.v %s, (%s)" % (self.x, scratch))
        w.ins("vle32.v %s, (%s)" % (self.u, c))
        w.ins("vfadd.vv %s, %s, %s" % (self.x, self.x, self.u))
        self._steps(w)
        w.ins("vse32.v %s, (%s)" % (self.x, c))
        if k.mr > 1:
            w.ins("addi %s, %s, -1" % (m_rem, m_rem))
            w.ins("beqz %s, 9f" % m_rem)
            w.ins("add %s, %s, %s" % (c, c, ldc))
            k._addi(w, scratch, 4 * k.nr)
            if any(s.kind == "bias_m" for s in self.steps):
                w.ins("addi %s, %s, 4" % (BIAS_GPR, BIAS_GPR))
            if self.has_residual:
                w.ins("add %s, %s, %s" % (RES_GPR, RES_GPR, RES_STRIDE_GPR))
            w.ins("j 10b")
        assert len(self.consts.values) == n_before, "constant table grew after the dry run"

    def block_bytes(self):
        return self.consts.scratch_offset() + 4 * self.k.mr * self.k.nr
