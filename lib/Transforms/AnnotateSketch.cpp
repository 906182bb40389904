//===- AnnotateSketch.cpp - Ask the advisor for a sketch per GEMM ---------===//

#include "AnnotateConv.h"
#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/SharedPackB.h"
#include "tensorop/Advisor/SketchDatabase.h"
#include "tensorop/Advisor/ThreadCount.h"
#include "tensorop/Targets/HostHints.h"
#include "tensorop/Targets/PassHints.h"
#include "tensorop/Transforms/ConvSupport.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPANNOTATESKETCH
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

namespace {
/// The row stride, in elements, that a 2-D f32 tensor operand will have
/// once bufferized, where the microkernel could read its rows in place:
/// the buffer under a bufferization.to_tensor, the source's rows under a
/// unit-stride tensor.extract_slice, and otherwise a fresh (or, at the
/// pipeline's function boundaries, identity-layout) buffer whose rows are
/// its columns apart. A prediction: tensorop-apply-sketch checks the
/// bufferized layout again and packs, with a remark, where it is wrong.
/// Without it every tensor-level matmul packed A and B, and the few-rows
/// path (B and A read in place) never applied to a model's GEMMs.
std::optional<int64_t> expectedRowStride(Value v) {
  if (isa<MemRefType>(v.getType()))
    return inPlaceRowStride(v.getType());
  auto tensor = dyn_cast<RankedTensorType>(v.getType());
  if (!tensor || tensor.getRank() != 2 || tensor.isDynamicDim(1) ||
      tensor.getDimSize(1) <= 0)
    return std::nullopt;
  if (auto toTensor = v.getDefiningOp<bufferization::ToTensorOp>())
    return inPlaceRowStride(toTensor.getBuffer().getType());
  if (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>()) {
    if (slice.getSourceType().getRank() != 2 ||
        !llvm::all_of(slice.getStaticStrides(),
                      [](int64_t s) { return s == 1; }))
      return std::nullopt;
    return expectedRowStride(slice.getSource());
  }
  if (tensor.getDimSize(1) > kMaxInPlaceRowStrideBytes / 4)
    return std::nullopt;
  return tensor.getDimSize(1);
}

/// Whether `v`, once bufferized, is a buffer whose rows are read in place
/// at a row stride known only at run time (hasRuntimeRowStride): a memref
/// so laid out, the buffer under a bufferization.to_tensor, or the source
/// of a unit-stride tensor.extract_slice of either.
bool expectsRuntimeRowStride(Value v) {
  if (isa<MemRefType>(v.getType()))
    return hasRuntimeRowStride(v.getType());
  if (auto toTensor = v.getDefiningOp<bufferization::ToTensorOp>())
    return hasRuntimeRowStride(toTensor.getBuffer().getType());
  if (auto slice = v.getDefiningOp<tensor::ExtractSliceOp>())
    return slice.getSourceType().getRank() == 2 &&
           llvm::all_of(slice.getStaticStrides(),
                        [](int64_t s) { return s == 1; }) &&
           expectsRuntimeRowStride(slice.getSource());
  return false;
}

/// The best verified tuning record for this op and machine, as a sketch
/// whose source names the record; null if there is none (said in a
/// remark); failure on a broken database or record (said in an error).
FailureOr<SketchAttr> lookupTunedSketch(linalg::MatmulOp mm, SketchDatabase &db,
                                        const GemmProblem &problem,
                                        StringRef fingerprint) {
  std::string signature = opSignature(problem);
  size_t reported = db.warnings().size();
  llvm::Expected<std::optional<TunedSketch>> best =
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
  const TunedSketch &r = **best;
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
      "db:" + r.configHash, attr.getThreads(), attr.getEpilogue(),
      attr.getNTail());
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
    if (target != "host" && !isCpuPipelineTarget(target))
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
    // In the pipeline, batch matmuls reach this pass as loops of matmuls
    // (tensorop-decompose-batch-matmul, which marks and remarks on those it
    // leaves); one that this pass meets unmarked says how to get there.
    SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
    module.walk([&](Operation *op) {
      if (auto mm = dyn_cast<linalg::MatmulOp>(op))
        matmuls.push_back(mm);
      else if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op))
        convs.push_back(conv);
      else if (isa<linalg::BatchMatmulOp, linalg::BatchReduceMatmulOp>(op) &&
               !op->hasAttr(kBatchNotHandledAttrName))
        op->emitRemark("tensorop: batch matmuls take the sketch path as "
                       "loops of matmuls (tensorop-decompose-batch-matmul, "
                       "which --tensorop-pipeline runs first); this one is "
                       "lowered by the upstream pipeline");
      else if (isa<linalg::ConvolutionOpInterface>(op))
        op->emitRemark() << "tensorop: not handled ("
                         << unsupportedConvReason(op)
                         << "); lowered by the upstream pipeline "
                            "(convert-linalg-to-loops)";
      else if (isa<linalg::LinalgOp>(op) && op->hasAttr(kSketchAttrName))
        // A sketch written on an op no stage reads was dropped without a
        // word (a linalg.add with a #tensorop.sketch compiled as if it had
        // none).
        op->emitWarning() << "tensorop: the '" << kSketchAttrName
                          << "' on '" << op->getName()
                          << "' is not used: sketches apply to linalg.matmul "
                             "and linalg.conv_2d_nhwc_hwcf; it is lowered by "
                             "the upstream pipeline";
      else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
               linalgOp && linalg::isaContractionOpInterface(linalgOp))
        // A matmul written as linalg.generic (or linalg.mmt4d, matvec, ...)
        // went to the upstream loops without the remark every other op the
        // pipeline leaves gets.
        op->emitRemark()
            << "tensorop: not handled ("
            << (isa<linalg::GenericOp>(op)
                    ? std::string("a contraction written as linalg.generic "
                                  "is not on the sketch path, which takes "
                                  "linalg.matmul; mlir-opt "
                                  "--linalg-specialize-generic-ops rewrites a "
                                  "generic matmul as one")
                    : "'" + op->getName().getStringRef().str() +
                          "' is not on the sketch path, which takes "
                          "linalg.matmul")
            << "); lowered by the upstream pipeline";
    });
    if (matmuls.empty() && convs.empty())
      return;

    // Option errors are reported at the first op they stop, so the
    // diagnostic has a location.
    Operation *first = matmuls.empty() ? convs.front().getOperation()
                                       : matmuls.front().getOperation();
    llvm::Expected<std::string> targetName = resolveTargetName(target);
    if (!targetName) {
      first->emitError() << llvm::toString(targetName.takeError());
      return signalPassFailure();
    }
    if (!isCpuPipelineTarget(*targetName)) {
      first->emitError() << "target '" << *targetName
                         << "' is not supported by the CPU pipeline "
                            "(supported: host, x86-avx512, x86-avx2, riscv-rvv, arm-neon)";
      return signalPassFailure();
    }
    // target=host: the file's hints with this machine's caches and CPU
    // facts over them; what could not be read is said, not skipped.
    // (The passes after it read the same through PassHints::forSketch.)
    PassHints passHints(target, hintsDir);
    llvm::Expected<const TargetHints &> hints = passHints.forRequest();
    if (!hints) {
      first->emitError() << llvm::toString(hints.takeError());
      return signalPassFailure();
    }
    for (const std::string &remark : hints->hostRemarks)
      if (firstTimeInProcess(remark))
        first->emitRemark() << "tensorop: " << remark;
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
    // Nothing in this pass runs a kernel, so a model-written emitter is
    // used only when the caller says so.
    (*adv)->setAcceptUnverifiedEmitters(acceptUnverifiedEmitters);

    std::unique_ptr<SketchDatabase> tuned;
    std::string fingerprint = targetFingerprint(*targetName);
    if (!db.empty()) {
      llvm::Expected<std::unique_ptr<SketchDatabase>> opened =
          openSketchDatabase(db, ctx);
      if (!opened) {
        first->emitError() << "tensorop: " << llvm::toString(opened.takeError());
        return signalPassFailure();
      }
      // Rows are rechecked with the #tensorop.sketch hasher the opener set.
      tuned = std::move(*opened);
    }

    // Convolutions first: a 1x1 one may become a GEMM, annotated below.
    ConvAnnotateOptions convOptions;
    convOptions.hints = &*hints;
    convOptions.targetName = *targetName;
    convOptions.targetOption = target;
    convOptions.advisor = adv->get();
    convOptions.db = tuned.get();
    convOptions.fingerprint = fingerprint;
    convOptions.threads = threads;
    // GEMMs a 1x1 convolution became: their A (the input's pixels) is a
    // contiguous tensor, whose rows the microkernel reads in place once it
    // is a memref (apply checks the layout again and packs otherwise).
    llvm::SmallPtrSet<Operation *, 4> fromConv;
    for (linalg::Conv2DNhwcHwcfOp conv : convs) {
      linalg::MatmulOp gemm;
      if (failed(annotateConv(conv, convOptions, gemm)))
        return signalPassFailure();
      if (gemm) {
        matmuls.push_back(gemm);
        fromConv.insert(gemm);
      }
    }

    for (linalg::MatmulOp mm : matmuls) {
      // A sketch written by the user (or an earlier run) is kept: the
      // verifier has already checked it, against its own target. Code for
      // another target would fail only when it runs (RVV or NEON assembly
      // in an x86 JIT) or, worse, run where it should not (zmm code for an
      // AVX2 machine), so the two must be the same.
      if (Attribute present = mm->getAttr(kSketchAttrName)) {
        auto sketch = dyn_cast<SketchAttr>(present);
        if (!sketch) {
          mm.emitError() << "tensorop: attribute '" << kSketchAttrName
                         << "' is not a #tensorop.sketch: " << present;
          return signalPassFailure();
        }
        if (sketch.getTarget().getName() != *targetName) {
          mm.emitError() << "tensorop: the sketch is for target '"
                         << sketch.getTarget().getName()
                         << "' but the pipeline compiles for '" << *targetName
                         << "'"
                         << (target != *targetName
                                 ? " (target=" + target + ")"
                                 : std::string());
          return signalPassFailure();
        }
        continue;
      }
      std::string reason;
      bool sizeHintError = false;
      FailureOr<GemmProblem> problem =
          matchSupportedMatmul(mm, reason, &sizeHintError);
      if (failed(problem) && sizeHintError) {
        // The user asked for a size we cannot read: falling back to the
        // upstream loops with a remark hid that.
        mm.emitError() << "tensorop: " << reason;
        return signalPassFailure();
      }
      if (failed(problem)) {
        mm.emitRemark() << "tensorop: not handled (" << reason
                        << "); lowered by the upstream pipeline";
        continue;
      }
      // A bf16 GEMM on a target without the bf16 dot product is the
      // request's error, not a reason to fall back to the upstream loops.
      std::string typeError;
      if (failed(checkInputTypeOnTarget(*problem, *hints, target == "host",
                                        typeError))) {
        mm.emitError() << "tensorop: " << typeError;
        return signalPassFailure();
      }
      if (fromConv.contains(mm))
        problem->aRowsInPlace = !problem->transposeA;
      else if (!problem->aRowsInPlace && !problem->transposeA &&
               problem->input == GemmInputType::F32) {
        Value a = mm.getDpsInputOperand(0)->get();
        problem->aRowsInPlace =
            expectsRuntimeRowStride(a) || expectedRowStride(a).has_value();
      }
      if (problem->isDynamic()) {
        // Which size the sketch fits, so nobody mistakes it for a tuned one.
        std::string dims;
        for (auto [dynamic, name, size] :
             {std::make_tuple(problem->dynamicM, "M", problem->m),
              std::make_tuple(problem->dynamicN, "N", problem->n),
              std::make_tuple(problem->dynamicK, "K", problem->k)})
          if (dynamic)
            dims += (dims.empty() ? "" : ", ") + std::string(name) + "=" +
                    std::to_string(size);
        mm.emitRemark() << "tensorop: dynamic dimensions: the sketch is "
                           "chosen for "
                        << dims
                        << (mm->hasAttr(kSizeHintAttrName)
                                ? " (tensorop.size_hint)"
                                : " (default; a tensorop.size_hint "
                                  "attribute sets it)")
                        << "; the loops run to the runtime sizes";
      } else if (mm->hasAttr(kSizeHintAttrName)) {
        // A well-formed hint on a static op (a malformed one is an error
        // above) has nothing to choose: it was dropped without a word.
        mm.emitRemark() << "tensorop: tensorop.size_hint ignored: every "
                           "dimension is static (M="
                        << problem->m << ", N=" << problem->n
                        << ", K=" << problem->k << ")";
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
      // How many cores run the GEMM is the caller's decision (or the
      // tuner's, through the db), less where the GEMM is too small to pay
      // for a team of that many. It is decided first: the advisor's sketch
      // may depend on it (SkinnyGemm.cpp: the GEMV form's rows).
      // A matmul inside a parallel loop (e.g. one panel of a prepacked B
      // per iteration) is already one thread's share: a team per call would
      // fork and join inside every iteration.
      bool inParallelLoop = mm->getParentOfType<scf::ForallOp>() ||
                            mm->getParentOfType<scf::ParallelOp>();
      ThreadCountChoice teamSize = chooseGemmThreads(
          *problem, inParallelLoop ? 1 : threads,
          minFlopsPerThreadFor(minFlopsPerThread, *hints));
      problem->threads = teamSize.threads;
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
      choice->threads = teamSize.threads;
      if (inParallelLoop && threads > 1)
        mm.emitRemark() << "tensorop: one thread: the matmul is inside a "
                           "parallel loop, whose iterations are the threads' "
                           "work";
      else if (!teamSize.reason.empty())
        mm.emitRemark() << "tensorop: " << teamSize.reason;
      // One thread has nobody to share a packed B block with.
      if (choice->threads == 1 && choice->packB == kSharedPackB) {
        choice->packB = "kmajor_nr";
        mm.emitRemark() << "tensorop: pack_b \"" << kSharedPackB
                        << "\" becomes \"kmajor_nr\": the GEMM runs on one "
                           "thread";
      }
      std::string error;
      SketchAttr sketch = choice->toAttr(ctx, *hints, error);
      if (!sketch) {
        mm.emitError() << "advisor '" << (*adv)->name()
                       << "' proposed an illegal sketch: " << error;
        return signalPassFailure();
      }
      if (StringRef(choice->source).contains("unverified emitter"))
        mm.emitWarning() << "tensorop: advisor '" << (*adv)->name()
                         << "': the microkernel comes from the model-written "
                            "emitter '"
                         << choice->emitter
                         << "', accepted unverified "
                            "(accept-unverified-emitters): it passed the "
                            "instruction allowlist, but nothing checked "
                            "that it computes the right result";
      mm->setAttr(kSketchAttrName, sketch);
    }
  }
};
} // namespace
