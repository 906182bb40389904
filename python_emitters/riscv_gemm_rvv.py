#!/usr/bin/env python3
"""RISC-V RVV 1.0 fp32 GEMM microkernel emitter (vfmacc.vf, VLEN-agnostic).

Reads a JSON spec, prints a JSON object describing an LLVM inline-asm block
(or, with --format=function, a standalone RISC-V .s file for testing).
Run with --help for the spec and output contract.
"""

import os
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tensorop_emit.common import (  # noqa: E402
    CommentAsmWriter,
    SpecError,
    UKERNEL_OPERANDS,
    check_known_fields,
    check_symbol,
    get_choice,
    get_int,
    get_pow2,
    get_str,
    llvm_constraints_for,
    run_emitter,
    substitute_operands,
    ukernel_operand_refs,
)
from tensorop_emit.epilogue import parse_epilogue  # noqa: E402
from tensorop_emit.rvv_epilogue import FPR_NUMBERS as EPI_FPRS, RvvEpilogue  # noqa: E402

EMITTER = "riscv_gemm_rvv.py"
EMITTER_VERSION = 1

OPERANDS = list(UKERNEL_OPERANDS)
A, B, C, KC, LDC, MREM, NREM = ukernel_operand_refs()

# --format=function: void f(a, b, c, kc, ldc_bytes, m_rem, n_rem[, epilogue])
# in a0..a6 (a7).
FUNCTION_ARG_REGS = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"]

# FP registers for the A elements, caller-saved ones first (ft0-ft7, fa0-fa7,
# ft8-ft11), then the callee-saved fs0-fs11 (only for mr > 20; the compiler
# saves them for inline asm, the --format=function wrapper saves them itself).
FPR_ORDER = list(range(0, 8)) + list(range(10, 18)) + list(range(28, 32)) + \
    [8, 9] + list(range(18, 28))
FPR_ABI = {}
for _i in range(8):
    FPR_ABI[_i] = "ft%d" % _i
    FPR_ABI[10 + _i] = "fa%d" % _i
for _i in range(4):
    FPR_ABI[28 + _i] = "ft%d" % (8 + _i)
FPR_ABI[8], FPR_ABI[9] = "fs0", "fs1"
for _i in range(10):
    FPR_ABI[18 + _i] = "fs%d" % (2 + _i)
FPR_CALLEE_SAVED = {8, 9} | set(range(18, 28))

# Scratch GPRs (all caller-saved temporaries): t0 = x5, t1 = x6, t2 = x7.
GPR_ABI = {5: "t0", 6: "t1", 7: "t2"}

LMULS = (1, 2, 4, 8)

# Unrolled bodies longer than this use "inverted branch + j" back edges so
# that no conditional branch needs more than its +-4 KiB reach.
MAX_SHORT_BRANCH_BYTES = 3500

SPEC_FIELDS = ("kernel", "isa", "mr", "nr", "k_unroll", "broadcast", "prefetch_b",
               "vlen_min", "epilogue", "format", "symbol")

