//===- AnnotateConv.h - annotate-sketch's convolution half ------*- C++ -*-===//

#ifndef TENSOROP_LIB_TRANSFORMS_ANNOTATECONV_H
#define TENSOROP_LIB_TRANSFORMS_ANNOTATECONV_H

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Targets/TargetHints.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::tensorop {
class SketchDatabase;

/// What annotate-sketch was asked for, as the convolution half needs it.
struct ConvAnnotateOptions {
  const TargetHints *hints = nullptr;
  llvm::StringRef targetName;  ///< Resolved ("host" -> x86-avx512, ...).
  llvm::StringRef targetOption; ///< As written (for messages).
  /// Answers each convolution (the pass's advisor; never null).
  Advisor *advisor = nullptr;
  /// The pipeline's db= (null: none): a verified record for the
  /// convolution's signature on `fingerprint` is used before the advisor.
  SketchDatabase *db = nullptr;
  llvm::StringRef fingerprint;
  unsigned threads = 1;
};

/// Annotates one linalg.conv_2d_nhwc_hwcf: keeps a #tensorop.conv_sketch
/// the input carries (for the pipeline's target only), routes a 1x1
/// stride-1 unpadded convolution on tensors to the GEMM path (returning the
/// linalg.matmul it became in `gemm`, for the caller to annotate), else
/// attaches the tuning database's record for it (db=) or the advisor's
/// choice, and marks a zero tensor.pad producer for apply to fold. Unsupported
/// convolutions get a remark. Failure (already diagnosed) stops the pass.
LogicalResult annotateConv(linalg::Conv2DNhwcHwcfOp op,
                           const ConvAnnotateOptions &options,
                           linalg::MatmulOp &gemm);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_TRANSFORMS_ANNOTATECONV_H
