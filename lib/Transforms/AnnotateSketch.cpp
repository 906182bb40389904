//===- AnnotateSketch.cpp - Ask the advisor for a sketch per GEMM ---------===//

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "tensorop/Transforms/Passes.h"
#include "tensorop/Tuner/SearchSpace.h"
#include "tensorop/Tuner/TuningDB.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPANNOTATESKETCH
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// The best verified tuning record for this op and machine, as a sketch
/// whose source names the record; null if there is none (said in a
/// remark); failure on a broken database or record (said in an error).
FailureOr<SketchAttr> lookupTunedSketch(linalg::MatmulOp mm, TuningDB &db,
                                        const GemmProblem &problem,
                                        StringRef fingerprint) {
  std::string signature = opSignature(problem);
  size_t reported = db.warnings().size();
  llvm::Expected<std::optional<CandidateRecord>> best =
      db.best(signature, fingerprint);
  // Rows that failed their integrity checks were skipped: say which.
  for (size_t i = reported; i < db.warnings().size(); ++i)
    mm.emitWarning() << "tensorop: " << db.warnings()[i];
  if (!best) {
    mm.emitError() << "tensorop: " << llvm::toString(best.takeError());
    return failure();
  }
  if (!*best) {
    mm.emitRemark() << "tensorop: no verified record in " << db.path()
                    << " for '" << signature << "' on '" << fingerprint
                    << "'; using the advisor";
    return SketchAttr();
  }
  const CandidateRecord &r = **best;
  auto attr = dyn_cast_or_null<SketchAttr>(
      parseAttribute(r.config, mm.getContext()));
  if (!attr) {
    mm.emitError() << "tensorop: record " << r.configHash << " in "
                   << db.path() << " holds no valid #tensorop.sketch: "
                   << r.config;
    return failure();
  }
  attr = SketchAttr::get(
      mm.getContext(), attr.getMc(), attr.getNc(), attr.getKc(), attr.getMr(),
      attr.getNr(), attr.getLoopOrder(), attr.getMicroOrder(),
      attr.getPackA(), attr.getPackB(), attr.getUkernel(), attr.getTarget(),
      "db:" + r.configHash, attr.getThreads());
  mm.emitRemark() << "tensorop: using the tuned sketch " << r.configHash
                  << " from " << db.path() << " ("
                  << llvm::formatv("{0:F1}", r.gflops.value_or(0))
                  << " GFLOP/s when measured)";
  return attr;
}

struct AnnotateSketchPass
    : public tensorop::impl::TensorOpAnnotateSketchBase<AnnotateSketchPass> {
  using Base::Base;

  /// Refuses a bad target or advisor name where the options were written
  /// (--tensorop-annotate-sketch=..., or a --pass-pipeline), before any input
  /// is read. The pipeline checks the same names (checkPipelineOptions).
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    if (target != "host" && !llvm::is_contained(supportedCpuTargets(), target))
      return errorHandler("tensorop-annotate-sketch: unknown target '" +
                          target + "' (known: host, " +
                          llvm::join(supportedCpuTargets(), ", ") + ")");
    if (llvm::Error e = checkAdvisorName(advisor))
      return errorHandler("tensorop-annotate-sketch: " +
                          llvm::toString(std::move(e)));
    return success();
  }

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

    // Option errors are reported at the first op they stop, so the
    // diagnostic has a location.
    Operation *first = matmuls.front();
    llvm::Expected<std::string> targetName = resolveTargetName(target);
    if (!targetName) {
      first->emitError() << llvm::toString(targetName.takeError());
      return signalPassFailure();
    }
    if (!llvm::is_contained(supportedCpuTargets(), *targetName)) {
      first->emitError() << "target '" << *targetName
                         << "' is not supported by the CPU pipeline "
                            "(supported: host, x86-avx512, x86-avx2, riscv-rvv, arm-neon)";
      return signalPassFailure();
    }
    llvm::Expected<TargetHints> hints = loadTargetHints(*targetName, hintsDir);
    if (!hints) {
      first->emitError() << llvm::toString(hints.takeError());
      return signalPassFailure();
    }
    if (threads < 1) {
      first->emitError() << "tensorop: threads must be at least 1, got "
                         << threads;
      return signalPassFailure();
    }
    llvm::Expected<std::unique_ptr<Advisor>> adv = createAdvisor(advisor);
    if (!adv) {
      first->emitError() << llvm::toString(adv.takeError());
      return signalPassFailure();
    }

    std::unique_ptr<TuningDB> tuned;
    std::string fingerprint = targetFingerprint(*targetName);
    if (!db.empty()) {
      llvm::Expected<std::unique_ptr<TuningDB>> opened =
          TuningDB::open(db, /*readOnly=*/true);
      if (!opened) {
        first->emitError() << "tensorop: " << llvm::toString(opened.takeError());
        return signalPassFailure();
      }
      tuned = std::move(*opened);
      tuned->setConfigHasher([ctx](llvm::StringRef config) {
        return configHashOfText(ctx, config);
      });
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
      if (tuned) {
        FailureOr<SketchAttr> fromDb =
            lookupTunedSketch(mm, *tuned, *problem, fingerprint);
        if (failed(fromDb))
          return signalPassFailure();
        if (*fromDb) {
          mm->setAttr(kSketchAttrName, *fromDb);
          continue;
        }
      }
      llvm::Expected<SketchChoice> choice = (*adv)->propose(*problem, *hints);
      // What an LLM or replay advisor went through: rejected answers and
      // fallbacks are warnings, the rest remarks.
      for (const AdvisorNote &note : (*adv)->notes()) {
        if (note.isProblem())
          mm.emitWarning() << "tensorop: advisor '" << (*adv)->name()
                           << "': " << note.text;
        else
          mm.emitRemark() << "tensorop: advisor '" << (*adv)->name()
                          << "': " << note.text;
      }
      if (!choice) {
        mm.emitError() << "advisor '" << (*adv)->name()
                       << "' failed: " << llvm::toString(choice.takeError());
        return signalPassFailure();
      }
      // Advisors choose tiles for one core; how many cores run the GEMM is
      // the caller's decision (or the tuner's, through the db).
      choice->threads = threads;
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
