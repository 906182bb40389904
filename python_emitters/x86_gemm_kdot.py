#!/usr/bin/env python3
"""x86 fp32 GEMM microkernel emitter for few columns: vectorized along K (AVX-512 zmm).

Each zmm holds 16 consecutive k values of one row of A or of one column of
B, so an mr x nr tile keeps mr*nr accumulators of 16 partial dot products
and reduces them horizontally once, after all of K.  This is the kernel for
C with few columns (N <= 8 or so): the broadcast kernels of x86_gemm_fma
vectorize along N, and with N = 6 ten of a zmm's sixteen lanes would
multiply nothing.
Reads a JSON spec, prints a JSON object describing an LLVM inline-asm block
(or, with --format=function, a standalone AT&T .s file for testing).
Run with --help for the spec and output contract.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tensorop_emit.common import (  # noqa: E402
    AsmWriter,
    SpecError,
    UKERNEL_OPERANDS,
    check_known_fields,
    get_choice,
    get_int,
    get_str,
    llvm_constraints,
    run_emitter,
    substitute_operands,
    ukernel_operand_refs,
)
from tensorop_emit.x86_rows import RuntimeRows  # noqa: E402

EMITTER = "x86_gemm_kdot.py"
EMITTER_VERSION = 1

OPERANDS = list(UKERNEL_OPERANDS)
A, B, C, KC, LDC, MREM, NREM = ukernel_operand_refs()

FUNCTION_ARG_REGS = ["%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9", "%r10"]
SCRATCH_GPRS = ["rax", "r11"]

LANES = 16
NREGS = 32
# Largest row stride of A or B; (rows - 1) strides must fit disp32.
MAX_STRIDE = 1 << 24
MAX_PREFETCH_AHEAD = 1 << 16

SPEC_FIELDS = ("kernel", "isa", "mr", "nr", "k_unroll", "broadcast", "prefetch_b",
               "prefetch_a", "a_stride_bytes", "a_stride_operand", "b_stride_bytes", "c_update",
               "format", "symbol")

HELP_EPILOG = r"""
spec (JSON object, on stdin or --spec FILE):
  kernel      "gemm_f32"                     required
  isa         "avx512"                       required (AVX2 kernels: not yet)
  mr          rows of the C tile (>= 1)      required
  nr          columns of the C tile, 1..16   required
  k_unroll    1..8                           default 2; 16-k vectors per
                                             iteration of the K loop
  broadcast   "none"                         default "none" (nothing is
                                             broadcast; the field is accepted
                                             so that a sketch's request reads
                                             as for x86_gemm_fma)
  prefetch_b  0                              default 0 (B is small and cached)
  prefetch_a  0..65536                       default 0; prefetcht0 of each
                                             row of A this many k values ahead
  a_stride_bytes  4..2^24, multiple of 4     required (unless
                                             a_stride_operand): A's row stride
  a_stride_operand 0 | 1                     default 0; 1: A's row stride is
                                             known only at run time, in bytes,
                                             in operand $7 ("lda_bytes"); rows
                                             are indexed by it (and 3x it, in
                                             %r11), %rax walking groups of 4
                                             rows (one lea a group per step)
  b_stride_bytes  4..2^24, multiple of 4     required: the row stride of
                                             B transposed (one row per column)
  c_update    "add" | "store"                default "add": C += A*B; "store":
                                             C = A*B (C is not read; kc <= 0
                                             stores zeros)
  format      "json" | "function"            default "json"
  symbol      function name for "function"   default: the kernel name

register budget: mr*nr accumulators + nr B vectors + 1 or 2 A vectors
<= 32 zmm; where that does not fit, mr*nr + mr A vectors + 2 B vectors
<= 32 (B streams through two registers: "A held").

