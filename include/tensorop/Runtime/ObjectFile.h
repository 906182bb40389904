//===- ObjectFile.h - Ahead-of-time objects and loading them ----*- C++ -*-===//
//
// `tensorop gen` ships a relocatable object per kernel. These helpers lower a
// module to LLVM IR, compile it for a target triple/CPU/features into an ELF
// object, and load such an object into this process (ORC LLJIT) so the very
// file that is shipped is the one that gets verified and timed.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_RUNTIME_OBJECTFILE_H
#define TENSOROP_RUNTIME_OBJECTFILE_H

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
namespace orc {
class LLJIT;
}
} // namespace llvm

namespace mlir {
class ModuleOp;
namespace tensorop {

/// Translates an LLVM-dialect module to LLVM IR, optimizes it at -O3 and
/// writes an object file for `triple`/`cpu`/`features` (PIC). The textual
/// LLVM IR goes to `llPath` when not empty.
llvm::Error emitObjectFile(ModuleOp module, llvm::StringRef triple,
                           llvm::StringRef cpu, llvm::StringRef features,
                           llvm::StringRef objPath, llvm::StringRef llPath = "");

/// The pieces of emitObjectFile, for objects made of several modules
/// (RvvVlenDispatch.h): a PIC target machine at -O3; the module translated
/// to LLVM IR for it, every function given `cpu` and `features`; and the
/// -O3 pipeline, the textual IR (when `llPath` is not empty) and the object.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createObjectTargetMachine(llvm::StringRef triple, llvm::StringRef cpu,
                          llvm::StringRef features);
llvm::Expected<std::unique_ptr<llvm::Module>>
translateForTarget(ModuleOp module, llvm::LLVMContext &llvmContext,
                   llvm::TargetMachine &tm, llvm::StringRef cpu,
                   llvm::StringRef features);
llvm::Error optimizeAndWriteObject(llvm::Module &llvmModule,
                                   llvm::TargetMachine &tm,
                                   llvm::StringRef objPath,
                                   llvm::StringRef llPath);

/// An object file loaded into this process.
struct LoadedObject {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  void *symbol = nullptr;
  LoadedObject();
  LoadedObject(LoadedObject &&);
  ~LoadedObject();
  /// Another symbol of the same object (gen's NAME_ex, ...).
  llvm::Expected<void *> lookup(llvm::StringRef name) const;
};

/// Loads `objPath` (for this host) and looks up `symbol`; undefined symbols
/// (malloc, free, ...) resolve against this process.
llvm::Expected<LoadedObject> loadObjectFile(llvm::StringRef objPath,
                                            llvm::StringRef symbol);

} // namespace tensorop
} // namespace mlir

#endif
