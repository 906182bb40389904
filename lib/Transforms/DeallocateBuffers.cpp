//===- DeallocateBuffers.cpp - Upstream deallocation where it applies -----===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPDEALLOCATEBUFFERS
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;

namespace {
/// The upstream pipeline this pass runs (nested, so its dialects must be
/// declared up front).
void buildDeallocation(OpPassManager &pm) {
  bufferization::BufferDeallocationPipelineOptions options;
  bufferization::buildBufferDeallocationPipeline(pm, options);
}

struct DeallocateBuffersPass
    : public tensorop::impl::TensorOpDeallocateBuffersBase<
          DeallocateBuffersPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager pm(ModuleOp::getOperationName());
    buildDeallocation(pm);
    pm.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Operation *explicitFree = nullptr;
    module.walk([&](memref::DeallocOp op) {
      explicitFree = op;
      return WalkResult::interrupt();
    });
    // An allocation nobody frees: what bufferization leaves behind.
    Operation *unfreed = nullptr;
    module.walk([&](memref::AllocOp op) {
      if (llvm::none_of(op->getUsers(),
                        [](Operation *u) { return isa<memref::DeallocOp>(u); })) {
        unfreed = op;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!unfreed)
      return;
    if (explicitFree) {
      unfreed->emitRemark()
          << "tensorop: the module frees memory itself, so upstream "
             "buffer deallocation is skipped and this buffer is not freed";
      return;
    }
    OpPassManager pm(ModuleOp::getOperationName());
    buildDeallocation(pm);
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }
};
} // namespace
