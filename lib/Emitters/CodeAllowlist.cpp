//===- CodeAllowlist.cpp - What a model-written microkernel may contain ---===//
//
// A microkernel computes on vectors, loads and stores through the pointers
// it is given, and loops. Model-written code is held to that before it is
// spliced into a program or run: each instruction the assembler parsed must
// be on its target's allowlist (vector/FP arithmetic, integer arithmetic for
// addresses and counters, loads/stores/prefetches, conditional and direct
// branches), and beyond the mnemonic:
//  - control flow only to labels the kernel itself defines: no call, return,
//    indirect jump, or branch to an outside symbol;
//  - no operand names the stack pointer, the program counter (x86 RIP,
//    so no PC-relative address that could read or write the code) or an x86
//    segment register; no absolute memory address; no symbol used as a
//    value (a code address to write through);
//  - at least one store (a kernel that never writes C computes nothing).
// Anything else (system calls, traps, privileged or system-register
// instructions, cache maintenance, atomics, data directives) is refused by
// name. What this cannot see: which pointer a store goes through and how
// far (a kernel may write anywhere its pointer arithmetic reaches), and
// whether it computes the right numbers; numerical verification and the
// sandbox answer those (docs/LLM.md, "Threat model").
//
//===----------------------------------------------------------------------===//

#include "CodeAllowlist.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/Support/Casting.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::tensorop;

namespace {
/// Mnemonics (as the target's printer writes them, AT&T on x86) a
/// microkernel may use, as one anchored regular expression per target.
const char *const kX86Allowed =
    "^("
    // AVX, AVX2, FMA, AVX-512 (VEX/EVEX: all v*), mask registers (k*).
    "v[a-z0-9]+|k[a-z]+|"
    // SSE arithmetic and moves.
    "(movu|mova|add|sub|mul|max|min|xor|and|andn|or|shuf|unpckl|unpckh)p[sd]|"
    "(mov|add|sub|mul|max|min)s[sd]|movhlps|movlhps|pxor|cvt[a-z0-9]+|"
    // Integer arithmetic on addresses and counters.
    "(mov|movabs|lea|add|sub|adc|sbb|inc|dec|neg|not|and|or|xor|andn|shl|"
    "shr|sar|sal|rol|ror|shlx|shrx|sarx|rorx|bzhi|bextr|blsr|blsi|blsmsk|"
    "pdep|pext|popcnt|lzcnt|tzcnt|imul|cmp|test|bt)[bwlq]?|"
    "movs[bw][wlq]|movz[bw][wlq]|movslq|cltq|cqto|cltd|cwtl|"
    "cmov[a-z]{1,3}[wlq]?|set[a-z]{1,3}|"
    // Branches (targets are checked separately), prefetches, no-ops.
    "j[a-z]{1,3}|prefetch(t0|t1|t2|nta|w|wt1)|nop[wlq]?"
    ")$";
/// VEX-looking names that are virtualization or segment instructions.
const char *const kX86Refused =
    "^(vm(call|launch|resume|read|write|xon|xoff|ptrld|ptrst|clear|func|run|"
    "load|save|mcall|gexit)|verr|verw)$";

const char *const kRiscVAllowed =
    "^("
    // RVV: every v* instruction (vector arithmetic, loads, stores, vsetvli).
    "v[a-z0-9.]+|"
    "(add|addi|addw|addiw|sub|subw|neg|negw|mul|mulw|mulh|mulhu|mulhsu|sll|"
    "slli|srl|srli|sra|srai|sllw|slliw|srlw|srliw|sraw|sraiw|and|andi|or|"
    "ori|xor|xori|not|lui|li|mv|slt|slti|sltu|sltiu|seqz|snez|sltz|sgtz|"
    "sext\\.[bhw]|zext\\.[bhw]|sh[123]add|sh[123]add\\.uw|add\\.uw|"
    "slli\\.uw|min|minu|max|maxu|andn|orn|xnor|czero\\.(eqz|nez))|"
    "(lb|lh|lw|ld|lbu|lhu|lwu|sb|sh|sw|sd|flw|fld|flh|fsw|fsd|fsh)|"
    "f(n?madd|n?msub|add|sub|mul|min|max|neg|abs|sgnjn?|sgnjx)\\.[sdh]|"
    "fmv\\.[a-z.]+|fcvt\\.[a-z.]+|"
    "(beq|bne|blt|bge|bltu|bgeu|beqz|bnez|blez|bgez|bltz|bgtz|bgt|ble|bgtu|"
    "bleu|j)|nop|prefetch\\.[rwi]"
    ")$";

const char *const kAArch64Allowed =
    "^("
    // NEON and scalar FP.
    "fmla|fmls|fmul|fmulx|fadd|fsub|fmax|fmin|fmaxnm|fminnm|fneg|fabs|fmov|"
    "fmadd|fmsub|fnmadd|fnmsub|faddp|fcvt[a-z]*|scvtf|ucvtf|bfcvt[a-z0-9]*|"
    "bfdot|bfmmla|bfmlal[bt]|movi|mvni|dup|ext|ins|mov|umov|smov|zip[12]|"
    "uzp[12]|trn[12]|rev(16|32|64)|eor|and|ands|orr|orn|bic|bsl|bit|bif|not|"
    "mvn|sdot|udot|fcmp|fcsel|addv|faddv|fmaxv|fminv|addp|shl|ushr|sshr|xtn|"
    "uxtl|sxtl|"
    // Loads and stores (vector and scalar), prefetches.
    "ld[1-4]r?|st[1-4]|ldr|ldur|ldp|ldnp|str|stur|stp|stnp|ldr[bh]|ldrs[bhw]|"
    "str[bh]|ldur[bh]|stur[bh]|prfm|prfum|"
    // Integer arithmetic on addresses and counters.
    "add|adds|sub|subs|cmp|cmn|tst|movz|movk|movn|madd|msub|mul|neg|negs|lsl|"
    "lsr|asr|ror|ubfm|sbfm|ubfx|sbfx|ubfiz|sbfiz|csel|csinc|csinv|csneg|cset|"
    "csetm|cinc|sxt[bhw]|uxt[bhw]|"
    // Direct branches (targets are checked separately), no-ops.
    "b|b\\.[a-z]{2}|cbz|cbnz|tbz|tbnz|nop"
    ")$";

/// Every symbol `expr` refers to; false if it holds a target-specific
/// expression this walk cannot see into.
bool collectSymbols(const MCExpr *expr,
                    SmallVectorImpl<const MCSymbol *> &symbols) {
  switch (expr->getKind()) {
  case MCExpr::Constant:
    return true;
  case MCExpr::SymbolRef:
    symbols.push_back(&cast<MCSymbolRefExpr>(expr)->getSymbol());
    return true;
  case MCExpr::Unary:
    return collectSymbols(cast<MCUnaryExpr>(expr)->getSubExpr(), symbols);
  case MCExpr::Binary:
    return collectSymbols(cast<MCBinaryExpr>(expr)->getLHS(), symbols) &&
           collectSymbols(cast<MCBinaryExpr>(expr)->getRHS(), symbols);
  case MCExpr::Specifier:
    return collectSymbols(cast<MCSpecifierExpr>(expr)->getSubExpr(), symbols);
  case MCExpr::Target:
    return false;
  }
  return false;
}
} // namespace