HELP_EPILOG = r"""
spec (JSON object, on stdin or --spec FILE):
  kernel      "gemm_f32"                     required
  isa         "rvv"                          required (RVV 1.0, V extension)
  mr          rows of the C tile (>= 1)      required
  nr          columns of the C tile (>= 1)   required; at most VLMAX for
                                             LMUL=8 at vlen_min (8*vlen_min/32)
  k_unroll    1..16                          default 4
  broadcast   "explicit"                     default "explicit" (the only
                                             value: A is loaded with flw and
                                             used by vfmacc.vf; the field exists
                                             for the shared spec schema)
  prefetch_b  0..1024                        default 0; Zicbop prefetch.r hints
                                             (written as "ori zero, rs1, imm",
                                             a no-op HINT where Zicbop is
                                             absent) this many k-iterations
                                             ahead on the B panel (0: none)
  vlen_min    128, 256, ... 65536            default 128: the smallest VLEN the
                                             kernel must be correct on
  epilogue    list of step strings           default none; fused after the
                                             last K panel: "bias_n", "bias_m",
                                             "residual", "scale(s)",
                                             "clamp(lo,hi)", "relu", "tanh",
                                             "sigmoid", "silu", "gelu_tanh",
                                             "gelu_erf" (tensorop_emit/epilogue.py,
                                             rvv_epilogue.py); adds operand $7,
                                             the epilogue block
  format      "json" | "function"            default "json" (same as --format)
  symbol      function name for "function"   default: the kernel name

LMUL: the smallest of m1, m2, m4, m8 with VLMAX = LMUL*vlen_min/32 >= nr.
vsetvli always asks for AVL = nr (K loop) or AVL = n_rem (C update), both
<= VLMAX on every VLEN >= vlen_min, so vl is exactly that on any such
machine: the kernel never depends on VLEN beyond vlen_min.

register budget: (mr accumulator groups + 1 B group) * LMUL <= 32.  When
(mr + 2) * LMUL <= 32 a second B group double-buffers the B row (the next
k's vle32.v issues while this k's vfmacc.vf run: what an in-order core such
as the SpacemiT X60 needs).  A elements: mr f registers, each reloaded right
after the vfmacc.vf that reads it (a whole k step ahead of its next use).
"accumulators" in the output counts accumulator groups (= mr independent
FMA chains); "vector_registers_used" counts architectural v registers.
Suggested block: 6x16 (LMUL 4, B double-buffered: 6*4 + 2*4 = 32); see
hints/riscv-rvv.json and docs/estimates/cpu-cross-estimates.md.

Kernel semantics (packed BLIS-style microkernel), operands $0..$6 =
  a_panel, b_panel, c, kc, ldc_bytes, m_rem, n_rem  (64-bit integer registers,
  each tied in/out: constraints "=r" x7 then "0".."6"; the body may modify them)
  A(r,k) = f32 at a_panel + 4*(k*mr + r);  B(k,j) = f32 at b_panel + 4*(k*nr + j)
  for r < m_rem, j < n_rem:  C[r][j] += sum_{k<kc} A(r,k)*B(k,j),
  C[r][j] at c + r*ldc_bytes + 4*j.  1 <= m_rem <= mr, 1 <= n_rem <= nr, kc >= 0.
  Nothing outside [m_rem) x [n_rem) of C is read or written (vl = n_rem,
  early exit after row m_rem); kc <= 0 (or m_rem <= 0, n_rem <= 0) leaves C
  untouched.  Pointers need only 4-byte alignment.  The panels are read
  exactly: no load reaches past A(mr-1,kc-1) or B(kc-1,nr-1).
  With an epilogue: operand $7 (the epilogue block, tensorop_emit/epilogue.py)
  too, and C[r][j] = steps(C[r][j] + sum) for r < m_rem, j < n_rem, C
  written once; the block's scratch tile holds mr rows of nr floats.

output (--format=json): {"name", "isa", "mr", "nr", "dialect": "att", "asm",
  "operands", "constraints", "clobbers", "vector_registers_used",
  "accumulators", "flops_per_k", "emitter", "emitter_version", "k_unroll",
  "broadcast", "prefetch_b", "vlen_min", "lmul", "b_buffers"} (with an
  epilogue also "epilogue", "epilogue_constants", "epilogue_block_bytes").
  "dialect" "att" means the target's default assembler syntax.  "asm" is an
  LLVM IR inline-asm body: operands are $0..$6 ($0..$7 with an epilogue; printed as a0..a7-style
  ABI names), a literal '$' would be '$$' (never needed), only numeric local
  labels are used.  Clobbers use LLVM's architectural names: v0..v31,
  f0..f31, x5..x7 (an epilogue adds x28..x31), vl, vtype; constraints end
  with ~{memory}.  The body never touches sp, s0/fp, ra, gp or tp.
output (--format=function [--symbol NAME]): a standalone RISC-V .s file with
  void NAME(const float *a, const float *b, float *c, long kc, long ldc_bytes,
            long m_rem, long n_rem[, void *epilogue])   (LP64D ABI, $0..$7 =
  a0..a7; callee-saved fs registers the body uses are saved on the stack)

errors: exit status 2, one line on stderr naming the field, {"error": "..."} on
stdout.
"""


def _fits12(imm):
    return -2048 <= imm <= 2047


