#!/usr/bin/env python3
"""x86 fp32 GEMM microkernel emitter (AVX-512 zmm / AVX2+FMA ymm; bf16 inputs with fp32 accumulation through AVX512_BF16).

Reads a JSON spec, prints a JSON object describing an LLVM inline-asm block
(or, with --format=function, a standalone AT&T .s file for testing).
Run with --help for the spec and output contract.
"""

import os
import re
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tensorop_emit.epilogue import parse_epilogue  # noqa: E402
from tensorop_emit.x86_epilogue import X86Epilogue  # noqa: E402
from tensorop_emit.x86_rows import RuntimeRows  # noqa: E402
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

EMITTER = "x86_gemm_fma.py"
EMITTER_VERSION = 5

# k steps before the end of the unrolled K loop at which C's tile is
# prefetched again (prefetchw where the kernel stores C): the start's
# prefetch of a tile from L3 had been evicted by the B panel streamed
# through L1 and was not always in L2 by the C update, and loads of C
# that miss stall retirement. Zen 5, 1 thread, the kernel alone in a
# GEMM's loop nest over a 2111-2500 square's packed blocks, C in place, in
# one process (docs/benchmarks/cpu-gemm-classes.md, "C's tile prefetched
# again near the end of K"): 6 x 64 +0.4-1.3%, 14 x 32 +2.5-4.0%, 9 x 48
# +0.3-1.1%; store form +0.2-2.7%. 128 and 32 steps measured alike.
LATE_C_PREFETCH_STEPS = 64

OPERANDS = list(UKERNEL_OPERANDS)
A, B, C, KC, LDC, MREM, NREM = ukernel_operand_refs()
# store_b_panel's operand: after the seven (no epilogue goes with it).
BOUT = "$%d" % len(OPERANDS)

# SysV registers for --format=function; the 7th argument is loaded from the
# stack into %r10, which the kernel body never touches.
FUNCTION_ARG_REGS = ["%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9", "%r10"]
SCRATCH_GPRS = ["rax"]  # the only GPR the body uses besides $0..$6

ISA = {
    # name: vector register prefix, lanes, bytes per vector, register file size,
    #       disp8 scale for vector loads / for 4-byte broadcasts (EVEX disp8*N)
    "avx512": dict(vreg="zmm", lanes=16, vbytes=64, nregs=32, n_vec=64, n_bcast=4),
    "avx2": dict(vreg="ymm", lanes=8, vbytes=32, nregs=16, n_vec=1, n_bcast=1),
}

# independent FMA chains needed to cover FMA latency x FMA pipes (4 x 2)
MIN_CHAINS = 8

SPEC_FIELDS = ("kernel", "isa", "mr", "nr", "k_unroll", "broadcast", "prefetch_b",
               "prefetch_b_cols", "prefetch_b_cols_phase", "prefetch_b_cols_period", "prefetch_a",
               "b_stride_bytes", "a_stride_bytes", "a_stride_operand", "b_stride_operand", "taps", "tap_a_bytes", "epilogue",
               "c_update", "last_vector_bits", "store_b_panel",
               "format", "symbol")

# Largest B row stride accepted; keeps every displacement within disp32.
MAX_B_STRIDE = 1 << 24
# Largest A row stride accepted; (mr - 1) rows of it must also fit disp32.
MAX_A_STRIDE = 1 << 24
# Farthest prefetch_b_cols / prefetch_a (elements ahead along a row).
MAX_PREFETCH_AHEAD = 1 << 16
# Most taps one call reduces over, and the largest A offset between them.
MAX_TAPS = 64
MAX_TAP_A = 1 << 24

