//===- TuneBackend.h - What a target family adds to the tune loop -*- C++ -*-===//
//
// `tensorop tune` is one search loop (lib/Driver/TuneLoop.cpp) over
// Operator x Backend: the loop owns the Monte Carlo tree search, the tuning
// database (claim, lease, waiting for other tuners, resuming), the model's
// proposals, the confirmation's bookkeeping and the summary (result line,
// JSON, report). A target family supplies the hooks below:
//
//   TuneBackend   per run: the target, the module's operators it tunes, where
//                 candidates are measured (CPU: `tensorop worker` processes;
//                 NVIDIA: tensorop-gpu-runner here, or the --gpu-batch
//                 directory run on the GPU machine), compile + measure of one
//                 candidate, the confirmation runs.
//   OpTuneSearch  per operator: the sketch space, the builtin sketch, a
//                 candidate's text and hash, the model's proposal, the reward.
//
// Speeds cross this interface in GFLOP/s, as the database stores them; the
// backend's display unit (GFLOP/s or TFLOP/s) is only for what is printed.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_TUNEBACKEND_H
#define TENSOROP_DRIVER_TUNEBACKEND_H

#include "tensorop/Driver/Operator.h"
#include "tensorop/Driver/TuneDriver.h"
#include "tensorop/Driver/TuneModel.h"
#include "tensorop/Tuner/SearchSpace.h"
#include "tensorop/Tuner/TuningDB.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class Operation;
} // namespace mlir

namespace tensorop {

/// A sketch the search offers for one operator: its text as the database
/// stores it and its hash (the row's identity).
struct TuneCandidate {
  std::string config, hash;
};

/// What the model proposed: the candidate (nullopt: the backend's legality
/// check refused it) and its point in the tree's space (nullopt: outside).
struct TuneProposal {
  std::optional<TuneCandidate> candidate;
  std::optional<std::vector<int64_t>> point;
};

/// One sketch timed again by the confirmation.
struct ConfirmedSpeed {
  std::string config;
  bool builtin = false;
  double gflops = 0;          ///< median of its rounds (0: none ran)
  double referenceGflops = 0; ///< a library's median in the same runs
  int64_t rounds = 0;
};

/// One operator's search on one backend.
class OpTuneSearch {
public:
  virtual ~OpTuneSearch();

  /// What is tuned, as the backend matched it in the module.
  Operator op;
  /// Its identity in the tuning database.
  std::string signature;
  /// The builtin advisor's sketch, and its point in space() if it has one.
  TuneCandidate builtin;
  std::optional<std::vector<int64_t>> builtinPoint;

  /// The space the tree searches (before --knobs restricts it).
  virtual const mlir::tensorop::SearchSpace &space() const = 0;
  /// The heading of --print-knobs for this operator.
  virtual std::string knobsTitle() const = 0;
  /// The candidate at a complete point; nullopt when the backend's legality
  /// check prunes it (not a candidate).
  virtual std::optional<TuneCandidate>
  candidateAt(llvm::ArrayRef<int64_t> point) = 0;
  /// The point of a stored sketch (nullopt: not in the space).
  virtual std::optional<std::vector<int64_t>>
  pointOf(llvm::StringRef config) = 0;
  /// Asks the model for one sketch from `history` (this operator's finished
  /// rows on this target); nullopt when the request or the answer failed
  /// (reported on stderr).
  virtual std::optional<TuneProposal>
  askModel(const TuneModel &model,
           std::vector<mlir::tensorop::CandidateRecord> history) = 0;
  /// The tree's reward in [0, 1] of a verified speed.
  virtual double reward(double gflops) const = 0;
  /// The hash of the emitter sources that build this operator's kernels.
  virtual std::string emitterHash() const = 0;
  /// Adds the size of the space to the JSON summary.
  virtual void describeSpace(llvm::json::Object &summary) const = 0;
};

/// One target family's part of a tune run.
class TuneBackend {
public:
  virtual ~TuneBackend();