Kernel semantics, operands $0..$6 = a, b, c, kc, ldc_bytes, m_rem, n_rem
(64-bit integer registers, each tied in/out; the body modifies them):
  A(r,k) = f32 at a + r*a_stride_bytes + 4*k   (rows r < m_rem are read)
  B(k,j) = f32 at b + j*b_stride_bytes + 4*k   (B stored transposed, N x K:
           all nr rows j < nr are read, whatever n_rem)
  for r < m_rem, j < n_rem:  C[r][j] += sum_{k<kc} A(r,k)*B(k,j)
  ("store": C[r][j] = ...), C[r][j] at c + r*ldc_bytes + 4*j.
  K is read in vectors of 16; the last kc mod 16 values with masked,
  fault-suppressing loads, so nothing past A(r, kc-1) or B(kc-1, j) is read.
  Nothing outside [m_rem) x [n_rem) of C is read or written.  kc <= 0
  leaves C untouched ("add") or stores zeros ("store"); m_rem <= 0 or
  n_rem <= 0 leaves C untouched.  1 <= m_rem <= mr, 1 <= n_rem <= nr.
  Pointers need only 4-byte alignment.

output (--format=json): {"name", "isa", "mr", "nr", "dialect": "att", "asm",
  "operands", "constraints", "clobbers", "vector_registers_used",
  "accumulators", "flops_per_k", "emitter", "emitter_version", "k_unroll",
  "broadcast", "prefetch_b", "b_stride_bytes", "a_stride_bytes"}.
output (--format=function [--symbol NAME]): a standalone AT&T .s file with
  void NAME(const float *a, const float *b, float *c, long kc, long ldc_bytes,
            long m_rem, long n_rem)   (SysV ABI; for tests and benchmarks)

