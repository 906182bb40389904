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

#include "tensorop/Transforms/EpilogueSupport.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::tensorop {

/// Records the elementwise consumer of `conv` (carrying a
/// #tensorop.conv_sketch) as the sketch's epilogue and rewrites the
/// consumer in place on the convolution's output, marked
/// tensorop.fused_epilogue; a remark says what was fused or why not.
void fuseConvEpilogue(RewriterBase &rewriter, linalg::Conv2DNhwcHwcfOp conv);

/// A matmul whose result is only expanded back to N x H x W x F (a 1x1
/// convolution on the GEMM path): its 4-D elementwise consumers are
/// rewritten as 2-D ones on the (N*H*W) x F rows, so that the matmul's
/// epilogue fusion sees them; the expand moves behind them. A consumer that
/// cannot be flattened (an operand broadcast along H or W, ...) stays, with
/// a remark.
void flattenConsumersOfExpandedMatmul(RewriterBase &rewriter,
                                      linalg::MatmulOp matmul);

/// After bufferization: the consumer fuseConvEpilogue marked, if it still
/// writes `out` (the convolution's output) in place right after the
/// convolution's block and reads as an epilogue (`match`), and its residual
/// has static strides with a unit innermost one.
linalg::GenericOp findFusedConvEpilogue(linalg::Conv2DNhwcHwcfOp conv,
                                        Value out, EpilogueMatch &match);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_TRANSFORMS_CONVEPILOGUES_H
