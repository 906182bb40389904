//===- ConvEpilogues.cpp - Elementwise consumers of convolutions ----------===//
//
// A convolution's consumer is read as epilogue steps the way a matmul's is
// (EpilogueMatch.cpp), on the N x OH x OW x F output: a bias is per output
// channel (the last dimension), a residual is another N x OH x OW x F
// tensor. The steps go onto the #tensorop.conv_sketch and the x86 kernel
// applies them as it stores each output block for the last time
// (ApplyConvSketch.cpp), so the output is written once.
//
// 1x1 convolutions on the GEMM path are a matmul on (N*H*W) x C rows whose
// result is expanded back to N x H x W x F: their consumers are flattened
// to those rows here, so the matmul's own fusion applies to them.
//
//===----------------------------------------------------------------------===//

#include "ConvEpilogues.h"

#include "tensorop/Dialect/TensorOpDialect.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tensorop;

namespace {
bool isElementwiseCandidate(linalg::LinalgOp op) {
  return isa<linalg::GenericOp>(op) || linalg::isElementwise(op);
}

/// The consumer to try: the single user of a tensor result, or on memrefs
/// the op right after the convolution when it reads or writes its output.
linalg::LinalgOp consumerOf(Operation *producer, Value out) {
  if (producer->getNumResults() == 1) {
    Value result = producer->getResult(0);
    if (!result.hasOneUse())
      return {};
    return dyn_cast<linalg::LinalgOp>(*result.getUsers().begin());
  }
  auto next = dyn_cast_or_null<linalg::LinalgOp>(producer->getNextNode());
  if (!next || next.getNumDpsInits() != 1 ||
      !llvm::is_contained(next->getOperands(), out))
    return {};
  return next;
}

/// `op` as a linalg.generic: itself, or a generalized copy inserted before
/// it (`copied` set; the caller keeps or erases it).
FailureOr<linalg::GenericOp> genericForm(RewriterBase &rewriter,
                                         linalg::LinalgOp op, bool &copied) {
  copied = false;
  if (auto g = dyn_cast<linalg::GenericOp>(op.getOperation()))
    return g;
  rewriter.setInsertionPoint(op);
  Operation *copy = rewriter.clone(*op);
  FailureOr<linalg::GenericOp> g =
      linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(copy));
  if (failed(g)) {
    rewriter.eraseOp(copy);
    return failure();
  }
  copied = true;
  return *g;
}

std::string stepList(ArrayRef<EpilogueStep> steps) {
  SmallVector<std::string> texts;
  for (const EpilogueStep &s : steps)
    texts.push_back(s.text());
  return llvm::join(texts, ", ");
}

/// Vectors of lane masks the x86 kernel's epilogue keeps (one per vector).
int64_t maxEpilogueVectors(int64_t lanes) { return lanes == 16 ? 7 : 10; }
} // namespace

