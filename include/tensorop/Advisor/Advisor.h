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

/// Element type of a GEMM's A and B; C and the accumulation are fp32.
enum class GemmInputType { F32, BF16, F16 };

/// "f32", "bf16", "f16".
inline const char *gemmInputTypeName(GemmInputType t) {
  return t == GemmInputType::BF16 ? "bf16"
         : t == GemmInputType::F16 ? "f16"
                                   : "f32";
}

/// A static fp32 GEMM C[M][N] += op(A)[M][K] * op(B)[K][N].
struct GemmProblem {
  int64_t m = 0, n = 0, k = 0;
  /// bf16 or f16 A and B (fp32 C): bf16 through the bf16 dot-product
  /// microkernel on k pairs, f16 converted to fp32 when packed.
  GemmInputType input = GemmInputType::F32;
  bool transposeA = false; ///< A is stored K x M.
  bool transposeB = false; ///< B is stored N x K.
  /// A is a memref whose rows the microkernel can read in place (unit
  /// column stride, a positive row stride, static or known only at run
  /// time, which the x86 kernels then take as an operand; not transposed).
  /// False when unknown (tensors whose buffer is not known): then A is
  /// packed.
  bool aRowsInPlace = false;
  /// B was packed once into k pairs (bf16, a matmul marked
  /// tensorop.b_k_pairs: a panel of prepacked weights) and the microkernel
  /// reads it in place, from wherever the caller keeps it (past L2 for
  /// large weights), not from a block packed per call into L2.
  bool bPairsInPlace = false;
  /// B is one panel of fp32 weights packed once into a stack of panels
  /// (one index of a K x W-panel buffer: its rows W floats apart, the
  /// panel contiguous) and read in place: a narrow B whose next columns
  /// are its next rows (gen's NAME_prepacked, the models' prepacked FFN).
  bool bPanelInPlace = false;
  /// Dimensions only known at run time. m, n and k then hold the
  /// representative size the sketch is chosen for (a `tensorop.size_hint`
  /// or a default); the loops run to the runtime extents.
  bool dynamicM = false, dynamicN = false, dynamicK = false;
  bool isDynamic() const { return dynamicM || dynamicN || dynamicK; }
  /// Threads of the team that will run the GEMM, decided before the
  /// advisor (chooseGemmThreads, or the tuner's candidate): the sketch's
  /// `threads`. A sketch may depend on it (SkinnyGemm.cpp: gemv.rows at
  /// one thread, gemv.rows_threaded on a team).
  int64_t threads = 1;
};

/// The last columns of C computed apart by the kernel vectorized along K
/// (a sketch's #tensorop.n_tail); `columns` 0: none.
struct NTailChoice {
  int64_t columns = 0, mr = 0, nr = 0, kUnroll = 2, prefetchA = 0,
          threads = 1;
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
  /// Row prefetches of operands read in place (x86_gemm_fma): B's row this
  /// many columns ahead, each row of A this many k values ahead (0: none).
  int64_t prefetchBCols = 0, prefetchA = 0;
  std::string source;
  /// Threads running the GEMM (1: the calling thread only).
  int64_t threads = 1;
  /// The N tail; the fields above then describe the GEMM of the first
  /// N - nTail.columns columns.
  NTailChoice nTail;

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

struct ConvProblem;
struct ConvSketchChoice;

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
  /// A #tensorop.conv_sketch choice for a convolution. By default the
  /// builtin convolution choice, with a note saying this advisor has no
  /// answers of its own for convolutions; the builtin and llm advisors
  /// answer themselves (the llm advisor's answers are checked like its
  /// GEMM answers: schema, the sketch verifier, corrections, fallback).
  virtual llvm::Expected<ConvSketchChoice>
  proposeConv(const ConvProblem &problem, const TargetHints &target);
  void setValidator(ChoiceValidator v) { validator = std::move(v); }
  /// Without a validator nothing runs a model-written kernel before it is
  /// used, so answers that bring their own emitter script are refused (the
  /// model is told why and may answer with a shipped emitter). Accepting
  /// them is explicit: the sketch's source then says "unverified emitter".
  void setAcceptUnverifiedEmitters(bool accept) { acceptUnverified = accept; }
  /// What happened during the last propose(): rejected answers, fallbacks,
  /// token counts, each with its severity. The builtin advisor: where the
  /// team's size (GemmProblem::threads) decided its sketch.
  const std::vector<AdvisorNote> &notes() const { return notesList; }
  /// Tokens the last propose() used (0 for the builtin advisor).
  int64_t promptTokens() const { return promptTokenCount; }
  int64_t completionTokens() const { return completionTokenCount; }

protected:
  ChoiceValidator validator;
  bool acceptUnverified = false;
  std::vector<AdvisorNote> notesList;
  int64_t promptTokenCount = 0, completionTokenCount = 0;
};

/// The BLIS-style analytical advisor: register block from the vector
/// register file and FMA latency, kc from L1, nc from L2, mc from L3.
std::unique_ptr<Advisor> createBuiltinAdvisor();

/// The directory LLM-written emitter scripts are installed in (they are
/// named llm_<id> and always run sandboxed).
std::string llmEmitterDir();

/// Makes an advisor from the text after its name and a colon ("" when the
/// spec is the bare name; "DIR" for "replay:DIR").
using AdvisorFactory = std::function<llvm::Expected<std::unique_ptr<Advisor>>(
    llvm::StringRef argument)>;

/// Adds the advisor `name` to createAdvisor. Advisors that bring heavy
/// dependencies live in their own libraries and register here, so the core
/// does not link them: TensorOp::LLM's registerLLMAdvisors() adds "llm" and
/// "replay" (mlir::tensorop::registerAllPasses() in InitAllTensorOp.h calls it
/// when TensorOp::LLM is linked).
void registerAdvisor(llvm::StringRef name, AdvisorFactory factory);

/// "builtin" and the registered advisors' names, sorted.
std::vector<std::string> availableAdvisors();

/// Creates the advisor named by `spec`: "builtin", or a registered advisor
/// ("llm", configured by TENSOROP_LLM_URL / _MODEL / _API_KEY; "replay:DIR",
/// answers recorded by an llm run with TENSOROP_LLM_RECORD_DIR=DIR). The
/// error says when a known advisor's library was not linked.
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
