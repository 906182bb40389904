//===- FusedPackB.h - B packed by the first row tile's kernel ---*- C++ -*-===//
//
// pack_b = "kmajor_nr_fused": the packed B panels ("kmajor_nr") are written
// by the microkernel of each B block's first row tile, which reads B in
// place and stores what it loads (x86_gemm_fma's store_b_panel); the
// block's other row tiles read the panels. oneDNN's "nocopy" sgemm does the
// same. The separate packing pass over B goes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DIALECT_FUSEDPACKB_H
#define TENSOROP_DIALECT_FUSEDPACKB_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tensorop {

/// The pack_b layout whose copy is fused into the first row tile's kernel.
constexpr llvm::StringLiteral kFusedPackB = "kmajor_nr_fused";

} // namespace mlir::tensorop

#endif // TENSOROP_DIALECT_FUSEDPACKB_H
