//===- OpenMPRuntime.h - libomp for JIT-run threaded kernels ----*- C++ -*-===//
//
// A sketch with threads > 1 lowers to OpenMP, whose LLVM IR calls the libomp
// entry points (__kmpc_fork_call, __kmpc_for_static_init_8u, ...). Code that
// this process JIT-compiles or loads from an object resolves its undefined
// symbols against the process, so libomp must be loaded into it first.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_RUNTIME_OPENMPRUNTIME_H
#define TENSOROP_RUNTIME_OPENMPRUNTIME_H

#include "llvm/Support/Error.h"

namespace mlir::tensorop {

/// The libomp found at configure time ("" if none).
llvm::StringRef openMPRuntimePath();

/// Loads libomp into this process, once, with its symbols visible to later
/// JIT links. Fails (with the reason) when libomp is missing.
llvm::Error loadOpenMPRuntime();

} // namespace mlir::tensorop

#endif
