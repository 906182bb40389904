//===- DecomposeBatchMatmul.cpp - Batch matmuls as loops of matmuls -------===//
//
// linalg.batch_matmul (C[b] += A[b] * B[b]) and linalg.batch_reduce_matmul
// (C += sum_b A[b] * B[b]) become an scf.for over the batch whose body is one
// linalg.matmul on 2-D slices. Each slice then takes the sketch path like any
// GEMM (annotate, apply, microkernel), instead of the whole op falling back
// to upstream loops. Transposed operands (indexing maps that keep the batch
// dimension first) carry over to the slice's matmul as its indexing maps.
// A batch matmul's elementwise consumers (bias, activation, residual) move
// into the loop as 2-D ops after each slice's matmul, where
// tensorop-fuse-epilogues fuses them (BatchEpilogues.cpp).
//
//===----------------------------------------------------------------------===//

#include "BatchEpilogues.h"

#include "tensorop/Transforms/Passes.h"

#include "tensorop/Dialect/TensorOpDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineExpr.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPDECOMPOSEBATCHMATMUL
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

/// Extent `d` of a tensor or memref: a constant, or read at run time.
OpFoldResult mlir::tensorop::extentOf(OpBuilder &b, Location loc, Value v,
                                      int64_t d) {
  auto shaped = cast<ShapedType>(v.getType());
  if (!shaped.isDynamicDim(d))
    return b.getIndexAttr(shaped.getDimSize(d));
  if (isa<MemRefType>(shaped))
    return memref::DimOp::create(b, loc, v, d).getResult();
  return tensor::DimOp::create(b, loc, v, d).getResult();
}

/// A 2-D slice [b, 0, 0][1, d0, d1] of a 3-D operand, rank-reduced.
Value mlir::tensorop::sliceOf(OpBuilder &b, Location loc, Value source,
                              Value batch) {
  auto shaped = cast<ShapedType>(source.getType());
  SmallVector<OpFoldResult> offsets = {batch, b.getIndexAttr(0),
                                       b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                     extentOf(b, loc, source, 1),
                                     extentOf(b, loc, source, 2)};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  SmallVector<int64_t> shape = {shaped.getDimSize(1), shaped.getDimSize(2)};
  if (auto memref = dyn_cast<MemRefType>(source.getType())) {
    MemRefType type = memref::SubViewOp::inferRankReducedResultType(
        shape, memref, offsets, sizes, strides);
    return memref::SubViewOp::create(b, loc, type, source, offsets, sizes,
                                     strides);
  }
  auto type = RankedTensorType::get(shape, shaped.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, type, source, offsets, sizes,
                                        strides);
}

namespace {
/// The 2-D matmul map of one operand of a batch op: `map` over
/// (b, m, n, k) with the batch dimension first (or absent, for the output
/// of a batch-reduce), renumbered over (m, n, k). Empty if the operand
/// does not keep the batch dimension where a slice can drop it.
std::optional<AffineMap> sliceMap(AffineMap map, bool hasBatch) {
  if (map.getNumDims() != 4 || map.getNumSymbols() != 0)
    return std::nullopt;
  ArrayRef<AffineExpr> results = map.getResults();
  if (hasBatch) {
    auto first = dyn_cast<AffineDimExpr>(results.front());
    if (!first || first.getPosition() != 0)
      return std::nullopt;
    results = results.drop_front();
  }
  SmallVector<AffineExpr> shifted;
  for (AffineExpr e : results) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || dim.getPosition() == 0)
      return std::nullopt;
    shifted.push_back(
        getAffineDimExpr(dim.getPosition() - 1, map.getContext()));
  }
  if (shifted.size() != 2)
    return std::nullopt;
  return AffineMap::get(3, 0, shifted, map.getContext());
}