class Kernel:
    def __init__(self, spec):
        check_known_fields(spec, SPEC_FIELDS)
        kernel = get_str(spec, "kernel")
        if kernel != "gemm_f32":
            raise SpecError("kernel", 'must be "gemm_f32", got "%s"' % kernel)
        self.isa = get_choice(spec, "isa", ("rvv",))
        self.mr = get_int(spec, "mr", lo=1, hi=4096)
        self.nr = get_int(spec, "nr", lo=1, hi=1 << 16)
        self.ku = get_int(spec, "k_unroll", 4, lo=1, hi=16)
        self.broadcast = get_choice(spec, "broadcast", ("explicit",), "explicit")
        self.prefetch_b = get_int(spec, "prefetch_b", 0, lo=0, hi=1024)
        self.vlen_min = get_pow2(spec, "vlen_min", 128, lo=128, hi=65536)
        self.format = get_choice(spec, "format", ("json", "function"), "json")
        self.symbol = spec.get("symbol")
        if self.symbol is not None:
            self.symbol = get_str(spec, "symbol")

        vlmax1 = self.vlen_min // 32
        lmul = None
        for m in LMULS:
            if m * vlmax1 >= self.nr:
                lmul = m
                break
        if lmul is None:
            raise SpecError("nr", "must be <= %d (VLMAX of e32 at LMUL=8 for vlen_min %d), "
                            "got %d" % (8 * vlmax1, self.vlen_min, self.nr))
        self.lmul = lmul
        if (self.mr + 1) * lmul > 32:
            raise SpecError("mr", "register budget exceeded: (mr + 1) * LMUL = (%d + 1) * %d = "
                            "%d > 32 vector registers (nr %d needs LMUL %d at vlen_min %d; "
                            "reduce mr or nr, or raise vlen_min)"
                            % (self.mr, lmul, (self.mr + 1) * lmul, self.nr, lmul,
                               self.vlen_min))
        self.nbuf = 2 if (self.mr + 2) * lmul <= 32 else 1
        self.acc = ["v%d" % (r * lmul) for r in range(self.mr)]
        self.vb = ["v%d" % ((self.mr + i) * lmul) for i in range(self.nbuf)]
        self.nvec_used = (self.mr + self.nbuf) * lmul
        self.fregs = FPR_ORDER[:self.mr]
        self.fa = [FPR_ABI[f] for f in self.fregs]
        self.gprs = set()
        self.name = "rvv_f32_%dx%d_u%d_m%d_vlen%d" % (self.mr, self.nr, self.ku, lmul,
                                                      self.vlen_min)
        if self.prefetch_b:
            self.name += "_pf%d" % self.prefetch_b
        self.epilogue_steps = parse_epilogue(spec)
        self.epi = None
        if self.epilogue_steps:
            self.epi = RvvEpilogue(self, self.epilogue_steps)
            text = ",".join(repr(st) for st in self.epilogue_steps)
            self.name += "_epi%08x" % (zlib.crc32(text.encode()) & 0xffffffff)

    # -------------------------------------------------------------- helpers
    def _gpr(self, num):
        self.gprs.add(num)
        return GPR_ABI[num]

    def _addi(self, w, reg, imm):
        """reg += imm (t1 holds constants that do not fit 12 bits)."""
        if imm == 0:
            return
        if _fits12(imm):
            w.ins("addi %s, %s, %d" % (reg, reg, imm))
        else:
            t = self._gpr(6)
            w.ins("li %s, %d" % (t, imm))
            w.ins("add %s, %s, %s" % (reg, reg, t))

    def _vset(self, w, avl):
        """vsetvli for e32 at the kernel's LMUL with AVL = avl (int or reg)."""
        vt = "e32, m%d, ta, ma" % self.lmul
        if isinstance(avl, int):
            if avl <= 31:
                w.ins("vsetivli zero, %d, %s" % (avl, vt))
            else:
                t = self._gpr(5)
                w.ins("li %s, %d" % (t, avl))
                w.ins("vsetvli zero, %s, %s" % (t, vt))
        else:
            w.ins("vsetvli zero, %s, %s" % (avl, vt))

    def _load_b(self, w, vreg):
        w.ins("vle32.v %s, (%s)" % (vreg, B))

    def _advance_b(self, w):
        """B pointer (and prefetch pointer) past one k row.  Kept away from
        the vle32.v: on the in-order X60 a scalar op right behind a vector
        load waits for the load to write back (LLVM's X60 model)."""
        self._addi(w, B, 4 * self.nr)
        if self.prefetch_b:
            t = self._gpr(7)
            # prefetch.r off(t2) == ori zero, t2, off | 1 (Zicbop; a HINT, so a
            # no-op where Zicbop is absent); offsets are multiples of 32.
            for off in range(0, min(4 * self.nr, 2017), 64):
                w.ins("ori zero, %s, %d" % (t, off | 1))
            self._addi(w, t, 4 * self.nr)

    # ---------------------------------------------------------------- K loop
    def _step(self, w, cur, nxt, load, a_off, extra=()):
        """One k iteration on B buffer `cur`; with `load`, also load the next
        k's A elements (from a_off(A)) and B row (into buffer `nxt`).
        `extra` (loop control) goes in early, where a dual-issue slot is free."""
        for r in range(self.mr):
            w.ins("vfmacc.vf %s, %s, %s" % (self.acc[r], self.fa[r], self.vb[cur]))
            if load and nxt != cur and r == 0:
                self._load_b(w, self.vb[nxt])  # double buffer: early
            if load:
                # the f register was just read: reload it for the next k
                w.ins("flw %s, %d(%s)" % (self.fa[r], a_off + 4 * r, A))
            if r == min(1, self.mr - 1):
                for line in extra:
                    w.ins(line)
        if load and nxt == cur:
            self._load_b(w, self.vb[cur])  # single buffer: after the last use
        if load:
            self._advance_b(w)

    def _block(self, w, n, extra=()):
        """n k-steps, each loading the next k; leaves the next k in buffer 0."""
        cur = 0
        for u in range(n):
            nxt = (cur + 1) % self.nbuf if u < n - 1 else 0
            self._step(w, cur, nxt, True, 4 * u * self.mr, extra if u == 0 else ())
            cur = nxt

    def _step_instrs(self):
        n = 2 * self.mr + 2 + (1 if 4 * self.nr > 2047 else 0)
        if self.prefetch_b:
            n += 2 + (4 * self.nr + 63) // 64
        return n

    def _k_loops(self, w):
        ku, mr = self.ku, self.mr
        # prologue: k = 0 into buffer 0 (kc >= 1 here)
        if self.prefetch_b:
            t = self._gpr(7)
            w.ins("mv %s, %s" % (t, B))
            self._addi(w, t, self.prefetch_b * self.nr * 4)
        self._load_b(w, self.vb[0])
        self._advance_b(w)
        for r in range(mr):
            w.ins("flw %s, %d(%s)" % (self.fa[r], 4 * r, A))
        w.ins("addi %s, %s, %d" % (A, A, 4 * mr))
        for reg in self.acc:
            w.ins("vmv.v.i %s, 0" % reg)
        # $3 counts the k steps that still have a successor to load
        if ku > 1:
            # a body beyond the +-4 KiB reach of conditional branches is
            # entered and closed with "inverted branch + j"
            far = self._step_instrs() * ku * 4 > MAX_SHORT_BRANCH_BYTES
            w.ins("addi %s, %s, %d" % (KC, KC, -(ku + 1)))
            if far:
                w.ins("bgez %s, 1f" % KC)
                w.ins("j 2f")
            else:
                w.ins("bltz %s, 2f" % KC)
            w.label("1")
            self._block(w, ku, ["addi %s, %s, %d" % (KC, KC, -ku)])
            w.ins("addi %s, %s, %d" % (A, A, 4 * ku * mr))
            if far:
                w.ins("bltz %s, 2f" % KC)
                w.ins("j 1b")
            else:
                w.ins("bgez %s, 1b" % KC)
            w.label("2")
            w.ins("addi %s, %s, %d" % (KC, KC, ku))
        else:
            w.ins("addi %s, %s, -1" % (KC, KC))
        w.ins("beqz %s, 4f" % KC)
        w.label("3")
        self._block(w, 1, ["addi %s, %s, -1" % (KC, KC)])
        w.ins("addi %s, %s, %d" % (A, A, 4 * mr))
        w.ins("bnez %s, 3b" % KC)
        w.label("4")
        # last k: nothing left to load
        self._step(w, 0, 0, False, 0)

    # -------------------------------------------------------------- C update
    def _c_update(self, w):
        # vl = n_rem <= nr <= VLMAX: exactly n_rem columns are loaded/stored
        self._vset(w, NREM)
        tmp = self.vb[0]
        for r in range(self.mr):
            w.ins("vle32.v %s, (%s)" % (tmp, C))
            w.ins("vfadd.vv %s, %s, %s" % (self.acc[r], self.acc[r], tmp))
            w.ins("vse32.v %s, (%s)" % (self.acc[r], C))
            if r + 1 < self.mr:
                w.ins("addi %s, %s, -1" % (MREM, MREM))
                w.ins("beqz %s, 9f" % MREM)
                w.ins("add %s, %s, %s" % (C, C, LDC))

    # --------------------------------------------------------------- output
    def asm(self):
        self.gprs = set()
        w = CommentAsmWriter(comment_prefix="#")
        w.comment("%s: %d x %d fp32 tile, e32 m%d (VLMAX >= nr for VLEN >= %d), "
                  "k_unroll %d, %d B buffer(s)"
                  % (self.name, self.mr, self.nr, self.lmul, self.vlen_min, self.ku,
                     self.nbuf))
        # nothing to do (C untouched) when kc <= 0, m_rem <= 0 or n_rem <= 0;
        # "bgtz + j" when the body is beyond a conditional branch's reach
        body = CommentAsmWriter(comment_prefix="#")
        self._vset(body, self.nr)
        self._k_loops(body)
        if self.epi:
            self.epi.c_update(body, C, LDC, MREM, NREM)
        else:
            self._c_update(body)
        far = 4 * len(body.lines) > MAX_SHORT_BRANCH_BYTES
        for op in (KC, MREM, NREM):
            if far:
                w.ins("bgtz %s, 5f" % op)
                w.ins("j 9f")
                w.label("5")
            else:
                w.ins("blez %s, 9f" % op)
        w.lines.extend(body.lines)
        w.label("9")
        return w.text()

    def clobbers(self):
        nvec, fregs, gprs = self.nvec_used, set(self.fregs), set(self.gprs)
        if self.epi:
            nvec = max(nvec, self.epi.vector_registers())
            fregs |= set(EPI_FPRS)
            gprs |= self.epi.used_gprs
        vec = ["v%d" % i for i in range(nvec)]
        fpr = ["f%d" % f for f in sorted(fregs)]
        gpr = ["x%d" % g for g in sorted(gprs)]
        return vec + fpr + gpr + ["vl", "vtype"]

    def operands(self):
        return OPERANDS + (["epilogue"] if self.epi else [])

    def json(self):
        if self.epi:
            self.epi.used_gprs = set()
        asm = self.asm()  # also fills self.gprs
        clobbers = self.clobbers()
        out = {
            "name": self.name,
            "isa": self.isa,
            "mr": self.mr,
            "nr": self.nr,
            "dialect": "att",
            "asm": asm,
            "operands": self.operands(),
            "constraints": llvm_constraints_for(len(self.operands()), clobbers),
            "clobbers": clobbers,
            "vector_registers_used": self.nvec_used,
            "accumulators": self.mr,
            "flops_per_k": 2 * self.mr * self.nr,
            "emitter": EMITTER,
            "emitter_version": EMITTER_VERSION,
            "k_unroll": self.ku,
            "broadcast": self.broadcast,
            "prefetch_b": self.prefetch_b,
            "vlen_min": self.vlen_min,
            "lmul": self.lmul,
            "b_buffers": self.nbuf,
        }
        # Only kernels with an epilogue: the steps, the constants the block
        # holds (64 + 64*i: 16 copies of constant i) and its size.
        if self.epi:
            out["epilogue"] = [repr(st) for st in self.epilogue_steps]
            out["epilogue_constants"] = list(self.epi.consts.values)
            out["epilogue_block_bytes"] = self.epi.block_bytes()
        return out

    def function(self, symbol):
        info = self.json()
        body = substitute_operands(info["asm"], FUNCTION_ARG_REGS)
        saved = [f for f in sorted(self.fregs) if f in FPR_CALLEE_SAVED]
        frame = (8 * len(saved) + 15) // 16 * 16
        lines = [
            "# generated by %s version %d from spec: isa=%s mr=%d nr=%d k_unroll=%d "
            "broadcast=%s prefetch_b=%d vlen_min=%d" % (EMITTER, EMITTER_VERSION, self.isa,
                                                        self.mr, self.nr, self.ku,
                                                        self.broadcast, self.prefetch_b,
                                                        self.vlen_min),
            "# void %s(const float *a, const float *b, float *c, long kc, long ldc_bytes,"
            " long m_rem, long n_rem%s)" % (symbol, ", void *epilogue" if self.epi else ""),
            "  .text",
            "  .globl %s" % symbol,
            "  .type %s,@function" % symbol,
            "  .p2align 2",
            "%s:" % symbol,
        ]
        if saved:
            lines.append("  addi sp, sp, -%d" % frame)
            for i, f in enumerate(saved):
                lines.append("  fsd %s, %d(sp)" % (FPR_ABI[f], 8 * i))
        lines.append(body)
        if saved:
            for i, f in enumerate(saved):
                lines.append("  fld %s, %d(sp)" % (FPR_ABI[f], 8 * i))
            lines.append("  addi sp, sp, %d" % frame)
        lines += [
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
        sym = check_symbol(symbol or k.symbol or k.name)
        return k.function(sym)
    return k.json()


def main(argv=None):
    return run_emitter(emit, description=__doc__.strip().splitlines()[0],
                       epilog=HELP_EPILOG, formats=("json", "function"), argv=argv)


if __name__ == "__main__":
    sys.exit(main())
