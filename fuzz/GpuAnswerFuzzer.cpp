//===- GpuAnswerFuzzer.cpp - Fuzz the check of a model's GPU sketch ------===//
//
// checkGpuSketchAnswer must turn any text into a sketch that passes
// checkGpuSketch for the problem and target, or an error naming the field.
// Each input is checked for bf16, f16 and tf32 GEMMs on sm90 and sm80.
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "tensorop/GPU/GpuAdvisor.h"

using namespace mlir;
using namespace mlir::tensorop;

namespace {
struct Case {
  GpuGemmProblem problem;
  GpuTarget target;
  GpuSketchChoice builtin;
};

const std::vector<Case> &cases() {
  static std::vector<Case> all = [] {
    std::vector<Case> cs;
    for (llvm::StringRef name : supportedGpuTargets()) {
      GpuTarget t = fuzz::fixture(loadGpuTarget(name));
      for (GpuGemmProblem p :
           {GpuGemmProblem{4096, 4096, 4096, "bf16", "bf16", "bf16", false},
            GpuGemmProblem{1000, 1000, 512, "f16", "f32", "f16", false},
            GpuGemmProblem{97, 131, 64, "f32", "f32", "tf32", false}}) {
        llvm::Expected<GpuSketchChoice> b = proposeGpuSketch(p, t);
        if (!b) {
          llvm::consumeError(b.takeError());
          continue;
        }
        cs.push_back({p, t, *b});
      }
    }
    if (cs.empty())
      __builtin_trap();
    return cs;
  }();
  return all;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  MLIRContext *ctx = &fuzz::sharedContext();
  for (const Case &c : cases()) {
    llvm::Expected<GpuSketchChoice> s =
        checkGpuSketchAnswer(text, c.problem, c.target, c.builtin, "fuzz");
    if (!s) {
      FUZZ_CHECK_REJECTION_SAYS_WHY(s.takeError());
      continue;
    }
    // Accepted means it passes the same checks again, standing alone.
    llvm::Error again = checkGpuSketch(*s, c.problem, c.target);
    bool passes = !again;
    llvm::consumeError(std::move(again));
    FUZZ_CHECK(passes, "an accepted sketch passes checkGpuSketch");
    (void)s->toAttr(ctx, c.target);
    (void)s->describe();
  }
  return 0;
}
