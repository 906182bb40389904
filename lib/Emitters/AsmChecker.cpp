//===- AsmChecker.cpp - Does emitted code assemble, and may it run? -------===//
//
// Runs the LLVM MC assembler of the target on an inline-asm body, so a broken
// emitter is caught with the assembler's own message before the code reaches
// the back end (where it would be a fatal error). For model-written code the
// parsed instruction stream (the MCInsts the assembler would encode) is also
// checked against what a microkernel may contain (checkMicrokernelCode; the
// per-target rules are in CodeAllowlist.cpp).
//
//===----------------------------------------------------------------------===//

#include "tensorop/Emitters/Emitter.h"
#include "CodeAllowlist.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <mutex>

using namespace llvm;

/// Registers a plain name for each inline-asm operand, per architecture.
static SmallVector<std::string> operandRegisters(const Triple &triple,
                                                 StringRef dialect) {
  SmallVector<std::string> regs;
  StringRef prefix = dialect == "att" ? "%" : "";
  if (triple.isX86()) {
    for (StringRef r : {"rdi", "rsi", "rdx", "rcx", "r8", "r9", "r10", "r11",
                        "r12", "r13", "r14", "r15"})
      regs.push_back((prefix + r).str());
  } else if (triple.isRISCV()) {
    for (StringRef r : {"a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7"})
      regs.push_back(r.str());
  } else if (triple.isAArch64()) {
    for (int i = 0; i < 8; ++i)
      regs.push_back("x" + std::to_string(i));
  }
  return regs;
}

/// Replaces LLVM inline-asm operand references ($N, ${N}, ${N:mod}) by
/// registers and $$ by $.
static Expected<std::string> substituteOperands(StringRef body,
                                                ArrayRef<std::string> regs) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '$') {
      out.push_back(body[i]);
      continue;
    }
    if (i + 1 < body.size() && body[i + 1] == '$') {
      out.push_back('$');
      ++i;
      continue;
    }
    size_t j = i + 1;
    bool braced = j < body.size() && body[j] == '{';
    if (braced)
      ++j;
    size_t start = j;
    while (j < body.size() && llvm::isDigit(body[j]))
      ++j;
    if (j == start)
      return createStringError("stray '$' at offset " + Twine(i) +
                               " (write '$$' for a literal '$')");
    unsigned index = 0;
    body.substr(start, j - start).getAsInteger(10, index);
    if (braced) {
      while (j < body.size() && body[j] != '}')
        ++j;
      if (j == body.size())
        return createStringError("unterminated '${' at offset " + Twine(i));
    } else {
      --j;
    }
    if (index >= regs.size())
      return createStringError("uses operand $" + Twine(index) +
                               " but the kernel has only " +
                               Twine(regs.size()) + " operands ($0..$" +
                               Twine(regs.size() - 1) + ")");
    out += regs[index];
    i = j;
  }
  return out;
}

namespace {
/// A streamer that keeps what the assembler produces: the instructions, the
/// labels they may branch to, and anything that is not an instruction in
/// the text section (raw data could encode any instruction, another section
/// could hold code or writable state).
class RecordingStreamer : public MCStreamer {
public:
  explicit RecordingStreamer(MCContext &ctx) : MCStreamer(ctx) {}

  std::vector<MCInst> instructions;
  SmallPtrSet<const MCSymbol *, 16> labels;
  /// Directives that are not allowed in a microkernel, in order.
  std::vector<std::string> refusedDirectives;
  /// Set once the text section is open: later section switches are refused.
  bool started = false;

