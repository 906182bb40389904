"""The fused epilogue of the x86 GEMM microkernel (x86_gemm_fma.py).

After the last K panel the kernel spills its accumulators to the scratch
tile of the epilogue block (operand $7, layout in epilogue.py), which frees
every vector register, then for each row r < m_rem and vector v: loads the
accumulator, adds C, applies the steps and stores C once (masked at the N
edge). The spill costs 2 L1 accesses per accumulator per call, against
mr*nr*kc FMAs; in exchange no tile is too large for GELU's temporaries.

With an output step (to_bf16 / to_f16, the last step; AVX-512 only) the
rounded value goes to the output tile instead of C: its address and row
stride come from the block's header (bytes 24 and 32) into the A-panel
operand's register ($0, free after the K loop), 16 elements per vector
(vcvtneps2bf16 / vcvtps2ph, then a masked vmovdqu16). C (the fp32 partial
sums of earlier K blocks) is read but not written; with c_update "store"
it is not read either.
"""

import math

from .epilogue import (
    ConstantTable, ERF_CLAMP, ERF_P, ERF_Q, EXP2_P, GELU_CUBIC, SQRT_2_OVER_PI,
    TANH_CLAMP, TANH_P, TANH_Q,
)

BLOCK = "$7"
OUT_GPR = "$0"  # the A panel's operand, free once the K loop is done
BIAS_GPR = "%r11"
RESIDUAL_GPR = "%rax"


def _mem(disp, base):
    return "%d(%s)" % (disp, base) if disp else "(%s)" % base


