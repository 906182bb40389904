"""The fused epilogue of the NVIDIA GEMM kernels (wgmma and mma.sync).

The kernels hold C's tile in fp32 accumulator registers, each thread a set
of row slots (rows it owns) times column groups (two neighbouring columns,
or one where N is odd). With an epilogue the store path becomes, per column
group and then per row slot:

    x = acc (+ C_old when accumulating), then each step, then C = x

in fp32 registers, before the conversion to the output type; C is written
once. The steps are epilogue.py's (the same spec field and parser as the
CPU emitters); tanh and erf are the same odd rational approximations, with
the same operations in the same order and explicit rounding (`.rn`, so
ptxas contracts no multiply and add into an fma the CPU kernels do not
use), and division correctly rounded (div.rn), so the results match the
x86 kernel's up to the order of the GEMM's own sums.

Operands: the bias (bias_n: N values, bias_m: M values) and the residual R
(M x N, row stride N) have C's element type and are kernel parameters. A
bias along N is loaded once per column group (used for every row slot), a
bias along M once per row slot and tile. Edges: every load and store is
predicated on row < M and column < N (rows are clamped to M - 1 for the
address, as the plain store path does), so nothing past the matrices is
read or written.
"""

import struct

from .epilogue import (
    ERF_CLAMP, ERF_P, ERF_Q, GELU_CUBIC, SQRT_2_OVER_PI, TANH_CLAMP, TANH_P,
    TANH_Q, parse_epilogue)
from .nvidia_ptx import ELEM_BYTES, out_store

__all__ = ["parse_epilogue", "PtxEpilogue", "f32_imm"]


def f32_imm(value):
    """A PTX f32 immediate of `value` rounded to fp32 (0fXXXXXXXX)."""
    return "0f%08X" % struct.unpack("<I", struct.pack("<f", float(value)))[0]