HELP_EPILOG = r"""
spec (JSON object, on stdin or --spec FILE):
  kernel      "gemm_f32" | "gemm_bf16"       required; "gemm_bf16": bf16 A and B,
                                             fp32 C, vdpbf16ps (AVX512_BF16);
                                             avx512 only, packed A and B, taps 1
  isa         "avx512" | "avx2"              required
  mr          rows of the C tile (>= 1)      required
  nr          columns of the C tile          required; a multiple of 16 (avx512)
                                             or 8 (avx2); nv = nr / lanes
  k_unroll    1..16                          default 4
  broadcast   "explicit" | "embedded"        default "explicit"; "embedded"
                                             (FMA with m32{1to16}) is avx512 only
  prefetch_b  0..1024                        default 0; prefetcht0 of the B panel
                                             this many k-iterations ahead (0: none)
  prefetch_b_cols 0..65536                   default 0; with b_stride_bytes > 0:
                                             prefetcht0 of B's row k this many
                                             columns right of the tile (the
                                             tiles a sweep along N reads
                                             next); not with prefetch_b
  prefetch_b_cols_period 1..16               default 1; with prefetch_b_cols:
  prefetch_b_cols_phase 0..period-1          default 0; only the k steps u
                                             (of the unrolled loop) with
                                             u mod period = phase prefetch,
                                             so that the kernels of the
                                             phases, run on successive row
                                             blocks of a column tile, share
                                             the tiles' prefetches
  prefetch_a  0..65536                       default 0; with A in place:
                                             prefetcht0 of each row of A this
                                             many k values ahead (rows
                                             streamed over a long K)
  b_stride_bytes  0 | 4..2^24, multiple of 4 default 0: B is a packed panel;
                                             > 0: B is read in place from a
                                             row-major matrix with this row
                                             stride (unpacked; nv <= 7; on
                                             avx2 one more register, a mask)
  a_stride_bytes  0 | 4..2^24, multiple of 4 default 0: A is a packed panel;
                                             > 0: A is read in place from a
                                             row-major matrix with this row
                                             stride (unpacked; no register
                                             more: rows are displacements)
  a_stride_operand 0 | 1                     default 0; 1: A is read in place
                                             with a row stride known only at
                                             run time, in bytes, in the last
                                             asm operand ("lda_bytes", after
                                             the epilogue block or
                                             b_panel_out); rows are indexed
                                             by it (and by 3x it, in %r11);
                                             the K loop walks groups of 4
                                             rows in %rax (one lea a group
                                             per k step); "gemm_f32", not
                                             with a_stride_bytes or taps
  b_stride_operand 0 | 1                     default 0; 1: B is read in place
                                             (as with b_stride_bytes) with a
                                             row stride known only at run
                                             time, in bytes, in the last asm
                                             operand ("ldb_bytes", after
                                             lda_bytes); B advances by it
                                             after each k step; "gemm_f32",
                                             not with b_stride_bytes,
                                             prefetch_b, taps or
                                             store_b_panel
  taps        1..64                          default 1; > 1: the kernel reduces over
                                             this many GEMMs ("taps" of a
                                             convolution) with the C tile held in
                                             registers; needs a_stride_bytes > 0
  tap_a_bytes 0..2^24                        A offset of tap t+1 from tap t (bytes);
                                             B of tap t+1 follows tap t's kc rows
                                             (packed: kc*nr floats on; in place:
                                             kc rows of b_stride_bytes on)
  epilogue    list of step strings           default none; fused after the
                                             last K panel (after all taps):
                                             "bias_n", "bias_m",
                                             "residual", "scale(s)",
                                             "clamp(lo,hi)", "relu", "tanh",
                                             "sigmoid", "silu", "gelu_tanh",
                                             "gelu_erf" (tensorop_emit/epilogue.py);
                                             adds operand $7, the epilogue block
  c_update    "add" | "store"                default "add": C += A*B; "store":
                                             C = A*B (C is not read and not
                                             prefetched at the start, only
                                             prefetchw'd near the end of K;
                                             kc <= 0 stores zeros)
  last_vector_bits 512 | 256                 default 512 (avx512); 256: the last B
                                             vector and its accumulators are
                                             ymm, i.e. only its first 8 lanes
                                             are computed (on 256-bit FP
                                             datapaths a ymm FMA takes half
                                             a zmm FMA's issue slots); the
                                             caller then passes n_rem <=
                                             nr - 8; avx512 "gemm_f32" only
  store_b_panel 0 | 1                        default 0; 1: B is read in place
                                             (b_stride_bytes > 0) and every B
                                             vector the K loop loads is also
                                             stored to a packed panel (operand
                                             $7, "b_panel_out"): B(k, j) at
                                             b_panel_out + 4*(k*nr + j) for
                                             j < nr, columns >= n_rem zero
                                             (the layout and contents of a
                                             zero-padded "kmajor_nr" panel, so
                                             the packed kernel of the same
                                             block reads it); kc rows; avx512
                                             "gemm_f32", taps 1, no epilogue
  format      "json" | "function"            default "json" (same as --format)
  symbol      function name for "function"   default: the kernel name

register budget: mr*nv accumulators + nv B vectors (+1 broadcast register
for "explicit"; 2 alternating ones when they fit) must be <= 32 (avx512) or
<= 16 (avx2).  Tiles with fewer than 8 accumulators use up to k_unroll
accumulator sets (one per unrolled k step, summed at the end) where registers
allow, to hide FMA latency; "accumulators" in the output counts all sets.

Kernel semantics (packed BLIS-style microkernel), operands $0..$6 =
  a_panel, b_panel, c, kc, ldc_bytes, m_rem, n_rem  (64-bit integer registers,
  each tied in/out: constraints "=r" x7 then "0".."6"; the body may modify them)
  A(r,k) = f32 at a_panel + 4*(k*mr + r) (a_stride_bytes = 0) or at
  a_panel + r*a_stride_bytes + 4*k (a_stride_bytes > 0; then only rows
  r < m_rem are read, so A may end right after A(m_rem-1, kc-1));
  B(k,j) = f32 at b_panel + 4*(k*nr + j)
  (b_stride_bytes = 0) or at b_panel + k*b_stride_bytes + 4*j (b_stride_bytes > 0;
  then only B(k, j < n_rem) is read, with fault-suppressing masked loads, so
  B may end right after its last element of the tile)
  for r < m_rem, j < n_rem:  C[r][j] += sum_{k<kc} A(r,k)*B(k,j)
  (c_update "store": C[r][j] = sum_{k<kc} A(r,k)*B(k,j)),
  (with taps T > 1: C[r][j] += sum_{t<T} sum_{k<kc} A(r,k)[a + t*tap_a_bytes]
   * B(k,j)[b + t*kc*B row]; the body also uses %r11),
  C[r][j] at c + r*ldc_bytes + 4*j.  1 <= m_rem <= mr, 1 <= n_rem <= nr, kc >= 0.
  Nothing outside [m_rem) x [n_rem) of C is read or written (masked /
  fault-suppressed); kc <= 0 leaves C untouched ("store": sets the tile to
  zero; with an epilogue: applies the steps to C, C[r][j] = steps(C[r][j]),
  reading neither A nor B); m_rem <= 0 or n_rem <= 0 leaves C untouched.
  Pointers need only 4-byte alignment.

"gemm_bf16" (vdpbf16ps, VNNI-style pairs along K): kc counts k PAIRS; the
  32-bit element A(r,p) at a_panel + 4*(p*mr + r) holds the bf16 pair
  (A(r,2p), A(r,2p+1)) (low half first), B(p,j) at b_panel + 4*(p*nr + j)
  the pair (B(2p,j), B(2p+1,j)); C[r][j] += sum_{p<kc} A(r,2p)*B(2p,j) +
  A(r,2p+1)*B(2p+1,j) in fp32.  An odd K is padded with a zero pair half by
  the packing.  With b_stride_bytes > 0, B(p,j) is the 32-bit pair at
  b_panel + p*b_stride_bytes + 4*j (a matrix of pairs read in place, n_rem
  pairs of each row, as for fp32); with a_stride_bytes > 0, A(r,p) is the
  pair at a_panel + r*a_stride_bytes + 4*p (a row-major bf16 A read in
  place: its rows' adjacent elements are the pairs; K even).  vdpbf16ps treats bf16 denormals as zero and flushes fp32
  denormal results (it ignores MXCSR); products of two bf16 are exact in fp32.

output (--format=json): {"name", "isa", "mr", "nr", "dialect": "att", "asm",
  "operands", "constraints", "clobbers", "vector_registers_used",
  "accumulators", "flops_per_k", "emitter", "emitter_version", "k_unroll",
  "broadcast", "prefetch_b", "b_stride_bytes", "a_stride_bytes"}.  "asm" is
  an LLVM IR inline-asm body in AT&T syntax: operands are $0..$6, literal '$'
  (immediates) is written '$$', only numeric local labels are used.
output (--format=function [--symbol NAME]): a standalone AT&T .s file with
  void NAME(const float *a, const float *b, float *c, long kc, long ldc_bytes,
            long m_rem, long n_rem)   (SysV ABI; for tests and benchmarks)

errors: exit status 2, one line on stderr naming the field, {"error": "..."} on
stdout.
"""


def _mem(disp, base):
    return "%d(%s)" % (disp, base) if disp else "(%s)" % base


def _bias(max_offset, scale):
    """Pointer bias so that displacements fit (EVEX-compressed) disp8."""
    if max_offset <= 127 * scale:
        return 0
    return 128 * scale


