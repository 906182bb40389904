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

#include "BufferLayout.h"

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
using namespace mlir::tensorop;

namespace {
constexpr StringLiteral kWorkspaceArg = "tensorop.workspace";
constexpr StringLiteral kWorkspaceSizeFn = "tensorop.workspace_size";

/// Lays out the function's buffers in its workspace argument; returns the
/// bytes needed (slack included), or -1 after an error.
int64_t bindFunction(func::FuncOp fn, unsigned wsIndex) {
  SmallVector<memref::AllocOp> allocs;
  fn.walk([&](memref::AllocOp op) { allocs.push_back(op); });
  FailureOr<BufferLayout> layout = layOutBuffers(allocs, /*emitErrors=*/true);
  if (failed(layout))
    return -1;
  if (layout->places.empty())
    return kBufferAlign;
  OpBuilder b(fn.getContext());
  b.setInsertionPointToStart(&fn.getBody().front());
  bindBuffers(b, fn.getLoc(), fn.getArgument(wsIndex), *layout);
  return layout->total + kBufferAlign;
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
