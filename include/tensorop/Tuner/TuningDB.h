//===- TuningDB.h - The crash-safe tuning database -------------*- C++ -*-===//
//
// One SQLite file in WAL mode, one row per candidate (failures included).
// A row is written with status "started" before its candidate runs and
// updated when it ends, so a candidate that killed the tuner is found on the
// next open and marked "suspect"; rerunning resumes without re-measuring
// anything that finished. A tuner's final confirmation (the builtin and the
// best candidates timed again, interleaved) is recorded per row; the compiler
// prefers confirmed rows (best()).
//
// Several tuners may share one database. A "started" row is held by a lease:
// the row names its owner (host, pid, a random token) and a time the lease
// runs until. Only a row whose lease ran out, or whose owner process on this
// host is gone, is marked suspect; a live tuner's in-flight row is waited
// for, never counted as a failure. claim() takes a candidate atomically, so
// two tuners never insert the same one.
//
// Every row carries an integrity hash over its config and results, and the
// config's hash is recomputed on read when a ConfigHasher is set: a row that
// fails either check is reported (warnings()) and ignored by best(). This
// catches corruption and hand edits, not an attacker who can rewrite the
// file and recompute the (public) hashes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TUNER_TUNINGDB_H
#define TENSOROP_TUNER_TUNINGDB_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
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
  /// GFLOP/s of the row in a tuner's confirmation (timed again interleaved
  /// with the builtin sketch); set by best(), none if never confirmed.
  std::optional<double> confirmedGflops;
  /// The tuner holding a started row ("host:pid:token"), and until when
  /// (seconds since the epoch).
  std::string owner;
  std::optional<int64_t> leaseUntil;
  /// Non-empty when the row failed its integrity check: why.
  std::string integrityProblem;
};

/// Recomputes the config hash of a row's config text; nullopt when the
/// text is not a sketch the hasher understands.
using ConfigHasher =
    std::function<std::optional<std::string>(llvm::StringRef config)>;

/// What claim() found for a candidate.
struct Claim {
  enum Kind {
    /// The row is ours (inserted, or a tampered row reset): run it.
    Claimed,
    /// The row holds a result (or is pending for a batch): use it.
    Known,
    /// Another live tuner is running it: waitFor() it.
    InFlight,
  };
  Kind kind = Claimed;
  int64_t id = 0;
  CandidateRecord record; ///< Known / InFlight: the row as found.
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
  /// Takes the candidate `record` names (op, target, config hash) in one
  /// transaction: inserts it with `initialStatus` ("started" or "pending")
  /// and this tuner's lease, or reports the row already there (a row whose
  /// lease ran out becomes suspect and is Known).
  llvm::Expected<Claim> claim(const CandidateRecord &record,
                              llvm::StringRef initialStatus = status::kStarted);
  /// Waits until another tuner's in-flight row ends (or its lease runs out:
  /// then it is marked suspect); returns the row as it ended.
  llvm::Expected<CandidateRecord> waitFor(int64_t id);
  /// Extends this tuner's lease on a started row.
  llvm::Error renew(int64_t id);
  /// Inserts the row with status "started" (committed before returning);
  /// an error if the candidate has a row already (use claim()).
  llvm::Expected<int64_t> markStarted(const CandidateRecord &record);
  /// Inserts the row with status "pending" (exported to a batch).
  llvm::Expected<int64_t> markPending(const CandidateRecord &record);
  /// Records how a started or pending candidate ended (committed before
  /// returning); a non-empty provenance replaces the stored one.
  llvm::Error finish(int64_t id, const CandidateRecord &result);
  /// Deletes one row: a candidate that was never measured because the
  /// measuring machine itself failed (not the candidate's doing).
  llvm::Error forget(int64_t id);
  /// Records the speed a confirmation measured for a verified row (a later
  /// confirmation replaces it).
  llvm::Error confirm(int64_t id, double gflops);
  /// The row the compiler uses for an op on a target, among verified rows
  /// that pass their integrity checks (rows that fail are skipped and
  /// reported): the fastest confirmed row (by its confirmed speed) if any
  /// was confirmed, else the fastest one. Confirmed figures come from
  /// interleaved re-runs, so one lucky early sample does not beat them.
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
  /// This handle's owner id ("host:pid:token"), written into its leases.
  const std::string &ownerId() const { return owner; }
  /// The largest row id when the database was opened: rows above it were
  /// added during this run (by this tuner or a concurrent one).
  int64_t maxIdAtOpen() const { return idAtOpen; }
  /// Rows read so far that failed their integrity checks, one line each
  /// (each row reported once).
  const std::vector<std::string> &warnings() const { return warningList; }
  /// Recompute config hashes on read with `hasher` (rows whose config does
  /// not hash to their config_hash are then reported and ignored).
  void setConfigHasher(ConfigHasher hasher) { configHasher = std::move(hasher); }
  /// Seconds a lease lasts (default 900; $TENSOROP_DB_LEASE_SECONDS).
  int64_t leaseSeconds() const { return leaseLength; }
  bool isReadOnly() const { return readOnlyHandle; }

private:
  TuningDB() = default;
  llvm::Error exec(llvm::StringRef sql);
  llvm::Expected<int64_t> insert(const CandidateRecord &record,
                                 llvm::StringRef initialStatus);
  llvm::Error migrateFromVersion1();
  llvm::Error rehash(int64_t id);
  llvm::Expected<int64_t> expireLeases(std::optional<int64_t> onlyId);
  /// Checks a row against its stored integrity hash and its config hash;
  /// sets integrityProblem and records a warning on failure.
  void check(CandidateRecord &record, llvm::StringRef storedHash);
  sqlite3 *db = nullptr;
  std::string filePath;
  std::string owner;
  int64_t suspectOnOpen = 0;
  /// Databases written before confirmations were recorded lack the table
  /// (it is added when one is opened for writing).
  bool hasConfirmations = false;
  int64_t idAtOpen = 0;
  int64_t leaseLength = 900;
  int schemaVersion = 0;
  bool readOnlyHandle = false;
  ConfigHasher configHasher;
  std::vector<std::string> warningList;
  std::vector<int64_t> reportedIds;
};

/// The integrity hash of a row: SHA-256 over its identity, config and
/// results (not its id, owner or lease).
std::string rowIntegrityHash(const CandidateRecord &record);

/// Current UTC time as ISO 8601.
std::string utcNow();

} // namespace mlir::tensorop

#endif