CodeAllowlist::CodeAllowlist(const Triple &triple, const MCInstrInfo &mii,
                             const MCRegisterInfo &mri, MCInstPrinter &printer,
                             const MCSubtargetInfo &sti)
    : triple(triple), mii(mii), mri(mri), printer(printer), sti(sti),
      allowedMnemonics(triple.isX86()       ? kX86Allowed
                       : triple.isRISCV()   ? kRiscVAllowed
                       : triple.isAArch64() ? kAArch64Allowed
                                            : "^$"),
      refusedMnemonics(triple.isX86() ? kX86Refused : "^$") {
  auto forbid = [&](StringRef name, StringRef why) {
    if (unsigned reg = registerNamed(name))
      forbiddenRegisters.push_back({reg, why.str()});
  };
  if (triple.isX86()) {
    forbid("RSP", "the stack pointer");
    forbid("RIP", "the instruction pointer, for PC-relative addressing");
    forbid("EIP", "the instruction pointer, for PC-relative addressing");
    for (StringRef seg : {"CS", "DS", "ES", "FS", "GS", "SS"})
      forbid(seg, "a segment register");
  } else if (triple.isRISCV()) {
    forbid("X2", "the stack pointer");
    forbid("X3", "the global pointer");
    forbid("X4", "the thread pointer");
  } else if (triple.isAArch64()) {
    forbid("SP", "the stack pointer");
    forbid("WSP", "the stack pointer");
  }
}

unsigned CodeAllowlist::registerNamed(StringRef name) const {
  for (unsigned reg = 1, e = mri.getNumRegs(); reg < e; ++reg)
    if (name == mri.getName(reg))
      return reg;
  return 0;
}

