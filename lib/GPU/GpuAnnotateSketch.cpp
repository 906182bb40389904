//===- GpuAnnotateSketch.cpp - A GPU sketch on each matmul ----------------===//
//
// tensorop-gpu-annotate-sketch: the NVIDIA counterpart of
// tensorop-annotate-sketch. Each linalg.matmul the GPU path takes gets a
// #tensorop.gpu_sketch: from the tuning database (db=), else from the
// advisor (builtin or llm), checked against the target and the problem. A
// sketch already on the matmul is kept when it is for this target. What
// the sketch becomes (the emitted kernel, the launch) is
// tensorop-gpu-apply-sketch's business.
//
//===----------------------------------------------------------------------===//

#include "CheckedGpuPassOptions.h"

#include "tensorop/Advisor/AdvisorNote.h"
#include "tensorop/Advisor/SketchDatabase.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/GPU/GpuSearchSpace.h"
#include "tensorop/GPU/GpuTunedSketch.h"
#include "tensorop/GPU/Passes.h"
#include "tensorop/Transforms/GpuMatmulSupport.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tensorop {
#define GEN_PASS_DECL_TENSOROPGPUANNOTATESKETCH
#define GEN_PASS_DEF_TENSOROPGPUANNOTATESKETCH
#include "GpuPasses.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {

struct GpuAnnotateSketchPass
    : public CheckedGpuPassOptions<
          tensorop::impl::TensorOpGpuAnnotateSketchBase<GpuAnnotateSketchPass>> {
  using CheckedGpuPassOptions::CheckedGpuPassOptions;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::MatmulOp> matmuls;
    module.walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    if (matmuls.empty())
      return;
    // Option errors are reported at the first matmul they stop.
    llvm::Expected<GpuTarget> gpuTarget = loadGpuTarget(target, hintsDir);
    if (!gpuTarget) {
      matmuls.front().emitError() << llvm::toString(gpuTarget.takeError());
      return signalPassFailure();
    }
    if (advisor != "builtin" && advisor != "llm") {
      matmuls.front().emitError()
          << "advisor '" << advisor
          << "' is not available for NVIDIA targets (use 'builtin', 'llm' "
             "or a #tensorop.gpu_sketch on the matmul)";
      return signalPassFailure();
    }
    std::unique_ptr<SketchDatabase> tuned;
    if (!db.empty()) {
      llvm::Expected<std::unique_ptr<SketchDatabase>> opened =
          openGpuSketchDatabase(db, &getContext());
      if (!opened) {
        matmuls.front().emitError()
            << "tensorop: " << llvm::toString(opened.takeError());
        return signalPassFailure();
      }
      tuned = std::move(*opened);
    }
    for (linalg::MatmulOp op : matmuls)
      if (failed(annotate(op, *gpuTarget, tuned.get())))
        return signalPassFailure();
  }

  LogicalResult annotate(linalg::MatmulOp op, const GpuTarget &t,
                         SketchDatabase *tuned);
};
} // namespace

LogicalResult GpuAnnotateSketchPass::annotate(linalg::MatmulOp op,
                                              const GpuTarget &t,
                                              SketchDatabase *tuned) {
  // A sketch written by the user (or an earlier run) is kept: the verifier
  // has checked its own rules, tensorop-gpu-apply-sketch checks the
  // problem's. It must be meant for this target.
  if (Attribute given = op->getAttr(kGpuSketchAttrName)) {
    auto sketch = dyn_cast<GpuSketchAttr>(given);
    if (!sketch)
      return op.emitError() << "'" << kGpuSketchAttrName
                            << "' must be a #tensorop.gpu_sketch, got "
                            << given;
    if (sketch.getTarget().getName() != t.hints.name)
      return op.emitError()
             << "the matmul's #tensorop.gpu_sketch is for target '"
             << sketch.getTarget().getName() << "', not '" << t.hints.name
             << "'";
    return success();
  }
  std::string reason;
  FailureOr<GpuGemmProblem> matched = matchGpuMatmul(op, reason);
  if (failed(matched))
    return op.emitError(reason);
  const GpuGemmProblem &p = *matched;

  FailureOr<std::optional<GpuSketchChoice>> fromDb =
      std::optional<GpuSketchChoice>();
  if (tuned)
    fromDb = lookupTunedGpuSketch(op, *tuned, p, t);
  if (failed(fromDb))
    return failure();
  GpuSketchChoice sketch;
  if (*fromDb) {
    sketch = **fromDb;
  } else if (advisor == "llm") {
    std::vector<AdvisorNote> notes;
    llvm::Expected<GpuSketchChoice> proposed =
        proposeGpuSketchWithLLM(p, t, notes);
    // What the model went through: rejections and fallbacks are warnings.
    for (const AdvisorNote &note : notes) {
      if (note.isProblem())
        op.emitWarning() << "tensorop: advisor 'llm': " << note.text;
      else
        op.emitRemark() << "tensorop: advisor 'llm': " << note.text;
    }
    if (!proposed)
      return op.emitError() << llvm::toString(proposed.takeError());
    sketch = *proposed;
  } else {
    llvm::Expected<GpuSketchChoice> proposed = proposeGpuSketch(p, t);
    if (!proposed)
      return op.emitError() << "advisor 'builtin' failed: "
                            << llvm::toString(proposed.takeError());
    sketch = *proposed;
  }
  if (llvm::Error e = checkGpuSketch(sketch, p, t))
    return op.emitError() << "illegal sketch for " << t.hints.name << ": "
                          << llvm::toString(std::move(e));
  // The GEMV kernel has no tensor-core path: say that a tf32 request is
  // computed in fp32 there (not rounded to tf32's 10-bit mantissa).
  if (sketch.kernel == "gemv" && sketch.precision == "tf32")
    op.emitRemark() << "tensorop: tf32 GEMM of " << p.m
                    << " rows on the GEMV kernel: computed in full fp32 FMAs "
                       "(inputs not rounded to tf32), at least as precise";
  // A cost trade-off of the builtin advisor (pad copies for wgmma against
  // mma.sync's element loads): what it chose and why.
  if (!sketch.note.empty())
    op.emitRemark() << "tensorop: " << sketch.note;
  op->setAttr(kGpuSketchAttrName, sketch.toAttr(op.getContext(), t));
  return success();
}
