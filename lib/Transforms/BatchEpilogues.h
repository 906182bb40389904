//===- BatchEpilogues.h - Elementwise consumers of batch matmuls -*- C++
//-*-===//
//
// The epilogue side of tensorop-decompose-batch-matmul: the elementwise
// consumers of a linalg.batch_matmul's B x M x N result (bias, activation,
// residual, scale, as importers emit them) move into the loop over the
// batch as one 2-D op per slice, right after the slice's matmul, so that
// tensorop-fuse-epilogues fuses them into its microkernel like the
// consumers of any GEMM.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_TRANSFORMS_BATCHEPILOGUES_H
#define TENSOROP_LIB_TRANSFORMS_BATCHEPILOGUES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tensorop {

/// Extent `d` of a tensor or memref: a constant, or read at run time.
OpFoldResult extentOf(OpBuilder &b, Location loc, Value v, int64_t d);

/// A 2-D slice [batch, 0, 0][1, d1, d2] of a 3-D tensor or memref,
/// rank-reduced.
Value sliceOf(OpBuilder &b, Location loc, Value source, Value batch);

/// The chain of elementwise consumers of a batch matmul that run per slice.
struct BatchConsumers {
  /// The consumers as found, in order (named ops included).
  SmallVector<linalg::LinalgOp> originals;
  /// Their generic forms (the op itself, or a generalized copy before it).
  SmallVector<linalg::GenericOp> generics;
  SmallVector<bool> copied;

  bool empty() const { return originals.empty(); }
  /// The result the loop over the slices replaces (tensors).
  Value result() const { return originals.back()->getResult(0); }
  /// Tensors: the output (B x M x N, bf16 or f16, only written) of a last
  /// consumer that narrows the f32 C `c`, which the loop carries instead
  /// of C; null otherwise.
  Value narrowedOutput(Value c) const;
  /// Erases the consumers (after the loop took their work).
  void erase(RewriterBase &rewriter);
};

/// The consumers of `bmm` (a linalg.batch_matmul on tensors or memrefs)
/// that can run per slice: on tensors the chain of sole users of its
/// result, on memrefs the ops right after it that write C in place; each
/// elementwise over (batch, M, N) with C read per element and its other
/// operands per element (d0, d1, d2), as a matrix broadcast over the batch
/// (d1, d2), a vector along N (d2) or M (d1), or a scalar. The first
/// elementwise consumer that is not gets a remark saying why, and ends the
/// chain (it and what follows stay after the loop).
BatchConsumers collectBatchConsumers(RewriterBase &rewriter,
                                     linalg::LinalgOp bmm);

/// Slices, in the loop's body before the slice's matmul, the operands of
/// `consumers` other than C for batch index `iv` (into `slices`).
void sliceConsumerOperands(OpBuilder &b, Location loc,
                           const BatchConsumers &consumers, Value c, Value iv,
                           IRMapping &slices);

/// Creates the 2-D consumers after the slice's matmul, `sliceResult` (its
/// result tensor, or C's slice memref) standing for C; returns the last
/// one's result (tensors; `sliceResult` when there are none). A tensor
/// output whose initial value is not read (tensor.empty) becomes the value
/// the consumer reads: it works in place.
Value createSliceConsumers(OpBuilder &b, Location loc,
                           const BatchConsumers &consumers, Value c,
                           Value sliceResult, IRMapping &slices);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_TRANSFORMS_BATCHEPILOGUES_H
