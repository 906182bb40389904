//===- KeepUKernelLoops.cpp - No LLVM unrolling around microkernels -------===//
//
// LLVM's unroller sizes a loop by its IR instructions and an inline-asm
// call counts as one, so the loops of register tiles around an emitted
// microkernel look tiny and get unrolled: each copy of the loop body
// carries its own copy of the kernel's code, which the unroller cannot see.
// The kernels are unrolled inside already; the loops around them stay
// loops. Runs on the LLVM dialect, where the loops are control flow: the
// upstream scf-to-cf lowering drops attributes of scf.for.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/Analysis/CFGLoopInfo.h"
#include "mlir/IR/Dominance.h"

#include "llvm/ADT/DenseMap.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPKEEPUKERNELLOOPS
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// `old` with its unroll field set to "disable", its other fields
/// (vectorize, licm, ...) as they were; a new annotation if `old` is null.
LLVM::LoopAnnotationAttr withUnrollDisabled(MLIRContext *ctx,
                                            LLVM::LoopAnnotationAttr old) {
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, BoolAttr::get(ctx, true), IntegerAttr(), BoolAttr(), BoolAttr(),
      LLVM::LoopAnnotationAttr(), LLVM::LoopAnnotationAttr(),
      LLVM::LoopAnnotationAttr());
  if (!old)
    return LLVM::LoopAnnotationAttr::get(
        ctx, BoolAttr(), LLVM::LoopVectorizeAttr(), LLVM::LoopInterleaveAttr(),
        unroll, LLVM::LoopUnrollAndJamAttr(), LLVM::LoopLICMAttr(),
        LLVM::LoopDistributeAttr(), LLVM::LoopPipelineAttr(),
        LLVM::LoopPeeledAttr(), LLVM::LoopUnswitchAttr(), BoolAttr(),
        BoolAttr(), FusedLoc(), FusedLoc(), {});
  return LLVM::LoopAnnotationAttr::get(
      ctx, old.getDisableNonforced(), old.getVectorize(), old.getInterleave(),
      unroll, old.getUnrollAndJam(), old.getLicm(), old.getDistribute(),
      old.getPipeline(), old.getPeeled(), old.getUnswitch(),
      old.getMustProgress(), old.getIsVectorized(), old.getStartLoc(),
      old.getEndLoc(), old.getParallelAccesses());
}

/// Sets "unroll disable" on the latch branches of `loop`. Latches end in
/// llvm.br or llvm.cond_br after control flow lowering; a loop closed by
/// any other terminator (llvm.switch) is left to LLVM.
void disableUnroll(CFGLoop *loop) {
  SmallVector<Block *> latches;
  loop->getLoopLatches(latches);
  for (Block *latch : latches) {
    Operation *terminator = latch->getTerminator();
    MLIRContext *ctx = terminator->getContext();
    if (auto br = dyn_cast<LLVM::BrOp>(terminator))
      br.setLoopAnnotationAttr(
          withUnrollDisabled(ctx, br.getLoopAnnotationAttr()));
    else if (auto condBr = dyn_cast<LLVM::CondBrOp>(terminator))
      condBr.setLoopAnnotationAttr(
          withUnrollDisabled(ctx, condBr.getLoopAnnotationAttr()));
  }
}

struct KeepUKernelLoopsPass
    : public tensorop::impl::TensorOpKeepUKernelLoopsBase<
          KeepUKernelLoopsPass> {
  void runOnOperation() override {
    getOperation().walk([&](LLVM::LLVMFuncOp fn) {
      if (fn.isExternal())
        return;
      DominanceInfo dominance(fn);
      // One loop forest per multi-block region, built on first use.
      llvm::DenseMap<Region *, std::unique_ptr<CFGLoopInfo>> forests;
      DenseSet<CFGLoop *> done;
      fn.walk([&](LLVM::InlineAsmOp code) {
        if (!code->hasAttr(kMicrokernelAttrName))
          return;
        // The kernel's block, then the block of each op whose region holds
        // it (an omp.parallel's body, ...), up to the function: a loop
        // around any of them runs the kernel.
        for (Block *block = code->getBlock(); block;) {
          Region *region = block->getParent();
          if (!region->hasOneBlock()) {
            std::unique_ptr<CFGLoopInfo> &forest = forests[region];
            if (!forest)
              forest = std::make_unique<CFGLoopInfo>(
                  dominance.getDomTree(region));
            for (CFGLoop *loop = forest->getLoopFor(block); loop;
                 loop = loop->getParentLoop())
              if (done.insert(loop).second)
                disableUnroll(loop);
          }
          Operation *parent = region->getParentOp();
          block = parent == fn.getOperation() ? nullptr : parent->getBlock();
        }
      });
    });
  }
};
} // namespace