  void emitInstruction(const MCInst &inst,
                       const MCSubtargetInfo &sti) override {
    MCStreamer::emitInstruction(inst, sti);
    instructions.push_back(inst);
  }
  void emitLabel(MCSymbol *symbol, SMLoc loc) override {
    MCStreamer::emitLabel(symbol, loc);
    labels.insert(symbol);
  }
  void changeSection(MCSection *section, uint32_t subsection) override {
    if (started)
      refuse("a section directive (the kernel must stay in its text "
             "section)");
    MCStreamer::changeSection(section, subsection);
  }
  bool hasRawTextSupport() const override { return true; }
  void emitRawTextImpl(StringRef) override {
    refuse("raw text");
  }
  bool emitSymbolAttribute(MCSymbol *, MCSymbolAttr) override { return true; }
  void emitCommonSymbol(MCSymbol *, uint64_t, Align) override {
    refuse("a common symbol (.comm)");
  }
  void emitLocalCommonSymbol(MCSymbol *, uint64_t, Align) override {
    refuse("a local common symbol (.lcomm)");
  }
  void emitZerofill(MCSection *, MCSymbol *, uint64_t, Align,
                    SMLoc) override {
    refuse("a zero-filled symbol (.zerofill)");
  }
  void emitBytes(StringRef) override { refuse(dataWhy()); }
  void emitValueImpl(const MCExpr *, unsigned, SMLoc) override {
    refuse(dataWhy());
  }
  void emitIntValue(uint64_t, unsigned) override { refuse(dataWhy()); }
  void emitIntValue(const APInt &) override { refuse(dataWhy()); }
  void emitULEB128Value(const MCExpr *) override { refuse(dataWhy()); }
  void emitSLEB128Value(const MCExpr *) override { refuse(dataWhy()); }
  void emitFill(const MCExpr &, uint64_t, SMLoc) override {
    refuse(dataWhy());
  }
  void emitFill(const MCExpr &, int64_t, int64_t, SMLoc) override {
    refuse(dataWhy());
  }
  void emitValueToAlignment(Align, int64_t fill, uint8_t, unsigned) override {
    // Code alignment pads with no-ops (emitCodeAlignment); an explicit fill
    // value (.p2alignw 4, 0x050f) would put chosen bytes where execution
    // falls through.
    refuse("alignment with an explicit fill value (use .p2align N without "
           "one)");
    (void)fill;
  }
  void emitValueToOffset(const MCExpr *, unsigned char, SMLoc) override {
    refuse("an .org directive");
  }

private:
  static const char *dataWhy() {
    return "a data directive (.byte, .long, .inst, .fill, ...): bytes in the "
           "code could encode any instruction";
  }
  void refuse(StringRef why) { refusedDirectives.push_back(why.str()); }
};

/// Everything the assembler of one target needs, alive as long as the
/// instructions it produced (their expressions live in the context).
/// Members are destroyed in reverse order: the recorder before the context
/// before what the context points to.
struct Assembler {
  std::string diagnostics;
  SourceMgr srcMgr;
  Triple triple;
  const Target *target = nullptr;
  MCTargetOptions options;
  std::unique_ptr<MCRegisterInfo> mri;
  std::unique_ptr<MCAsmInfo> mai;
  std::unique_ptr<MCSubtargetInfo> sti;
  std::unique_ptr<MCInstrInfo> mii;
  std::unique_ptr<MCContext> ctx;
  std::unique_ptr<MCObjectFileInfo> mofi;
  std::unique_ptr<RecordingStreamer> recorder;
};
} // namespace

