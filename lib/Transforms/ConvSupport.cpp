//===- ConvSupport.cpp - Which linalg convolutions TensorOp handles -------===//

#include "tensorop/Transforms/ConvSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tensorop;

FailureOr<ConvProblem>
mlir::tensorop::matchSupportedConv(linalg::Conv2DNhwcHwcfOp op,
                                   std::string &reason) {
  auto shaped = [](Value v) { return dyn_cast<ShapedType>(v.getType()); };
  ShapedType in = shaped(op.getDpsInputOperand(0)->get());
  ShapedType flt = shaped(op.getDpsInputOperand(1)->get());
  ShapedType out = shaped(op.getDpsInitOperand(0)->get());
  if (!in || !flt || !out || !in.hasRank() || !flt.hasRank() ||
      !out.hasRank()) {
    reason = "operands are not ranked tensors or memrefs";
    return failure();
  }
  if (!in.hasStaticShape() || !flt.hasStaticShape() || !out.hasStaticShape()) {
    reason = "dynamic dimensions are not supported yet";
    return failure();
  }
  if (!in.getElementType().isF32() || !flt.getElementType().isF32() ||
      !out.getElementType().isF32()) {
    llvm::raw_string_ostream os(reason);
    os << "element types other than f32 are not supported for convolutions "
          "yet (got "
       << in.getElementType() << " * " << flt.getElementType() << " -> "
       << out.getElementType() << ")";
    return failure();
  }
  ConvProblem p;
  p.n = in.getDimSize(0);
  p.h = in.getDimSize(1);
  p.w = in.getDimSize(2);
  p.c = in.getDimSize(3);
  p.r = flt.getDimSize(0);
  p.s = flt.getDimSize(1);
  p.f = flt.getDimSize(3);
  auto strides = op.getStrides().getValues<int64_t>();
  auto dilations = op.getDilations().getValues<int64_t>();
  p.strideH = strides[0];
  p.strideW = strides[1];
  p.dilationH = dilations[0];
  p.dilationW = dilations[1];
  if (p.strideH < 1 || p.strideW < 1 || p.dilationH < 1 || p.dilationW < 1) {
    reason = "strides and dilations must be positive";
    return failure();
  }
  if (p.n == 0 || p.c == 0 || p.f == 0 || out.getDimSize(1) == 0 ||
      out.getDimSize(2) == 0) {
    reason = "empty convolutions are left to the upstream lowering";
    return failure();
  }
  // The op's input may hold more rows or columns than the output uses (the
  // stride does not divide them): the kernel computes the output's extent.
  if (out.getDimSize(1) != p.outH() || out.getDimSize(2) != p.outW() ||
      out.getDimSize(0) != p.n || out.getDimSize(3) != p.f) {
    reason = "the output shape is not the one the input, filter, strides "
             "and dilations give";
    return failure();
  }
  return p;
}

std::optional<std::array<int64_t, 4>>
mlir::tensorop::foldableZeroPad(tensor::PadOp pad) {
  SmallVector<int64_t> low(pad.getStaticLow()), high(pad.getStaticHigh());
  if (low.size() != 4 || high.size() != 4 || !pad.getLow().empty() ||
      !pad.getHigh().empty())
    return std::nullopt;
  if (low[0] || high[0] || low[3] || high[3])
    return std::nullopt;
  Value yielded = pad.getConstantPaddingValue();
  FloatAttr value;
  if (!yielded || !matchPattern(yielded, m_Constant(&value)) ||
      !value.getValue().isPosZero())
    return std::nullopt;
  return std::array<int64_t, 4>{low[1], high[1], low[2], high[2]};
}

FailureOr<ConvProblem> mlir::tensorop::matchConvWithFoldedPad(
    linalg::Conv2DNhwcHwcfOp op, std::string &reason,
    std::optional<std::array<int64_t, 4>> *padding) {
  FailureOr<ConvProblem> problem = matchSupportedConv(op, reason);
  if (failed(problem))
    return failure();
  std::optional<std::array<int64_t, 4>> folded;
  if (auto pad = op.getDpsInputOperand(0)->get().getDefiningOp<tensor::PadOp>())
    if ((folded = foldableZeroPad(pad))) {
      auto src = cast<ShapedType>(pad.getSource().getType());
      problem->h = src.getDimSize(1);
      problem->w = src.getDimSize(2);
      problem->padTop = (*folded)[0];
      problem->padBottom = (*folded)[1];
      problem->padLeft = (*folded)[2];
      problem->padRight = (*folded)[3];
    }
  if (padding)
    *padding = folded;
  return problem;
}

