//===- GpuMatmulSupport.h - Matmuls the GPU path takes ------*- C++ -*-===//
//
// The NVIDIA counterpart of MatmulSupport.h: the GEMM a linalg.matmul
// computes on an NVIDIA target, and its identity in the tuning database.
// Light to include (the problem struct is part of the GPU advisor's
// interface) and free of GPU code generation, so the annotation pass, the
// lowering, `tensorop gen` and `tensorop tune` share it without depending
// on each other.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TRANSFORMS_GPUMATMULSUPPORT_H
#define TENSOROP_TRANSFORMS_GPUMATMULSUPPORT_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <string>

namespace mlir {
class Type;
namespace linalg {
class MatmulOp;
} // namespace linalg
} // namespace mlir

namespace mlir::tensorop {

/// A static row-major GEMM C[M][N] (+)= A[M][K] * B[K][N].
struct GpuGemmProblem {
  int64_t m = 0, n = 0, k = 0;
  std::string aType;     ///< storage type of A and B: "bf16", "f16", "f32"
  std::string cType;     ///< "f32", "bf16", "f16"
  std::string precision; ///< "bf16", "f16", "tf32", "f32"
  bool accumulate = false;
};

/// "bf16", "f16", "f32", or "" for other element types.
std::string gpuElementTypeName(Type type);

/// The GPU GEMM a linalg.matmul computes (static 2-D row-major tensors or
/// memrefs, bf16/f16/f32 inputs, `tensorop.precision` honoured); failure
/// with the reason otherwise. `accumulate` is left false: whether C is
/// zeroed first is the lowering's business.
FailureOr<GpuGemmProblem> matchGpuMatmul(linalg::MatmulOp op,
                                         std::string &reason);

/// The identity of a GPU GEMM in the tuning database, e.g.
/// "gemm bf16->bf16 (bf16) m=4096 n=4096 k=4096".
std::string gpuOpSignature(const GpuGemmProblem &problem);

} // namespace mlir::tensorop

#endif // TENSOROP_TRANSFORMS_GPUMATMULSUPPORT_H
