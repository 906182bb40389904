//===- ConvToNhwc.cpp - NCHW convolutions as NHWC ones ----------------------===//
//
// The CPU convolution path (annotate, apply, microkernels) works on
// linalg.conv_2d_nhwc_hwcf: output pixels are rows of a GEMM whose K runs
// over contiguous input channels. A linalg.conv_2d_nchw_fchw on tensors is
// rewritten into that form by transposing its operands around an NHWC
// convolution, the way oneDNN reorders a framework's NCHW tensors into its
// blocked layouts:
//
//   input  N x C x H x W  -> N x H x W x C   (a zero tensor.pad producer is
//                                             moved after the transpose, so
//                                             the pad still folds into the
//                                             kernel)
//   filter F x C x R x S  -> R x S x C x F
//   output N x F x OH x OW <- N x OH x OW x F (a zero-filled init is filled
//                                             in NHWF instead of transposed)
//
// The transposes are copies, O(size of the tensors) against the
// convolution's O(size * R * S * C) arithmetic; a remark says they are
// there. A convolution on memrefs (IR bufferized before it reached us) is
// first put on tensors of its buffers (bufferization.to_tensor, and the
// result materialized into the output buffer) so that the same rewrite
// applies; its output buffer's old contents are then transposed in as the
// accumulator, since nothing says they are zeros.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/ConvSupport.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPCONVTONHWC
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;

namespace {
/// `value` transposed by `perm` (result dim i = source dim perm[i]) into a
/// fresh tensor.
Value transposed(OpBuilder &b, Location loc, Value value,
                 ArrayRef<int64_t> perm,
                 SmallVectorImpl<linalg::TransposeOp> &made) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init =
      tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  auto op = linalg::TransposeOp::create(b, loc, value, init, perm);
  made.push_back(op);
  return op->getResult(0);
}

/// The largest divisor of `extent` up to `limit`.
int64_t divisorUpTo(int64_t extent, int64_t limit) {
  for (int64_t b = std::min(extent, limit); b > 1; --b)
    if (extent % b == 0)
      return b;
  return 1;
}

/// Tiles a static transpose on tensors so that each tile moves a block of
/// up to 16 x 16 elements between the input's innermost dimension and the
/// output's, and vectorizes the tiles (transfer_read, vector.transpose,
/// transfer_write). Lowered to loops instead, a transpose is one scalar
/// load and store per element, strided on one side: for a 1x1 convolution
/// the three transposes took longer than the convolution itself.
LogicalResult vectorizeTranspose(IRRewriter &rewriter, linalg::TransposeOp op) {
  ArrayRef<int64_t> perm = op.getPermutation();
  auto outType = cast<RankedTensorType>(op.getInit().getType());
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  int64_t rank = outType.getRank();
  // The innermost dimensions that are not 1 (a 1x1 filter's FCHW is an
  // F x C matrix: C is what runs along its rows).
  auto innermost = [&](RankedTensorType type) {
    int64_t d = rank - 1;
    while (d > 0 && type.getDimSize(d) == 1)
      --d;
    return d;
  };
  int64_t outInner = innermost(outType);
  int64_t readsInInner = llvm::find(perm, innermost(inType)) - perm.begin();
  SmallVector<OpFoldResult> sizes(rank, rewriter.getIndexAttr(1));
  sizes[outInner] =
      rewriter.getIndexAttr(divisorUpTo(outType.getDimSize(outInner), 16));
  sizes[readsInInner] =
      rewriter.getIndexAttr(divisorUpTo(outType.getDimSize(readsInInner), 16));
  scf::SCFTilingOptions options;
  options.setTileSizes(sizes);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  rewriter.replaceOp(op, tiled->replacements);
  for (Operation *tile : tiled->tiledOps) {
    rewriter.setInsertionPoint(tile);
    FailureOr<linalg::VectorizationResult> vec =
        linalg::vectorize(rewriter, tile);
    if (failed(vec))
      return failure();
    rewriter.replaceOp(tile, vec->replacements);
  }
  return success();
}

/// Whether `pad` pads only H and W (dims 2 and 3 of NCHW), by static
/// amounts, with the constant 0.0.
bool isZeroSpatialPad(tensor::PadOp pad) {
  ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
  if (low.size() != 4 || ShapedType::isDynamic(low[2]) ||
      ShapedType::isDynamic(low[3]) || ShapedType::isDynamic(high[2]) ||
      ShapedType::isDynamic(high[3]) || low[0] || low[1] || high[0] ||
      high[1])
    return false;
  Value padValue = pad.getConstantPaddingValue();
  return padValue && matchPattern(padValue, m_AnyZeroFloat());
}

/// Images up to which a 1x1 convolution becomes one GEMM per image.
constexpr int64_t kMaxPointwiseImages = 16;

