//===- TuningDB.h - The crash-safe tuning database -------------*- C++ -*-===//
//
// One SQLite file in WAL mode, one row per candidate (failures included).
// A row is written with status "started" before its candidate runs and
// updated when it ends, so a candidate that killed the tuner is found on the
// next open and marked "suspect"; rerunning resumes without re-measuring
// anything that finished.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TUNER_TUNINGDB_H
#define TENSOROP_TUNER_TUNINGDB_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace mlir::tensorop {

/// Statuses a candidate row can have.
namespace status {
constexpr llvm::StringLiteral kStarted = "started";
constexpr llvm::StringLiteral kOk = "ok";
constexpr llvm::StringLiteral kSuspect = "suspect";
/// Compiled and written to a batch for another machine (the GPU machine);
/// waiting for its results. Not marked suspect on open.
constexpr llvm::StringLiteral kPending = "pending";
constexpr llvm::StringLiteral kCompileError = "compile_error";
constexpr llvm::StringLiteral kCrash = "crash";
constexpr llvm::StringLiteral kTimeout = "timeout";
constexpr llvm::StringLiteral kWrongAnswer = "wrong_answer";
constexpr llvm::StringLiteral kOutOfBounds = "out_of_bounds";
} // namespace status

struct CandidateRecord {
  int64_t id = 0;
  std::string opSignature, targetFingerprint;
  std::string config;     ///< The sketch attribute text.
  std::string configHash; ///< Hash of the knobs (not of provenance).
  std::string emitterHash, toolVersion;
  std::string status;
  std::optional<double> medianSeconds, minSeconds, gflops, errorRatio;
  std::string provenance, error;
  std::string startedAt, finishedAt;
};

class TuningDB {
public:
  ~TuningDB();
  /// Opens (creating if absent) the database at `path`. A file that is not
  /// a TensorOp tuning database, or is corrupt, is an error that says so;
  /// rows left "started" by a killed run are marked "suspect".
  static llvm::Expected<std::unique_ptr<TuningDB>> open(llvm::StringRef path,
                                                        bool readOnly = false);

  /// The row for this candidate, if any.
  llvm::Expected<std::optional<CandidateRecord>>
  find(llvm::StringRef opSignature, llvm::StringRef targetFingerprint,
       llvm::StringRef configHash);
  /// Inserts the row with status "started" (committed before returning).
  llvm::Expected<int64_t> markStarted(const CandidateRecord &record);
  /// Inserts the row with status "pending" (exported to a batch).
  llvm::Expected<int64_t> markPending(const CandidateRecord &record);
  /// Records how a started or pending candidate ended (committed before
  /// returning); a non-empty provenance replaces the stored one.
  llvm::Error finish(int64_t id, const CandidateRecord &result);
  /// Deletes one row: a candidate that was never measured because the
  /// measuring machine itself failed (not the candidate's doing).
  llvm::Error forget(int64_t id);
  /// The fastest verified row for an op on a target.
  llvm::Expected<std::optional<CandidateRecord>>
  best(llvm::StringRef opSignature, llvm::StringRef targetFingerprint);
  /// Every row, in insertion order (optionally of one op).
  llvm::Expected<std::vector<CandidateRecord>>
  list(llvm::StringRef opSignature = "");
  /// Deletes failed and suspect rows (and, if `keepBest` > 0, all but the
  /// best `keepBest` ok rows per op and target); returns rows deleted.
  llvm::Expected<int64_t> prune(int keepBest);
  /// How many rows `open` marked suspect.
  int64_t suspectMarkedOnOpen() const { return suspectOnOpen; }
  const std::string &path() const { return filePath; }

private:
  TuningDB() = default;
  llvm::Error exec(llvm::StringRef sql);
  llvm::Expected<int64_t> insert(const CandidateRecord &record,
                                 llvm::StringRef initialStatus);
  sqlite3 *db = nullptr;
  std::string filePath;
  int64_t suspectOnOpen = 0;
};

/// Current UTC time as ISO 8601.
std::string utcNow();

/// Makes the pipeline's db= option read this database
/// (registerSketchDatabaseOpener in tensorop/Advisor/SketchDatabase.h).
void registerTuningDatabaseProvider();

} // namespace mlir::tensorop

#endif
