//===- TextFiles.h - Reading and writing whole text files -------*- C++ -*-===//

#ifndef TENSOROP_SUPPORT_TEXTFILES_H
#define TENSOROP_SUPPORT_TEXTFILES_H

#include "llvm/Support/Error.h"

#include <string>

namespace tensorop {
/// The file's contents, "" if it cannot be read.
std::string readTextFile(llvm::StringRef path);
/// Writes (replaces) the file; the error names the path and the cause.
llvm::Error writeTextFile(llvm::StringRef path, llvm::StringRef text);
} // namespace tensorop

#endif
