//===- AsmChecker.cpp - Does emitted code assemble for the target? --------===//
//
// Runs the LLVM MC assembler of the target on an inline-asm body, so a broken
// emitter is caught with the assembler's own message before the code reaches
// the back end (where it would be a fatal error).
//
//===----------------------------------------------------------------------===//

#include "tensorop/Emitters/Emitter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
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

Error mlir::tensorop::checkAssembles(StringRef asmText, StringRef dialect,
                                     unsigned numOperands, StringRef tripleName,
                                     StringRef cpu, StringRef features) {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    InitializeAllAsmParsers();
  });

  Triple triple(tripleName);
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return createStringError("no LLVM target for '" + tripleName +
                             "': " + error);
  SmallVector<std::string> regs = operandRegisters(triple, dialect);
  if (regs.size() < numOperands)
    return createStringError("cannot check " + Twine(numOperands) +
                             "-operand assembly for " + tripleName);
  regs.resize(numOperands);
  Expected<std::string> text = substituteOperands(asmText, regs);
  if (!text)
    return text.takeError();

  MCTargetOptions options;
  std::unique_ptr<MCRegisterInfo> mri(target->createMCRegInfo(triple));
  std::unique_ptr<MCAsmInfo> mai(
      target->createMCAsmInfo(*mri, triple, options));
  std::unique_ptr<MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(triple, cpu, features));
  std::unique_ptr<MCInstrInfo> mii(target->createMCInstrInfo());
  if (!mri || !mai || !sti || !mii)
    return createStringError("cannot create an assembler for " + tripleName);

  SourceMgr srcMgr;
  std::string diagnostics;
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
  MCContext ctx(triple, mai.get(), mri.get(), sti.get(), &srcMgr, &options);
  std::unique_ptr<MCObjectFileInfo> mofi(
      target->createMCObjectFileInfo(ctx, /*PIC=*/true));
  ctx.setObjectFileInfo(mofi.get());
  std::unique_ptr<MCStreamer> streamer(createNullStreamer(ctx));
  std::unique_ptr<MCAsmParser> parser(
      createMCAsmParser(srcMgr, ctx, *streamer, *mai));
  std::unique_ptr<MCTargetAsmParser> targetParser(
      target->createMCAsmParser(*sti, *parser, *mii, options));
  if (!targetParser)
    return createStringError("no assembly parser for " + tripleName);
  parser->setTargetParser(*targetParser);
  parser->setAssemblerDialect(dialect == "intel" ? 1 : 0);
  streamer->initSections(false, *sti);
  bool failed = parser->Run(/*NoInitialTextSection=*/true);
  if (failed || !diagnostics.empty())
    return createStringError("does not assemble for " + tripleName + " (" +
                             cpu + ", " + features + "):\n" +
                             (diagnostics.empty() ? std::string("unknown error")
                                                  : diagnostics));
  return Error::success();
}