class PtxEpilogue:
    """Emits the epilogue store of one kernel; registers start with %qz."""

    def __init__(self, body, steps, c_dtype, m, n, accumulate, param_index):
        self.b = body
        self.steps = steps
        self.cdt = c_dtype
        self.oes = ELEM_BYTES[c_dtype]
        self.m, self.n = m, n
        self.accumulate = accumulate
        self.bias_kind = next((s.kind for s in steps if s.kind in ("bias_n", "bias_m")), None)
        self.has_residual = any(s.kind == "residual" for s in steps)
        # Kernel parameters the epilogue adds after the kernel's own.
        self.params = []
        self.operand = {}
        if self.bias_kind:
            self.operand["bias"] = "$%d" % (param_index + len(self.params))
            self.params.append({"name": "bias", "kind": "ptr"})
        if self.has_residual:
            self.operand["R"] = "$%d" % (param_index + len(self.params))
            self.params.append({"name": "R", "kind": "ptr"})

    # ------------------------------------------------------------ setup
    def declare(self, row_slots):
        R = self.b.reg
        R("b64", "%qzbias"), R("b64", "%qzres"), R("b64", "%qzaddr"), R("b64", "%qzbn")
        R("b64", "%qzrow", row_slots)
        R("pred", "%qzpr", row_slots)
        R("pred", "%qzpc", 2), R("pred", "%qzok")
        R("b32", "%qzt"), R("b32", "%qzw")
        R("b16", "%qzh", 2)
        R("f32", "%qzx", 2), R("f32", "%qzb", 2), R("f32", "%qzr", 2)
        R("f32", "%qzbm", row_slots)
        R("f32", "%qzu"), R("f32", "%qzu2"), R("f32", "%qzp"), R("f32", "%qzq")

    def load_operands(self):
        """Once per kernel: the operand pointers."""
        if "bias" in self.operand:
            self.b.ins("mov.b64 %%qzbias, %s" % self.operand["bias"])
        if "R" in self.operand:
            self.b.ins("mov.b64 %%qzres, %s" % self.operand["R"])

    # ------------------------------------------------------------ loads
    def _load(self, addr, offset, dst, pred, count):
        """dst[0..count) = `count` values of C's type at [addr+offset] under
        `pred` (zero where it is false)."""
        b, guard = self.b, "@%s " % pred
        for d in dst[:count]:
            b.ins("mov.f32 %s, 0f00000000" % d)
        if self.cdt == "f32":
            if count == 2:
                b.ins("%sld.global.v2.f32 {%s, %s}, [%s+%d]" % (guard, dst[0], dst[1], addr, offset))
            else:
                b.ins("%sld.global.f32 %s, [%s+%d]" % (guard, dst[0], addr, offset))
            return
        if count == 2:
            b.ins("mov.b32 %qzw, 0")
            b.ins("%sld.global.b32 %%qzw, [%s+%d]" % (guard, addr, offset))
            b.ins("mov.b32 {%qzh0, %qzh1}, %qzw")
        else:
            b.ins("mov.b16 %qzh0, 0")
            b.ins("%sld.global.b16 %%qzh0, [%s+%d]" % (guard, addr, offset))
        for i in range(count):
            b.ins("cvt.f32.%s %s, %%qzh%d" % (self.cdt, dst[i], i))

    # ------------------------------------------------------------ math
    def _rational(self, src, dst, clamp, p_coefs, q_coefs):
        """dst = src*P(src^2)/Q(src^2) on src clamped to [-clamp, clamp]
        (src is clobbered); the x86 kernel's operation order."""
        b = self.b
        b.ins("max.f32 %s, %s, %s" % (src, src, f32_imm(-clamp)))
        b.ins("min.f32 %s, %s, %s" % (src, src, f32_imm(clamp)))
        b.ins("mul.rn.f32 %%qzu2, %s, %s" % (src, src))
        for reg, coefs in (("%qzp", p_coefs), ("%qzq", q_coefs)):
            b.ins("mov.f32 %s, %s" % (reg, f32_imm(coefs[-1])))
            for c in reversed(coefs[:-1]):
                b.ins("fma.rn.f32 %s, %s, %%qzu2, %s" % (reg, reg, f32_imm(c)))
        b.ins("mul.rn.f32 %%qzp, %s, %%qzp" % src)
        b.ins("div.rn.f32 %s, %%qzp, %%qzq" % dst)

    def _half_plus_half(self, reg):
        self.b.ins("mul.rn.f32 %s, %s, %s" % (reg, reg, f32_imm(0.5)))
        self.b.ins("add.rn.f32 %s, %s, %s" % (reg, reg, f32_imm(0.5)))

    def _steps(self, x, lane, slot):
        """Applies the steps to register `x` (value `lane` of the group,
        row slot `slot`)."""
        b = self.b
        for s in self.steps:
            if s.kind == "bias_n":
                b.ins("add.rn.f32 %s, %s, %%qzb%d" % (x, x, lane))
            elif s.kind == "bias_m":
                b.ins("add.rn.f32 %s, %s, %%qzbm%d" % (x, x, slot))
            elif s.kind == "residual":
                b.ins("add.rn.f32 %s, %s, %%qzr%d" % (x, x, lane))
            elif s.kind == "scale":
                b.ins("mul.rn.f32 %s, %s, %s" % (x, x, f32_imm(s.args[0])))
            elif s.kind == "relu":
                b.ins("max.f32 %s, %s, 0f00000000" % (x, x))
            elif s.kind == "clamp":
                b.ins("max.f32 %s, %s, %s" % (x, x, f32_imm(s.args[0])))
                b.ins("min.f32 %s, %s, %s" % (x, x, f32_imm(s.args[1])))
            elif s.kind == "tanh":
                b.ins("mov.f32 %%qzu, %s" % x)
                self._rational("%qzu", x, TANH_CLAMP, TANH_P, TANH_Q)
            elif s.kind in ("sigmoid", "silu"):
                # sigmoid(x) = 0.5 + 0.5 tanh(x / 2)
                b.ins("mul.rn.f32 %%qzu, %s, %s" % (x, f32_imm(0.5)))
                self._rational("%qzu", "%qzp", TANH_CLAMP, TANH_P, TANH_Q)
                self._half_plus_half("%qzp")
                if s.kind == "silu":
                    b.ins("mul.rn.f32 %s, %%qzp, %s" % (x, x))
                else:
                    b.ins("mov.f32 %s, %%qzp" % x)
            elif s.kind == "gelu_tanh":
                # u = sqrt(2/pi) (x + 0.044715 x^3) = x (k0 + k0 k1 x^2)
                b.ins("mul.rn.f32 %%qzu, %s, %s" % (x, x))
                b.ins("mul.rn.f32 %%qzu, %%qzu, %s" % f32_imm(SQRT_2_OVER_PI * GELU_CUBIC))
                b.ins("add.rn.f32 %%qzu, %%qzu, %s" % f32_imm(SQRT_2_OVER_PI))
                b.ins("mul.rn.f32 %%qzu, %s, %%qzu" % x)
                self._rational("%qzu", "%qzp", TANH_CLAMP, TANH_P, TANH_Q)
                self._half_plus_half("%qzp")
                b.ins("mul.rn.f32 %s, %%qzp, %s" % (x, x))
            elif s.kind == "gelu_erf":
                b.ins("mul.rn.f32 %%qzu, %s, %s" % (x, f32_imm(1.0 / 2.0 ** 0.5)))
                self._rational("%qzu", "%qzp", ERF_CLAMP, ERF_P, ERF_Q)
                self._half_plus_half("%qzp")
                b.ins("mul.rn.f32 %s, %%qzp, %s" % (x, x))
            else:  # parse_epilogue admits only the kinds above
                raise AssertionError(s.kind)

    # ------------------------------------------------------------ the store
    def store(self, row0, col0, row_offsets, col_offsets, acc, pair, c_ptr, write=True):
        """The epilogue store of one tile.

        row0 / col0: registers holding the thread's first row and column;
        row_offsets / col_offsets: the row slots and column groups relative
        to them; acc(slot, group) -> [reg, reg] (the group's two columns);
        pair: the group's two columns are stored together (N even);
        c_ptr: the 64-bit register holding C's address; write: store the
        results to C (else they stay in the accumulator registers for a store
        through shared memory: nvidia_smem_store.py).
        """
        b, oes, n = self.b, self.oes, self.n
        # Per row slot: the predicate row < M, the byte offset of
        # (row, col0) in C and R, the row's bias.
        for slot, off in enumerate(row_offsets):
            b.ins("add.u32 %%qzt, %s, %d" % (row0, off))
            b.ins("setp.lt.u32 %%qzpr%d, %%qzt, %d" % (slot, self.m))
            b.ins("min.u32 %%qzt, %%qzt, %d" % (self.m - 1))
            if self.bias_kind == "bias_m":
                b.ins("mul.wide.u32 %%qzaddr, %%qzt, %d" % oes)
                b.ins("add.s64 %qzaddr, %qzaddr, %qzbias")
                self._load("%qzaddr", 0, ["%%qzbm%d" % slot], "%%qzpr%d" % slot, 1)
            b.ins("mad.lo.u32 %%qzt, %%qzt, %d, %s" % (n, col0))
            b.ins("mul.wide.u32 %%qzrow%d, %%qzt, %d" % (slot, oes))
        if self.bias_kind == "bias_n":
            b.ins("mul.wide.u32 %%qzbn, %s, %d" % (col0, oes))
            b.ins("add.s64 %qzbn, %qzbn, %qzbias")
        for group, coff in enumerate(col_offsets):
            # column predicates: col < N (and col + 1 < N when single)
            b.ins("add.u32 %%qzt, %s, %d" % (col0, coff))
            b.ins("setp.lt.u32 %%qzpc0, %%qzt, %d" % n)
            if not pair:
                b.ins("setp.lt.u32 %%qzpc1, %%qzt, %d" % (n - 1))
            if self.bias_kind == "bias_n":
                if pair:
                    self._load("%qzbn", coff * oes, ["%qzb0", "%qzb1"], "%qzpc0", 2)
                else:
                    self._load("%qzbn", coff * oes, ["%qzb0"], "%qzpc0", 1)
                    self._load("%qzbn", (coff + 1) * oes, ["%qzb1"], "%qzpc1", 1)
            for slot in range(len(row_offsets)):
                vals = acc(slot, group)
                b.ins("add.s64 %%qcrow, %s, %%qzrow%d" % (c_ptr, slot))
                if pair:
                    b.ins("and.pred %%qzok, %%qzpc0, %%qzpr%d" % slot)
                    self._group_pair(vals, slot, coff, write)
                else:
                    self._group_single(vals, slot, coff, write)

    def _group_pair(self, vals, slot, coff, write=True):
        b, oes = self.b, self.oes
        off = coff * oes
        if self.accumulate:
            self._load("%qcrow", off, ["%qzx0", "%qzx1"], "%qzok", 2)
            for i in range(2):
                b.ins("add.rn.f32 %s, %s, %%qzx%d" % (vals[i], vals[i], i))
        if self.has_residual:
            b.ins("add.s64 %%qzaddr, %%qzres, %%qzrow%d" % slot)
            self._load("%qzaddr", off, ["%qzr0", "%qzr1"], "%qzok", 2)
        for i in range(2):
            self._steps(vals[i], i, slot)
        if write:
            out_store(b, self.cdt, "%qcrow", off, vals, "%qzok")

    def _group_single(self, vals, slot, coff, write=True):
        """N odd: each column of the group on its own (4-byte alignment of
        a pair is not given)."""
        b, oes = self.b, self.oes
        for i in range(2):
            off = (coff + i) * oes
            b.ins("and.pred %%qzok, %%qzpc%d, %%qzpr%d" % (i, slot))
            if self.accumulate:
                self._load("%qcrow", off, ["%qzx0"], "%qzok", 1)
                b.ins("add.rn.f32 %s, %s, %%qzx0" % (vals[i], vals[i]))
            if self.has_residual:
                b.ins("add.s64 %%qzaddr, %%qzres, %%qzrow%d" % slot)
                self._load("%qzaddr", off, ["%%qzr%d" % i], "%qzok", 1)
            self._steps(vals[i], i, slot)
            if write:
                out_store(b, self.cdt, "%qcrow", off, [vals[i]], "%qzok")
