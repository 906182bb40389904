//===- ApproximateMath.cpp - f32 math ops as polynomial approximations ----===//
//
// A loop that calls libm's tanhf per element does not vectorize; the same
// loop with upstream's polynomial approximation does (LLVM's loop
// vectorizer at -O3 with the target's features). This runs on the CPU
// pipeline's loops, after linalg is lowered and before math goes to LLVM.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tensorop {
#define GEN_PASS_DEF_TENSOROPAPPROXIMATEMATH
#include "tensorop/Transforms/Passes.h.inc"
} // namespace mlir::tensorop

using namespace mlir;

namespace {
struct ApproximateMathPass
    : public tensorop::impl::TensorOpApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Without the AVX2-only rsqrt form: the result must not depend on which
    // x86 the module is built for.
    MathPolynomialApproximationOptions options;
    options.enableAvx2 = false;
    populateMathPolynomialApproximationPatterns(patterns, options);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
