//===- AnnotateSketch.cpp - Ask the advisor for a sketch per GEMM ---------===//

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "tensorop/Transforms/Passes.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPANNOTATESKETCH
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
struct AnnotateSketchPass
    : public tensorop::impl::TensorOpAnnotateSketchBase<AnnotateSketchPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    // Collect first so a bad target/advisor is reported only if there is
    // something to annotate.
    SmallVector<linalg::MatmulOp> matmuls;
    module.walk([&](Operation *op) {
      if (auto mm = dyn_cast<linalg::MatmulOp>(op))
        matmuls.push_back(mm);
      else if (isa<linalg::BatchMatmulOp>(op))
        op->emitRemark("tensorop: batch matmul is not supported yet; it is "
                       "lowered by the upstream pipeline");
    });
    if (matmuls.empty())
      return;

    if (!db.empty()) {
      module.emitError() << "tensorop: reading sketches from a tuning "
                            "database (db=" << db
                         << ") is not implemented yet";
      return signalPassFailure();
    }
    llvm::Expected<std::string> targetName = resolveTargetName(target);
    if (!targetName) {
      module.emitError() << llvm::toString(targetName.takeError());
      return signalPassFailure();
    }
    if (!llvm::is_contained(supportedCpuTargets(), *targetName)) {
      module.emitError() << "target '" << *targetName
                         << "' is not supported by the CPU pipeline "
                            "(supported: host, x86-avx512, x86-avx2)";
      return signalPassFailure();
    }
    llvm::Expected<TargetHints> hints = loadTargetHints(*targetName, hintsDir);
    if (!hints) {
      module.emitError() << llvm::toString(hints.takeError());
      return signalPassFailure();
    }
    llvm::Expected<std::unique_ptr<Advisor>> adv = createAdvisor(advisor);
    if (!adv) {
      module.emitError() << llvm::toString(adv.takeError());
      return signalPassFailure();
    }

    for (linalg::MatmulOp mm : matmuls) {
      // A sketch written by the user (or an earlier run) is kept: the
      // verifier has already checked it.
      if (mm->hasAttr(kSketchAttrName))
        continue;
      std::string reason;
      FailureOr<GemmProblem> problem = matchSupportedMatmul(mm, reason);
      if (failed(problem)) {
        mm.emitRemark() << "tensorop: not handled (" << reason
                        << "); lowered by the upstream pipeline";
        continue;
      }
      llvm::Expected<SketchChoice> choice = (*adv)->propose(*problem, *hints);
      if (!choice) {
        mm.emitError() << "advisor '" << (*adv)->name()
                       << "' failed: " << llvm::toString(choice.takeError());
        return signalPassFailure();
      }
      std::string error;
      SketchAttr sketch = choice->toAttr(ctx, *hints, error);
      if (!sketch) {
        mm.emitError() << "advisor '" << (*adv)->name()
                       << "' proposed an illegal sketch: " << error;
        return signalPassFailure();
      }
      mm->setAttr(kSketchAttrName, sketch);
    }
  }
};
} // namespace