/// Assembles `asmText` (operands $0..$N-1 replaced by registers) for the
/// target; the instructions and directives go to `recorder`, the
/// assembler's errors to the returned Error.
static Error assemble(StringRef asmText, StringRef dialect,
                      unsigned numOperands, StringRef tripleName,
                      StringRef cpu, StringRef features, Assembler &as) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    InitializeAllAsmParsers();
  });

  as.triple = Triple(tripleName);
  std::string error;
  as.target = TargetRegistry::lookupTarget(as.triple, error);
  if (!as.target)
    return createStringError("no LLVM target for '" + tripleName +
                             "': " + error);
  SmallVector<std::string> regs = operandRegisters(as.triple, dialect);
  if (regs.size() < numOperands)
    return createStringError("cannot check " + Twine(numOperands) +
                             "-operand assembly for " + tripleName);
  regs.resize(numOperands);
  Expected<std::string> text = substituteOperands(asmText, regs);
  if (!text)
    return text.takeError();

  const Target *target = as.target;
  as.mri.reset(target->createMCRegInfo(as.triple));
  as.mai.reset(target->createMCAsmInfo(*as.mri, as.triple, as.options));
  as.sti.reset(target->createMCSubtargetInfo(as.triple, cpu, features));
  as.mii.reset(target->createMCInstrInfo());
  if (!as.mri || !as.mai || !as.sti || !as.mii)
    return createStringError("cannot create an assembler for " + tripleName);

  std::string &diagnostics = as.diagnostics;
  SourceMgr &srcMgr = as.srcMgr;
  srcMgr.setDiagHandler(
      [](const SMDiagnostic &diag, void *ctx) {
        std::string &out = *static_cast<std::string *>(ctx);
        raw_string_ostream os(out);
        if (diag.getKind() == SourceMgr::DK_Error)
          os << "line " << diag.getLineNo() << ": " << diag.getMessage()
             << "\n  " << diag.getLineContents() << "\n";
      },
      &diagnostics);
  srcMgr.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(*text, "ukernel"),
                            SMLoc());
  as.ctx = std::make_unique<MCContext>(as.triple, as.mai.get(), as.mri.get(),
                                       as.sti.get(), &srcMgr, &as.options);
  MCContext &ctx = *as.ctx;
  as.mofi.reset(target->createMCObjectFileInfo(ctx, /*PIC=*/true));
  ctx.setObjectFileInfo(as.mofi.get());
  as.recorder = std::make_unique<RecordingStreamer>(ctx);
  RecordingStreamer *recorder = as.recorder.get();
  // Directives such as AArch64's .inst go through the target streamer.
  target->createNullTargetStreamer(*recorder);
  std::unique_ptr<MCAsmParser> parser(
      createMCAsmParser(srcMgr, ctx, *recorder, *as.mai));
  std::unique_ptr<MCTargetAsmParser> targetParser(
      target->createMCAsmParser(*as.sti, *parser, *as.mii, as.options));
  if (!targetParser)
    return createStringError("no assembly parser for " + tripleName);
  parser->setTargetParser(*targetParser);
  parser->setAssemblerDialect(dialect == "intel" ? 1 : 0);
  recorder->initSections(false, *as.sti);
  recorder->started = true;
  bool failed = parser->Run(/*NoInitialTextSection=*/true);
  if (failed || !diagnostics.empty())
    return createStringError("does not assemble for " + tripleName + " (" +
                             cpu + ", " + features + "):\n" +
                             (diagnostics.empty() ? std::string("unknown error")
                                                  : diagnostics));
  return Error::success();
}

Error mlir::tensorop::checkAssembles(StringRef asmText, StringRef dialect,
                                     unsigned numOperands, StringRef tripleName,
                                     StringRef cpu, StringRef features) {
  Assembler as;
  return assemble(asmText, dialect, numOperands, tripleName, cpu, features,
                  as);
}

Error mlir::tensorop::checkMicrokernelCode(StringRef asmText,
                                           StringRef dialect,
                                           unsigned numOperands,
                                           StringRef tripleName, StringRef cpu,
                                           StringRef features) {
  Assembler as;
  if (Error e = assemble(asmText, dialect, numOperands, tripleName, cpu,
                         features, as))
    return e;
  RecordingStreamer &recorder = *as.recorder;
  if (!recorder.refusedDirectives.empty())
    return createStringError("contains " + recorder.refusedDirectives.front());
  // Mnemonics and instructions are printed in the target's first syntax
  // (AT&T on x86), whichever dialect the code was written in.
  std::unique_ptr<MCInstPrinter> printer(as.target->createMCInstPrinter(
      as.triple, /*SyntaxVariant=*/0, *as.mai, *as.mii, *as.mri));
  if (!printer)
    return createStringError("no instruction printer for " + tripleName);
  CodeAllowlist allowlist(as.triple, *as.mii, *as.mri, *printer, *as.sti);
  return allowlist.check(recorder.instructions, recorder.labels);
}