/// A 1x1, stride-1 NCHW convolution on an unpadded input is one GEMM per
/// image with no transposes at all: out[n] (F x H*W) = W (F x C) * in[n]
/// (C x H*W), every operand row-major as it is stored.
bool isPointwise(linalg::Conv2DNchwFchwOp op) {
  auto filter = cast<RankedTensorType>(op.getDpsInputOperand(1)->get().getType());
  auto input = cast<RankedTensorType>(op.getDpsInputOperand(0)->get().getType());
  auto init = cast<RankedTensorType>(op.getDpsInitOperand(0)->get().getType());
  return filter.getDimSize(2) == 1 && filter.getDimSize(3) == 1 &&
         llvm::all_of(op.getStrides().getValues<int64_t>(),
                      [](int64_t s) { return s == 1; }) &&
         input.getDimSize(2) == init.getDimSize(2) &&
         input.getDimSize(3) == init.getDimSize(3) &&
         input.getDimSize(0) <= kMaxPointwiseImages;
}

/// The GEMMs of a pointwise convolution (isPointwise); its result.
Value rewritePointwise(OpBuilder &b, linalg::Conv2DNchwFchwOp op) {
  Location loc = op.getLoc();
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  auto inType = cast<RankedTensorType>(input.getType());
  auto outType = cast<RankedTensorType>(init.getType());
  int64_t n = inType.getDimSize(0), c = inType.getDimSize(1),
          h = inType.getDimSize(2), w = inType.getDimSize(3),
          f = outType.getDimSize(1);
  Type f32 = outType.getElementType();
  auto idx = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  Value weights = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({f, c}, f32), filter,
      ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  linalg::FillOp fill = tensorop::zeroFillOf(init);
  bool zeroInit = static_cast<bool>(fill);
  Value result = tensor::EmptyOp::create(b, loc, outType.getShape(), f32);
  auto gemmType = RankedTensorType::get({f, h * w}, f32);
  for (int64_t i = 0; i < n; ++i) {
    // Image i as C x H*W and its accumulator as F x H*W.
    auto slice = [&](Value v, int64_t rows) {
      Value s = tensor::ExtractSliceOp::create(
          b, loc, RankedTensorType::get({rows, h, w}, f32), v,
          ArrayRef<OpFoldResult>{idx(i), idx(0), idx(0), idx(0)},
          ArrayRef<OpFoldResult>{idx(1), idx(rows), idx(h), idx(w)},
          ArrayRef<OpFoldResult>{idx(1), idx(1), idx(1), idx(1)});
      return tensor::CollapseShapeOp::create(
          b, loc, RankedTensorType::get({rows, h * w}, f32), s,
          ArrayRef<ReassociationIndices>{{0}, {1, 2}});
    };
    Value image = slice(input, c);
    Value acc;
    if (zeroInit) {
      Value empty = tensor::EmptyOp::create(b, loc, gemmType.getShape(), f32);
      acc = linalg::FillOp::create(b, loc, fill.getDpsInputOperand(0)->get(),
                                   empty)
                .getResult(0);
    } else {
      acc = slice(init, f);
    }
    auto gemm = linalg::MatmulOp::create(b, loc, TypeRange{gemmType},
                                         ValueRange{weights, image},
                                         ValueRange{acc});
    // TensorOp's own attributes (a sketch) go to the GEMMs.
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (attr.getName().strref().starts_with("tensorop."))
        gemm->setAttr(attr.getName(), attr.getValue());
    Value plane = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({1, f, h, w}, f32), gemm.getResult(0),
        ArrayRef<ReassociationIndices>{{0, 1}, {2, 3}});
    result = tensor::InsertSliceOp::create(
        b, loc, plane, result,
        ArrayRef<OpFoldResult>{idx(i), idx(0), idx(0), idx(0)},
        ArrayRef<OpFoldResult>{idx(1), idx(f), idx(h), idx(w)},
        ArrayRef<OpFoldResult>{idx(1), idx(1), idx(1), idx(1)});
  }
  return result;
}

