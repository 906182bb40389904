//===- CompilerContext.h - The MLIR context the subcommands share -*- C++ -*-===//

#ifndef TENSOROP_DRIVER_COMPILERCONTEXT_H
#define TENSOROP_DRIVER_COMPILERCONTEXT_H

#include "mlir/IR/MLIRContext.h"

#include <memory>

namespace tensorop {
/// Registers every pass and pipeline the subcommands parse, and returns a
/// context with all dialects, extensions and LLVM IR translations loaded.
std::unique_ptr<mlir::MLIRContext> makeCompilerContext();
} // namespace tensorop

#endif