  /// The unit speeds are printed in, and GFLOP/s per unit.
  virtual llvm::StringRef unit() const = 0;
  virtual double gflopsPerUnit() const = 0;
  /// A context with every dialect the family's sketches and pipeline use.
  virtual mlir::MLIRContext &context() = 0;
  /// Checks the options and resolves the target; the error is the user's.
  virtual llvm::Error setUp(const TuneOptions &options) = 0;
  /// The target as rows and reports name it, and the fingerprint the rows
  /// are keyed by.
  virtual std::string target() const = 0;
  virtual std::string fingerprint() const = 0;
  /// The operators of `module` this family tunes, one per signature; the
  /// skipped ones get a remark saying why. An error when none is left.
  virtual llvm::Expected<std::vector<std::unique_ptr<OpTuneSearch>>>
  match(mlir::ModuleOp module, llvm::StringRef input) = 0;
  /// The config hash of a stored sketch (TuningDB::setConfigHasher).
  virtual std::optional<std::string>
  hashOfStoredConfig(llvm::StringRef config) = 0;
  /// Before the search: checks where candidates are measured and reads the
  /// results that came back from there (a --gpu-batch directory).
  virtual llvm::Error startMeasuring(mlir::tensorop::TuningDB &db) = 0;
  /// hints/prompts/<file> of the model's system prompt.
  virtual llvm::StringRef promptFile() const = 0;
  /// Where candidates are measured, for the report ("measured on ...").
  virtual std::string measuredWhere() const = 0;

  /// Candidates queue in a batch that runs elsewhere: they are claimed as
  /// pending, and the tree is rebuilt from the database before it grows
  /// (each call resumes the last). Otherwise the tree replays earlier rows
  /// through TuningDB::claim.
  virtual bool queuesCandidates() const = 0;
  /// Whether an operator's batch is full with `queued` candidates.
  virtual bool batchFull(unsigned queued) const = 0;
  /// A note for the provenance of the builtin sketch's row ("" = none).
  virtual std::string builtinNote() const = 0;
  /// Compiles and measures candidate `c` of `op` (database row `id`,
  /// written as `start`): the record for TuningDB::finish, or nullopt when
  /// it was queued. An error stops the run (the machine cannot measure).
  virtual llvm::Expected<std::optional<mlir::tensorop::CandidateRecord>>
  measure(OpTuneSearch &op, unsigned opIndex, const TuneCandidate &c,
          const mlir::tensorop::CandidateRecord &start, int64_t id) = 0;
  /// Times `configs` (the builtin first; empty when nothing verified) again,
  /// interleaved: their speeds, or nullopt when the confirmation has not run
  /// yet (it was queued, or waits for the search to finish).
  /// `searchFinished`: no candidate is left to measure for this operator.
  virtual std::optional<std::vector<ConfirmedSpeed>>
  confirm(OpTuneSearch &op, unsigned opIndex,
          llvm::ArrayRef<std::string> configs, bool searchFinished) = 0;
  /// What the confirmation measures (for the report).
  virtual std::string confirmationMethod() const = 0;
  /// The library the confirmation compares with ("" = none), e.g. "cuBLAS".
  virtual llvm::StringRef referenceName() const = 0;
  /// After every operator: writes what is queued (a batch); removes the
  /// scratch files.
  virtual llvm::Error finish() = 0;
};

std::unique_ptr<TuneBackend> createCpuTuneBackend();
std::unique_ptr<TuneBackend> createNvidiaTuneBackend();

/// Why a backend's match skips `op` when it is a batch matmul
/// (linalg.batch_matmul, batch_reduce_matmul), which both pipelines run
/// as linalg.matmuls on its slices: what to tune instead. "" for any other
/// op. Said as a remark at the op (GPU tune skipped these without a word).
std::string batchMatmulNotTuned(mlir::Operation *op);

/// The search loop of `tensorop tune`; returns the exit status.
int runTuneLoop(const TuneOptions &options, TuneBackend &backend);

/// `tensorop tune` for an NVIDIA target on several GPUs of this machine
/// (options.gpus): batches run here between rounds of the loop.
int tuneOnSeveralGpus(const TuneOptions &options);

} // namespace tensorop

#endif // TENSOROP_DRIVER_TUNEBACKEND_H
