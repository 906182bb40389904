//===- CodeAllowlist.h - What a model-written microkernel may contain -----===//
//
// Private to TensorOpEmitters: checks the instructions the assembler parsed
// from a model-written microkernel against the target's allowlist.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_EMITTERS_CODEALLOWLIST_H
#define TENSOROP_LIB_EMITTERS_CODEALLOWLIST_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"
#include "llvm/TargetParser/Triple.h"

#include <vector>

namespace llvm {
class MCInstPrinter;
class MCInstrInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
class MCSymbol;
} // namespace llvm

namespace mlir::tensorop {

class CodeAllowlist {
public:
  CodeAllowlist(const llvm::Triple &triple, const llvm::MCInstrInfo &mii,
                const llvm::MCRegisterInfo &mri, llvm::MCInstPrinter &printer,
                const llvm::MCSubtargetInfo &sti);

  /// The first instruction outside the allowlist, named, or success.
  /// `labels` are the labels the code defines (its only branch targets).
  llvm::Error
  check(llvm::ArrayRef<llvm::MCInst> instructions,
        const llvm::SmallPtrSetImpl<const llvm::MCSymbol *> &labels) const;

private:
  /// Why `inst` may not be in a microkernel, or "" if it may.
  std::string refusal(const llvm::MCInst &inst,
                      const llvm::SmallPtrSetImpl<const llvm::MCSymbol *>
                          &labels) const;
  std::string mnemonic(const llvm::MCInst &inst) const;
  std::string text(const llvm::MCInst &inst) const;
  unsigned registerNamed(llvm::StringRef name) const;

  llvm::Triple triple;
  const llvm::MCInstrInfo &mii;
  const llvm::MCRegisterInfo &mri;
  llvm::MCInstPrinter &printer;
  const llvm::MCSubtargetInfo &sti;
  /// Registers no instruction may name: the stack pointer, the program
  /// counter, x86 segment registers.
  std::vector<std::pair<unsigned, std::string>> forbiddenRegisters;
  /// The target's mnemonics, and names within them that are refused.
  llvm::Regex allowedMnemonics, refusedMnemonics;
};

} // namespace mlir::tensorop

#endif
