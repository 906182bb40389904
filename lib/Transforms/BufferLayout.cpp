//===- BufferLayout.cpp - Static buffers laid out in one byte region ------===//

#include "BufferLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tensorop;

namespace {
int64_t alignUp(int64_t x) {
  return (x + kBufferAlign - 1) / kBufferAlign * kBufferAlign;
}

/// Bytes of a buffer, rounded up to the alignment.
int64_t alignedBytes(MemRefType type) {
  return alignUp(type.getNumElements() *
                 ((type.getElementTypeBitWidth() + 7) / 8));
}
} // namespace

FailureOr<BufferLayout>
mlir::tensorop::layOutBuffers(ArrayRef<memref::AllocOp> allocs,
                              bool emitErrors) {
  BufferLayout layout;
  // Buffers outside thread chunks first, then each chunk's block.
  llvm::MapVector<Operation *, SmallVector<memref::AllocOp>> perChunk;
  for (memref::AllocOp op : allocs) {
    MemRefType type = op.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat()) {
      if (emitErrors)
        op.emitError() << "tensorop: a buffer of " << type
                       << " cannot be placed in the workspace (static "
                          "identity-layout shapes only)";
      return failure();
    }
    if (auto chunk = op->getParentOfType<scf::ForallOp>()) {
      perChunk[chunk].push_back(op);
      continue;
    }
    layout.places.push_back({op, layout.total, nullptr, 0});
    layout.total += alignedBytes(type);
  }
  for (auto &[chunkOp, buffers] : perChunk) {
    auto chunk = cast<scf::ForallOp>(chunkOp);
    ArrayRef<int64_t> counts = chunk.getStaticUpperBound();
    ArrayRef<int64_t> lbs = chunk.getStaticLowerBound();
    ArrayRef<int64_t> steps = chunk.getStaticStep();
    if (chunk.getRank() != 1 || ShapedType::isDynamic(counts[0]) ||
        lbs[0] != 0 || steps[0] != 1) {
      if (emitErrors)
        chunk.emitError() << "tensorop: buffers in a thread chunk need a 1-D "
                             "scf.forall from 0 with a static count";
      return failure();
    }
    int64_t stride = 0;
    size_t first = layout.places.size();
    for (memref::AllocOp op : buffers) {
      layout.places.push_back({op, layout.total + stride, chunk, 0});
      stride += alignedBytes(op.getType());
    }
    for (size_t i = first; i < layout.places.size(); ++i)
      layout.places[i].chunkStride = stride;
    layout.total += stride * counts[0];
  }
  return layout;
}

void mlir::tensorop::bindBuffers(OpBuilder &b, Location loc, Value region,
                                 const BufferLayout &layout) {
  // The aligned start: the region's pointer rounded up to 64 bytes.
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, region);
  auto constant = [&](OpBuilder &at, int64_t v) {
    return arith::ConstantIndexOp::create(at, loc, v).getResult();
  };
  auto cst = [&](int64_t v) { return constant(b, v); };
  Value rem = arith::RemUIOp::create(b, loc, base, cst(kBufferAlign));
  Value slack = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, cst(kBufferAlign), rem),
      cst(kBufferAlign));
  auto bytes = MemRefType::get({layout.total + kBufferAlign}, b.getI8Type());
  Value whole = memref::ReinterpretCastOp::create(
      b, loc, bytes, region, /*offset=*/int64_t(0),
      ArrayRef<int64_t>{layout.total + kBufferAlign}, ArrayRef<int64_t>{1});
  // Offsets are computed at each buffer (the function's first operations
  // may be buffers that go away here).
  IRRewriter rewriter(b.getContext());
  for (BufferPlacement p : layout.places) {
    rewriter.setInsertionPoint(p.alloc);
    Value offset = arith::AddIOp::create(rewriter, loc, slack,
                                         constant(rewriter, p.offset));
    if (p.chunk)
      offset = arith::AddIOp::create(
          rewriter, loc, offset,
          arith::MulIOp::create(rewriter, loc, p.chunk.getInductionVar(0),
                                constant(rewriter, p.chunkStride)));
    auto view = memref::ViewOp::create(rewriter, p.alloc.getLoc(),
                                       p.alloc.getType(), whole, offset,
                                       ValueRange{});
    // The sketch a chunk's buffer carries (tensorop-omp-team-size) stays.
    view->setDiscardableAttrs(p.alloc->getDiscardableAttrDictionary());
    for (Operation *user : llvm::make_early_inc_range(p.alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        rewriter.eraseOp(user);
    rewriter.replaceOp(p.alloc, view);
  }
}
