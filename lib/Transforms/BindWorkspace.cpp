//===- BindWorkspace.cpp - Buffers in a caller-provided workspace ---------===//
//
// gen's NAME_ex_ws / NAME_batched_ws promise no allocation per call: the
// caller passes NAME_workspace_size() bytes. This pass runs after
// tensorop-apply-sketch, when every buffer of such a function (packing
// panels, the alpha-scaled copy of B) is a statically sized memref.alloc,
// and lays them out in the workspace:
//
//   [slack to the first 64-byte boundary][buffer 0][buffer 1]...
//   [chunk 0's buffers][chunk 1's buffers]...   (one region per scf.forall
//                                                iteration: threads never
//                                                share a region)
//
// Each buffer keeps its own region for the whole call (no reuse between
// buffers): the sizes are a few cache blocks, and a region per buffer
// cannot alias whatever the loop structure around it.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPBINDWORKSPACE
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;

namespace {
constexpr StringLiteral kWorkspaceArg = "tensorop.workspace";
constexpr StringLiteral kWorkspaceSizeFn = "tensorop.workspace_size";
constexpr int64_t kAlign = 64;

int64_t alignUp(int64_t x) { return (x + kAlign - 1) / kAlign * kAlign; }

/// Bytes of a buffer, rounded up to the alignment.
int64_t alignedBytes(MemRefType type) {
  return alignUp(type.getNumElements() *
                 ((type.getElementTypeBitWidth() + 7) / 8));
}

/// One buffer's place: `offset` bytes from the aligned start, plus
/// `chunkStride` bytes per iteration of `chunk` (a thread chunk), if any.
struct Placement {
  memref::AllocOp alloc;
  int64_t offset = 0;
  scf::ForallOp chunk;
  int64_t chunkStride = 0;
};

/// Lays out the function's buffers; returns the bytes needed (slack
/// included), or -1 after an error.
int64_t bindFunction(func::FuncOp fn, unsigned wsIndex) {
  SmallVector<memref::AllocOp> allocs;
  fn.walk([&](memref::AllocOp op) { allocs.push_back(op); });
  SmallVector<Placement> places;
  // Buffers outside thread chunks first, then each chunk's block.
  int64_t total = 0;
  llvm::MapVector<Operation *, SmallVector<memref::AllocOp>> perChunk;
  for (memref::AllocOp op : allocs) {
    MemRefType type = op.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        !type.getElementType().isIntOrFloat()) {
      op.emitError() << "tensorop: a buffer of " << type
                     << " cannot be placed in the workspace (static "
                        "identity-layout shapes only)";
      return -1;
    }
    if (auto chunk = op->getParentOfType<scf::ForallOp>()) {
      perChunk[chunk].push_back(op);
      continue;
    }
    places.push_back({op, total, nullptr, 0});
    total += alignedBytes(type);
  }
  for (auto &[chunkOp, buffers] : perChunk) {
    auto chunk = cast<scf::ForallOp>(chunkOp);
    ArrayRef<int64_t> counts = chunk.getStaticUpperBound();
    ArrayRef<int64_t> lbs = chunk.getStaticLowerBound();
    ArrayRef<int64_t> steps = chunk.getStaticStep();
    if (chunk.getRank() != 1 || ShapedType::isDynamic(counts[0]) ||
        lbs[0] != 0 || steps[0] != 1) {
      chunk.emitError() << "tensorop: buffers in a thread chunk need a 1-D "
                           "scf.forall from 0 with a static count";
      return -1;
    }
    int64_t stride = 0;
    size_t first = places.size();
    for (memref::AllocOp op : buffers) {
      places.push_back({op, total + stride, chunk, 0});
      stride += alignedBytes(op.getType());
    }
    for (size_t i = first; i < places.size(); ++i)
      places[i].chunkStride = stride;
    total += stride * counts[0];
  }
  if (places.empty())
    return kAlign;

  // The aligned start: the workspace pointer rounded up to 64 bytes.
  OpBuilder b(fn.getContext());
  Location loc = fn.getLoc();
  b.setInsertionPointToStart(&fn.getBody().front());
  Value ws = fn.getArgument(wsIndex);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, ws);
  auto constant = [&](OpBuilder &at, int64_t v) {
    return arith::ConstantIndexOp::create(at, loc, v).getResult();
  };
  auto cst = [&](int64_t v) { return constant(b, v); };
  Value rem = arith::RemUIOp::create(b, loc, base, cst(kAlign));
  Value slack = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, cst(kAlign), rem), cst(kAlign));
  auto bytes = MemRefType::get({total + kAlign}, b.getI8Type());
  Value whole = memref::ReinterpretCastOp::create(
      b, loc, bytes, ws, /*offset=*/int64_t(0),
      ArrayRef<int64_t>{total + kAlign}, ArrayRef<int64_t>{1});
  // Offsets are computed at each buffer (the function's first operations
  // may be buffers that go away here).
  IRRewriter rewriter(fn.getContext());
  for (Placement &p : places) {
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
  return total + kAlign;
}

struct BindWorkspacePass
    : public tensorop::impl::TensorOpBindWorkspaceBase<BindWorkspacePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t largest = 0;
    bool failedAny = false;
    module.walk([&](func::FuncOp fn) {
      for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
        if (!fn.getArgAttr(i, kWorkspaceArg))
          continue;
        auto type = dyn_cast<MemRefType>(fn.getArgument(i).getType());
        if (!type || type.getRank() != 1 ||
            !type.getElementType().isInteger(8)) {
          fn.emitError() << "tensorop: the workspace argument must be a 1-D "
                            "memref of i8";
          failedAny = true;
          return;
        }
        int64_t size = bindFunction(fn, i);
        if (size < 0) {
          failedAny = true;
          return;
        }
        largest = std::max(largest, size);
        fn.removeArgAttr(i, kWorkspaceArg);
      }
    });
    if (failedAny)
      return signalPassFailure();
    module.walk([&](func::FuncOp fn) {
      if (!fn->hasAttr(kWorkspaceSizeFn) || fn.isExternal())
        return;
      fn->removeAttr(kWorkspaceSizeFn);
      auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
      OpBuilder b(ret);
      ret->setOperand(
          0, arith::ConstantIndexOp::create(b, ret.getLoc(), largest));
    });
  }
};
} // namespace