void mlir::tensorop::fuseConvEpilogue(RewriterBase &rewriter,
                                      linalg::Conv2DNhwcHwcfOp conv) {
  auto sketch = conv->getAttrOfType<ConvSketchAttr>(kSketchAttrName);
  if (!sketch)
    return;
  Value out = conv.getDpsInitOperand(0)->get();
  linalg::LinalgOp consumer = consumerOf(conv, out);
  if (!consumer || !isElementwiseCandidate(consumer))
    return;
  auto notFused = [&](const Twine &why) {
    consumer->emitRemark() << "tensorop: not fused into the convolution's "
                              "microkernel (runs as a separate op after "
                              "it): "
                           << why;
  };
  if (sketch.getEpilogue())
    return notFused("the convolution already has an epilogue");
  StringRef emitter = sketch.getUkernel().getEmitter();
  if (emitter != "x86_gemm_fma")
    return notFused("the " + emitter +
                    " convolution kernel (a GEMM microkernel per tap on "
                    "packed panels) has no epilogue yet; x86_gemm_fma has "
                    "one");
  int64_t lanes = sketch.getTarget().getF32Lanes();
  if (sketch.getNr() > maxEpilogueVectors(lanes) * lanes)
    return notFused("the register block's nr = " + Twine(sketch.getNr()) +
                    " exceeds the " + Twine(maxEpilogueVectors(lanes) * lanes) +
                    " channels an epilogue's lane masks cover");

  bool copied = false;
  FailureOr<linalg::GenericOp> form = genericForm(rewriter, consumer, copied);
  if (failed(form))
    return notFused("it has no generic form");
  linalg::GenericOp generic = *form;
  Value matched = conv.hasPureTensorSemantics() ? conv->getResult(0) : out;
  std::string why;
  FailureOr<EpilogueMatch> m =
      matchEpilogue(generic, matched, why, EpilogueOutput::ConvNhwf);
  if (failed(m)) {
    if (copied)
      rewriter.eraseOp(generic);
    return notFused(why);
  }
  if (!hoistEpilogueOperands(generic, *m, conv)) {
    if (copied)
      rewriter.eraseOp(generic);
    return notFused("its bias or residual is computed after the "
                    "convolution, where the microkernel reads it");
  }
  if (conv.hasPureTensorSemantics()) {
    linalg::GenericOp fused =
        rewriteEpilogueInPlace(rewriter, generic, *m, matched);
    if (copied)
      rewriter.replaceOp(consumer, fused->getResults());
    generic = fused;
  } else {
    // On memrefs the consumer must already write the output in place.
    if (generic.getDpsInitOperand(0)->get() != out) {
      if (copied)
        rewriter.eraseOp(generic);
      return notFused("it writes another buffer than the convolution's "
                      "output");
    }
    if (copied)
      rewriter.eraseOp(consumer);
  }
  generic->setAttr(kFusedEpilogueAttrName, rewriter.getUnitAttr());
  conv->setAttr(kSketchAttrName,
                sketch.withEpilogue(epilogueAttr(conv.getContext(), m->steps)));
  conv->emitRemark() << "tensorop: fused the elementwise consumer into the "
                        "convolution microkernel's store: epilogue ["
                     << stepList(m->steps) << "]";
}

namespace {
/// The 2-D map of an operand of a flattened consumer: the identity (an
/// N x H x W x F operand, collapsed), (d1) for a per-channel vector, () for
/// a scalar; null if the 4-D map is none of those.
AffineMap flattenedMap(AffineMap map, MLIRContext *ctx) {
  AffineMap id4 = AffineMap::getMultiDimIdentityMap(4, ctx);
  if (map == id4)
    return AffineMap::getMultiDimIdentityMap(2, ctx);
  if (map == AffineMap::get(4, 0, getAffineDimExpr(3, ctx)))
    return AffineMap::get(2, 0, getAffineDimExpr(1, ctx));
  if (map.getNumDims() == 4 && map.getNumResults() == 0)
    return AffineMap::get(2, 0, ctx);
  return {};
}

/// Rewrites the 4-D elementwise `g` (reading `expanded`, the expand of
/// `rows`; the generic form of `original`) on the rows: returns the 2-D
/// generic, its result expanded in place of original's; null (nothing
/// changed) if an operand cannot be flattened.
linalg::GenericOp flatten(RewriterBase &rewriter, linalg::GenericOp g,
                          Operation *original, Value expanded, Value rows,
                          ArrayRef<ReassociationIndices> reassociation) {
  MLIRContext *ctx = g.getContext();
  if (g.getNumLoops() != 4 || g.getNumParallelLoops() != 4 ||
      g.getNumDpsInits() != 1 || g->getNumResults() != 1)
    return {};
  SmallVector<AffineMap> maps;
  for (OpOperand &operand : g->getOpOperands()) {
    AffineMap map = flattenedMap(g.getMatchingIndexingMap(&operand), ctx);
    if (!map)
      return {};
    if (map.getNumResults() == 2 && operand.get() != expanded &&
        !isa<RankedTensorType>(operand.get().getType()))
      return {};
    maps.push_back(map);
  }
  if (maps.back() != AffineMap::getMultiDimIdentityMap(2, ctx))
    return {};
  rewriter.setInsertionPoint(g);
  auto operandOnRows = [&](OpOperand &operand, AffineMap map) -> Value {
    if (operand.get() == expanded)
      return rows;
    if (map.getNumResults() != 2)
      return operand.get();
    // Right after the operand, so the rows dominate wherever it does (the
    // microkernel reads a residual where the matmul is).
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfterValue(operand.get());
    return tensor::CollapseShapeOp::create(rewriter, g.getLoc(), operand.get(),
                                           reassociation);
  };
  SmallVector<Value> inputs, inits;
  for (OpOperand *in : g.getDpsInputOperands())
    inputs.push_back(operandOnRows(*in, maps[in->getOperandNumber()]));
  OpOperand *init = g.getDpsInitOperand(0);
  inits.push_back(operandOnRows(*init, maps.back()));
  auto flat = linalg::GenericOp::create(
      rewriter, g.getLoc(), TypeRange{inits[0].getType()}, inputs, inits, maps,
      SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel));
  IRMapping mapping;
  g.getRegion().cloneInto(&flat.getRegion(), mapping);
  flat->setDiscardableAttrs(g->getDiscardableAttrDictionary());
  Value back = tensor::ExpandShapeOp::create(rewriter, g.getLoc(),
                                             g->getResult(0).getType(),
                                             flat->getResult(0), reassociation);
  rewriter.replaceOp(original, back);
  if (g.getOperation() != original)
    rewriter.eraseOp(g);
  return flat;
}
} // namespace

