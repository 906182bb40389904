//===- CpuAnswerFuzzer.cpp - Fuzz the check of a model's CPU sketch ------===//
//
// An LLM's answer is hostile input: checkSketchAnswer must turn any text
// into a legal sketch for the target or an error for the model. Each input
// is checked on every CPU target, for a 97x131x67 GEMM on two and a
// transposed 1x1x1 one on the others, and as a convolution's answer
// (checkConvSketchAnswer, a 3x3 convolution with C = 16, F = 24) on every
// target. Answers that bring an emitter script are refused as the pipeline
// refuses them without a validator, so nothing is written or run per input
// (the script's sandbox has its own tests, test/Sandbox and test/Advisor).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/ConvAdvisor.h"
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

/// The builtin choice of the fuzzed convolution on each CPU target.
const std::vector<ConvSketchChoice> &builtinConvChoices() {
  static std::vector<ConvSketchChoice> choices = [] {
    ConvProblem p;
    p.h = 9;
    p.w = 11;
    p.c = 16;
    p.f = 24;
    p.r = p.s = 3;
    p.padTop = p.padBottom = p.padLeft = p.padRight = 1;
    std::vector<ConvSketchChoice> all;
    for (const TargetHints &t : cpuTargets())
      all.push_back(fuzz::fixture(builtinConvChoice(p, t)));
    return all;
  }();
  return choices;
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
  for (size_t i = 0; i < cpuTargets().size(); ++i) {
    const TargetHints &t = cpuTargets()[i];
    const ConvSketchChoice &builtin = builtinConvChoices()[i];
    llvm::Expected<ConvSketchChoice> c =
        checkConvSketchAnswer(text, builtin, t, "fuzz");
    if (!c) {
      FUZZ_CHECK_REJECTION_SAYS_WHY(c.takeError());
      continue;
    }
    FUZZ_CHECK(c->emitter == builtin.emitter,
               "a convolution answer keeps the shipped emitter");
    std::string illegal;
    FUZZ_CHECK(c->toAttr(ctx, t, illegal),
               "an accepted convolution sketch is legal");
  }
  return 0;
}
