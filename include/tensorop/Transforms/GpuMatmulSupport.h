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
#include <optional>
#include <string>

namespace mlir {
class Type;
class MemRefType;
namespace linalg {
class MatmulOp;
class Conv2DNhwcHwcfOp;
} // namespace linalg
} // namespace mlir

namespace mlir::tensorop {

/// The geometry of a linalg.conv_2d_nhwc_hwcf the GPU path computes as an
/// implicit GEMM: input N x H x W x C (NHWC), filter R x S x C x F (HWCF),
/// output N x outH x outW x F (NHWF), zero padding around the input.
struct GpuConvGeometry {
  int64_t n = 0, h = 0, w = 0, c = 0, f = 0, r = 0, s = 0;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padLeft = 0, padBottom = 0, padRight = 0;
  int64_t outH = 0, outW = 0;
};

/// A static row-major GEMM C[M][N] (+)= A[M][K] * B[K][N]. For a
/// convolution (`conv` set) the implicit GEMM: M = N*outH*outW output
/// pixels, N = F filters, K = R*S*C; A is the never-built im2col matrix of
/// the input, B the filter, C the output.
struct GpuGemmProblem {
  int64_t m = 0, n = 0, k = 0;
  std::string aType;     ///< storage type of A and B: "bf16", "f16", "f32"
  std::string cType;     ///< "f32", "bf16", "f16"
  std::string precision; ///< "bf16", "f16", "tf32", "f32"
  bool accumulate = false;
  std::optional<GpuConvGeometry> conv;
};

/// "bf16", "f16", "f32", or "" for other element types.
std::string gpuElementTypeName(Type type);

/// A static 2-D memref whose rows follow each other (identity layout, or a
/// slice with strides [cols, 1] at any offset, as a batch matmul's slices).
bool isRowContiguousMemRef(MemRefType t);

/// The GPU GEMM a linalg.matmul computes (static 2-D row-major tensors or
/// row-contiguous memrefs, bf16/f16/f32 inputs, `tensorop.precision` honoured);
/// failure with the reason otherwise. `accumulate` is left false: whether C is
/// zeroed first is the lowering's business.
FailureOr<GpuGemmProblem> matchGpuMatmul(linalg::MatmulOp op,
                                         std::string &reason);

/// The implicit GEMM a linalg.conv_2d_nhwc_hwcf computes: static NHWC input,
/// HWCF filter and NHWF output (tensors or memrefs, identity layouts), bf16
/// or f16 inputs, f32/bf16/f16 output (or f32 throughout with
/// tensorop.precision = "tf32"), with the zero padding
/// {top, left, bottom, right} that the caller found around the input (the
/// op itself has none); failure with the reason otherwise.
FailureOr<GpuGemmProblem> matchGpuConv(linalg::Conv2DNhwcHwcfOp op,
                                       llvm::ArrayRef<int64_t> padding,
                                       std::string &reason);

/// The zero padding {top, left, bottom, right} of a convolution's input: a
/// static zero tensor.pad of H and W producing it (the form `tensorop gen`
/// writes), else none. The lowering checks the rest of that form.
llvm::SmallVector<int64_t, 4> gpuConvInputPadding(linalg::Conv2DNhwcHwcfOp op);

/// The identity of a GPU GEMM in the tuning database, e.g.
/// "gemm bf16->bf16 (bf16) m=4096 n=4096 k=4096".
std::string gpuOpSignature(const GpuGemmProblem &problem);

} // namespace mlir::tensorop

#endif // TENSOROP_TRANSFORMS_GPUMATMULSUPPORT_H
