//===- ToolInfo.h - --version and --help of the TensorOp tools --*- C++ -*-===//
//
// Every TensorOp tool answers --version with its name, TensorOp's version
// and the LLVM it was built with, and keeps --help to its own options: the
// hundreds of options LLVM's libraries register (codegen, Polly, IR2Vec...)
// stay reachable but move to --help-hidden.
//
// Header-only so that each tool (including ones that link little of LLVM)
// gets it without another library.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_SUPPORT_TOOLINFO_H
#define TENSOROP_SUPPORT_TOOLINFO_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <initializer_list>
#include <string>

#ifndef TENSOROP_VERSION
#error "TENSOROP_VERSION is defined by the top-level CMakeLists.txt"
#endif

namespace mlir::tensorop {

/// "TensorOp 0.1.0 (LLVM 22.1.8)": what a report or a log names the build by.
inline std::string versionLine() {
  return "TensorOp " TENSOROP_VERSION " (LLVM " LLVM_VERSION_STRING ")";
}

/// Makes --version print `tool`, TensorOp's version and the LLVM/MLIR the
/// tool was built with, instead of LLVM's own version text.
inline void setToolVersionPrinter(llvm::StringRef tool) {
  static std::string name;
  name = tool.str();
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << name << " (TensorOp) " TENSOROP_VERSION "\n"
       << "  built with LLVM and MLIR " LLVM_VERSION_STRING "\n";
  });
}

/// The category of a tool's own top-level options: --help shows these and
/// the generic ones (--help, --version) only.
inline llvm::cl::OptionCategory &toolOptionCategory() {
  static llvm::cl::OptionCategory category("TensorOp options");
  return category;
}

/// Moves every top-level option registered so far that is not in
/// toolOptionCategory() (nor generic) to --help-hidden. Call it first thing
/// in main(): then the options LLVM's libraries register at load time are
/// the ones hidden, and those an MLIR driver registers later stay shown.
inline void hideLibraryOptions() {
  for (auto &entry : llvm::cl::getRegisteredOptions()) {
    llvm::cl::Option *option = entry.second;
    bool keep = false;
    for (llvm::cl::OptionCategory *c : option->Categories)
      keep |= c == &toolOptionCategory() || c->getName() == "Generic Options";
    if (!keep && option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

/// For a tool whose options are its own file-scope cl::opts: puts `own` in
/// toolOptionCategory() and hides the rest (hideLibraryOptions).
inline void showOnlyToolOptions(std::initializer_list<llvm::cl::Option *> own) {
  for (llvm::cl::Option *option : own)
    option->addCategory(toolOptionCategory());
  hideLibraryOptions();
}

} // namespace mlir::tensorop

#endif // TENSOROP_SUPPORT_TOOLINFO_H