/// Rewrites one convolution; failure with `reason` leaves it untouched.
LogicalResult rewrite(linalg::Conv2DNchwFchwOp op, std::string &reason,
                      SmallVectorImpl<linalg::TransposeOp> &made,
                      bool &pointwise) {
  Value input = op.getDpsInputOperand(0)->get();
  Value filter = op.getDpsInputOperand(1)->get();
  Value init = op.getDpsInitOperand(0)->get();
  for (Value v : {input, filter, init}) {
    auto type = cast<RankedTensorType>(v.getType());
    if (!type.hasStaticShape() || !type.getElementType().isF32()) {
      reason = "only static f32 NCHW convolutions are rewritten";
      return failure();
    }
  }

  OpBuilder b(op);
  Location loc = op.getLoc();
  if (isPointwise(op)) {
    op->replaceAllUsesWith(ValueRange{rewritePointwise(b, op)});
    pointwise = true;
    return success();
  }
  // The filter first: the input's pad, bufferized, must be the last write
  // before the convolution for the kernel to fold it (ApplyConvSketch's
  // traceBufferizedPad), and the filter's transpose loops write a buffer
  // of their own in between otherwise.
  Value hwcf = transposed(b, loc, filter, {2, 3, 1, 0}, made);
  // A zero pad of H and W moves behind the transpose.
  tensor::PadOp pad = input.getDefiningOp<tensor::PadOp>();
  if (pad && !isZeroSpatialPad(pad))
    pad = nullptr;
  Value source = pad ? pad.getSource() : input;
  Value nhwc = transposed(b, loc, source, {0, 2, 3, 1}, made);
  if (pad) {
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    auto type = cast<RankedTensorType>(nhwc.getType());
    SmallVector<int64_t> padded(type.getShape());
    padded[1] += low[2] + high[2];
    padded[2] += low[3] + high[3];
    auto paddedType = RankedTensorType::get(padded, type.getElementType());
    Value zero =
        arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    auto idx = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
    nhwc = tensor::PadOp::create(
        b, loc, paddedType, nhwc,
        ArrayRef<OpFoldResult>{idx(0), idx(low[2]), idx(low[3]), idx(0)},
        ArrayRef<OpFoldResult>{idx(0), idx(high[2]), idx(high[3]), idx(0)},
        zero);
  }

  // The accumulator: a zero fill is made in NHWF, anything else transposed.
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> nhwfShape = {initType.getDimSize(0),
                                    initType.getDimSize(2),
                                    initType.getDimSize(3),
                                    initType.getDimSize(1)};
  Value acc;
  if (linalg::FillOp fill = tensorop::zeroFillOf(init)) {
    Value empty =
        tensor::EmptyOp::create(b, loc, nhwfShape, initType.getElementType());
    acc = linalg::FillOp::create(b, loc, fill.getDpsInputOperand(0)->get(),
                                 empty)
              .getResult(0);
  } else {
    acc = transposed(b, loc, init, {0, 2, 3, 1}, made);
  }
  auto conv = linalg::Conv2DNhwcHwcfOp::create(
      b, loc, TypeRange{acc.getType()}, ValueRange{nhwc, hwcf},
      ValueRange{acc}, op.getStridesAttr(), op.getDilationsAttr());
  // TensorOp's own attributes (a sketch) go to the new op; linalg's
  // memoized indexing maps are the old op's and must not.
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (attr.getName().strref().starts_with("tensorop."))
      conv->setAttr(attr.getName(), attr.getValue());
  Value result = transposed(b, loc, conv->getResult(0), {0, 3, 1, 2}, made);
  op->replaceAllUsesWith(ValueRange{result});
  return success();
}

/// Erases `v`'s producer when nothing uses it any more, and then its own
/// producers the same way: the NCHW pad and zero fill a rewritten
/// convolution leaves behind (bufferization would otherwise still fill and
/// copy into buffers nobody reads).
void eraseDeadProducers(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || !op->use_empty() ||
      !isa<tensor::PadOp, linalg::FillOp, tensor::EmptyOp>(op))
    return;
  SmallVector<Value> operands(op->getOperands());
  op->erase();
  for (Value operand : operands)
    eraseDeadProducers(operand);
}

struct ConvToNhwcPass
    : public tensorop::impl::TensorOpConvToNhwcBase<ConvToNhwcPass> {
  void runOnOperation() override {
    SmallVector<linalg::Conv2DNchwFchwOp> convs;
    getOperation().walk(
        [&](linalg::Conv2DNchwFchwOp op) { convs.push_back(op); });
    SmallVector<linalg::TransposeOp> transposes;
    for (linalg::Conv2DNchwFchwOp op : convs) {
      std::string reason;
      bool pointwise = false;
      bool buffers = op.hasPureBufferSemantics();
      if (!buffers && !op.hasPureTensorSemantics()) {
        op.emitRemark() << "tensorop: NCHW convolution not rewritten (its "
                           "operands mix tensors and memrefs)";
        continue;
      }
      if (buffers) {
        FailureOr<linalg::LinalgOp> onT = tensorop::linalgOpOnTensors(op, reason);
        if (failed(onT)) {
          op.emitRemark() << "tensorop: NCHW convolution on memrefs not "
                             "rewritten ("
                          << reason << ")";
          continue;
        }
        op = cast<linalg::Conv2DNchwFchwOp>(onT->getOperation());
      }
      if (failed(rewrite(op, reason, transposes, pointwise))) {
        op.emitRemark() << "tensorop: NCHW convolution not rewritten ("
                        << reason << ")";
        continue;
      }
      StringRef onBuffers =
          buffers ? " (on tensors of its memrefs; the output buffer's "
                    "contents are its accumulator)"
                  : "";
      if (pointwise)
        op.emitRemark() << "tensorop: NCHW 1x1 convolution computed as one "
                           "F x (H*W) x C GEMM per image (filter times "
                           "image, no transposes)"
                        << onBuffers;
      else
        op.emitRemark() << "tensorop: NCHW convolution computed as an NHWC "
                           "one (input, filter and output transposed around "
                           "it)"
                        << onBuffers;
      SmallVector<Value> operands(op->getOperands());
      op->erase();
      for (Value operand : operands)
        eraseDeadProducers(operand);
    }
    IRRewriter rewriter(&getContext());
    for (linalg::TransposeOp t : transposes)
      if (failed(vectorizeTranspose(rewriter, t))) {
        t.emitError() << "tensorop: vectorizing an NCHW convolution's "
                         "transpose failed";
        return signalPassFailure();
      }
  }
};
} // namespace