bool mlir::tensorop::convTakesGemmPath(linalg::Conv2DNhwcHwcfOp op,
                                       const ConvProblem &p) {
  bool padded = p.padTop || p.padBottom || p.padLeft || p.padRight;
  return p.r == 1 && p.s == 1 && p.strideH == 1 && p.strideW == 1 && !padded &&
         op.hasPureTensorSemantics();
}

std::string mlir::tensorop::unsupportedConvReason(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (isa<linalg::Conv2DNchwFchwOp>(op))
    return (name + " (NCHW input, FCHW filter) is not on the sketch path, "
                   "which takes linalg.conv_2d_nhwc_hwcf; "
                   "tensorop-conv-to-nhwc (run by --tensorop-pipeline "
                   "before this pass) computes it as one")
        .str();
  if (isa<linalg::DepthwiseConv2DNhwcHwcOp>(op))
    return (name + " (one filter per channel, no reduction over channels) "
                   "is not a GEMM and not on the sketch path; "
                   "tensorop-depthwise-conv (run by --tensorop-pipeline "
                   "before this pass) vectorizes it")
        .str();
  return (name + " is not on the sketch path, which takes "
                 "linalg.conv_2d_nhwc_hwcf")
      .str();
}

FailureOr<linalg::LinalgOp>
mlir::tensorop::linalgOpOnTensors(linalg::LinalgOp op, std::string &reason) {
  if (op.getNumDpsInits() != 1) {
    reason = "it has more than one output";
    return failure();
  }
  Value output = op.getDpsInitOperand(0)->get();
  for (OpOperand *in : op.getDpsInputOperands())
    if (in->get() == output) {
      reason = "its output buffer is also one of its inputs";
      return failure();
    }
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !type.hasStaticShape() || !type.getElementType().isF32()) {
      reason = "only static f32 convolutions on memrefs are rewritten";
      return failure();
    }
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  // One to_tensor per distinct buffer (an input read twice is one tensor).
  llvm::SmallDenseMap<Value, Value> tensors;
  SmallVector<Value> operands;
  for (Value buffer : op->getOperands()) {
    Value &t = tensors[buffer];
    if (!t) {
      auto type = cast<MemRefType>(buffer.getType());
      t = bufferization::ToTensorOp::create(
          b, loc,
          RankedTensorType::get(type.getShape(), type.getElementType()),
          buffer, /*restrict=*/true, /*writable=*/false);
    }
    operands.push_back(t);
  }
  Operation *clone =
      mlir::clone(b, op, TypeRange{operands.back().getType()}, operands);
  auto store = bufferization::MaterializeInDestinationOp::create(
      b, loc, TypeRange{}, clone->getResult(0), output);
  store.setWritable(true);
  op->erase();
  return cast<linalg::LinalgOp>(clone);
}

FailureOr<PrepackedFilterNames>
mlir::tensorop::parsePrepackedFilterMark(Operation *op, Attribute mark) {
  auto dict = dyn_cast<DictionaryAttr>(mark);
  PrepackedFilterNames names;
  if (dict) {
    names.pack = dict.getAs<StringAttr>("pack");
    names.size = dict.getAs<StringAttr>("size");
  }
  if (!names.pack || !names.size)
    return op->emitError() << "tensorop: '" << kConvPrepackedFilterAttrName
                           << "' must be {pack = \"...\", size = \"...\"} "
                              "(the functions to add), got "
                           << mark;
  return names;
}

LogicalResult
mlir::tensorop::checkPrepackedNamesFree(Operation *op,
                                        const PrepackedFilterNames &names,
                                        ModuleOp module) {
  for (StringAttr name : {names.pack, names.size})
    if (!module || SymbolTable::lookupSymbolIn(module, name))
      return op->emitError() << "tensorop: cannot add the prepacked filter's "
                                "function @"
                             << name.getValue()
                             << (module ? ": the module has one already"
                                        : ": no enclosing module");
  return success();
}

linalg::FillOp mlir::tensorop::zeroFillOf(Value init) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  if (fill && matchPattern(fill.getDpsInputOperand(0)->get(), m_AnyZeroFloat()))
    return fill;
  return nullptr;
}

linalg::FillOp mlir::tensorop::zeroFillBefore(Operation *op, Value buffer) {
  Operation *prev = op->getPrevNode();
  while (isa_and_nonnull<memref::AllocOp, memref::ViewOp>(prev))
    prev = prev->getPrevNode();
  auto fill = dyn_cast_or_null<linalg::FillOp>(prev);
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getDpsInitOperand(0)->get() != buffer ||
      !matchPattern(fill.getDpsInputOperand(0)->get(), m_AnyZeroFloat()))
    return nullptr;
  return fill;
}
