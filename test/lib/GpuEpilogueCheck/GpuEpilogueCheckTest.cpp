//===- GpuEpilogueCheckTest.cpp - The runner's epilogue reference, checked ===//
//
// tensorop-gpu-runner evaluates fused-epilogue steps with the LLVM-free
// Verify/EpilogueSteps.h (it runs on the GPU machine, which has no LLVM);
// the compiler's matcher and gen's CPU verification use
// Dialect/Epilogue.h. This prints where the two disagree (they must not),
// the parser's refusals, and the cuBLASLt epilogue the runner times each
// step list against, or why there is none.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Dialect/Epilogue.h"
#include "tensorop/Verify/EpilogueSteps.h"
#ifdef TENSOROP_HAVE_EPILOGUE_RUNNER
#include "tensorop/GPU/GpuEpilogueRunner.h"
#endif

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace tensorop;

static int failures = 0;

/// The two evaluations of `texts` on a grid of x, bias and residual.
static void compare(const std::vector<std::string> &texts) {
  std::vector<EpilogueRefStep> ref;
  std::string why = parseEpilogueRefSteps(texts, ref);
  llvm::SmallVector<mlir::tensorop::EpilogueStep> steps;
  for (const std::string &t : texts) {
    std::string w;
    if (auto s = mlir::tensorop::parseEpilogueStep(t, w))
      steps.push_back(*s);
  }
  std::string joined;
  for (const std::string &t : texts)
    joined += (joined.empty() ? "" : ", ") + t;
  if (!why.empty() || steps.size() != texts.size()) {
    std::printf("FAIL: [%s] not parsed: %s\n", joined.c_str(), why.c_str());
    ++failures;
    return;
  }
  double worst = 0;
  for (int i = -400; i <= 400; ++i)
    for (double bias : {-0.75, 0.0, 1.5})
      for (double res : {-2.0, 0.25}) {
        double x = i * 0.05 + 0.003;
        double a = applyEpilogueRef(ref, x, bias, res);
        double b = mlir::tensorop::applyEpilogue(steps, x, bias, res);
        worst = std::max(worst, std::fabs(a - b));
      }
  std::printf("%s: [%s] max difference %g\n", worst == 0 ? "ok" : "FAIL",
              joined.c_str(), worst);
  failures += worst != 0;
}

static void refuse(const std::vector<std::string> &texts) {
  std::vector<EpilogueRefStep> ref;
  std::string why = parseEpilogueRefSteps(texts, ref);
  std::printf("refused: %s\n", why.empty() ? "NOT REFUSED" : why.c_str());
  failures += why.empty();
}

#ifdef TENSOROP_HAVE_EPILOGUE_RUNNER
static void baseline(const std::vector<std::string> &texts) {
  std::vector<EpilogueRefStep> ref;
  parseEpilogueRefSteps(texts, ref);
  CublasLtEpilogueChoice c = chooseCublasLtEpilogue(ref);
  std::string joined;
  for (const std::string &t : texts)
    joined += (joined.empty() ? "" : ", ") + t;
  std::printf("cuBLASLt [%s]: %s\n", joined.c_str(),
              c.available ? c.name.c_str() : ("no baseline: " + c.reason).c_str());
}
#endif

int main() {
  for (const char *one : {"bias_n", "bias_m", "residual", "scale(0.5)",
                          "clamp(0, 6)", "relu", "tanh", "sigmoid", "silu",
                          "gelu_tanh", "gelu_erf"})
    compare({one});
  compare({"bias_n", "gelu_erf", "residual"});
  compare({"bias_m", "scale(-2.5)", "silu", "clamp(-1, 2)"});
  refuse({"softmax"});
  refuse({"bias_n", "bias_m"});
  refuse({"scale"});
  refuse({"clamp(2, 1)"});
  refuse({"scale(nan)"});
#ifdef TENSOROP_HAVE_EPILOGUE_RUNNER
  baseline({"bias_n"});
  baseline({"bias_n", "relu"});
  baseline({"bias_n", "gelu_tanh"});
  baseline({"gelu_tanh"});
  baseline({"bias_n", "residual", "relu"});
  baseline({"residual"});
  baseline({"bias_n", "gelu_erf"});
  baseline({"bias_m", "relu"});
  baseline({"bias_n", "relu", "residual"});
  baseline({"silu"});
#endif
  std::printf("%d failure(s)\n", failures);
  return failures != 0;
}
