//===- BatchEpilogues.cpp - Batch matmul consumers run per slice ----------===//
//
// A batch matmul's elementwise consumers (bias along N broadcast over the
// batch, GELU, a B x M x N residual, ...) would otherwise stay one pass over
// the whole B x M x N C after the loop of slice matmuls, which no slice's
// microkernel can take as its epilogue. Each is copied into the loop as a
// 2-D op on the slice (its operands sliced where their map reads the batch
// dimension), right after the slice's matmul, where tensorop-fuse-epilogues
// reads it like the consumer of any GEMM (and says whether it fused it).
// Moving an elementwise op into the loop is exact whatever fuse-epilogues
// then decides: the slice's elements are computed by the same body.
//
//===----------------------------------------------------------------------===//

#include "BatchEpilogues.h"

#include "tensorop/Transforms/EpilogueSupport.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// How a consumer's operand is read per slice: sliced along the batch
/// (map (d0, d1, d2)), or whole (a map without d0); the map over the
/// slice's (d1, d2), renumbered (d0, d1). Empty if neither.
std::optional<std::pair<bool, AffineMap>> perSliceMap(AffineMap map) {
  if (map.getNumDims() != 3 || map.getNumSymbols() != 0)
    return std::nullopt;
  MLIRContext *ctx = map.getContext();
  if (map.isIdentity())
    return std::make_pair(true, AffineMap::getMultiDimIdentityMap(2, ctx));
  SmallVector<AffineExpr> shifted;
  for (AffineExpr e : map.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || dim.getPosition() == 0)
      return std::nullopt;
    shifted.push_back(getAffineDimExpr(dim.getPosition() - 1, ctx));
  }
  return std::make_pair(false, AffineMap::get(2, 0, shifted, ctx));
}

bool writesOnly(linalg::GenericOp g, OpOperand &operand);

/// Whether `g` writes a bf16 or f16 output from an f32 C: the consumer
/// that narrows the batch matmul's result, last in its chain.
bool narrowsOutput(linalg::GenericOp g, Value c) {
  Type out = getElementTypeOrSelf(g.getDpsInitOperand(0)->get().getType());
  return getElementTypeOrSelf(c.getType()).isF32() &&
         (out.isBF16() || out.isF16());
}

/// Why `g`, a consumer of `chain` (C, then the consumers' results before
/// it), cannot run per slice of `bmm`, or "".
std::string whyNotPerSlice(linalg::GenericOp g, linalg::LinalgOp bmm,
                           ArrayRef<Value> chain, Value c, bool tensors) {
  if (g.getNumLoops() != 3 || g.getNumParallelLoops() != g.getNumLoops())
    return "it is not elementwise over the batch, rows and columns";
  if (g.getNumDpsInits() != 1 || g->getNumResults() != (tensors ? 1 : 0))
    return "it has more than one output";
  bool usesIndex = false;
  g.getRegion().walk([&](linalg::IndexOp) { usesIndex = true; });
  if (usesIndex)
    return "it reads linalg.index";
  OpOperand *init = g.getDpsInitOperand(0);
  if (!g.getMatchingIndexingMap(init).isIdentity())
    return "its output is not written per element";
  // A bf16 / f16 output (an importer's arith.truncf of the f32 result):
  // on memrefs its own buffer, sliced like the other operands; on tensors
  // an output the body does not read (tensor.empty), which the loop then
  // carries instead of C (DecomposeBatchMatmul.cpp). The chain ends with
  // it (narrowsOutput).
  if (narrowsOutput(g, c) && tensors && !writesOnly(g, *init))
    return "its output's element type is not C's and its initial value is "
           "read (a narrowing output runs per slice when it is only "
           "written, as a tensor.empty)";
  if (getElementTypeOrSelf(init->get().getType()) !=
          getElementTypeOrSelf(c.getType()) &&
      !narrowsOutput(g, c))
    return "its output's element type is not C's, nor bf16 or f16 from "
           "an f32 C";
  if (!tensors && init->get() != c && !narrowsOutput(g, c))
    return "it writes another buffer than the batch matmul's C";
  Value a = bmm.getDpsInputOperand(0)->get(),
        b = bmm.getDpsInputOperand(1)->get();
  for (OpOperand &operand : g->getOpOperands()) {
    Value v = operand.get();
    AffineMap map = g.getMatchingIndexingMap(&operand);
    if (llvm::is_contained(chain, v)) {
      if (!map.isIdentity())
        return "it reads C other than per element";
      continue;
    }
    bool scalar = !isa<ShapedType>(v.getType()) && map.getNumResults() == 0;
    if (!scalar && !perSliceMap(map))
      return "an operand is read other than per element (d0, d1, d2), as a "
             "matrix broadcast over the batch (d1, d2), a vector along N "
             "(d2) or M (d1), or a scalar";
    // Run per slice, the consumer of slice b runs before the matmul of
    // slice b + 1, which must not see its writes.
    if (!tensors && (v == a || v == b))
      return "it reads the batch matmul's A or B";
    // The loop runs where the batch matmul is.
    if (!hoistBefore(v, bmm))
      return "an operand is computed after the batch matmul";
  }
  return "";
}
/// Whether `operand` of `g` is a tensor output whose initial value the body
/// does not read (tensor.empty, as importers write): per slice the consumer
/// writes in place on the slice value it reads (as fuse-epilogues rewrites
/// it anyway), so that bufferization allocates nothing for it, even when
/// it is not fused.
bool writesOnly(linalg::GenericOp g, OpOperand &operand) {
  return g.isDpsInit(&operand) && g->getNumResults() &&
         g.getMatchingBlockArgument(&operand).use_empty();
}
} // namespace

