//===- RvvVlenDispatch.h - One RVV object, one build per VLEN ---*- C++ -*-===//
//
// An RVV GEMM built for VLEN >= 128 uses half of every register group on a
// VLEN-256 core (the SpacemiT X60's); one built for VLEN >= 256 is wrong on
// a VLEN-128 core. `tensorop gen` ships both in one object, behind entry
// points that read vlenb and call the build for the machine they run on.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_RUNTIME_RVVVLENDISPATCH_H
#define TENSOROP_RUNTIME_RVVVLENDISPATCH_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace tensorop {

/// The pipeline target of the VLEN >= 256 build (hints/riscv-rvv-vlen256.json;
/// the VLEN >= 128 one is riscv-rvv).
inline constexpr llvm::StringLiteral kRvvWideTarget = "riscv-rvv-vlen256";

/// One build of the kernel: its lowered (LLVM dialect) module and the CPU
/// features its functions are compiled with.
struct RvvBuild {
  ModuleOp module;
  llvm::StringRef features;
};

/// The symbol prefix of the build for VLEN >= `vlen` of kernel `name`
/// (`name`_vlen128, `name`_vlen256): every entry point of that build is
/// named with it where the plain kernel has `name`.
std::string rvvBuildPrefix(llvm::StringRef name, int64_t vlen);

/// The function every dispatching entry point asks which build to call:
/// `int name_vlen_variant(void)`, 256 where vlenb >= 32 (VLEN >= 256),
/// else 128. Test harnesses print it.
std::string rvvVariantSymbol(llvm::StringRef name);

/// Writes one object holding `narrow` (entry points rvvBuildPrefix(name,
/// 128)...) and `wide` (rvvBuildPrefix(name, 256)...), both for `triple` and
/// `cpu`, and for each entry point `name`<rest> of the narrow build the
/// entry `name`<rest> with the same signature, which calls the wide build's
/// twin where rvvVariantSymbol(name) says 256 and the narrow one otherwise.
/// Fails if the builds' entry points differ. The linked, optimized LLVM IR
/// goes to `llPath` when not empty.
llvm::Error emitRvvVlenDispatchObject(RvvBuild narrow, RvvBuild wide,
                                      llvm::StringRef triple,
                                      llvm::StringRef cpu,
                                      llvm::StringRef name,
                                      llvm::StringRef objPath,
                                      llvm::StringRef llPath);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_RUNTIME_RVVVLENDISPATCH_H