/// Rewrites one batch op; failure with `reason` leaves it untouched.
/// `perSlice` is set to the number of elementwise consumers that moved into
/// the loop (BatchEpilogues.cpp); `oldFill` to the fill of C the loop's
/// per-slice fills replace, which the caller erases after `op` (after its
/// remarks: erasing the fill here dropped `op`'s operands, and the remark's
/// "see current operation" note printed them as <<NULL VALUE>>).
LogicalResult decompose(linalg::LinalgOp op, bool reduce, std::string &reason,
                        unsigned &perSlice, Operation *&oldFill) {
  Value a = op.getDpsInputOperand(0)->get(),
        bOp = op.getDpsInputOperand(1)->get(),
        c = op.getDpsInitOperand(0)->get();
  for (Value v : {a, bOp, c}) {
    auto shaped = dyn_cast<ShapedType>(v.getType());
    if (!shaped || !shaped.hasRank()) {
      reason = "operands are not ranked tensors or memrefs";
      return failure();
    }
    // The slices' element types are checked by the target's annotate pass;
    // no target takes others.
    Type e = shaped.getElementType();
    if (!e.isF32() && !e.isBF16() && !e.isF16()) {
      reason = "element types other than f32, bf16 and f16 are not "
               "supported";
      return failure();
    }
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  std::optional<AffineMap> mapA = sliceMap(maps[0], true),
                           mapB = sliceMap(maps[1], true),
                           mapC = sliceMap(maps[2], !reduce);
  if (!mapA || !mapB || !mapC) {
    reason = "an indexing map does not keep the batch dimension first";
    return failure();
  }
  int64_t batch = cast<ShapedType>(a.getType()).getDimSize(0);
  if (ShapedType::isDynamic(batch))
    batch = cast<ShapedType>(bOp.getType()).getDimSize(0);
  if (batch == 0) {
    reason = "an empty batch is left to the upstream lowering";
    return failure();
  }
  bool tensors = op.hasPureTensorSemantics();
  if (!tensors && !op.hasPureBufferSemantics()) {
    reason = "operands mix tensors and memrefs";
    return failure();
  }

  // A fill of the whole C just before a batch matmul becomes a fill of each
  // slice right before its matmul: the slice's GEMM then starts from it
  // (on GPUs a zero fill is the kernel's beta = 0, and no fill runs on the
  // host). A batch-reduce shares one C: the fill goes before the first
  // slice's matmul, peeled off the loop (a static batch, so never empty).
  linalg::FillOp fill;
  bool peel = reduce && !ShapedType::isDynamic(batch);
  if (!reduce || peel) {
    if (tensors) {
      fill = c.getDefiningOp<linalg::FillOp>();
      if (fill && !c.hasOneUse())
        fill = {};
    } else {
      fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
      if (fill &&
          (!fill.hasPureBufferSemantics() || fill.getOutputs().front() != c))
        fill = {};
    }
  }
  Value init = fill && tensors ? fill.getOutputs().front() : c;

  // A batch matmul's elementwise consumers run per slice, after the
  // slice's matmul, where fuse-epilogues can make them its epilogue.
  IRRewriter rewriter(op->getContext());
  BatchConsumers consumers;
  if (!reduce)
    consumers = collectBatchConsumers(rewriter, op);
  perSlice = consumers.originals.size();
  Value chainStart = tensors ? op->getResult(0) : c;
  // A last consumer narrowing C into a bf16 / f16 tensor it only writes:
  // the loop carries that tensor, and each slice's C comes from C's
  // initial value (the slices are independent).
  Value narrowed =
      tensors && !consumers.empty() ? consumers.narrowedOutput(chainStart)
                                    : Value();
  // With C's initial value unread (a tensor.empty, filled per slice), one
  // M x N tensor.empty before the loop is every slice's C: slicing the
  // B x M x N one would allocate all of C, which nothing else needs.
  Value sliceC;
  if (narrowed && init.getDefiningOp<tensor::EmptyOp>()) {
    OpBuilder pre(op);
    sliceC = tensor::EmptyOp::create(
        pre, op.getLoc(),
        {extentOf(pre, op.getLoc(), init, 1),
         extentOf(pre, op.getLoc(), init, 2)},
        getElementTypeOrSelf(init.getType()));
  }

  OpBuilder b(op);
  Location loc = op.getLoc();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  // A dynamic batch runs to its runtime extent (0 included).
  Value upper =
      ShapedType::isDynamic(batch)
          ? getValueOrCreateConstantIndexOp(b, loc, extentOf(b, loc, a, 0))
          : arith::ConstantIndexOp::create(b, loc, batch).getResult();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<AffineMap> defaults =
      linalg::MatmulOp::getDefaultIndexingMaps(b.getContext());
  SmallVector<AffineMap> sliceMaps = {*mapA, *mapB, *mapC};

  // The body: one matmul on the slices of iteration `iv`; `acc` is the
  // output (a tensor carried by the loop, or the memref itself).
  auto body = [&](OpBuilder &nb, Location l, Value iv, Value acc) -> Value {
    Value sa = sliceOf(nb, l, a, iv), sb = sliceOf(nb, l, bOp, iv);
    Value sc = reduce      ? acc
               : sliceC ? sliceC
                        : sliceOf(nb, l, narrowed ? init : acc, iv);
    // The consumers' operands are sliced before the matmul: on memrefs
    // fuse-epilogues looks for the consumer right after it.
    IRMapping slices;
    sliceConsumerOperands(nb, l, consumers, chainStart, iv, slices);
    if (narrowed)
      slices.map(narrowed, sliceOf(nb, l, acc, iv));
    if (fill && (!peel || iv == zero)) {
      auto sliceFill = linalg::FillOp::create(
          nb, l, ValueRange{fill.getInputs().front()}, ValueRange{sc});
      if (tensors)
        sc = sliceFill->getResult(0);
    }
    linalg::MatmulOp mm =
        tensors ? linalg::MatmulOp::create(nb, l, TypeRange{sc.getType()},
                                           ValueRange{sa, sb}, ValueRange{sc})
                : linalg::MatmulOp::create(nb, l, ValueRange{sa, sb},
                                           ValueRange{sc});
    if (sliceMaps != defaults)
      mm.setIndexingMapsAttr(nb.getAffineMapArrayAttr(sliceMaps));
    // A sketch given to the batch op (a user's or the tuner's) is the
    // sketch of every slice.
    if (Attribute sketch = op->getAttr(tensorop::kSketchAttrName))
      mm->setAttr(tensorop::kSketchAttrName, sketch);
    if (!tensors) {
      createSliceConsumers(nb, l, consumers, chainStart, sc, slices);
      return Value();
    }
    Value result = mm->getResult(0);
    if (reduce)
      return result;
    result = createSliceConsumers(nb, l, consumers, chainStart, result, slices);
    SmallVector<OpFoldResult> offsets = {iv, nb.getIndexAttr(0),
                                         nb.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {
        nb.getIndexAttr(1), extentOf(nb, l, acc, 1), extentOf(nb, l, acc, 2)};
    SmallVector<OpFoldResult> strides(3, nb.getIndexAttr(1));
    return tensor::InsertSliceOp::create(nb, l, result, acc, offsets, sizes,
                                         strides);
  };

  Value first = zero;
  if (fill && peel) {
    // body() puts the fill before slice 0's matmul; the loop takes the rest.
    init = body(b, loc, zero, init);
    first = one;
  }
  if (tensors) {
    auto loop = scf::ForOp::create(
        b, loc, first, upper, one, ValueRange{narrowed ? narrowed : init},
        [&](OpBuilder &nb, Location l, Value iv, ValueRange iter) {
          scf::YieldOp::create(nb, l, body(nb, l, iv, iter.front()));
        });
    if (!consumers.empty()) {
      // The loop computes the last consumer's result.
      Value r = loop->getResult(0);
      if (r.getType() != consumers.result().getType())
        r = tensor::CastOp::create(b, loc, consumers.result().getType(), r);
      consumers.result().replaceAllUsesWith(r);
    }
    consumers.erase(rewriter);
    // (Narrowed: the loop's result is the consumer's, which replaced it;
    // the batch matmul's C had no other user.)
    if (!narrowed)
      op->replaceAllUsesWith(loop->getResults());
  } else {
    scf::ForOp::create(b, loc, first, upper, one, ValueRange{},
                       [&](OpBuilder &nb, Location l, Value iv, ValueRange) {
                         body(nb, l, iv, c);
                         scf::YieldOp::create(nb, l);
                       });
    consumers.erase(rewriter);
  }
  if (fill)
    oldFill = fill;
  return success();
}

struct DecomposeBatchMatmulPass
    : public tensorop::impl::TensorOpDecomposeBatchMatmulBase<
          DecomposeBatchMatmulPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::BatchMatmulOp, linalg::BatchReduceMatmulOp>(op))
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      bool reduce = isa<linalg::BatchReduceMatmulOp>(op);
      StringRef kind = reduce ? "batch-reduce matmul" : "batch matmul";
      std::string reason;
      auto a = cast<ShapedType>(op.getDpsInputOperand(0)->get().getType());
      unsigned perSlice = 0;
      Operation *oldFill = nullptr;
      if (failed(decompose(op, reduce, reason, perSlice, oldFill))) {
        op->emitRemark() << "tensorop: " << kind << " not handled (" << reason
                         << "); lowered by the upstream pipeline";
        // Said once: tensorop-annotate-sketch does not repeat it.
        op->setAttr(tensorop::kBatchNotHandledAttrName,
                    UnitAttr::get(op->getContext()));
        continue;
      }
      std::string count = a.isDynamicDim(0) ? std::string("a dynamic number of")
                                            : std::to_string(a.getDimSize(0));
      op->emitRemark() << "tensorop: " << kind << " of " << count
                       << " slices: each slice's matmul takes the sketch path";
      if (perSlice)
        op->emitRemark() << "tensorop: " << perSlice << " elementwise consumer"
                         << (perSlice > 1 ? "s" : "")
                         << " of the batch matmul run per slice, after the "
                            "slice's matmul (fuse-epilogues may fuse them "
                            "into its microkernel)";
      op->erase(); // the fill's only user, on tensors
      if (oldFill)
        oldFill->erase();
    }
  }
};
} // namespace