Value BatchConsumers::narrowedOutput(Value c) const {
  if (generics.empty())
    return Value();
  linalg::GenericOp last = generics.back();
  if (!narrowsOutput(last, c) || !last->getNumResults())
    return Value();
  return last.getDpsInitOperand(0)->get();
}

void BatchConsumers::erase(RewriterBase &rewriter) {
  for (size_t i = originals.size(); i-- > 0;) {
    if (copied[i])
      rewriter.eraseOp(generics[i]);
    rewriter.eraseOp(originals[i]);
  }
}

BatchConsumers mlir::tensorop::collectBatchConsumers(RewriterBase &rewriter,
                                                     linalg::LinalgOp bmm) {
  BatchConsumers found;
  bool tensors = bmm.hasPureTensorSemantics();
  Value c = tensors ? bmm->getResult(0) : bmm.getDpsInitOperand(0)->get();
  SmallVector<Value> chain = {c};
  Operation *last = bmm;
  while (true) {
    linalg::LinalgOp next;
    if (tensors) {
      // The sole user of the value before it (one op reading it twice is
      // one user): others would need the whole intermediate.
      Value value = chain.back();
      llvm::SmallPtrSet<Operation *, 4> users(value.getUsers().begin(),
                                              value.getUsers().end());
      if (users.size() == 1)
        next = dyn_cast<linalg::LinalgOp>(*users.begin());
      else if (llvm::any_of(users, [](Operation *u) {
                 auto l = dyn_cast<linalg::LinalgOp>(u);
                 return l && isElementwiseCandidate(l);
               }))
        last->emitRemark()
            << "tensorop: no consumer of this result runs per slice of the "
               "batch matmul (nor is fused into its slices' microkernels): "
               "it has "
            << users.size()
            << " users (a consumer is fused only as the sole user)";
    } else {
      next = dyn_cast_or_null<linalg::LinalgOp>(last->getNextNode());
      if (next && !llvm::is_contained(next->getOperands(), c))
        next = {};
    }
    if (!next || !isElementwiseCandidate(next))
      break;
    bool copied = false;
    FailureOr<linalg::GenericOp> g = genericForm(rewriter, next, copied);
    std::string why = failed(g) ? "it has no generic form"
                                : whyNotPerSlice(*g, bmm, chain, c, tensors);
    if (!why.empty()) {
      if (succeeded(g) && copied)
        rewriter.eraseOp(*g);
      next->emitRemark()
          << "tensorop: not run per slice of the batch matmul, so not fused "
             "into its slices' microkernels (runs as a separate pass over "
             "C after them): "
          << why;
      break;
    }
    found.originals.push_back(next);
    found.generics.push_back(*g);
    found.copied.push_back(copied);
    if (tensors)
      chain.push_back(next->getResult(0));
    last = next;
    // After a narrowing consumer C is no longer the chain's value.
    if (narrowsOutput(*g, c))
      break;
  }
  return found;
}

void mlir::tensorop::sliceConsumerOperands(OpBuilder &b, Location loc,
                                           const BatchConsumers &consumers,
                                           Value c, Value iv,
                                           IRMapping &slices) {
  for (linalg::GenericOp g : consumers.generics)
    for (OpOperand &operand : g->getOpOperands()) {
      Value v = operand.get();
      std::optional<std::pair<bool, AffineMap>> m =
          perSliceMap(g.getMatchingIndexingMap(&operand));
      if (v == c || !m || !m->first || slices.contains(v) ||
          writesOnly(g, operand))
        continue;
      // (A consumer's result read by the next consumer is mapped when the
      // consumer is created; it is not sliced here.)
      if (llvm::any_of(consumers.originals, [&](linalg::LinalgOp op) {
            return op->getNumResults() && op->getResult(0) == v;
          }))
        continue;
      slices.map(v, sliceOf(b, loc, v, iv));
    }
}

Value mlir::tensorop::createSliceConsumers(OpBuilder &b, Location loc,
                                           const BatchConsumers &consumers,
                                           Value c, Value sliceResult,
                                           IRMapping &slices) {
  slices.map(c, sliceResult);
  Value value = sliceResult;
  for (auto [original, constG] :
       llvm::zip(consumers.originals, consumers.generics)) {
    linalg::GenericOp g = constG;
    SmallVector<Value> inputs, outputs;
    SmallVector<AffineMap> maps;
    for (OpOperand &operand : g->getOpOperands()) {
      std::pair<bool, AffineMap> m =
          *perSliceMap(g.getMatchingIndexingMap(&operand));
      Value v = operand.get();
      // Operands read per element are the slice's; the others whole.
      if (writesOnly(g, operand) && !slices.contains(v))
        v = value;
      else if (m.first)
        v = slices.lookup(v);
      (g.isDpsInit(&operand) ? outputs : inputs).push_back(v);
      maps.push_back(m.second);
    }
    SmallVector<Type> results;
    if (g->getNumResults())
      results.push_back(outputs.front().getType());
    SmallVector<utils::IteratorType> iterators(2,
                                               utils::IteratorType::parallel);
    auto slice = linalg::GenericOp::create(b, g.getLoc(), results, inputs,
                                           outputs, maps, iterators);
    IRMapping body;
    g.getRegion().cloneInto(&slice.getRegion(), body);
    if (g->getNumResults()) {
      slices.map(original->getResult(0), slice->getResult(0));
      value = slice->getResult(0);
    }
  }
  // The loop inserts the slice into C's tensor: the type C's slice has
  // (a narrowing consumer's result goes into the loop's narrowed tensor).
  if (value.getType() != sliceResult.getType() &&
      getElementTypeOrSelf(value.getType()) ==
          getElementTypeOrSelf(sliceResult.getType()))
    value = tensor::CastOp::create(b, loc, sliceResult.getType(), value);
  return value;
}
