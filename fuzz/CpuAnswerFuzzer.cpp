//===- CpuAnswerFuzzer.cpp - Fuzz the check of a model's CPU sketch ------===//
//
// An LLM's answer is hostile input: checkSketchAnswer must turn any text
// into a legal sketch for the target or an error for the model. Each input
// is checked on every CPU target, for a 97x131x67 GEMM on two and a
// transposed 1x1x1 one on the others. Answers that bring an emitter script are refused as the pipeline
// refuses them without a validator, so nothing is written or run per input
// (the script's sandbox has its own tests, test/Sandbox and test/Advisor).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/LLM/LLMAdvisor.h"
#include "tensorop/Targets/TargetHints.h"

using namespace mlir;
using namespace mlir::tensorop;

namespace {
const std::vector<TargetHints> &cpuTargets() {
  static std::vector<TargetHints> targets = [] {
    std::vector<TargetHints> all;
    for (llvm::StringRef name : supportedCpuTargets())
      all.push_back(fuzz::fixture(loadTargetHints(name)));
    return all;
  }();
  return targets;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  MLIRContext *ctx = &fuzz::sharedContext();
  // Each check builds its own MLIRContext (most of the time per input), so
  // the two problems alternate over the targets rather than multiply.
  bool transposed = false;
  for (const TargetHints &t : cpuTargets()) {
    GemmProblem p = transposed
                        ? fuzz::gemmProblem(1, 1, 1, true, true, false)
                        : fuzz::gemmProblem(97, 131, 67, false, false, true);
    transposed = !transposed;
    llvm::Expected<SketchChoice> c =
        checkSketchAnswer(text, p, t, "fuzz", /*callerVerifiesEmitters=*/false);
    if (!c) {
      FUZZ_CHECK_REJECTION_SAYS_WHY(c.takeError());
      continue;
    }
    FUZZ_CHECK(c->emitter.rfind("llm_", 0) != 0,
               "no model-written emitter without a validator");
    std::string illegal;
    FUZZ_CHECK(c->toAttr(ctx, t, illegal), "an accepted sketch is legal");
  }
  return 0;
}
