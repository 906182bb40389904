//===- Advisor.h - Who chooses a sketch -------------------------*- C++ -*-===//
//
// The advisor is a boundary: whoever answers (the builtin analytical model,
// an LLM, a replayed recording), the answer is the same typed SketchChoice,
// validated by the SketchAttr verifier before anything uses it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_ADVISOR_H
#define TENSOROP_ADVISOR_ADVISOR_H

#include "tensorop/Advisor/AdvisorNote.h"
#include "tensorop/Targets/TargetHints.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <vector>
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
  /// A is a memref whose rows the microkernel can read in place (unit
  /// column stride, static positive row stride; not transposed). False when
  /// unknown (tensors, dynamic strides): then A is packed.
  bool aRowsInPlace = false;
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
  /// Threads running the GEMM (1: the calling thread only).
  int64_t threads = 1;

  /// Builds the attribute; the verifier's message goes to `error` when the
  /// choice is illegal for the target.
  SketchAttr toAttr(MLIRContext *ctx, const TargetHints &target,
                    std::string &error) const;
  /// The choice an attribute holds (its inverse on the knobs).
  static SketchChoice fromAttr(SketchAttr attr);
};

/// Checks a proposed choice beyond its legality (for example: compiles and
/// verifies the kernel). Its error text is fed back to an LLM advisor.
using ChoiceValidator = std::function<llvm::Error(const SketchChoice &)>;

class Advisor {
public:
  virtual ~Advisor() = default;
  virtual llvm::StringRef name() const = 0;
  /// A choice for `problem` on `target`. Advisors that can be wrong (llm,
  /// replay) validate their answers, retry with the error fed back, and fall
  /// back to the builtin advisor, saying so in the choice's `source` and in
  /// notes().
  virtual llvm::Expected<SketchChoice> propose(const GemmProblem &problem,
                                               const TargetHints &target) = 0;
  void setValidator(ChoiceValidator v) { validator = std::move(v); }
  /// What happened during the last propose(): rejected answers, fallbacks,
  /// token counts, each with its severity. Empty for the builtin advisor.
  const std::vector<AdvisorNote> &notes() const { return notesList; }
  /// Tokens the last propose() used (0 for the builtin advisor).
  int64_t promptTokens() const { return promptTokenCount; }
  int64_t completionTokens() const { return completionTokenCount; }

protected:
  ChoiceValidator validator;
  std::vector<AdvisorNote> notesList;
  int64_t promptTokenCount = 0, completionTokenCount = 0;
};

/// The BLIS-style analytical advisor: register block from the vector
/// register file and FMA latency, kc from L1, nc from L2, mc from L3.
std::unique_ptr<Advisor> createBuiltinAdvisor();

/// The LLM advisor: prompts built from the hints and templates in
/// hints/prompts/, answers validated (schema, legality, emitter runs
/// sandboxed and assembles, the validator), up to
/// TENSOROP_LLM_ANSWER_RETRIES (default 3) corrections, then the builtin
/// advisor. Fails only if the endpoint is not configured.
llvm::Expected<std::unique_ptr<Advisor>> createLLMAdvisor();
/// Checks one LLM answer (the JSON of hints/prompts/gemm_sketch_system.txt):
/// schema, legality on the target, and an emitter script it brings runs
/// sandboxed and assembles. The error says what is wrong, for the model.
llvm::Expected<SketchChoice> checkSketchAnswer(llvm::StringRef content,
                                               const GemmProblem &problem,
                                               const TargetHints &target,
                                               llvm::StringRef source);
/// Answers recorded in `dir`, validated like live ones.
std::unique_ptr<Advisor> createReplayAdvisor(llvm::StringRef dir);

/// The directory LLM-written emitter scripts are installed in (they are
/// named llm_<id> and always run sandboxed).
std::string llmEmitterDir();

/// Creates the advisor named by `spec`: "builtin", "llm" (configured by
/// TENSOROP_LLM_URL / _MODEL / _API_KEY) or "replay:DIR" (answers recorded
/// by an llm run with TENSOROP_LLM_RECORD_DIR=DIR).
llvm::Expected<std::unique_ptr<Advisor>> createAdvisor(llvm::StringRef spec);

/// The advisors createAdvisor() knows, as a help text lists them.
inline constexpr llvm::StringLiteral kAdvisorNames = "builtin, llm, replay:DIR";

/// Checks that `spec` names an advisor createAdvisor() knows, without
/// creating it (the llm advisor's endpoint is checked when it is created),
/// so a pipeline can refuse a bad name before it runs.
llvm::Error checkAdvisorName(llvm::StringRef spec);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_ADVISOR_ADVISOR_H
