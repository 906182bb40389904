//===- Advisor.h - Who chooses a sketch -------------------------*- C++ -*-===//
//
// The advisor is a boundary: whoever answers (the builtin analytical model,
// an LLM, a replayed recording), the answer is the same typed SketchChoice,
// validated by the SketchAttr verifier before anything uses it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_ADVISOR_H
#define TENSOROP_ADVISOR_ADVISOR_H

#include "tensorop/Targets/TargetHints.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir {
class MLIRContext;
namespace tensorop {
class SketchAttr;

/// A static fp32 GEMM C[M][N] += op(A)[M][K] * op(B)[K][N].
struct GemmProblem {
  int64_t m = 0, n = 0, k = 0;
  bool transposeA = false; ///< A is stored K x M.
  bool transposeB = false; ///< B is stored N x K.
};

/// The typed answer of every advisor.
struct SketchChoice {
  int64_t mc = 0, nc = 0, kc = 0, mr = 0, nr = 0;
  std::string loopOrder = "mkn";
  std::string microOrder = "mn";
  std::string packA = "kmajor_mr";
  std::string packB = "kmajor_nr";
  std::string emitter = "x86_gemm_fma";
  int64_t kUnroll = 4;
  std::string broadcast = "explicit";
  int64_t prefetchB = 0;
  std::string source;

  /// Builds the attribute; the verifier's message goes to `error` when the
  /// choice is illegal for the target.
  SketchAttr toAttr(MLIRContext *ctx, const TargetHints &target,
                    std::string &error) const;
};

class Advisor {
public:
  virtual ~Advisor() = default;
  virtual llvm::StringRef name() const = 0;
  virtual llvm::Expected<SketchChoice> propose(const GemmProblem &problem,
                                               const TargetHints &target) = 0;
};

/// The BLIS-style analytical advisor: register block from the vector
/// register file and FMA latency, kc from L1, nc from L2, mc from L3.
std::unique_ptr<Advisor> createBuiltinAdvisor();

/// Creates the advisor named by `spec` ("builtin", ...).
llvm::Expected<std::unique_ptr<Advisor>> createAdvisor(llvm::StringRef spec);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_ADVISOR_ADVISOR_H