void mlir::tensorop::flattenConsumersOfExpandedMatmul(RewriterBase &rewriter,
                                                      linalg::MatmulOp mm) {
  if (!mm.hasPureTensorSemantics() || !mm->getResult(0).hasOneUse())
    return;
  auto expand =
      dyn_cast<tensor::ExpandShapeOp>(*mm->getResult(0).getUsers().begin());
  SmallVector<ReassociationIndices> pixels = {{0, 1, 2}, {3}};
  if (!expand || expand.getResultType().getRank() != 4 ||
      expand.getReassociationIndices() != pixels)
    return;
  // Each consumer in turn, while they form a chain of elementwise ops.
  Value rows = mm->getResult(0);
  Value expanded = expand.getResult();
  while (expanded.hasOneUse()) {
    auto consumer = dyn_cast<linalg::LinalgOp>(*expanded.getUsers().begin());
    if (!consumer || !isElementwiseCandidate(consumer))
      return;
    bool copied = false;
    FailureOr<linalg::GenericOp> form = genericForm(rewriter, consumer, copied);
    if (failed(form))
      return;
    linalg::GenericOp flat =
        flatten(rewriter, *form, consumer, expanded, rows, pixels);
    if (!flat) {
      if (copied)
        rewriter.eraseOp(*form);
      consumer->emitRemark()
          << "tensorop: not fused into the 1x1 convolution's GEMM "
             "microkernel (runs as a separate op after it): an operand is "
             "read other than per pixel and channel, per channel or as a "
             "scalar, so the op cannot run on the GEMM's rows";
      return;
    }
    // The previous expand is dead: the matmul (or the previous consumer)
    // must have its new consumer as its only user.
    if (Operation *old = expanded.getDefiningOp(); old && old->use_empty())
      rewriter.eraseOp(old);
    rows = flat->getResult(0);
    expanded = (*rows.getUsers().begin())->getResult(0);
  }
}

linalg::GenericOp
mlir::tensorop::findFusedConvEpilogue(linalg::Conv2DNhwcHwcfOp conv, Value out,
                                      EpilogueMatch &match) {
  for (Operation *next = conv->getNextNode(); next;
       next = next->getNextNode()) {
    auto g = dyn_cast<linalg::GenericOp>(next);
    if (!g || !g->hasAttr(kFusedEpilogueAttrName))
      continue;
    if (g.getDpsInitOperand(0)->get() != out || !g.hasPureBufferSemantics())
      return {};
    std::string why;
    FailureOr<EpilogueMatch> m =
        matchEpilogue(g, out, why, EpilogueOutput::ConvNhwf);
    if (failed(m))
      return {};
    // The microkernel reads a residual row of pixels with its static row
    // stride and unit channel stride.
    if (m->residualInput >= 0) {
      auto type = cast<MemRefType>(
          g.getDpsInputOperand(m->residualInput)->get().getType());
      SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(type.getStridesAndOffset(strides, offset)) ||
          strides.back() != 1)
        return {};
    }
    match = *m;
    return g;
  }
  return {};
}
