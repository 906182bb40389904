//===- ConvEpilogues.cpp - Elementwise consumers of convolutions ----------===//
//
// A convolution's chain of consumers is read as epilogue steps the way a
// matmul's is (tensorop-fuse-epilogues' chain loop, EpilogueMatch.cpp), on
// the N x OH x OW x F output: a bias is per output channel (the last
// dimension), a residual is another N x OH x OW x F tensor. The steps go
// onto the #tensorop.conv_sketch and the x86 kernel applies them as it
// stores each output block for the last time (ApplyConvSketch.cpp), so the
// output is written once. Here: which conv sketches take an epilogue.
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
/// Vectors of lane masks the x86 kernel's epilogue keeps (one per vector).
int64_t maxEpilogueVectors(int64_t lanes) { return lanes == 16 ? 7 : 10; }
} // namespace

std::string mlir::tensorop::whyConvTakesNoEpilogue(ConvSketchAttr sketch) {
  if (sketch.getEpilogue())
    return "the convolution already has an epilogue";
  StringRef emitter = sketch.getUkernel().getEmitter();
  if (emitter != "x86_gemm_fma")
    return ("the " + emitter +
            " convolution kernel (a GEMM microkernel per tap on packed "
            "panels) has no epilogue yet; x86_gemm_fma has one")
        .str();
  int64_t lanes = sketch.getTarget().getF32Lanes();
  int64_t channels = maxEpilogueVectors(lanes) * lanes;
  if (sketch.getNr() > channels)
    return ("the register block's nr = " + Twine(sketch.getNr()) +
            " exceeds the " + Twine(channels) +
            " channels an epilogue's lane masks cover")
        .str();
  return "";
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
