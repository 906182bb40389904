#!/usr/bin/env python3
"""AArch64 NEON fp32 GEMM microkernel emitter (fmla by element, 128-bit q registers).

Reads a JSON spec, prints a JSON object describing an LLVM inline-asm block
(or, with --format=function, a standalone AArch64 .s file for testing).
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
    get_str,
    llvm_constraints_for,
    run_emitter,
    substitute_operands,
    ukernel_operand_refs,
)
from tensorop_emit.epilogue import parse_epilogue  # noqa: E402
from tensorop_emit.neon_epilogue import (  # noqa: E402
    GPR_NUMBERS as EPI_GPRS, VREGS as EPI_VREGS, NeonEpilogue)

EMITTER = "arm_gemm_neon.py"
EMITTER_VERSION = 1

OPERANDS = list(UKERNEL_OPERANDS)
A, B, C, KC, LDC, MREM, NREM = ukernel_operand_refs()

# --format=function: void f(a, b, c, kc, ldc_bytes, m_rem, n_rem[, epilogue])
# in x0..x6 (x7).
FUNCTION_ARG_REGS = ["x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7"]

# Vector registers in allocation order: the caller-saved v0-v7 and v16-v31
# first, then v8-v15 (their low halves d8-d15 are callee-saved under AAPCS64:
# the compiler saves them for inline asm, the --format=function wrapper saves
# them itself).
VREG_ORDER = list(range(0, 8)) + list(range(16, 32)) + list(range(8, 16))
VREG_CALLEE_SAVED = set(range(8, 16))

# Scratch GPRs, caller-saved temporaries: x9 (C row pointer), x10 (columns
# left), x11 (B prefetch pointer), x12 (large constants).
SPEC_FIELDS = ("kernel", "isa", "mr", "nr", "k_unroll", "broadcast", "prefetch_b",
               "epilogue", "format", "symbol")

HELP_EPILOG = r"""
spec (JSON object, on stdin or --spec FILE):
  kernel      "gemm_f32"                     required
  isa         "neon"                         required (AArch64 Advanced SIMD)
  mr          rows of the C tile (>= 1)      required; any value, multiples
                                             of 4 fill whole A registers
  nr          columns of the C tile          required; a multiple of 4;
                                             nv = nr / 4 q registers per row
  k_unroll    1..16                          default 4
  broadcast   "explicit"                     default "explicit" (the only value:
                                             A is loaded as vectors and used by
                                             fmla by element; the field exists
                                             for the shared spec schema)
  prefetch_b  0..1024                        default 0; prfm pldl1keep of the B
                                             panel this many k-iterations ahead
                                             (0: none)
  epilogue    list of step strings           default none; fused after the
                                             last K panel: "bias_n", "bias_m",
                                             "residual", "scale(s)",
                                             "clamp(lo,hi)", "relu", "tanh",
                                             "sigmoid", "silu", "gelu_tanh",
                                             "gelu_erf" (tensorop_emit/epilogue.py,
                                             neon_epilogue.py); adds operand $7,
                                             the epilogue block
  format      "json" | "function"            default "json" (same as --format)
  symbol      function name for "function"   default: the kernel name

register budget: mr*nv accumulators + nv B registers + the A registers
(ceil(mr/4), one more when mr % 4 == 3: rows 4g..4g+2 come from an 8-byte
and a 4-byte load so that no load reaches past the panel) must be <= 32.
The default block is 8x12: 24 accumulators + 3 B + 2 A = 29.

Kernel semantics (packed BLIS-style microkernel), operands $0..$6 =
  a_panel, b_panel, c, kc, ldc_bytes, m_rem, n_rem  (64-bit integer registers,
  each tied in/out: constraints "=r" x7 then "0".."6"; the body may modify them)
  A(r,k) = f32 at a_panel + 4*(k*mr + r);  B(k,j) = f32 at b_panel + 4*(k*nr + j)
  for r < m_rem, j < n_rem:  C[r][j] += sum_{k<kc} A(r,k)*B(k,j),
  C[r][j] at c + r*ldc_bytes + 4*j.  1 <= m_rem <= mr, 1 <= n_rem <= nr, kc >= 0.
  Nothing outside [m_rem) x [n_rem) of C is read or written (n_rem < nr takes
  a path with 8- and 4-byte loads/stores for the last columns; prfm hints on
  C rows are not accesses); kc <= 0 (or m_rem <= 0, n_rem <= 0) leaves C
  untouched.  Pointers need only 4-byte alignment.  The panels are read
  exactly: no load reaches past A(mr-1,kc-1) or B(kc-1,nr-1).
  With an epilogue: operand $7 (the epilogue block, tensorop_emit/epilogue.py)
  too, and C[r][j] = steps(C[r][j] + sum) for r < m_rem, j < n_rem, C
  written once; the block's scratch tile holds mr rows of nr floats.