class Kernel:
    def __init__(self, spec):
        check_known_fields(spec, SPEC_FIELDS)
        kernel = get_str(spec, "kernel")
        if kernel not in ("gemm_f32", "gemm_bf16"):
            raise SpecError("kernel", 'must be "gemm_f32" or "gemm_bf16", got "%s"'
                            % kernel)
        self.bf16 = kernel == "gemm_bf16"
        self.isa = get_choice(spec, "isa", ("avx512", "avx2"))
        self.mr = get_int(spec, "mr", lo=1, hi=4096)
        self.nr = get_int(spec, "nr", lo=1, hi=1 << 16)
        self.ku = get_int(spec, "k_unroll", 4, lo=1, hi=16)
        self.broadcast = get_choice(spec, "broadcast", ("explicit", "embedded"), "explicit")
        self.prefetch_b = get_int(spec, "prefetch_b", 0, lo=0, hi=1024)
        self.prefetch_b_cols = get_int(spec, "prefetch_b_cols", 0, lo=0, hi=MAX_PREFETCH_AHEAD)
        self.pfc_period = get_int(spec, "prefetch_b_cols_period", 1, lo=1, hi=16)
        self.pfc_phase = get_int(spec, "prefetch_b_cols_phase", 0, lo=0,
                                 hi=self.pfc_period - 1)
        self.prefetch_a = get_int(spec, "prefetch_a", 0, lo=0, hi=MAX_PREFETCH_AHEAD)
        self.b_stride = get_int(spec, "b_stride_bytes", 0, lo=0, hi=MAX_B_STRIDE)
        if self.b_stride % 4:
            raise SpecError("b_stride_bytes", "must be a multiple of 4, got %d"
                            % self.b_stride)
        self.a_stride = get_int(spec, "a_stride_bytes", 0, lo=0, hi=MAX_A_STRIDE)
        if self.a_stride % 4:
            raise SpecError("a_stride_bytes", "must be a multiple of 4, got %d"
                            % self.a_stride)
        # A's rows in place at a stride known only at run time (a strided
        # view: gen's NAME_ex_ws, a model compiler's slices): rows are then
        # addressed through the stride's register instead of displacements.
        self.a_runtime = get_int(spec, "a_stride_operand", 0, lo=0, hi=1) == 1
        if self.a_runtime and (self.a_stride or kernel != "gemm_f32"):
            raise SpecError("a_stride_operand", 'a_stride_operand needs kernel '
                            '"gemm_f32" and a_stride_bytes 0 (the stride is the '
                            "operand's)")
        if self.a_runtime and spec.get("taps", 1) != 1:
            raise SpecError("a_stride_operand", "a_stride_operand does not go with taps")
        # B's rows likewise: the pointer steps by the stride's register
        # after every k step instead of k-row displacements.
        self.b_runtime = get_int(spec, "b_stride_operand", 0, lo=0, hi=1) == 1
        if self.b_runtime and (self.b_stride or kernel != "gemm_f32" or self.prefetch_b
                               or spec.get("taps", 1) != 1
                               or spec.get("store_b_panel", 0)):
            raise SpecError("b_stride_operand", 'b_stride_operand needs kernel "gemm_f32", '
                            "b_stride_bytes 0 (the stride is the operand's), and "
                            "neither prefetch_b, taps nor store_b_panel")
        # B read in place, at a compiled-in or a run-time row stride.
        self.b_inplace = bool(self.b_stride) or self.b_runtime
        # Prefetches along a row read in place: a packed panel's next
        # elements are the next k, which prefetch_b covers.
        if self.prefetch_b_cols and not self.b_inplace:
            raise SpecError("prefetch_b_cols", "prefetch_b_cols needs B read in place "
                            "(b_stride_bytes > 0 or b_stride_operand)")
        if self.prefetch_b_cols and self.prefetch_b:
            raise SpecError("prefetch_b_cols", "prefetch_b_cols and prefetch_b "
                            "exclude each other")
        if self.prefetch_a and not self.a_stride and not self.a_runtime:
            raise SpecError("prefetch_a", "prefetch_a needs A read in place "
                            "(a_stride_bytes > 0 or a_stride_operand)")
        # The fused copy of B (oneDNN's "nocopy" sgemm does the same on its
        # first row tile of each B strip): the packed pass over B goes, its
        # loads being the ones the K loop makes anyway.
        self.store_b = get_int(spec, "store_b_panel", 0, lo=0, hi=1) == 1
        if self.store_b and not self.b_stride:
            raise SpecError("store_b_panel", "store_b_panel needs B read in place "
                            "(b_stride_bytes > 0)")
        self.taps = get_int(spec, "taps", 1, lo=1, hi=MAX_TAPS)
        self.tap_a = get_int(spec, "tap_a_bytes", 0, lo=0, hi=MAX_TAP_A)
        if self.taps > 1 and not self.a_stride:
            raise SpecError("taps", "taps > 1 read A in place: they need "
                            "a_stride_bytes > 0")
        self.epilogue_steps = parse_epilogue(spec, outputs=True)
        # "store" (C = A*B) serves a GEMM whose one K block covers all of K:
        # the zero fill of C and reading it back are saved.
        self.store = get_choice(spec, "c_update", ("add", "store"), "add") == "store"
        if self.bf16:
            self._check_bf16()
        if self.store_b and (self.bf16 or self.taps > 1 or self.epilogue_steps):
            raise SpecError("store_b_panel", 'store_b_panel needs kernel "gemm_f32", '
                            "taps 1 and no epilogue")
        # The multiply-accumulate of one k step: fp32 FMA, or two bf16
        # products per 32-bit lane (same operand forms, m32bcst included).
        self.fma = "vdpbf16ps" if self.bf16 else "vfmadd231ps"
        self.format = get_choice(spec, "format", ("json", "function"), "json")
        self.symbol = spec.get("symbol")
        if self.symbol is not None:
            self.symbol = get_str(spec, "symbol")

        p = ISA[self.isa]
        self.vreg, self.lanes, self.vbytes = p["vreg"], p["lanes"], p["vbytes"]
        self.nregs = p["nregs"]
        if self.nr % self.lanes:
            raise SpecError("nr", "must be a multiple of %d for %s, got %d"
                            % (self.lanes, self.isa, self.nr))
        if self.broadcast == "embedded" and self.isa != "avx512":
            raise SpecError("broadcast", '"embedded" needs isa "avx512"')
        self.nv = self.nr // self.lanes
        # A last vector of at most 8 columns (an N tail of 16v + 1..8) as
        # ymm: the K loop's FMAs on it take one 256-bit pipe slot instead of
        # two on Zen 4 (AVX-512 on 256-bit datapaths). Its accumulators'
        # upper lanes stay zero (ymm writes clear them), so the zmm C update
        # below is unchanged: those lanes are masked off (n_rem <= nr - 8).
        self.last_vector_bits = get_int(spec, "last_vector_bits", 512, lo=256, hi=512)
        if self.last_vector_bits not in (256, 512):
            raise SpecError("last_vector_bits", "must be 512 or 256, got %d"
                            % self.last_vector_bits)
        self.narrow_last = self.last_vector_bits == 256
        if self.store_b and (self.isa != "avx512" or self.narrow_last):
            raise SpecError("store_b_panel", 'store_b_panel needs isa "avx512" and '
                            "last_vector_bits 512")
        if self.narrow_last and (self.isa != "avx512" or self.bf16):
            raise SpecError("last_vector_bits", 'last_vector_bits 256 needs isa "avx512" '
                            'and kernel "gemm_f32"')
        # Unpacked rows end anywhere: the N edge needs fault-suppressing
        # masked loads. AVX-512 keeps one k mask per B vector (k1..k7); AVX2
        # (vmaskmovps) keeps one mask vector register, for the one partial
        # B vector of an edge tile, with a K loop per position of it.
        self.mask_vregs = 1 if self.b_inplace and self.isa == "avx2" else 0
        if self.b_inplace and self.nv > 7:
            raise SpecError("b_stride_bytes", "unpacked B needs nr <= %d (one "
                            "mask register per vector), got nr %d"
                            % (7 * self.lanes, self.nr))
        # Byte distance between consecutive k rows of B.
        # (A run-time stride: 0, each k step then advances B itself.)
        self.b_row = self.b_stride if self.b_stride else (0 if self.b_runtime else self.nr * 4)
        # Displacements (prefetch distance, unrolled rows) must fit disp32.
        if ((self.prefetch_b + self.ku) * self.b_row + 4 * (self.prefetch_b_cols + self.nr)
                >= 1 << 31):
            raise SpecError("prefetch_b", "B displacements exceed 32 bits: prefetch_b "
                            "%d x B row %d bytes" % (self.prefetch_b, self.b_row))
        # A(r, k) at a + r*a_row + k*a_k: a packed panel has mr floats per k;
        # rows read in place are a_stride apart, with consecutive k. The
        # stride is static, so every row is a constant displacement from one
        # pointer: no GPR beyond the packed kernel's (BLIS "sup" kernels keep
        # lda and 3*lda in registers because their lda is a run-time value).
        self.a_row = self.a_stride if self.a_stride else (0 if self.a_runtime else 4)
        self.a_k = 4 if self.a_stride or self.a_runtime else self.mr * 4
        if (self.mr - 1) * self.a_row + self.ku * self.a_k + 4 * self.prefetch_a >= 1 << 31:
            raise SpecError("a_stride_bytes", "A displacements exceed 32 bits: "
                            "%d rows x %d bytes" % (self.mr, self.a_row))
        # Rows the K loop being emitted computes: mr, or m_rem in the loops of
        # an unpacked A's M edge (rows past A must not be read).
        self.rows = self.mr
        nacc = self.mr * self.nv
        if self.broadcast == "explicit":
            need = nacc + self.nv + 1
        else:
            need = nacc + self.nv
        need += self.mask_vregs
        if need > self.nregs:
            extra = (" + 1" if self.broadcast == "explicit" else "") + \
                (" + 1 (B mask)" if self.mask_vregs else "")
            raise SpecError("mr", "register budget exceeded: mr*nv + nv%s = %d*%d + %d%s = %d "
                            "> %d %s registers (reduce mr or nr)"
                            % (extra, self.mr, self.nv, self.nv, extra,
                               need, self.nregs, self.vreg))
        # Small tiles (fewer than MIN_CHAINS accumulators) are FMA-latency
        # bound: give consecutive k iterations of the unrolled loop separate
        # accumulator sets (summed before the C update) while registers last.
        self.nsets = 1
        if nacc < MIN_CHAINS:
            free = self.nregs - need
            self.nsets = max(1, min(self.ku, -(-MIN_CHAINS // nacc), 1 + free // nacc))
        if self.broadcast == "explicit":
            # two alternating broadcast registers when they fit
            self.nbc = 2 if need + (self.nsets - 1) * nacc + 1 <= self.nregs else 1
        else:
            self.nbc = 0
        self.nacc = nacc * self.nsets
        self.name = "x86_%s_%s_%dx%d_u%d_%s" % (self.isa, "bf16" if self.bf16 else "f32",
                                                self.mr, self.nr, self.ku, self.broadcast)
        if self.prefetch_b:
            self.name += "_pf%d" % self.prefetch_b
        if self.prefetch_b_cols:
            self.name += "_pfc%d" % self.prefetch_b_cols
            if self.pfc_period > 1:
                self.name += "p%dof%d" % (self.pfc_phase, self.pfc_period)
        if self.prefetch_a:
            self.name += "_pfa%d" % self.prefetch_a
        if self.b_stride:
            self.name += "_ldb%d" % self.b_stride
        if self.a_stride:
            self.name += "_lda%d" % self.a_stride
        if self.a_runtime:
            self.name += "_ldar"
        if self.b_runtime:
            self.name += "_ldbr"
        if self.taps > 1:
            self.name += "_t%dx%d" % (self.taps, self.tap_a)
        if self.narrow_last:
            self.name += "_ly"
        if self.store_b:
            self.name += "_sb"
        self.epi = None
        if self.epilogue_steps:
            if self.isa == "avx512" and self.nv > 7:
                raise SpecError("epilogue", "an epilogue needs nr <= 112 on avx512 "
                                "(one mask register per vector), got nr %d" % self.nr)
            if self.isa == "avx2" and self.nv > 10:
                raise SpecError("epilogue", "an epilogue needs nr <= 80 on avx2 "
                                "(one mask register per vector), got nr %d" % self.nr)
            out_step = self.epilogue_steps[-1].kind
            if out_step in ("to_bf16", "to_f16") and self.isa != "avx512":
                raise SpecError("epilogue", "an output step (%s) needs isa \"avx512\" "
                                "(masked 16-bit stores)" % out_step)
            # "store" with an epilogue: x = A*B (C not read), then the steps;
            # the result goes to C, or with an output step to the output
            # (C not written). The pass asks for it where C was zero-filled
            # and one K block covers K: the fill and C's read go.
            self.epi = X86Epilogue(self, self.epilogue_steps)
            text = ",".join(repr(st) for st in self.epilogue_steps)
            self.name += "_epi%08x" % (zlib.crc32(text.encode()) & 0xffffffff)
        # operands as the epilogue sees them
        self.c_operand, self.ldc_operand = C, LDC
        self.mrem_operand, self.nrem_operand = MREM, NREM
        if self.store:
            self.name += "_st"
        # The run-time row strides of A and B: the last operands.
        ops = self.operands()
        self.lda = "$%d" % ops.index("lda_bytes") if self.a_runtime else None
        self.a_rows = RuntimeRows(A, self.lda) if self.a_runtime else None
        self.ldb = "$%d" % ops.index("ldb_bytes") if self.b_runtime else None
        # register allocation
        # register allocation: accumulator sets, B vectors, broadcast registers
        self.accsets = [[["%%%s%d" % (self.vreg, s * nacc + r * self.nv + v)
                          for v in range(self.nv)] for r in range(self.mr)]
                        for s in range(self.nsets)]
        self.acc = self.accsets[0]
        base = self.nacc
        self.breg = ["%%%s%d" % (self.vreg, base + v) for v in range(self.nv)]
        self.bc = ["%%%s%d" % (self.vreg, base + self.nv + i) for i in range(self.nbc)]
        self.nvec_used = base + self.nv + self.nbc
        # AVX2 unpacked B: the mask of the partial B vector
        self.bmask_v = "%%%s%d" % (self.vreg, self.nvec_used) if self.mask_vregs else None
        self.nvec_used += self.mask_vregs
        # Unpacked B: the partial vector of the K loop being emitted (None:
        # a full tile's loop, every vector a plain load).
        self.edge_p = None
        assert self.nvec_used <= self.nregs
        self.kregs = []
        # displacement biases (keep displacements in compressed disp8 range)
        a_max = (self.ku * self.mr - 1) * 4
        b_max = (self.ku - 1) * self.b_row + (self.nv - 1) * self.vbytes
        # Unpacked A: rows are a_stride apart, mostly disp32 anyway.
        self.bias_a = 0 if self.a_stride or self.a_runtime else _bias(a_max, p["n_bcast"])
        # Unpacked rows: displacements are multiples of the row stride and
        # mostly disp32 anyway; a bias would only move them.
        self.bias_b = 0 if self.b_inplace else _bias(b_max, p["n_vec"])
        # The stored panel's rows are nr floats apart, as a packed B's.
        self.bias_p = _bias((self.ku * self.nr - self.lanes) * 4, p["n_vec"]) \
            if self.store_b else 0

    def _check_bf16(self):
        """vdpbf16ps is an AVX-512 instruction; its pair layout exists only
        in the packed panels."""
        if self.isa != "avx512":
            raise SpecError("isa", 'kernel "gemm_bf16" needs isa "avx512" '
                            "(vdpbf16ps, AVX512_BF16), got \"%s\"" % self.isa)
        # B may be read in place from a matrix of k pairs (b_stride_bytes
        # apart per pair row: B packed once by gen's NAME_pack_b); so may A:
        # the two bf16 of a pair are adjacent in a row-major row, so the
        # pair A(r, p) is the 32-bit word at a_panel + r*a_stride_bytes +
        # 4*p (for an even K: the caller's concern).
        if self.taps > 1:
            raise SpecError("taps", 'kernel "gemm_bf16" has no taps, got %d' % self.taps)

    # ---------------------------------------------------------------- K loop
    def _b_lines(self):
        """Byte offsets of the cache lines of one k-row of the B panel."""
        return list(range(0, self.nr * 4, 64))

    def _k_step(self, w, u):
        """One k iteration; u = index inside the unrolled block. With B's
        row stride in a register, B steps to the next row after it."""
        self._k_step_body(w, u)
        if self.b_runtime:
            w.ins("add %s, %s" % (self.ldb, B))

    def _k_step_body(self, w, u):
        """One k iteration's loads, FMAs and prefetches."""
        accs = self.accsets[u % self.nsets]
        aoff = u * self.a_k - self.bias_a
        boff = u * self.b_row - self.bias_b
        pf = []
        if self.prefetch_b:
            # prefetcht0 never faults: prefetching past B is harmless.
            pf = [self.prefetch_b * self.b_row + boff + line for line in self._b_lines()]
        if self.prefetch_b_cols and u % self.pfc_period == self.pfc_phase:
            # prefetcht0 never faults: past B's row end it is harmless.
            pf = [4 * self.prefetch_b_cols + boff + line for line in self._b_lines()]
        if self.a_rows:
            self.a_rows.start_step()
        if self.prefetch_a:
            # One row of A per unrolled step (each row's line is touched
            # again every 16 k values anyway).
            for r in range(u, self.rows, self.ku):
                w.ins("prefetcht0 %s" % self._a_mem(w, r, aoff + 4 * self.prefetch_a))
        if self.a_rows:
            self.a_rows.start_step()
        # spread the prefetches over the rows
        rows = self.rows
        pf_by_row = [[] for _ in range(rows)]
        for i, off in enumerate(pf):
            pf_by_row[i % rows].append(off)

        # Edge loops (unpacked B): vectors past the partial one are neither
        # loaded nor multiplied (their accumulators stay zero and are not
        # stored), except where the loads fill a packed panel (store_b).
        nv = self.nv if self.edge_p is None or self.store_b else self.edge_p + 1

        def narrow(v, reg):
            """`reg` as the width vector v is computed at (ymm: last_vector_bits)."""
            if self.narrow_last and v == self.nv - 1:
                return reg.replace("zmm", "ymm")
            return reg

        for v in range(nv):
            src = _mem(boff + v * self.vbytes, B)
            if self.b_inplace and self.isa == "avx512":
                if self.edge_p is not None and v >= self.edge_p:
                    # Lanes >= n_rem are neither read (no fault) nor used
                    # (zero; a stored panel's edge is zero-padded: past the
                    # partial vector the loads and FMAs stay, on zeros).
                    w.ins("vmovups %s, %s {%s} {z}" % (src, narrow(v, self.breg[v]),
                                                       self.bmask[v]))
                else:
                    w.ins("vmovups %s, %s" % (src, narrow(v, self.breg[v])))
                if self.store_b:
                    # The whole vector, its zeroed lanes included: a packed
                    # edge panel is zero-padded (ApplySketch's emitPackB).
                    w.ins("vmovups %s, %s" % (self.breg[v], _mem(
                        u * self.nr * 4 + v * self.vbytes - self.bias_p, BOUT)))
            elif v == self.edge_p:
                w.ins("vmaskmovps %s, %s, %s" % (src, self.bmask_v, self.breg[v]))
            else:
                w.ins("vmovups %s, %s" % (src, narrow(v, self.breg[v])))
        if self.broadcast == "embedded":
            for r in range(rows):
                src = self._a_mem(w, r, aoff)
                for v in range(nv):
                    ymm = narrow(v, "zmm") == "ymm"
                    w.ins("%s %s%s, %s, %s" % (self.fma, src, "{1to8}" if ymm else "{1to16}",
                                               narrow(v, self.breg[v]),
                                               narrow(v, accs[r][v])))
                for off in pf_by_row[r]:
                    w.ins("prefetcht0 %s" % _mem(off, B))
            return
        nbc = self.nbc

        def bcast(r):
            w.ins("vbroadcastss %s, %s" % (self._a_mem(w, r, aoff), self.bc[r % nbc]))

        bcast(0)
        for r in range(rows):
            if nbc == 2 and r + 1 < rows:
                bcast(r + 1)  # one row ahead into the other broadcast register
            for v in range(nv):
                w.ins("%s %s, %s, %s" % (self.fma, narrow(v, self.breg[v]),
                                         narrow(v, self.bc[r % nbc]), narrow(v, accs[r][v])))
            for off in pf_by_row[r]:
                w.ins("prefetcht0 %s" % _mem(off, B))
            if nbc == 1 and r + 1 < rows:
                bcast(r + 1)

    def _k_loops_avx2_unpacked(self, w):
        """Full tiles: plain loads. Edge tiles (n_rem < nr): one K loop per
        index p of the partial B vector, p = (n_rem - 1) / 8, whose mask
        (lanes < n_rem - 8p) is built before the loop."""
        w.ins("cmp $$%d, %s" % (self.nr, NREM))
        w.ins("je 6f")
        w.ins("lea -1(%s), %%rax" % NREM)
        w.ins("shr $$3, %rax")
        for p in range(self.nv - 1):
            w.ins("cmp $$%d, %%rax" % p)
            w.ins("je %df" % (20 + p))
        w.ins("jmp %df" % (20 + self.nv - 1))
        iota_x = self.bmask_v.replace("ymm", "xmm")
        tmp = self.breg[0]
        tmp_x = tmp.replace("ymm", "xmm")

        def set_mask(w, p):
            w.ins("movabs $$0x0706050403020100, %rax")
            w.ins("vmovq %%rax, %s" % iota_x)
            w.ins("vpmovzxbd %s, %s" % (iota_x, self.bmask_v))
            w.ins("lea %d(%s), %%rax" % (-8 * p, NREM))
            w.ins("vmovq %%rax, %s" % tmp_x)
            w.ins("vpbroadcastd %s, %s" % (tmp_x, tmp))
            w.ins("vpcmpgtd %s, %s, %s" % (self.bmask_v, tmp, self.bmask_v))
        self._edge_and_full_k_loops(w, set_mask)

    def _edge_and_full_k_loops(self, w, set_mask=None):
        """Label 20 + p: the K loop of the edge tiles whose partial vector
        is p (after set_mask(w, p)); label 6: the full tiles' loop; all end
        at label 7."""
        for p in range(self.nv):
            w.label("%d" % (20 + p))
            if set_mask:
                set_mask(w, p)
            self.edge_p = p
            self._k_loops(w)
            self.edge_p = None
            w.ins("jmp 7f")
        w.label("6")
        self._k_loops(w)
        w.label("7")

    def _k_loops_avx512_unpacked(self, w):
        """Full tiles (n_rem == nr): plain loads. Edge tiles: one K loop per
        index p of the last vector with a column, p = (n_rem - 1) / 16: the
        vectors before it plain loads, it a masked one, the ones after it
        neither loaded nor multiplied. A masked load costs more than a
        plain one where the FMAs are the bound (Emerald Rapids: a 6 x 64
        K loop with all four B loads masked ran at 0.84-0.92x the same loop
        with plain loads; bench/cpu/masked_load_cost.c), so the
        full tiles that are most of a matrix take none. The lane masks are
        set (bmask); %rax is free before the K loop."""
        nv = self.nv
        self._full_tile_test_avx512(w, self.bmask)
        w.ins("je 6f")
        for p in range(nv - 1):
            w.ins("kortestw %s, %s" % (self.bmask[p + 1], self.bmask[p + 1]))
            w.ins("jz %df" % (20 + p))
        if nv > 1:
            w.ins("jmp %df" % (20 + nv - 1))
        self._edge_and_full_k_loops(w)

    def _a_mem(self, w, r, disp):
        """A(r, k) of the k step at byte offset `disp` along the row (with a
        run-time row stride: tensorop_emit.x86_rows)."""
        if not self.a_runtime:
            return _mem(disp + r * self.a_row, A)
        return self.a_rows.mem(w, r, disp)

    def _k_body(self, w):
        if self.mask_vregs:
            self._k_loops_avx2_unpacked(w)
        elif self.b_inplace and self.isa == "avx512":
            self._k_loops_avx512_unpacked(w)
        else:
            self._k_loops(w)

    def _k_loops_unpacked_a(self, w):
        """Unpacked A: the rows past m_rem may lie past A, so an M edge tile
        (m_rem < mr) gets a K loop that reads and computes m_rem rows only;
        the accumulators of the other rows stay zero and are not stored."""
        w.ins("cmp $$%d, %s" % (self.mr, MREM))
        w.ins("je %df" % (100 + self.mr))
        for rows in range(1, self.mr - 1):
            w.ins("cmp $$%d, %s" % (rows, MREM))
            w.ins("je %df" % (100 + rows))
        w.ins("jmp %df" % (100 + self.mr - 1))
        for rows in [self.mr] + list(range(1, self.mr)):
            w.label("%d" % (100 + rows))
            self.rows = rows
            self._k_body(w)
            self.rows = self.mr
            if rows != self.mr - 1:
                w.ins("jmp 8f")
        w.label("8")

    def _k_loops(self, w):
        ku = self.ku
        if self.bias_a:
            w.ins("add $$%d, %s" % (self.bias_a, A))
        if self.bias_b:
            w.ins("add $$%d, %s" % (self.bias_b, B))
        if self.bias_p:
            w.ins("add $$%d, %s" % (self.bias_p, BOUT))
        if self.a_runtime:
            self.a_rows.setup(w)
        if self.taps > 1:
            # %r11 = -4*kc (A's advance over one tap, negated); %rax counts
            # the taps. B runs on into the next tap's rows by itself.
            w.ins("mov %s, %%r11" % KC)
            w.ins("shl $$2, %r11")
            w.ins("neg %r11")
            w.ins("mov $$%d, %%eax" % self.taps)
            w.label("40")
        # %rax (free in this loop unless it walks A's rows or counts taps)
        # holds C until the late prefetch has been issued, then 0; it
        # starts at 0 where K is too short to reach the prefetch step
        # after one iteration (the start's prefetch then suffices).
        late = ku > 1 and not self.a_runtime and self.taps <= 1
        if late:
            w.ins("xor %eax, %eax")
            w.ins("cmp $$%d, %s" % (LATE_C_PREFETCH_STEPS + ku, KC))
            w.ins("cmovg %s, %%rax" % C)
        if ku > 1:
            w.ins("sub $$%d, %s" % (ku, KC))
            w.ins("jl 2f")
            w.lines.append("  .p2align 5")
            w.label("1")
            if late:
                self._late_prefetch_c(w)
            for u in range(ku):
                self._k_step(w, u)
            w.ins("add $$%d, %s" % (ku * self.a_k, A))
            if self.b_row:
                w.ins("add $$%d, %s" % (ku * self.b_row, B))
            if self.store_b:
                w.ins("add $$%d, %s" % (ku * self.nr * 4, BOUT))
            w.ins("sub $$%d, %s" % (ku, KC))
            w.ins("jge 1b")
            w.label("2")
            w.ins("add $$%d, %s" % (ku, KC))
            w.ins("jz 4f")
        w.label("3")
        self._k_step(w, 0)
        w.ins("add $$%d, %s" % (self.a_k, A))
        if self.b_row:
            w.ins("add $$%d, %s" % (self.b_row, B))
        if self.store_b:
            w.ins("add $$%d, %s" % (self.nr * 4, BOUT))
        w.ins("sub $$1, %s" % KC)
        w.ins("jnz 3b")
        w.label("4")
        if self.taps > 1:
            w.ins("lea %d(%s,%%r11), %s" % (self.tap_a, A, A))
            w.ins("mov %%r11, %s" % KC)
            w.ins("neg %s" % KC)
            w.ins("sar $$2, %s" % KC)
            w.ins("sub $$1, %eax")
            w.ins("jnz 40b")
        for accs in self.accsets[1:]:
            for r in range(self.mr):
                for v in range(self.nv):
                    w.ins("vaddps %s, %s, %s" % (accs[r][v], self.acc[r][v], self.acc[r][v]))

    # -------------------------------------------------------------- C update
    def _next_row(self, w, r):
        if r + 1 < self.mr:
            w.ins("sub $$1, %s" % MREM)
            w.ins("jz 9f")
            w.ins("add %s, %s" % (LDC, C))

    def _prefetch_c_rows(self, w, op, m_rem_only):
        """`op` on every line of C's tile, %rax at its first row and walking
        down the rows; m_rem_only: rows from m_rem on are skipped (to
        label 13, which the caller places)."""
        # every 64 bytes of a row and its last byte (rows need not be aligned)
        offs = list(range(0, self.nr * 4, 64))
        if (self.nr * 4 - 1) not in offs:
            offs.append(self.nr * 4 - 1)
        for r in range(self.mr):
            if r:
                if m_rem_only:
                    w.ins("cmp $$%d, %s" % (r, MREM))
                    w.ins("jle 13f")
                w.ins("add %s, %%rax" % LDC)
            for off in offs:
                w.ins("%s %s" % (op, _mem(off, "%rax")))

    def _prefetch_c(self, w):
        w.ins("mov %s, %%rax" % C)
        self._prefetch_c_rows(w, "prefetcht0", m_rem_only=False)

    def _late_prefetch_c(self, w):
        """At the top of the unrolled K loop: once LATE_C_PREFETCH_STEPS or
        fewer k steps remain after this iteration, C's rows (m_rem of them)
        are prefetched, with write intent where the kernel stores C."""
        w.ins("cmp $$%d, %s" % (LATE_C_PREFETCH_STEPS, KC))
        w.ins("jg 12f")
        w.ins("test %rax, %rax")
        w.ins("jz 12f")
        self._prefetch_c_rows(w, "prefetchw" if self.store else "prefetcht0",
                              m_rem_only=True)
        w.label("13")
        w.ins("xor %eax, %eax")
        w.label("12")

    def _lane_masks_avx512(self, w):
        """Sets the lane masks of the n_rem columns (consumes n_rem for nv > 4).
        Returns (direct, group masks, per-vector masks)."""
        nv = self.nv
        # masks: group g (64 lanes = 4 vectors) comes from bzhi(-1, n_rem - 64g)
        direct = nv <= 7
        ngroups = (nv + 3) // 4
        vk = []
        if direct:
            gk = ["%%k%d" % (4 * g + 1) for g in range(ngroups)]
            vk = ["%%k%d" % (v + 1) for v in range(nv)]
            self.kregs = ["k%d" % (v + 1) for v in range(nv)]
        else:
            gk = ["%%k%d" % (g + 1) for g in range(ngroups)]
            self.kregs = ["k%d" % (g + 1) for g in range(ngroups)] + ["k5", "k6", "k7"]
        for g in range(ngroups):
            if g > 0:
                w.ins("xor %eax, %eax")
                w.ins("sub $$64, %s" % NREM)
                w.ins("cmovl %%rax, %s" % NREM)
            w.ins("mov $$-1, %rax")
            w.ins("bzhi %s, %%rax, %%rax" % NREM)
            w.ins("kmovq %%rax, %s" % gk[g])
            if direct:
                for v in range(4 * g + 1, min(nv, 4 * g + 4)):
                    w.ins("kshiftrq $$%d, %s, %s" % (16 * (v - 4 * g), gk[g], vk[v]))
        return direct, gk, vk

    def _c_loads_first_avx512(self, w, vk):
        """Adds every row of C into the accumulators before any row is
        stored (%rax walks the rows; m_rem rows). Rows closer than a vector
        (ldc < nr*4: a convolution's rows of F = 17 are 68 bytes apart)
        would otherwise load through the masked-off lanes of the previous
        row's store, which the store-to-load forwarding check treats as an
        overlap: each row's loads waited for the row before to be written."""
        w.ins("mov %s, %%rax" % C)
        for r in range(self.mr):
            for v in range(self.nv):
                acc = self.acc[r][v]
                w.ins("vaddps %s, %s, %s {%s}" % (_mem(v * self.vbytes, "%rax"), acc, acc,
                                                  vk[v]))
            if r + 1 < self.mr:
                w.ins("cmp $$%d, %s" % (r + 1, MREM))
                w.ins("jle 11f")
                w.ins("add %s, %%rax" % LDC)
        w.label("11")

    def _full_tile_test_avx512(self, w, vk):
        """Compares the last vector's lane mask with a full one: ZF is set
        where the tile has all nr columns (%rax is free here)."""
        w.ins("kmovw %s, %%eax" % vk[self.nv - 1])
        w.ins("cmp $$%d, %%eax" % ((1 << (8 if self.narrow_last else self.lanes)) - 1))

    def _c_update_full_tile(self, w):
        """A tile of all nr columns: plain loads and stores, row by row
        (masked ones cost more where the tiles are short in K; the rows of a
        full tile cannot overlap; a half-width last vector as ymm). Ends at
        9f."""
        for r in range(self.mr):
            accs = [self.acc[r][v].replace("zmm", "ymm")
                    if self.narrow_last and v == self.nv - 1 else self.acc[r][v]
                    for v in range(self.nv)]
            if not self.store:
                for v, acc in enumerate(accs):
                    w.ins("vaddps %s, %s, %s" % (_mem(v * self.vbytes, C), acc, acc))
            for v, acc in enumerate(accs):
                w.ins("vmovups %s, %s" % (acc, _mem(v * self.vbytes, C)))
            self._next_row(w, r)
        w.ins("jmp 9f")

    def _c_update_avx512(self, w):
        nv = self.nv
        if self.b_inplace:
            # set before the K loop for the B loads, untouched since
            direct, gk, vk = self.b_masks
        else:
            direct, gk, vk = self._lane_masks_avx512(w)
        if direct:
            self._full_tile_test_avx512(w, vk)
            w.ins("jne 5f")
            self._c_update_full_tile(w)
            w.label("5")
        loads_first = direct and not self.store and self.mr > 1
        if loads_first:
            self._c_loads_first_avx512(w, vk)
        for r in range(self.mr):
            tmp = 0
            for v in range(nv):
                if direct:
                    k = vk[v]
                elif v % 4 == 0:
                    k = gk[v // 4]
                else:
                    k = "%%k%d" % (5 + tmp % 3)
                    tmp += 1
                    w.ins("kshiftrq $$%d, %s, %s" % (16 * (v % 4), gk[v // 4], k))
                mem = _mem(v * self.vbytes, C)
                acc = self.acc[r][v]
                if not self.store and not loads_first:
                    w.ins("vaddps %s, %s, %s {%s}" % (mem, acc, acc, k))
                if not direct:
                    w.ins("vmovups %s, %s {%s}" % (acc, mem, k))
            if direct:
                for v in range(nv):
                    w.ins("vmovups %s, %s {%s}" % (self.acc[r][v], _mem(v * self.vbytes, C),
                                                   vk[v]))
            self._next_row(w, r)

    def _c_update_avx2(self, w):
        nv = self.nv
        w.ins("cmp $$%d, %s" % (self.nr, NREM))
        w.ins("jne 5f")
        self._c_update_full_tile(w)
        # edge tile: lane masks (lane i of vector v active iff 8v + i < n_rem)
        w.label("5")
        iota = self.bc[0]
        iota_x = iota.replace("ymm", "xmm")
        masks = self.breg
        w.ins("movabs $$0x0706050403020100, %rax")
        w.ins("vmovq %%rax, %s" % iota_x)
        w.ins("vpmovzxbd %s, %s" % (iota_x, iota))
        for v in range(nv):
            mx = masks[v].replace("ymm", "xmm")
            if v == 0:
                w.ins("vmovq %s, %s" % (NREM, mx))
            else:
                w.ins("lea %d(%s), %%rax" % (-8 * v, NREM))
                w.ins("vmovq %%rax, %s" % mx)
            w.ins("vpbroadcastd %s, %s" % (mx, masks[v]))
            w.ins("vpcmpgtd %s, %s, %s" % (iota, masks[v], masks[v]))
        tmp = self.bc[0]
        for r in range(self.mr):
            for v in range(nv):
                mem = _mem(v * self.vbytes, C)
                acc = self.acc[r][v]
                if not self.store:
                    w.ins("vmaskmovps %s, %s, %s" % (mem, masks[v], tmp))
                    w.ins("vaddps %s, %s, %s" % (tmp, acc, acc))
                w.ins("vmaskmovps %s, %s, %s" % (acc, masks[v], mem))
            self._next_row(w, r)

    # --------------------------------------------------------------- output
    def asm(self):
        w = AsmWriter()
        w.comment("%s: %s x %s fp32 tile%s, k_unroll %d, %s broadcast"
                  % (self.name, self.mr, self.nr,
                     " (bf16 k pairs)" if self.bf16 else "", self.ku, self.broadcast))
        # nothing to do (C untouched) when kc <= 0, m_rem <= 0 or n_rem <= 0;
        # "store" writes the zero tile when kc <= 0, an epilogue applies its
        # steps to C (a convolution's pixels that no filter tap reaches)
        k_skips = self.store or self.epi
        for op in (MREM, NREM) if k_skips else (KC, MREM, NREM):
            w.ins("test %s, %s" % (op, op))
            w.ins("jle 9f")
        zero = "vpxord" if self.isa == "avx512" else "vxorps"
        for accs in self.accsets:
            for row in accs:
                for reg in row:
                    w.ins("%s %s, %s, %s" % (zero, reg, reg, reg))
        if not self.store:
            self._prefetch_c(w)
        if self.epi:
            self.epi.prefetch_residual(w)
        if self.b_inplace and self.isa == "avx512":
            self.b_masks = self._lane_masks_avx512(w)
            self.bmask = self.b_masks[2]
        if k_skips:
            w.ins("test %s, %s" % (KC, KC))
            w.ins("jle 10f")
        if (self.a_stride or self.a_runtime) and self.mr > 1:
            self._k_loops_unpacked_a(w)
        else:
            self._k_body(w)
        if k_skips:
            w.label("10")
        if self.epi:
            def masks(w):
                if self.b_inplace:
                    return self.b_masks[2]
                direct, _, vk = self._lane_masks_avx512(w)
                assert direct
                return vk
            self.epi.c_update(w, masks)
        elif self.isa == "avx512":
            self._c_update_avx512(w)
        else:
            self._c_update_avx2(w)
        w.label("9")
        return w.text()

    def operands(self):
        return OPERANDS + (["epilogue"] if self.epi else []) + \
            (["b_panel_out"] if self.store_b else []) + \
            (["lda_bytes"] if self.a_runtime else []) + \
            (["ldb_bytes"] if self.b_runtime else [])

    def clobbers(self):
        nvec = self.nvec_used
        if self.epi:
            nvec = max(nvec, self.epi.vector_registers())
        vec = ["%s%d" % (self.vreg, i) for i in range(nvec)]
        gprs = list(SCRATCH_GPRS) + (["r11"] if self.taps > 1 or self.a_runtime else [])
        if self.epi:
            gprs += [g for g in self.epi.gprs() if g not in gprs]
        return vec + list(self.kregs) + gprs

    def json(self):
        asm = self.asm()  # also fills self.kregs
        clobbers = self.clobbers()
        out = {
            "name": self.name,
            "isa": self.isa,
            "mr": self.mr,
            "nr": self.nr,
            "dialect": "att",
            "asm": asm,
            "operands": self.operands(),
            "constraints": llvm_constraints(len(self.operands()), clobbers),
            "clobbers": clobbers,
            "vector_registers_used": self.nvec_used,
            "accumulators": self.nacc,
            # per step of kc (a k pair for gemm_bf16)
            "flops_per_k": (4 if self.bf16 else 2) * self.mr * self.nr,
            "emitter": EMITTER,
            "emitter_version": EMITTER_VERSION,
            "k_unroll": self.ku,
            "broadcast": self.broadcast,
            "prefetch_b": self.prefetch_b,
            "b_stride_bytes": self.b_stride,
            "a_stride_bytes": self.a_stride,
        }
        # Likewise the row prefetches, only where asked for.
        if self.prefetch_b_cols:
            out["prefetch_b_cols"] = self.prefetch_b_cols
        if self.prefetch_a:
            out["prefetch_a"] = self.prefetch_a
        if self.store_b:
            out["store_b_panel"] = 1
        # Only "store" kernels say so: accumulating answers stay as they were.
        if self.store:
            out["c_update"] = "store"
        if self.bf16:
            out["kernel"] = "gemm_bf16"
        # Only multi-tap kernels say so: GEMM answers stay as they were.
        if self.taps > 1:
            out["taps"] = self.taps
            out["tap_a_bytes"] = self.tap_a
        # Likewise only kernels with an epilogue: the steps, the constants
        # the block holds (64 + 64*i: 16 copies of constant i) and its size.
        if self.epi:
            out["epilogue"] = [repr(st) for st in self.epilogue_steps]
            out["epilogue_constants"] = list(self.epi.consts.values)
            out["epilogue_block_bytes"] = self.epi.block_bytes()
        return out

    def function(self, symbol):
        info = self.json()
        assert "r10" not in info["clobbers"]
        # Arguments past the 7th (epilogue block or b_panel_out, lda_bytes,
        # ldb_bytes) go to callee-saved %rbx, %r12 and %r13, pushed first.
        extra = ["%rbx", "%r12", "%r13"][:len(self.operands()) - len(FUNCTION_ARG_REGS)]
        regs = FUNCTION_ARG_REGS + extra
        body = substitute_operands(info["asm"], regs)
        prologue = ["  movq 8(%rsp), %r10"]
        prologue += ["  pushq %s" % r for r in extra]
        prologue += ["  movq %d(%%rsp), %s" % (16 + 8 * (len(extra) + i), r)
                     for i, r in enumerate(extra)]
        epilogue = ["  popq %s" % r for r in reversed(extra)]
        extra_args = "".join(", " + {"epilogue": "void *epilogue",
                                     "b_panel_out": "float *b_panel_out",
                                     "lda_bytes": "long lda_bytes",
                                     "ldb_bytes": "long ldb_bytes"}[o]
                             for o in self.operands()[len(FUNCTION_ARG_REGS):])
        lines = [
            "# generated by %s version %d from spec: isa=%s mr=%d nr=%d k_unroll=%d "
            "broadcast=%s prefetch_b=%d b_stride_bytes=%d a_stride_bytes=%d"
            % (EMITTER, EMITTER_VERSION, self.isa, self.mr, self.nr, self.ku,
               self.broadcast, self.prefetch_b, self.b_stride, self.a_stride),
            "# void %s(const float *a, const float *b, float *c, long kc, long ldc_bytes,"
            " long m_rem, long n_rem%s)" % (symbol, extra_args),
            "  .text",
            "  .globl %s" % symbol,
            "  .type %s,@function" % symbol,
            "  .p2align 5",
            "%s:" % symbol] + prologue + [
            body] + epilogue + [
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