errors: exit status 2, one line on stderr naming the field, {"error": "..."} on
stdout.
"""


def _mem(disp, base):
    return "%d(%s)" % (disp, base) if disp else "(%s)" % base


def _pow2_at_least(n):
    p = 1
    while p < n:
        p *= 2
    return p


# The horizontal reduction: 16 accumulators ("slots") become one zmm of 16
# sums in four levels, each combining pairs of vectors with two shuffles and
# an add (AT&T operand order: imm, src2, src1, dst).  Level 1 folds 256-bit
# halves, level 2 128-bit lanes, level 3 64-bit pairs, level 4 single floats.
LEVELS = [
    ("vshuff64x2 $$0x44", "vshuff64x2 $$0xee"),
    ("vshuff32x4 $$0x88", "vshuff32x4 $$0xdd"),
    ("vunpcklpd", "vunpckhpd"),
    ("vshufps $$0x88", "vshufps $$0xdd"),
]


def _op(op):
    """`op` as printed: an immediate is the first operand."""
    return op.replace(" ", " ", 1) + "," if " " in op else op


def _shuffle(op, x, y):
    """Lanes of `op` x, y (Intel order: dst, x, y) on vectors of lane labels."""
    name = op.split()[0]
    imm = int(op.split()[1].replace("$$", ""), 16) if " " in op else None
    out = [None] * LANES
    if name in ("vshuff64x2", "vshuff32x4"):
        for lane in range(4):
            src = x if lane < 2 else y
            sel = (imm >> (2 * lane)) & 3
            out[4 * lane:4 * lane + 4] = src[4 * sel:4 * sel + 4]
    elif name in ("vunpcklpd", "vunpckhpd"):
        h = 0 if name == "vunpcklpd" else 2
        for lane in range(4):
            b = 4 * lane
            out[b:b + 4] = x[b + h:b + h + 2] + y[b + h:b + h + 2]
    else:  # vshufps
        for lane in range(4):
            b = 4 * lane
            sel = [(imm >> (2 * i)) & 3 for i in range(4)]
            out[b:b + 4] = [x[b + sel[0]], x[b + sel[1]], y[b + sel[2]], y[b + sel[3]]]
    return out


def _reduction_lanes():
    """slot -> output lane of the reduction tree, checked by simulating it:
    every output lane must hold all 16 lanes of exactly one slot."""
    vecs = [[{(s, lane)} for lane in range(LANES)] for s in range(LANES)]
    for lo, hi in LEVELS:
        nxt = []
        for i in range(0, len(vecs), 2):
            x, y = vecs[i], vecs[i + 1]
            t, u = _shuffle(lo, x, y), _shuffle(hi, x, y)
            nxt.append([t[i2] | u[i2] for i2 in range(LANES)])
        vecs = nxt
    (out,) = vecs
    lane_of = {}
    for lane, terms in enumerate(out):
        slots = {s for s, _ in terms}
        assert len(slots) == 1 and len(terms) == LANES, (lane, terms)
        lane_of[slots.pop()] = lane
    assert sorted(lane_of.values()) == list(range(LANES))
    return lane_of


SLOT_LANE = _reduction_lanes()
LANE_SLOT = {lane: slot for slot, lane in SLOT_LANE.items()}


class Kernel:
    def __init__(self, spec):
        check_known_fields(spec, SPEC_FIELDS)
        kernel = get_str(spec, "kernel")
        if kernel != "gemm_f32":
            raise SpecError("kernel", 'must be "gemm_f32", got "%s"' % kernel)
        self.isa = get_choice(spec, "isa", ("avx512", "avx2"))
        if self.isa != "avx512":
            # The K tail needs fault-suppressing masked loads and the
            # reduction zmm lane shuffles; an AVX2 form is not written yet.
            raise SpecError("isa", 'x86_gemm_kdot emits "avx512" kernels only, got "%s"'
                            % self.isa)
        self.mr = get_int(spec, "mr", lo=1, hi=32)
        self.nr = get_int(spec, "nr", lo=1, hi=LANES)
        self.ku = get_int(spec, "k_unroll", 2, lo=1, hi=8)
        self.broadcast = get_choice(spec, "broadcast", ("none",), "none")
        self.prefetch_b = get_int(spec, "prefetch_b", 0, lo=0, hi=0)
        self.prefetch_a = get_int(spec, "prefetch_a", 0, lo=0, hi=MAX_PREFETCH_AHEAD)
        # A's rows at a stride known only at run time (a strided view, gen's
        # NAME_ex_ws): addressed through the stride's register, as
        # x86_gemm_fma's a_stride_operand.
        self.a_runtime = get_int(spec, "a_stride_operand", 0, lo=0, hi=1) == 1
        if self.a_runtime:
            if "a_stride_bytes" in spec:
                raise SpecError("a_stride_operand", "a_stride_operand and a_stride_bytes "
                                "exclude each other (the stride is the operand's)")
            self.a_stride = 0
        else:
            self.a_stride = get_int(spec, "a_stride_bytes", lo=4, hi=MAX_STRIDE)
        self.b_stride = get_int(spec, "b_stride_bytes", lo=4, hi=MAX_STRIDE)
        for field, v in (("a_stride_bytes", self.a_stride), ("b_stride_bytes", self.b_stride)):
            if v % 4:
                raise SpecError(field, "must be a multiple of 4, got %d" % v)
        self.store = get_choice(spec, "c_update", ("add", "store"), "add") == "store"
        self.format = get_choice(spec, "format", ("json", "function"), "json")
        self.symbol = spec.get("symbol")
        if self.symbol is not None:
            self.symbol = get_str(spec, "symbol")
        nacc = self.mr * self.nr
        # Two orders of a 16-k step.  "B held": the nr B vectors are loaded
        # once and each row of A streams through one or two registers (two
        # alternate where they fit: the next row's load does not wait for
        # the last FMA on the previous one).  Where the nr B vectors do not
        # fit next to the accumulators (N = 9..14 with 2 or 3 rows), "A
        # held": the mr A vectors stay and B streams through two alternating
        # registers, so that each B load still feeds mr FMAs.
        need = nacc + self.nr + 1
        self.a_held = need > NREGS
        if self.a_held:
            need = nacc + self.mr + 2
        if need > NREGS:
            raise SpecError("mr", "register budget exceeded: mr*nr + nr + 1 = %d (B held) and "
                            "mr*nr + mr + 2 = %d (A held) > %d zmm registers for mr = %d, "
                            "nr = %d (reduce mr or nr)"
                            % (nacc + self.nr + 1, need, NREGS, self.mr, self.nr))
        self.acc = [["%%zmm%d" % (r * self.nr + j) for j in range(self.nr)]
                    for r in range(self.mr)]
        if self.a_held:
            self.na = self.mr
            self.areg = ["%%zmm%d" % (nacc + i) for i in range(self.mr)]
            self.breg = ["%%zmm%d" % (nacc + self.mr + i) for i in range(2)]
            self.nvec_used = nacc + self.mr + 2
        else:
            self.na = 2 if need + 1 <= NREGS else 1
            self.breg = ["%%zmm%d" % (nacc + j) for j in range(self.nr)]
            self.areg = ["%%zmm%d" % (nacc + self.nr + i) for i in range(self.na)]
            self.nvec_used = nacc + self.nr + self.na
        # Rows of one reduced vector: each row's nr sums take nrp lanes.
        self.nrp = _pow2_at_least(self.nr)
        self.rows_per_pack = LANES // self.nrp
        self.nacc = nacc
        self.name = "x86_avx512_f32_kdot_%dx%d_u%d_%s_ldbt%d" % (
            self.mr, self.nr, self.ku,
            "ldar" if self.a_runtime else "lda%d" % self.a_stride, self.b_stride)
        self.operands = OPERANDS + (["lda_bytes"] if self.a_runtime else [])
        self.lda = "$%d" % len(OPERANDS) if self.a_runtime else None
        self.a_rows = RuntimeRows(A, self.lda) if self.a_runtime else None
        if self.prefetch_a:
            self.name += "_pfa%d" % self.prefetch_a
        if self.store:
            self.name += "_st"
        if (self.mr - 1) * self.a_stride + 64 * self.ku + 4 * self.prefetch_a >= 1 << 31 or \
                (self.nr - 1) * self.b_stride + 64 * self.ku >= 1 << 31:
            raise SpecError("a_stride_bytes", "displacements exceed 32 bits")

    # ---------------------------------------------------------------- K loop
    def _a_mem(self, w, r, disp):
        """A(r, 16-k vector at byte offset `disp`) (with a run-time row
        stride: tensorop_emit.x86_rows)."""
        if not self.a_runtime:
            return _mem(disp + r * self.a_stride, A)
        return self.a_rows.mem(w, r, disp)

    def _k_step(self, w, rows, off, masked):
        """16 k values at byte offset `off` of every row of A and B."""
        mask = " {%k1} {z}" if masked else ""
        if self.a_rows:
            self.a_rows.start_step()
        if self.a_held:
            for r in range(rows):
                if self.prefetch_a and not masked:
                    w.ins("prefetcht0 %s" % self._a_mem(w, r, off + 4 * self.prefetch_a))
                w.ins("vmovups %s, %s%s" % (self._a_mem(w, r, off), self.areg[r], mask))
            for j in range(self.nr):
                b = self.breg[j % 2]
                w.ins("vmovups %s, %s%s" % (_mem(off + j * self.b_stride, B), b, mask))
                for r in range(rows):
                    w.ins("vfmadd231ps %s, %s, %s" % (b, self.areg[r], self.acc[r][j]))
            return
        for j in range(self.nr):
            w.ins("vmovups %s, %s%s" % (_mem(off + j * self.b_stride, B), self.breg[j], mask))
        for r in range(rows):
            a = self.areg[r % self.na]
            if self.prefetch_a and not masked:
                w.ins("prefetcht0 %s" % self._a_mem(w, r, off + 4 * self.prefetch_a))
            w.ins("vmovups %s, %s%s" % (self._a_mem(w, r, off), a, mask))
            for j in range(self.nr):
                w.ins("vfmadd231ps %s, %s, %s" % (self.breg[j], a, self.acc[r][j]))

    def _k_loops(self, w, rows):
        """KC holds the number of whole 16-k vectors; %k1 the tail's lanes."""
        ku = self.ku
        for r in range(rows):
            for reg in self.acc[r]:
                w.ins("vpxord %s, %s, %s" % (reg, reg, reg))
        if ku > 1:
            w.ins("sub $$%d, %s" % (ku, KC))
            w.ins("jl 2f")
            w.lines.append("  .p2align 5")
            w.label("1")
            for u in range(ku):
                self._k_step(w, rows, 64 * u, False)
            w.ins("add $$%d, %s" % (64 * ku, A))
            w.ins("add $$%d, %s" % (64 * ku, B))
            w.ins("sub $$%d, %s" % (ku, KC))
            w.ins("jge 1b")
            w.label("2")
            w.ins("add $$%d, %s" % (ku, KC))
        w.ins("test %s, %s" % (KC, KC))
        w.ins("jle 4f")
        w.label("3")
        self._k_step(w, rows, 0, False)
        w.ins("add $$64, %s" % A)
        w.ins("add $$64, %s" % B)
        w.ins("sub $$1, %s" % KC)
        w.ins("jnz 3b")
        w.label("4")
        w.ins("kortestw %k1, %k1")
        w.ins("jz 5f")
        self._k_step(w, rows, 0, True)
        w.label("5")

    # ------------------------------------------------------------- reduction
    def _packs(self, rows):
        """[(first row, rows in pack)] of the reduced vectors."""
        return [(p, min(self.rows_per_pack, rows - p))
                for p in range(0, rows, self.rows_per_pack)]

    def _reduce(self, w, first, count):
        """Reduces rows [first, first+count) into one zmm (returned): row
        first+q's sum for column j in lane q*nrp + j."""
        slots = [None] * LANES
        for q in range(count):
            for j in range(self.nr):
                slots[LANE_SLOT[q * self.nrp + j]] = self.acc[first + q][j]
        tmp = self.areg[0]
        vecs = slots
        for lo, hi in LEVELS:
            nxt = []
            for i in range(0, len(vecs), 2):
                x, y = vecs[i], vecs[i + 1]
                if x is None and y is None:
                    nxt.append(None)
                    continue
                if x is None:
                    x, y = y, y
                elif y is None:
                    y = x
                # tmp = lo(x, y); y = hi(x, y); x = tmp + y
                w.ins("%s %s, %s, %s" % (_op(lo), y, x, tmp))
                w.ins("%s %s, %s, %s" % (_op(hi), y, x, y))
                w.ins("vaddps %s, %s, %s" % (y, tmp, x))
                nxt.append(x)
            vecs = nxt
        return vecs[0]

    def _c_update(self, w, rows):
        """C rows are N floats apart: a row's masked load would overlap the
        previous row's masked store (a store-forwarding stall per row), so
        every row is loaded before any is stored."""
        packs = [(first, count, self._reduce(w, first, count))
                 for first, count in self._packs(rows)]
        passes = ["store"] if self.store else ["load", "store"]
        for what in passes:
            w.ins("mov %s, %%rax" % C)
            for first, count, vec in packs:
                for q in range(count):
                    r = first + q
                    if r:
                        w.ins("add %s, %%rax" % LDC)
                    shift = q * self.nrp
                    k = "%k2"
                    if shift:
                        w.ins("kshiftlw $$%d, %%k2, %%k3" % shift)
                        k = "%k3"
                    # The row's lanes start at `shift`: the address moves
                    # back by as many floats (masked-off lanes never fault).
                    mem = _mem(-4 * shift, "%rax")
                    if what == "load":
                        w.ins("vaddps %s, %s, %s {%s}" % (mem, vec, vec, k))
                    else:
                        w.ins("vmovups %s, %s {%s}" % (vec, mem, k))

    # --------------------------------------------------------------- output
    def asm(self):
        w = AsmWriter()
        w.comment("%s: %d x %d fp32 tile vectorized along K, k_unroll %d"
                  % (self.name, self.mr, self.nr, self.ku))
        skips = (MREM, NREM) if self.store else (KC, MREM, NREM)
        for op in skips:
            w.ins("test %s, %s" % (op, op))
            w.ins("jle 9f")
        if self.store:
            # kc <= 0 stores zeros: no vector, no tail.
            w.ins("test %s, %s" % (KC, KC))
            w.ins("jg 6f")
            w.ins("mov $$0, %s" % KC)
            w.label("6")
        # %k1: the K tail's lanes (kc mod 16); %k2: the n_rem columns.
        w.ins("mov %s, %%rax" % KC)
        w.ins("and $$15, %eax")
        w.ins("mov $$-1, %r11")
        w.ins("bzhi %rax, %r11, %r11")
        w.ins("kmovw %r11d, %k1")
        w.ins("mov $$-1, %rax")
        w.ins("bzhi %s, %%rax, %%rax" % NREM)
        w.ins("kmovw %eax, %k2")
        w.ins("shr $$4, %s" % KC)
        if self.a_runtime:
            # 3L for the fourth row of each group (r11 is free until the
            # C update).
            self.a_rows.setup(w)
        # An M edge (m_rem < mr) reads only its own rows of A: one K loop
        # per row count.
        if self.mr > 1:
            for rows in range(self.mr, 1, -1):
                w.ins("cmp $$%d, %s" % (rows, MREM))
                w.ins("jge %df" % (100 + rows))
        for rows in [1] + list(range(2, self.mr + 1)):
            w.label("%d" % (100 + rows))
            self._k_loops(w, rows)
            self._c_update(w, rows)
            if rows != self.mr:
                w.ins("jmp 9f")
        w.label("9")
        return w.text()

    def clobbers(self):
        vec = ["zmm%d" % i for i in range(self.nvec_used)]
        return vec + ["k1", "k2", "k3"] + list(SCRATCH_GPRS)

    def json(self):
        asm = self.asm()
        clobbers = self.clobbers()
        out = {
            "name": self.name,
            "isa": self.isa,
            "mr": self.mr,
            "nr": self.nr,
            "dialect": "att",
            "asm": asm,
            "operands": self.operands,
            "constraints": llvm_constraints(len(self.operands), clobbers),
            "clobbers": clobbers,
            "vector_registers_used": self.nvec_used,
            "accumulators": self.nacc,
            "flops_per_k": 2 * self.mr * self.nr,
            "emitter": EMITTER,
            "emitter_version": EMITTER_VERSION,
            "k_unroll": self.ku,
            "broadcast": self.broadcast,
            "prefetch_b": self.prefetch_b,
            "b_stride_bytes": self.b_stride,
            "a_stride_bytes": self.a_stride,
        }
        if self.prefetch_a:
            out["prefetch_a"] = self.prefetch_a
        if self.store:
            out["c_update"] = "store"
        return out

    def function(self, symbol):
        info = self.json()
        # lda_bytes, the 8th argument, goes to callee-saved %rbx.
        extra = ["%rbx"] if self.a_runtime else []
        body = substitute_operands(info["asm"], FUNCTION_ARG_REGS + extra)
        lines = [
            "# generated by %s version %d: mr=%d nr=%d k_unroll=%d a_stride_bytes=%d "
            "b_stride_bytes=%d" % (EMITTER, EMITTER_VERSION, self.mr, self.nr, self.ku,
                                   self.a_stride, self.b_stride),
            "# void %s(const float *a, const float *bt, float *c, long kc, long ldc_bytes,"
            " long m_rem, long n_rem%s)" % (symbol, ", long lda_bytes" if extra else ""),
            "  .text",
            "  .globl %s" % symbol,
            "  .type %s,@function" % symbol,
            "  .p2align 5",
            "%s:" % symbol,
            "  movq 8(%rsp), %r10"] + (
            ["  pushq %rbx", "  movq 24(%rsp), %rbx"] if extra else []) + [
            body] + (["  popq %rbx"] if extra else []) + [
            "  vzeroupper",
            "  ret",
            "  .size %s, .-%s" % (symbol, symbol),
            '  .section .note.GNU-stack,"",@progbits',
            "",
        ]
        return "\n".join(lines)


def emit(spec, fmt=None, symbol=None):
    k = Kernel(spec)
    fmt = fmt or k.format
    if fmt == "function":
        sym = symbol or k.symbol or k.name
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", sym):
            raise SpecError("symbol", "not a valid symbol name: %r" % sym)
        return k.function(sym)
    return k.json()


def main(argv=None):
    return run_emitter(emit, description=__doc__.strip().splitlines()[0],
                       epilog=HELP_EPILOG, formats=("json", "function"), argv=argv)


if __name__ == "__main__":
    sys.exit(main())
