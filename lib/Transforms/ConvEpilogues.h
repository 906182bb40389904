//===- ConvEpilogues.h - Elementwise consumers of convolutions --*- C++ -*-===//
//
// The convolution side of tensorop-fuse-epilogues and tensorop-apply-sketch:
// which consumer of a sketched linalg.conv_2d_nhwc_hwcf becomes the
// epilogue on its #tensorop.conv_sketch, and how the 1x1 convolutions that
// became a linalg.matmul (AnnotateConv.cpp) keep their consumers fusable.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_TRANSFORMS_CONVEPILOGUES_H
#define TENSOROP_LIB_TRANSFORMS_CONVEPILOGUES_H

#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Transforms/EpilogueSupport.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tensorop {

/// Why a convolution with `sketch` takes no epilogue ("" if it does): it
/// has one, its emitter applies none (only x86_gemm_fma's convolution
/// kernel does), or its nr exceeds the epilogue's lane masks.
std::string whyConvTakesNoEpilogue(ConvSketchAttr sketch);

/// A matmul whose result is only expanded back to N x H x W x F (a 1x1
/// convolution on the GEMM path): its 4-D elementwise consumers are
/// rewritten as 2-D ones on the (N*H*W) x F rows, so that the matmul's
/// epilogue fusion sees them; the expand moves behind them. A consumer that
/// cannot be flattened (an operand broadcast along H or W, ...) stays, with
/// a remark.
void flattenConsumersOfExpandedMatmul(RewriterBase &rewriter,
                                      linalg::MatmulOp matmul);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_TRANSFORMS_CONVEPILOGUES_H
