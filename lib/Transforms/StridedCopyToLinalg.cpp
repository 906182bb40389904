//===- StridedCopyToLinalg.cpp - No memrefCopy calls in shipped code ------===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPSTRIDEDCOPYTOLINALG
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// True if the LLVM lowering copies `type` with a memcpy rather than a call
/// to the runtime's memrefCopy.
bool copiesAsMemcpy(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && (memref.getLayout().isIdentity() ||
                    memref::isStaticShapeAndContiguousRowMajor(memref));
}

struct StridedCopyToLinalgPass
    : public tensorop::impl::TensorOpStridedCopyToLinalgBase<
          StridedCopyToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (!copiesAsMemcpy(copy.getSource().getType()) ||
          !copiesAsMemcpy(copy.getTarget().getType()))
        copies.push_back(copy);
    });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      // Ranked memrefs only: linalg.copy needs the rank.
      if (!isa<MemRefType>(copy.getSource().getType()) ||
          !isa<MemRefType>(copy.getTarget().getType()))
        continue;
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
  }
};
} // namespace
