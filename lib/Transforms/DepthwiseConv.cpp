//===- DepthwiseConv.cpp - Vectorized depthwise convolutions -------------===//
//
// A depthwise convolution has no reduction over channels, so it is not a
// GEMM and the microkernel path does not fit it: each output element is a
// dot product of R*S taps of one channel. It is memory bound, and what
// makes it fast is keeping a block of output pixels x channels in vector
// registers while the taps stream by. Upstream MLIR has exactly that
// machinery; this pass strings it together for static f32
// linalg.depthwise_conv_2d_nhwc_hwc on tensors or memrefs:
//
//  1. scf::tileUsingSCF tiles (n, oh, ow, c, kh, kw) by (1, 1, owBlock,
//     cBlock, 1, 0), with blocks that divide OW and C so every tile is
//     static;
//  2. the decompose-convolution patterns turn each tile (one output row,
//     one filter row) into linalg.depthwise_conv_1d_nwc_wc;
//  3. linalg::vectorize turns those into vector FMAs over
//     owBlock x cBlock (the channel dimension is the vector lanes).
//
// A zero tensor.pad producer stays a copy into a padded buffer (linear in
// the input); the remark says so.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPDEPTHWISECONV
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;

namespace {
/// The largest divisor of `extent` that is at most `limit`, preferring
/// multiples of `multiple` (vector lanes) when there is one.
int64_t blockFor(int64_t extent, int64_t limit, int64_t multiple) {
  for (int64_t b = std::min(extent, limit); b >= multiple; --b)
    if (extent % b == 0 && b % multiple == 0)
      return b;
  for (int64_t b = std::min(extent, limit); b >= 1; --b)
    if (extent % b == 0)
      return b;
  return 1;
}

struct DepthwiseConvPass
    : public tensorop::impl::TensorOpDepthwiseConvBase<DepthwiseConvPass> {
  void runOnOperation() override {
    SmallVector<linalg::DepthwiseConv2DNhwcHwcOp> convs;
    getOperation().walk(
        [&](linalg::DepthwiseConv2DNhwcHwcOp op) { convs.push_back(op); });
    if (convs.empty())
      return;
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> tiles;
    for (linalg::DepthwiseConv2DNhwcHwcOp op : convs) {
      auto out = cast<ShapedType>(op.getDpsInitOperand(0)->get().getType());
      bool onBuffers = op.hasPureBufferSemantics();
      bool ok = op.hasPureTensorSemantics() || onBuffers;
      for (Value v : op->getOperands()) {
        auto type = cast<ShapedType>(v.getType());
        ok &= type.hasStaticShape() && type.getElementType().isF32();
      }
      if (!ok) {
        op.emitRemark() << "tensorop: depthwise convolution not vectorized "
                           "(only static f32 ones are); lowered by the "
                           "upstream pipeline";
        continue;
      }
      // Output pixels x channels held in registers: up to 8 pixels and 64
      // channels (4 zmm registers of 16 lanes) per tile.
      int64_t ow = out.getDimSize(2), c = out.getDimSize(3);
      int64_t owBlock = blockFor(ow, 8, 1), cBlock = blockFor(c, 64, 16);
      bool padded = static_cast<bool>(
          op.getDpsInputOperand(0)->get().getDefiningOp<tensor::PadOp>());
      scf::SCFTilingOptions options;
      options.setTileSizes(
          {rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
           rewriter.getIndexAttr(owBlock), rewriter.getIndexAttr(cBlock),
           rewriter.getIndexAttr(1), rewriter.getIndexAttr(0)});
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled)) {
        op.emitRemark() << "tensorop: depthwise convolution not vectorized "
                           "(tiling failed); lowered by the upstream pipeline";
        continue;
      }
      op.emitRemark() << "tensorop: depthwise convolution vectorized in "
                      << owBlock << " pixels x " << cBlock
                      << " channels blocks"
                      << (padded ? " (its zero padding is a copy into a "
                                   "padded buffer)"
                                 : "");
      // On memrefs the tiles write the output buffer and there is no
      // result to replace.
      if (onBuffers)
        rewriter.eraseOp(op);
      else
        rewriter.replaceOp(op, tiled->replacements);
      tiles.append(tiled->tiledOps.begin(), tiled->tiledOps.end());
    }
    if (tiles.empty())
      return;

    // 2. One output row x one filter row per tile: 1-D depthwise convs
    // (only the tiles: other convolutions keep their form).
    RewritePatternSet decompose(&getContext());
    linalg::populateDecomposeConvolutionPatterns(decompose);
    if (failed(applyOpPatternsGreedily(tiles, std::move(decompose))))
      return signalPassFailure();

    // 3. Vector FMAs over the tile.
    SmallVector<linalg::DepthwiseConv1DNwcWcOp> rows;
    getOperation().walk(
        [&](linalg::DepthwiseConv1DNwcWcOp op) { rows.push_back(op); });
    for (linalg::DepthwiseConv1DNwcWcOp row : rows) {
      rewriter.setInsertionPoint(row);
      FailureOr<linalg::VectorizationResult> vec =
          linalg::vectorize(rewriter, row);
      if (failed(vec)) {
        row.emitError() << "tensorop: vectorizing a depthwise convolution "
                           "tile failed";
        return signalPassFailure();
      }
      rewriter.replaceOp(row, vec->replacements);
    }
  }
};
} // namespace