std::string CodeAllowlist::text(const MCInst &inst) const {
  std::string out;
  raw_string_ostream os(out);
  printer.printInst(&inst, /*Address=*/0, /*Annot=*/"", sti, os);
  std::string flat;
  for (char c : StringRef(out).trim()) {
    c = c == '\t' ? ' ' : c;
    if (c != ' ' || flat.empty() || flat.back() != ' ')
      flat.push_back(c);
  }
  return flat;
}

std::string CodeAllowlist::mnemonic(const MCInst &inst) const {
  // The printed form's first word: with condition codes ("jne", "b.ne")
  // and the aliases a reader knows ("j", "bnez", "mov").
  return StringRef(text(inst)).split(' ').first.lower();
}

std::string CodeAllowlist::refusal(
    const MCInst &inst,
    const SmallPtrSetImpl<const MCSymbol *> &labels) const {
  const MCInstrDesc &desc = mii.get(inst.getOpcode());
  std::string name = mnemonic(inst);

  // Control flow: only direct branches to the kernel's own labels. On
  // RISC-V, "j" is jal with the zero register (no link): a plain jump.
  StringRef opcode = mii.getName(inst.getOpcode());
  bool riscvJump = triple.isRISCV() && name == "j";
  if (!riscvJump) {
    if (desc.isCall())
      return "is a call";
    if (desc.isReturn())
      return "is a return";
    if (desc.isIndirectBranch())
      return "is an indirect jump";
    // jal/jalr with a link register, jr: calls and indirect jumps.
    if (triple.isRISCV() &&
        (opcode.starts_with("JAL") || opcode.starts_with("C_J")))
      return "is a call or an indirect jump";
  }
  bool branch = desc.isBranch() || riscvJump;
  SmallVector<const MCSymbol *> symbols;
  for (const MCOperand &op : inst) {
    if (!op.isExpr())
      continue;
    int64_t value;
    if (op.getExpr()->evaluateAsAbsolute(value))
      continue;
    if (!branch)
      return "refers to a symbol or code address";
    if (!collectSymbols(op.getExpr(), symbols))
      return "branches to a target-specific expression";
  }
  if (branch) {
    if (symbols.empty())
      return "branches to no label of the kernel";
    for (const MCSymbol *s : symbols)
      if (!labels.contains(s))
        return "branches to '" + s->getName().str() +
               "', which the kernel does not define";
  }

  // Registers: explicit operands and implicit ones.
  auto forbidden = [&](MCRegister reg) -> std::string {
    if (!reg)
      return "";
    for (auto &[bad, why] : forbiddenRegisters)
      if (mri.regsOverlap(reg, bad))
        return "uses " + why + " (" + mri.getName(reg) + ")";
    return "";
  };
  for (const MCOperand &op : inst)
    if (op.isReg())
      if (std::string why = forbidden(op.getReg()); !why.empty())
        return why;
  for (MCPhysReg reg : desc.implicit_defs())
    if (std::string why = forbidden(reg); !why.empty())
      return why;
  for (MCPhysReg reg : desc.implicit_uses())
    if (std::string why = forbidden(reg); !why.empty())
      return why;

  // x86 memory operands (base, scale, index, displacement, segment): an
  // address made of a displacement only is an absolute address.
  if (triple.isX86()) {
    ArrayRef<MCOperandInfo> infos = desc.operands();
    for (unsigned i = 0; i + 4 < infos.size() && i + 4 < inst.getNumOperands();
         ++i) {
      if (infos[i].OperandType != MCOI::OPERAND_MEMORY)
        continue;
      const MCOperand &base = inst.getOperand(i);
      const MCOperand &index = inst.getOperand(i + 2);
      if (base.isReg() && !base.getReg() && index.isReg() && !index.getReg())
        return "reads or writes an absolute address";
      break;
    }
  }

  if (!allowedMnemonics.match(name) || refusedMnemonics.match(name))
    return "is not on the microkernel allowlist (vector and FP "
           "arithmetic, integer arithmetic, loads, stores, prefetches, "
           "branches to the kernel's labels)";
  return "";
}

Error CodeAllowlist::check(
    ArrayRef<MCInst> instructions,
    const SmallPtrSetImpl<const MCSymbol *> &labels) const {
  bool stores = false;
  for (auto [i, inst] : llvm::enumerate(instructions)) {
    std::string why = refusal(inst, labels);
    if (!why.empty())
      return createStringError("instruction " + Twine(i + 1) + " '" +
                               text(inst) + "' " + why);
    stores |= mii.get(inst.getOpcode()).mayStore();
  }
  if (!stores)
    return createStringError(
        "never stores to memory: a microkernel must write its C tile");
  return Error::success();
}
