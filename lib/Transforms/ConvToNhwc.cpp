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
// there. Memrefs are left as they are (with the annotate pass's remark).
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPCONVTONHWC
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;

namespace {
/// `value` transposed by `perm` (result dim i = source dim perm[i]) into a
/// fresh tensor.
Value transposed(OpBuilder &b, Location loc, Value value,
                 ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init =
      tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm)->getResult(0);
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

/// Rewrites one convolution; failure with `reason` leaves it untouched.
LogicalResult rewrite(linalg::Conv2DNchwFchwOp op, std::string &reason) {
  if (!op.hasPureTensorSemantics()) {
    reason = "NCHW convolutions become NHWC ones on tensors only (this one "
             "is on memrefs)";
    return failure();
  }
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
  // A zero pad of H and W moves behind the transpose.
  tensor::PadOp pad = input.getDefiningOp<tensor::PadOp>();
  if (pad && !isZeroSpatialPad(pad))
    pad = nullptr;
  Value source = pad ? pad.getSource() : input;
  Value nhwc = transposed(b, loc, source, {0, 2, 3, 1});
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
  Value hwcf = transposed(b, loc, filter, {2, 3, 1, 0});

  // The accumulator: a zero fill is made in NHWF, anything else transposed.
  auto initType = cast<RankedTensorType>(init.getType());
  SmallVector<int64_t> nhwfShape = {initType.getDimSize(0),
                                    initType.getDimSize(2),
                                    initType.getDimSize(3),
                                    initType.getDimSize(1)};
  Value acc;
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (fill && matchPattern(fill.getDpsInputOperand(0)->get(),
                           m_AnyZeroFloat())) {
    Value empty =
        tensor::EmptyOp::create(b, loc, nhwfShape, initType.getElementType());
    acc = linalg::FillOp::create(b, loc, fill.getDpsInputOperand(0)->get(),
                                 empty)
              .getResult(0);
  } else {
    acc = transposed(b, loc, init, {0, 2, 3, 1});
  }
  auto conv = linalg::Conv2DNhwcHwcfOp::create(
      b, loc, TypeRange{acc.getType()}, ValueRange{nhwc, hwcf},
      ValueRange{acc}, op.getStridesAttr(), op.getDilationsAttr());
  // TensorOp's own attributes (a sketch) go to the new op; linalg's
  // memoized indexing maps are the old op's and must not.
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (attr.getName().strref().starts_with("tensorop."))
      conv->setAttr(attr.getName(), attr.getValue());
  Value result = transposed(b, loc, conv->getResult(0), {0, 3, 1, 2});
  op->replaceAllUsesWith(ValueRange{result});
  return success();
}

struct ConvToNhwcPass
    : public tensorop::impl::TensorOpConvToNhwcBase<ConvToNhwcPass> {
  void runOnOperation() override {
    SmallVector<linalg::Conv2DNchwFchwOp> convs;
    getOperation().walk(
        [&](linalg::Conv2DNchwFchwOp op) { convs.push_back(op); });
    for (linalg::Conv2DNchwFchwOp op : convs) {
      std::string reason;
      if (failed(rewrite(op, reason))) {
        op.emitRemark() << "tensorop: NCHW convolution not rewritten ("
                        << reason << ")";
        continue;
      }
      op.emitRemark() << "tensorop: NCHW convolution computed as an NHWC one "
                         "(input, filter and output transposed around it)";
      op->erase();
    }
  }
};
} // namespace