class X86Epilogue:
    """Emits the epilogue C update for one Kernel (x86_gemm_fma.Kernel)."""

    def __init__(self, kernel, steps):
        self.k = kernel
        self.steps = steps
        self.consts = ConstantTable()
        vr = kernel.vreg
        self._use_registers(0)
        # AVX2 edge masks, one per vector of the tile.
        self.masks = ["%%%s%d" % (vr, 6 + v) for v in range(kernel.nv)]
        self.has_bias = any(s.kind in ("bias_n", "bias_m") for s in steps)
        self.has_residual = any(s.kind == "residual" for s in steps)
        self.out = steps[-1].kind if steps and steps[-1].kind in ("to_bf16", "to_f16") \
            else None

    # AVX-512: the vectors of a row go through the steps together, their
    # instructions interleaved one by one, each vector with its own 6
    # registers. One vector at a time is a chain of ~25 dependent
    # instructions (GELU, SiLU, tanh), and the out-of-order window holds
    # too few of the next vectors' to hide its latency: the fused epilogue
    # was slower than the same steps as a separate vectorized loop.
    GROUP = 4

    def group(self):
        return min(self.GROUP, self.k.nv) if self.k.isa == "avx512" else 1

    def vector_registers(self):
        return 6 * self.group() + (self.k.nv if self.k.isa == "avx2" else 0)

    def _use_registers(self, slot):
        """Points x, u, u2, p, q, t at slot `slot`'s six registers."""
        vr = self.k.vreg
        self.x, self.u, self.u2, self.p, self.q, self.t = (
            "%%%s%d" % (vr, 6 * slot + i) for i in range(6))

    def gprs(self):
        """Scratch GPRs besides rax (the kernel's own)."""
        return ["r11"] if self.has_bias or self.k.isa == "avx2" else []

    # ------------------------------------------------------------ helpers
    def _k(self, value):
        return _mem(self.consts.offset(value), BLOCK)

    def _add_mem(self, w, mem, mask):
        """x += the vector at `mem` (lanes past n_rem neither read nor used)."""
        if mask is None:
            w.ins("vaddps %s, %s, %s" % (mem, self.x, self.x))
        elif self.k.isa == "avx512":
            w.ins("vaddps %s, %s, %s {%s}" % (mem, self.x, self.x, mask))
        else:
            w.ins("vmaskmovps %s, %s, %s" % (mem, mask, self.t))
            w.ins("vaddps %s, %s, %s" % (self.t, self.x, self.x))

    def _rational(self, w, src, dst, clamp, p_coefs, q_coefs):
        """dst = src*P(src^2)/Q(src^2) on src clamped to [-clamp, clamp];
        src is clobbered."""
        u, u2, p, q = src, self.u2, self.p, self.q
        w.ins("vmaxps %s, %s, %s" % (self._k(-clamp), u, u))
        w.ins("vminps %s, %s, %s" % (self._k(clamp), u, u))
        w.ins("vmulps %s, %s, %s" % (u, u, u2))
        for reg, coefs in ((p, p_coefs), (q, q_coefs)):
            w.ins("vmovups %s, %s" % (self._k(coefs[-1]), reg))
            for c in reversed(coefs[:-1]):
                w.ins("vfmadd213ps %s, %s, %s" % (self._k(c), u2, reg))
        w.ins("vmulps %s, %s, %s" % (u, p, p))
        w.ins("vdivps %s, %s, %s" % (q, p, dst))

    def _exp2(self, w, t, n, p):
        """p = 2^t (t clobbered, n = round(t)): 2^f * 2^n with f = t - n in
        [-0.5, 0.5], 2^f = 1 + f*P(f) (EXP2_P), vscalefps for 2^n (inf or
        0 where t is out of range)."""
        w.ins("vrndscaleps $$0, %s, %s" % (t, n))  # imm 0: nearest even
        w.ins("vsubps %s, %s, %s" % (n, t, t))
        w.ins("vmovups %s, %s" % (self._k(EXP2_P[0]), p))
        for coef in EXP2_P[1:]:
            w.ins("vfmadd213ps %s, %s, %s" % (self._k(coef), t, p))
        w.ins("vfmadd213ps %s, %s, %s" % (self._k(1.0), t, p))
        w.ins("vscalefps %s, %s, %s" % (n, p, p))

    def _sigmoid_exp2(self, w, silu):
        """sigmoid(x) = 1 / (1 + e^(-x)) (SiLU: x / (1 + e^(-x))) with
        e^(-x) = 2^t, t = -x log2(e) (_exp2): 13 instructions for SiLU
        where 0.5 + 0.5 tanh(x/2) through the rational tanh takes 21."""
        x, t, n, p = self.x, self.u, self.q, self.p
        w.ins("vmulps %s, %s, %s" % (self._k(-1.0 / math.log(2.0)), x, t))
        self._exp2(w, t, n, p)
        w.ins("vaddps %s, %s, %s" % (self._k(1.0), p, p))
        if silu:
            w.ins("vdivps %s, %s, %s" % (p, x, x))
        else:
            w.ins("vmovups %s, %s" % (self._k(1.0), x))
            w.ins("vdivps %s, %s, %s" % (p, x, x))

    def _gelu_tanh_exp2(self, w):
        """x = 0.5 x (1 + tanh(u)) as x / (1 + e^(-2u)), the same function
        (1 + tanh(u) = 2 / (1 + e^(-2u))), with e^(-2u) = 2^t, t = -2u
        log2(e), computed as 2^f * 2^n (n = round(t), f = t - n in [-0.5,
        0.5], 2^f = 1 + f*P(f): EXP2_P; vscalefps applies 2^n, giving inf or
        0 where t is out of range, so x / inf = 0 and x / 1 = x at the
        ends: no clamp). 16 instructions where the rational tanh takes 23
        and its division too: GELU's cost is most of a small-K fused GEMM
        (docs/benchmarks/models.md). Relative error of the result: a few
        fp32 ulp (2e-9 in the polynomial, 1e-7 per rounding)."""
        x, t, n, p = self.x, self.u, self.q, self.p
        c = -2.0 * SQRT_2_OVER_PI / math.log(2.0)
        # t = x * (c + c k1 x^2)
        w.ins("vmulps %s, %s, %s" % (x, x, t))
        w.ins("vmulps %s, %s, %s" % (self._k(c * GELU_CUBIC), t, t))
        w.ins("vaddps %s, %s, %s" % (self._k(c), t, t))
        w.ins("vmulps %s, %s, %s" % (x, t, t))
        self._exp2(w, t, n, p)
        w.ins("vaddps %s, %s, %s" % (self._k(1.0), p, p))
        w.ins("vdivps %s, %s, %s" % (p, x, x))

    def _half_plus_half(self, w, reg):
        """reg = 0.5 * reg + 0.5"""
        w.ins("vmulps %s, %s, %s" % (self._k(0.5), reg, reg))
        w.ins("vaddps %s, %s, %s" % (self._k(0.5), reg, reg))

    def _steps(self, w, r, v, mask):
        x, u, p = self.x, self.u, self.p
        vb = self.k.vbytes
        for s in self.steps:
            if s.kind == "bias_n":
                self._add_mem(w, _mem(v * vb, BIAS_GPR), mask)
            elif s.kind == "bias_m":
                if self.k.isa == "avx512":
                    w.ins("vaddps %s{1to16}, %s, %s" % (_mem(4 * r, BIAS_GPR), x, x))
                else:
                    w.ins("vbroadcastss %s, %s" % (_mem(4 * r, BIAS_GPR), self.t))
                    w.ins("vaddps %s, %s, %s" % (self.t, x, x))
            elif s.kind == "residual":
                self._add_mem(w, _mem(v * vb, RESIDUAL_GPR), mask)
            elif s.kind == "scale":
                w.ins("vmulps %s, %s, %s" % (self._k(s.args[0]), x, x))
            elif s.kind == "relu":
                w.ins("vmaxps %s, %s, %s" % (self._k(0.0), x, x))
            elif s.kind == "clamp":
                w.ins("vmaxps %s, %s, %s" % (self._k(s.args[0]), x, x))
                w.ins("vminps %s, %s, %s" % (self._k(s.args[1]), x, x))
            elif s.kind == "tanh":
                w.ins("vmovaps %s, %s" % (x, u))
                self._rational(w, u, x, TANH_CLAMP, TANH_P, TANH_Q)
            elif s.kind in ("sigmoid", "silu") and self.k.isa == "avx512":
                self._sigmoid_exp2(w, silu=s.kind == "silu")
            elif s.kind in ("sigmoid", "silu"):
                # sigmoid(x) = 0.5 + 0.5 tanh(x / 2)
                w.ins("vmulps %s, %s, %s" % (self._k(0.5), x, u))
                self._rational(w, u, p, TANH_CLAMP, TANH_P, TANH_Q)
                self._half_plus_half(w, p)
                if s.kind == "silu":
                    w.ins("vmulps %s, %s, %s" % (p, x, x))
                else:
                    w.ins("vmovaps %s, %s" % (p, x))
            elif s.kind == "gelu_tanh" and self.k.isa == "avx512":
                self._gelu_tanh_exp2(w)
            elif s.kind == "gelu_tanh":
                # u = sqrt(2/pi) * (x + 0.044715 x^3) = x * (k0 + k0 k1 x^2)
                w.ins("vmulps %s, %s, %s" % (x, x, u))
                w.ins("vmulps %s, %s, %s" % (self._k(SQRT_2_OVER_PI * GELU_CUBIC), u, u))
                w.ins("vaddps %s, %s, %s" % (self._k(SQRT_2_OVER_PI), u, u))
                w.ins("vmulps %s, %s, %s" % (x, u, u))
                self._rational(w, u, p, TANH_CLAMP, TANH_P, TANH_Q)
                self._half_plus_half(w, p)
                w.ins("vmulps %s, %s, %s" % (p, x, x))
            elif s.kind in ("to_bf16", "to_f16"):
                pass  # the store rounds (_store_out)
            elif s.kind == "gelu_erf":
                w.ins("vmulps %s, %s, %s" % (self._k(1.0 / 2.0 ** 0.5), x, u))
                self._rational(w, u, p, ERF_CLAMP, ERF_P, ERF_Q)
                self._half_plus_half(w, p)
                w.ins("vmulps %s, %s, %s" % (p, x, x))
            else:  # parse_epilogue admits only the kinds above
                raise AssertionError(s.kind)

    def _vector(self, w, r, v, mask, scratch):
        """Row r's vector v: the accumulator (+ C), the steps, the store."""
        k = self.k
        w.ins("vmovups %s, %s" % (scratch(r, v), self.x))
        if not k.store:
            self._add_mem(w, _mem(v * k.vbytes, k.c_operand), mask)
        self._steps(w, r, v, mask)
        if self.out:
            self._store_out(w, v, mask)
            return
        dst = _mem(v * k.vbytes, k.c_operand)
        if mask is None:
            w.ins("vmovups %s, %s" % (self.x, dst))
        elif k.isa == "avx512":
            w.ins("vmovups %s, %s {%s}" % (self.x, dst, mask))
        else:
            w.ins("vmaskmovps %s, %s, %s" % (self.x, mask, dst))

    def _rows(self, w, masks, scratch):
        k = self.k
        g = self.group()
        for r in range(k.mr):
            for v0 in range(0, k.nv, g):
                # Each vector of the group into its own list, with its own
                # registers, then the lists merged round-robin (same-length
                # sequences: the same steps).
                parts = []
                for slot, v in enumerate(range(v0, min(v0 + g, k.nv))):
                    self._use_registers(slot)
                    part = type(w)(w.indent)
                    self._vector(part, r, v, masks[v] if masks else None, scratch)
                    parts.append(part.lines)
                self._use_registers(0)
                for i in range(max(len(lines) for lines in parts)):
                    for lines in parts:
                        if i < len(lines):
                            w.lines.append(lines[i])
            if r + 1 < k.mr:
                w.ins("sub $$1, %s" % k.mrem_operand)
                w.ins("jz 9f")
                w.ins("add %s, %s" % (k.ldc_operand, k.c_operand))
                if self.has_residual:
                    w.ins("add 16(%s), %s" % (BLOCK, RESIDUAL_GPR))
                if self.out:
                    w.ins("add 32(%s), %s" % (BLOCK, OUT_GPR))

    def _store_out(self, w, v, mask):
        """The 16 lanes of x rounded to nearest even (bf16 or f16) and
        stored to the output row (32 bytes per vector)."""
        half = self.t.replace("zmm", "ymm")
        if self.out == "to_bf16":
            w.ins("vcvtneps2bf16 %s, %s" % (self.x, half))
        else:
            w.ins("vcvtps2ph $$0, %s, %s" % (self.x, half))  # imm 0: nearest even
        dst = _mem(32 * v, OUT_GPR)
        if mask is None:
            w.ins("vmovdqu %s, %s" % (half, dst))
        else:
            w.ins("vmovdqu16 %s, %s {%s}" % (half, dst, mask))

    def _load_pointers(self, w):
        if self.out:
            w.ins("mov 24(%s), %s" % (BLOCK, OUT_GPR))
        if self.has_bias:
            w.ins("mov (%s), %s" % (BLOCK, BIAS_GPR))
        if self.has_residual:
            w.ins("mov 8(%s), %s" % (BLOCK, RESIDUAL_GPR))

    # Tiles ahead (along the row, nr columns each) whose residual lines are
    # prefetched before the K loop.
    RESIDUAL_PREFETCH_TILES = 1

    def prefetch_residual(self, w):
        """prefetcht0 of the residual lines this kernel's epilogue reads
        RESIDUAL_PREFETCH_TILES tiles to the right, before the K loop (%rax
        free there): R is read once, at the tile's end, so without it
        every line is a demand miss on the epilogue's critical path."""
        if not self.has_residual:
            return
        k = self.k
        ahead = self.RESIDUAL_PREFETCH_TILES * k.nr * 4
        w.ins("mov 8(%s), %%rax" % BLOCK)
        for r in range(k.mr):
            for off in range(0, k.nr * 4, 64):
                w.ins("prefetcht0 %s" % _mem(ahead + off, "%rax"))
            if r + 1 < k.mr:
                w.ins("add 16(%s), %%rax" % BLOCK)

    def c_update(self, w, avx512_masks):
        """The epilogue C update; `avx512_masks()` sets and returns the
        per-vector lane masks (AVX-512)."""
        k = self.k
        # The steps' constants come first in the table, so the scratch
        # offset is known before the rows are emitted: a dry run fills it.
        dry = type(w)()
        for r in range(k.mr):
            self._steps(dry, r, 0, None)
        base = self.consts.scratch_offset()
        n_before = len(self.consts.values)

        def scratch(r, v):
            return _mem(base + (r * k.nv + v) * k.vbytes, BLOCK)

        for r in range(k.mr):
            for v in range(k.nv):
                w.ins("vmovups %s, %s" % (k.acc[r][v], scratch(r, v)))
        if k.isa == "avx512":
            masks = avx512_masks(w)
            self._load_pointers(w)
            self._rows(w, masks, scratch)
        else:
            w.ins("cmp $$%d, %s" % (k.nr, k.nrem_operand))
            w.ins("jne 5f")
            self._load_pointers(w)
            self._rows(w, None, scratch)
            w.ins("jmp 9f")
            w.label("5")
            # lane i of mask v is set iff 8v + i < n_rem (built with r11
            # before it holds the bias address)
            iota_x = self.t.replace("ymm", "xmm")
            w.ins("movabs $$0x0706050403020100, %r11")
            w.ins("vmovq %%r11, %s" % iota_x)
            w.ins("vpmovzxbd %s, %s" % (iota_x, self.t))
            for v in range(k.nv):
                mx = self.masks[v].replace("ymm", "xmm")
                w.ins("lea %d(%s), %%r11" % (-8 * v, k.nrem_operand))
                w.ins("vmovq %%r11, %s" % mx)
                w.ins("vpbroadcastd %s, %s" % (mx, self.masks[v]))
                w.ins("vpcmpgtd %s, %s, %s" % (self.t, self.masks[v], self.masks[v]))
            self._load_pointers(w)
            self._rows(w, self.masks, scratch)
        assert len(self.consts.values) == n_before, "constant table grew after the dry run"

    def block_bytes(self):
        k = self.k
        return self.consts.scratch_offset() + k.mr * k.nv * k.vbytes