output (--format=json): {"name", "isa", "mr", "nr", "dialect": "att", "asm",
  "operands", "constraints", "clobbers", "vector_registers_used",
  "accumulators", "flops_per_k", "emitter", "emitter_version", "k_unroll",
  "broadcast", "prefetch_b"} (with an epilogue also "epilogue",
  "epilogue_constants", "epilogue_block_bytes").  "dialect" "att" means the
  target's default assembler syntax.  "asm" is an LLVM IR inline-asm body:
  operands are $0..$6 ($0..$7 with an epilogue; printed as x registers), a
  literal '$' would be '$$' (never needed), only numeric local labels are
  used, comments start with //.  Clobbers: v0..v31 (LLVM maps them to the
  full q registers), x9..x12 (x9..x14 with an epilogue), nzcv; constraints
  end with ~{memory}.  The body never touches sp, x18, x29 or x30.
output (--format=function [--symbol NAME]): a standalone AArch64 .s file with
  void NAME(const float *a, const float *b, float *c, long kc, long ldc_bytes,
            long m_rem, long n_rem[, void *epilogue])   (AAPCS64, $0..$7 =
  x0..x7; d8-d15 are
  saved on the stack when the body uses v8-v15)

errors: exit status 2, one line on stderr naming the field, {"error": "..."} on
stdout.
"""


def _add_imm(w, reg, imm, tmp):
    """reg += imm (imm >= 0); returns True if tmp was used."""
    if imm == 0:
        return False
    if imm < 4096:
        w.ins("add %s, %s, #%d" % (reg, reg, imm))
        return False
    if imm % 4096 == 0 and imm < 4096 * 4096:
        w.ins("add %s, %s, #%d, lsl #12" % (reg, reg, imm // 4096))
        return False
    w.ins("mov %s, #%d" % (tmp, imm & 0xFFFF))
    if imm >> 16:
        w.ins("movk %s, #%d, lsl #16" % (tmp, (imm >> 16) & 0xFFFF))
    w.ins("add %s, %s, %s" % (reg, reg, tmp))
    return True


class Kernel:
    def __init__(self, spec):
        check_known_fields(spec, SPEC_FIELDS)
        kernel = get_str(spec, "kernel")
        if kernel != "gemm_f32":
            raise SpecError("kernel", 'must be "gemm_f32", got "%s"' % kernel)
        self.isa = get_choice(spec, "isa", ("neon",))
        self.mr = get_int(spec, "mr", lo=1, hi=4096)
        self.nr = get_int(spec, "nr", lo=1, hi=1 << 16)
        self.ku = get_int(spec, "k_unroll", 4, lo=1, hi=16)
        self.broadcast = get_choice(spec, "broadcast", ("explicit",), "explicit")
        self.prefetch_b = get_int(spec, "prefetch_b", 0, lo=0, hi=1024)
        self.format = get_choice(spec, "format", ("json", "function"), "json")
        self.symbol = spec.get("symbol")
        if self.symbol is not None:
            self.symbol = get_str(spec, "symbol")
        if self.nr % 4:
            raise SpecError("nr", "must be a multiple of 4 for neon, got %d" % self.nr)
        self.nv = self.nr // 4
        mr, nv = self.mr, self.nv
        # A registers: (size in bytes, offset in the k row)
        a_loads = [(16, 16 * g) for g in range(mr // 4)]
        rest = mr % 4
        if rest == 1:
            a_loads.append((4, 16 * (mr // 4)))
        elif rest == 2:
            a_loads.append((8, 16 * (mr // 4)))
        elif rest == 3:
            a_loads += [(8, 16 * (mr // 4)), (4, 16 * (mr // 4) + 8)]
        self.na = len(a_loads)
        nacc = mr * nv
        need = nacc + nv + self.na
        if need > 32:
            raise SpecError("mr", "register budget exceeded: mr*nv + nv + A registers = "
                            "%d*%d + %d + %d = %d > 32 vector registers (reduce mr or nr)"
                            % (mr, nv, nv, self.na, need))
        regs = VREG_ORDER[:need]
        self.used = sorted(regs)
        self.areg = regs[:self.na]
        self.breg = regs[self.na:self.na + nv]
        accs = regs[self.na + nv:]
        self.acc = [[accs[r * nv + v] for v in range(nv)] for r in range(mr)]
        self.a_loads = [(self.areg[i], size, off) for i, (size, off) in enumerate(a_loads)]
        # (register, lane) holding A(r, k)
        self.a_elem = []
        for r in range(mr):
            g, lane = divmod(r, 4)
            if rest == 3 and g == mr // 4 and lane == 2:
                self.a_elem.append((self.areg[-1], 0))
            else:
                self.a_elem.append((self.areg[g], lane))
        # unsigned-offset addressing for A needs 16-byte multiples
        self.a_postinc = mr % 4 != 0
        self.gprs = set()
        self.name = "neon_f32_%dx%d_u%d" % (mr, self.nr, self.ku)
        if self.prefetch_b:
            self.name += "_pf%d" % self.prefetch_b
        self.epilogue_steps = parse_epilogue(spec)
        self.epi = None
        if self.epilogue_steps:
            self.epi = NeonEpilogue(self, self.epilogue_steps)
            text = ",".join(repr(st) for st in self.epilogue_steps)
            self.name += "_epi%08x" % (zlib.crc32(text.encode()) & 0xffffffff)

    def _x(self, n):
        self.gprs.add(n)
        return "x%d" % n

    # ---------------------------------------------------------------- K loop
    @staticmethod
    def _loads(w, items, base, postinc):
        """Emit loads of (reg, size, offset) items from base; two adjacent
        16-byte loads become one ldp (fewer uops on A76-class cores)."""
        kinds = {16: "q", 8: "d", 4: "s"}
        i = 0
        while i < len(items):
            reg, size, off = items[i]
            nxt = items[i + 1] if i + 1 < len(items) else None
            pair = (nxt is not None and size == 16 and nxt[1] == 16 and nxt[2] == off + 16
                    and (postinc or off <= 1008))
            if pair and postinc:
                w.ins("ldp q%d, q%d, [%s], #32" % (reg, nxt[0], base))
            elif pair:
                w.ins("ldp q%d, q%d, [%s, #%d]" % (reg, nxt[0], base, off))
            elif postinc:
                w.ins("ldr %s%d, [%s], #%d" % (kinds[size], reg, base, size))
            else:
                w.ins("ldr %s%d, [%s, #%d]" % (kinds[size], reg, base, off))
            i += 2 if pair else 1

    def _k_step(self, w, u):
        mr, nr = self.mr, self.nr
        a_items = [(reg, size, 4 * u * mr + off) for reg, size, off in self.a_loads]
        self._loads(w, a_items, A, self.a_postinc)
        b_items = [(self.breg[v], 16, 4 * u * nr + 16 * v) for v in range(self.nv)]
        self._loads(w, b_items, B, False)
        if self.prefetch_b:
            pf = self._x(11)
            for off in range(4 * u * nr, 4 * (u + 1) * nr, 64):
                w.ins("prfm pldl1keep, [%s, #%d]" % (pf, off))
        for v in range(self.nv):
            for r in range(mr):
                areg, lane = self.a_elem[r]
                w.ins("fmla v%d.4s, v%d.4s, v%d.s[%d]"
                      % (self.acc[r][v], self.breg[v], areg, lane))

    def _advance(self, w, n):
        """Pointers past n k steps."""
        used = False
        if not self.a_postinc:
            used |= _add_imm(w, A, 4 * n * self.mr, "x12")
        used |= _add_imm(w, B, 4 * n * self.nr, "x12")
        if self.prefetch_b:
            used |= _add_imm(w, self._x(11), 4 * n * self.nr, "x12")
        if used:
            self.gprs.add(12)

    def _k_loops(self, w):
        ku = self.ku
        if self.prefetch_b:
            w.ins("mov %s, %s" % (self._x(11), B))
            if _add_imm(w, "x11", 4 * self.prefetch_b * self.nr, "x12"):
                self.gprs.add(12)
        if ku > 1:
            w.ins("subs %s, %s, #%d" % (KC, KC, ku))
            w.ins("b.lt 2f")
            w.lines.append("  .p2align 4")
            w.label("1")
            for u in range(ku):
                self._k_step(w, u)
            self._advance(w, ku)
            w.ins("subs %s, %s, #%d" % (KC, KC, ku))
            w.ins("b.ge 1b")
            w.label("2")
            w.ins("adds %s, %s, #%d" % (KC, KC, ku))
            w.ins("b.eq 4f")
        w.label("3")
        self._k_step(w, 0)
        self._advance(w, 1)
        w.ins("subs %s, %s, #1" % (KC, KC))
        w.ins("b.ne 3b")
        w.label("4")

    # -------------------------------------------------------------- C update
    def _next_row(self, w, r):
        if r + 1 < self.mr:
            w.ins("subs %s, %s, #1" % (MREM, MREM))
            w.ins("b.eq 9f")
            w.ins("add %s, %s, %s" % (C, C, LDC))

    def _c_update(self, w):
        nv, mr = self.nv, self.mr
        tmp = self.breg + self.areg  # free after the K loop
        w.ins("cmp %s, #%d" % (NREM, self.nr))
        w.ins("b.ne 5f")
        # full-width tile
        for r in range(mr):
            for v in range(nv):
                w.ins("ldr q%d, [%s, #%d]" % (tmp[v % len(tmp)], C, 16 * v))
                w.ins("fadd v%d.4s, v%d.4s, v%d.4s" % (self.acc[r][v], self.acc[r][v],
                                                      tmp[v % len(tmp)]))
                w.ins("str q%d, [%s, #%d]" % (self.acc[r][v], C, 16 * v))
            self._next_row(w, r)
        w.ins("b 9f")
        # n_rem < nr: one row at a time from the row-0 accumulators, the
        # others shifted up one row after each row
        t, u = tmp[0], tmp[1]
        x9, x10 = self._x(9), self._x(10)
        w.label("5")
        w.ins("mov %s, %s" % (x9, C))
        w.ins("mov %s, %s" % (x10, NREM))
        for v in range(nv):
            acc = self.acc[0][v]
            w.ins("mov v%d.16b, v%d.16b" % (t, acc))
            w.ins("cmp %s, #4" % x10)
            w.ins("b.lt 6f")
            w.ins("ldr q%d, [%s]" % (u, x9))
            w.ins("fadd v%d.4s, v%d.4s, v%d.4s" % (acc, acc, u))
            w.ins("str q%d, [%s], #16" % (acc, x9))
            w.ins("sub %s, %s, #4" % (x10, x10))
        # 0..3 columns left, their sums in the low lanes of t
        w.label("6")
        w.ins("tbz %s, #1, 7f" % x10)
        w.ins("ldr d%d, [%s]" % (u, x9))
        w.ins("fadd v%d.2s, v%d.2s, v%d.2s" % (u, t, u))
        w.ins("str d%d, [%s], #8" % (u, x9))
        w.ins("ext v%d.16b, v%d.16b, v%d.16b, #8" % (t, t, t))
        w.label("7")
        w.ins("tbz %s, #0, 8f" % x10)
        w.ins("ldr s%d, [%s]" % (u, x9))
        w.ins("fadd s%d, s%d, s%d" % (u, t, u))
        w.ins("str s%d, [%s]" % (u, x9))
        w.label("8")
        if mr > 1:
            w.ins("subs %s, %s, #1" % (MREM, MREM))
            w.ins("b.eq 9f")
            w.ins("add %s, %s, %s" % (C, C, LDC))
            for r in range(mr - 1):
                for v in range(nv):
                    w.ins("mov v%d.16b, v%d.16b" % (self.acc[r][v], self.acc[r + 1][v]))
            w.ins("b 5b")

    def _prefetch_c(self, w):
        x9 = self._x(9)
        w.ins("mov %s, %s" % (x9, C))
        for r in range(self.mr):
            for off in range(0, 4 * self.nr, 64):
                w.ins("prfm pldl1keep, [%s, #%d]" % (x9, off))
            # the row need not start on a line boundary: its last byte too
            w.ins("prfum pldl1keep, [%s, #%d]" % (x9, 4 * self.nr - 1))
            if r + 1 < self.mr:
                w.ins("add %s, %s, %s" % (x9, x9, LDC))

    # --------------------------------------------------------------- output
    def asm(self):
        self.gprs = set()
        w = CommentAsmWriter(comment_prefix="//")
        w.comment("%s: %d x %d fp32 tile, %d accumulators, k_unroll %d"
                  % (self.name, self.mr, self.nr, self.mr * self.nv, self.ku))
        # nothing to do (C untouched) when kc <= 0, m_rem <= 0 or n_rem <= 0
        for op in (KC, MREM, NREM):
            w.ins("cmp %s, #0" % op)
            w.ins("b.le 9f")
        self._prefetch_c(w)
        for reg in self.used:
            if reg not in self.areg and reg not in self.breg:
                w.ins("movi v%d.4s, #0" % reg)
        self._k_loops(w)
        if self.epi:
            self.epi.c_update(w, C, LDC, MREM, NREM)
        else:
            self._c_update(w)
        w.label("9")
        return w.text()

    def clobbers(self):
        vregs, gprs = set(self.used), set(self.gprs)
        if self.epi:
            vregs |= set(EPI_VREGS)
            gprs |= set(EPI_GPRS)
        vec = ["v%d" % i for i in sorted(vregs)]
        gpr = ["x%d" % g for g in sorted(gprs)]
        return vec + gpr + ["nzcv"]

    def operands(self):
        return OPERANDS + (["epilogue"] if self.epi else [])

    def json(self):
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
            "vector_registers_used": len(self.used),
            "accumulators": self.mr * self.nv,
            "flops_per_k": 2 * self.mr * self.nr,
            "emitter": EMITTER,
            "emitter_version": EMITTER_VERSION,
            "k_unroll": self.ku,
            "broadcast": self.broadcast,
            "prefetch_b": self.prefetch_b,
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
        saved = [r for r in self.used if r in VREG_CALLEE_SAVED]
        if len(saved) % 2:
            saved.append(saved[-1] + 1 if saved[-1] < 15 else saved[-1] - 1)
            saved.sort()
        pairs = [(saved[i], saved[i + 1]) for i in range(0, len(saved), 2)]
        frame = 16 * len(pairs)
        lines = [
            "// generated by %s version %d from spec: isa=%s mr=%d nr=%d k_unroll=%d "
            "broadcast=%s prefetch_b=%d" % (EMITTER, EMITTER_VERSION, self.isa, self.mr,
                                            self.nr, self.ku, self.broadcast,
                                            self.prefetch_b),
            "// void %s(const float *a, const float *b, float *c, long kc, long ldc_bytes,"
            " long m_rem, long n_rem%s)" % (symbol, ", void *epilogue" if self.epi else ""),
            "  .text",
            "  .globl %s" % symbol,
            "  .type %s,%%function" % symbol,
            "  .p2align 4",
            "%s:" % symbol,
        ]
        for i, (p, q) in enumerate(pairs):
            if i == 0:
                lines.append("  stp d%d, d%d, [sp, #-%d]!" % (p, q, frame))
            else:
                lines.append("  stp d%d, d%d, [sp, #%d]" % (p, q, 16 * i))
        lines.append(body)
        for i, (p, q) in reversed(list(enumerate(pairs))):
            if i == 0:
                lines.append("  ldp d%d, d%d, [sp], #%d" % (p, q, frame))
            else:
                lines.append("  ldp d%d, d%d, [sp, #%d]" % (p, q, 16 * i))
        lines += [
            "  ret",
            "  .size %s, .-%s" % (symbol, symbol),
            '  .section .note.GNU-stack,"",%progbits',
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
