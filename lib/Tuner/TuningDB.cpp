//===- TuningDB.cpp - The crash-safe tuning database ----------------------===//

#include "tensorop/Tuner/TuningDB.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <sqlite3.h>

#include <ctime>

using namespace mlir::tensorop;
using llvm::StringRef;

namespace {
constexpr int kSchemaVersion = 1;
constexpr StringRef kApplicationId = "tensorop-tuning-db";

/// A prepared statement that finalizes itself.
class Statement {
public:
  Statement(sqlite3 *db, StringRef sql) {
    rc = sqlite3_prepare_v2(db, sql.data(), int(sql.size()), &stmt, nullptr);
  }
  ~Statement() { sqlite3_finalize(stmt); }
  bool ok() const { return rc == SQLITE_OK; }
  void bind(int i, StringRef s) {
    sqlite3_bind_text(stmt, i, s.data(), int(s.size()), SQLITE_TRANSIENT);
  }
  void bind(int i, std::optional<double> v) {
    if (v)
      sqlite3_bind_double(stmt, i, *v);
    else
      sqlite3_bind_null(stmt, i);
  }
  void bindInt(int i, int64_t v) { sqlite3_bind_int64(stmt, i, v); }
  int step() { return sqlite3_step(stmt); }
  std::string text(int c) {
    const unsigned char *t = sqlite3_column_text(stmt, c);
    return t ? reinterpret_cast<const char *>(t) : "";
  }
  std::optional<double> real(int c) {
    if (sqlite3_column_type(stmt, c) == SQLITE_NULL)
      return std::nullopt;
    return sqlite3_column_double(stmt, c);
  }
  int64_t integer(int c) { return sqlite3_column_int64(stmt, c); }
  sqlite3_stmt *stmt = nullptr;
  int rc;
};

constexpr const char *kColumns =
    "c.id, c.op_signature, c.target_fingerprint, c.config, c.config_hash, "
    "c.emitter_hash, c.tool_version, c.status, c.median_seconds, "
    "c.min_seconds, c.gflops, c.error_ratio, c.provenance, c.error, "
    "c.started_at, c.finished_at";

/// One row per confirmed candidate. Added to schema version 1 without a new
/// version: older tools ignore the table, and this one creates it when it
/// opens a database for writing.
constexpr const char *kConfirmationsTable =
    "CREATE TABLE IF NOT EXISTS confirmations("
    " candidate_id INTEGER PRIMARY KEY REFERENCES candidates(id)"
    " ON DELETE CASCADE,"
    " gflops REAL NOT NULL, confirmed_at TEXT NOT NULL);";

CandidateRecord readRow(Statement &s) {
  CandidateRecord r;
  r.id = s.integer(0);
  r.opSignature = s.text(1);
  r.targetFingerprint = s.text(2);
  r.config = s.text(3);
  r.configHash = s.text(4);
  r.emitterHash = s.text(5);
  r.toolVersion = s.text(6);
  r.status = s.text(7);
  r.medianSeconds = s.real(8);
  r.minSeconds = s.real(9);
  r.gflops = s.real(10);
  r.errorRatio = s.real(11);
  r.provenance = s.text(12);
  r.error = s.text(13);
  r.startedAt = s.text(14);
  r.finishedAt = s.text(15);
  r.confirmedGflops = s.real(16);
  return r;
}
} // namespace

std::string mlir::tensorop::utcNow() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

TuningDB::~TuningDB() {
  if (db)
    sqlite3_close(db);
}

llvm::Error TuningDB::exec(StringRef sql) {
  char *message = nullptr;
  if (sqlite3_exec(db, sql.str().c_str(), nullptr, nullptr, &message) !=
      SQLITE_OK) {
    std::string text = message ? message : sqlite3_errmsg(db);
    sqlite3_free(message);
    return llvm::createStringError(filePath + ": " + text);
  }
  return llvm::Error::success();
}

llvm::Expected<std::unique_ptr<TuningDB>> TuningDB::open(StringRef path,
                                                         bool readOnly) {
  std::unique_ptr<TuningDB> t(new TuningDB());
  t->filePath = path.str();
  bool existed = llvm::sys::fs::exists(path);
  if (readOnly && !existed)
    return llvm::createStringError("tuning database " + path +
                                   " does not exist");
  int flags = readOnly ? SQLITE_OPEN_READONLY
                       : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (sqlite3_open_v2(t->filePath.c_str(), &t->db, flags, nullptr) !=
      SQLITE_OK)
    return llvm::createStringError("cannot open tuning database " + path +
                                   ": " + sqlite3_errmsg(t->db));
  sqlite3_busy_timeout(t->db, 10000);
  auto notOurs = [&](const llvm::Twine &why) {
    return llvm::createStringError(path + " is not a usable TensorOp tuning "
                                          "database: " +
                                   why);
  };
  // A non-SQLite or damaged file fails here with SQLite's own words.
  {
    Statement check(t->db, "PRAGMA quick_check");
    if (!check.ok())
      return notOurs(sqlite3_errmsg(t->db));
    int rc = check.step();
    if (rc != SQLITE_ROW)
      return notOurs(sqlite3_errmsg(t->db));
    if (check.text(0) != "ok")
      return notOurs("integrity check failed: " + check.text(0));
  }
  // Foreign databases: tables exist but no meta row of ours.
  bool hasTables = false, hasMeta = false;
  {
    Statement tables(t->db, "SELECT name FROM sqlite_master WHERE type='table'");
    while (tables.step() == SQLITE_ROW) {
      hasTables = true;
      hasMeta |= tables.text(0) == "meta";
      t->hasConfirmations |= tables.text(0) == "confirmations";
    }
  }
  if (hasTables) {
    if (!hasMeta)
      return notOurs("it holds other tables and no TensorOp 'meta' table");
    Statement meta(t->db, "SELECT value FROM meta WHERE key='application'");
    if (!meta.ok() || meta.step() != SQLITE_ROW ||
        meta.text(0) != kApplicationId)
      return notOurs("its meta table does not name " + kApplicationId);
    Statement version(t->db,
                      "SELECT value FROM meta WHERE key='schema_version'");
    if (!version.ok() || version.step() != SQLITE_ROW ||
        version.text(0) != std::to_string(kSchemaVersion))
      return notOurs("schema version " + version.text(0) + ", expected " +
                     std::to_string(kSchemaVersion));
  } else if (readOnly) {
    return notOurs("it is empty");
  }
  if (readOnly)
    return std::move(t);

  // foreign_keys: a pruned or forgotten row takes its confirmation along.
  if (llvm::Error e = t->exec("PRAGMA journal_mode=WAL; PRAGMA "
                              "synchronous=FULL; PRAGMA foreign_keys=ON;"))
    return std::move(e);
  if (!hasTables) {
    std::string schema =
        "BEGIN;"
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO meta VALUES('application', '" +
        kApplicationId.str() + "');"
        "INSERT INTO meta VALUES('schema_version', '" +
        std::to_string(kSchemaVersion) + "');"
        "CREATE TABLE candidates("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " op_signature TEXT NOT NULL, target_fingerprint TEXT NOT NULL,"
        " config TEXT NOT NULL, config_hash TEXT NOT NULL,"
        " emitter_hash TEXT, tool_version TEXT, status TEXT NOT NULL,"
        " median_seconds REAL, min_seconds REAL, gflops REAL,"
        " error_ratio REAL, provenance TEXT, error TEXT,"
        " started_at TEXT, finished_at TEXT,"
        " UNIQUE(op_signature, target_fingerprint, config_hash));"
        "CREATE INDEX candidates_by_op ON candidates(op_signature,"
        " target_fingerprint, status);"
        "COMMIT;";
    if (llvm::Error e = t->exec(schema))
      return std::move(e);
  }
  if (!t->hasConfirmations) {
    if (llvm::Error e = t->exec(kConfirmationsTable))
      return std::move(e);
    t->hasConfirmations = true;
  }
  // A row still "started" belongs to a run that died with its candidate.
  if (llvm::Error e = t->exec("UPDATE candidates SET status='suspect', "
                              "error='the tuner stopped while this "
                              "candidate ran' WHERE status='started'"))
    return std::move(e);
  t->suspectOnOpen = sqlite3_changes(t->db);
  return std::move(t);
}

llvm::Expected<std::optional<CandidateRecord>>
TuningDB::find(StringRef op, StringRef target, StringRef configHash) {
  Statement s(db, selectRows() +
                      " WHERE c.op_signature=?1 AND "
                      "c.target_fingerprint=?2 AND c.config_hash=?3");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bind(1, op);
  s.bind(2, target);
  s.bind(3, configHash);
  if (s.step() == SQLITE_ROW)
    return std::optional<CandidateRecord>(readRow(s));
  return std::optional<CandidateRecord>();
}

llvm::Expected<int64_t> TuningDB::markStarted(const CandidateRecord &r) {
  return insert(r, status::kStarted);
}

llvm::Expected<int64_t> TuningDB::markPending(const CandidateRecord &r) {
  return insert(r, status::kPending);
}

llvm::Expected<int64_t> TuningDB::insert(const CandidateRecord &r,
                                         llvm::StringRef initialStatus) {
  Statement s(db, "INSERT INTO candidates(op_signature, target_fingerprint, "
                  "config, config_hash, emitter_hash, tool_version, status, "
                  "provenance, started_at) VALUES(?1,?2,?3,?4,?5,?6,"
                  "?9,?7,?8)");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bind(1, r.opSignature);
  s.bind(2, r.targetFingerprint);
  s.bind(3, r.config);
  s.bind(4, r.configHash);
  s.bind(5, r.emitterHash);
  s.bind(6, r.toolVersion);
  s.bind(7, r.provenance);
  s.bind(8, utcNow());
  s.bind(9, initialStatus);
  if (s.step() != SQLITE_DONE)
    return llvm::createStringError(filePath + ": cannot record a candidate: " +
                                   sqlite3_errmsg(db));
  return sqlite3_last_insert_rowid(db);
}

llvm::Error TuningDB::finish(int64_t id, const CandidateRecord &r) {
  Statement s(db, "UPDATE candidates SET status=?1, median_seconds=?2, "
                  "min_seconds=?3, gflops=?4, error_ratio=?5, error=?6, "
                  "emitter_hash=?7, finished_at=?8, "
                  "provenance=COALESCE(NULLIF(?10,''), provenance) "
                  "WHERE id=?9");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bind(1, r.status);
  s.bind(2, r.medianSeconds);
  s.bind(3, r.minSeconds);
  s.bind(4, r.gflops);
  s.bind(5, r.errorRatio);
  s.bind(6, r.error);
  s.bind(7, r.emitterHash);
  s.bind(8, utcNow());
  s.bindInt(9, id);
  s.bind(10, r.provenance);
  if (s.step() != SQLITE_DONE)
    return llvm::createStringError(filePath + ": cannot record a result: " +
                                   sqlite3_errmsg(db));
  return llvm::Error::success();
}

llvm::Error TuningDB::forget(int64_t id) {
  Statement s(db, "DELETE FROM candidates WHERE id=?1");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bindInt(1, id);
  if (s.step() != SQLITE_DONE)
    return llvm::createStringError(filePath + ": cannot delete a row: " +
                                   sqlite3_errmsg(db));
  return llvm::Error::success();
}

std::string TuningDB::selectRows() const {
  return std::string("SELECT ") + kColumns +
         (hasConfirmations ? ", f.gflops FROM candidates c LEFT JOIN "
                             "confirmations f ON f.candidate_id = c.id"
                           : ", NULL FROM candidates c");
}

llvm::Error TuningDB::confirm(int64_t id, double gflops) {
  Statement s(db, "INSERT OR REPLACE INTO confirmations(candidate_id, "
                  "gflops, confirmed_at) SELECT id, ?2, ?3 FROM candidates "
                  "WHERE id=?1 AND status='ok'");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bindInt(1, id);
  s.bind(2, std::optional<double>(gflops));
  s.bind(3, utcNow());
  if (s.step() != SQLITE_DONE)
    return llvm::createStringError(filePath +
                                   ": cannot record a confirmation: " +
                                   sqlite3_errmsg(db));
  if (sqlite3_changes(db) != 1)
    return llvm::createStringError(filePath + ": row " + llvm::Twine(id) +
                                   " is not a verified candidate");
  return llvm::Error::success();
}

llvm::Expected<std::optional<CandidateRecord>>
TuningDB::best(StringRef op, StringRef target) {
  // Confirmed rows first (fastest confirmed speed), then the rest by their
  // median time.
  Statement s(db, selectRows() +
                      " WHERE c.op_signature=?1 AND c.target_fingerprint=?2 "
                      "AND c.status='ok' ORDER BY " +
                      (hasConfirmations
                           ? "(f.gflops IS NULL), f.gflops DESC, "
                           : "") +
                      "c.median_seconds ASC LIMIT 1");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bind(1, op);
  s.bind(2, target);
  if (s.step() == SQLITE_ROW)
    return std::optional<CandidateRecord>(readRow(s));
  return std::optional<CandidateRecord>();
}

llvm::Expected<std::vector<CandidateRecord>>
TuningDB::list(StringRef op) {
  std::string sql = selectRows() +
                    (op.empty() ? "" : " WHERE c.op_signature=?1") +
                    " ORDER BY c.id";
  Statement s(db, sql);
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  if (!op.empty())
    s.bind(1, op);
  std::vector<CandidateRecord> rows;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW)
    rows.push_back(readRow(s));
  if (rc != SQLITE_DONE)
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  return rows;
}

llvm::Expected<int64_t> TuningDB::prune(int keepBest) {
  if (llvm::Error e = exec("BEGIN"))
    return std::move(e);
  int64_t deleted = 0;
  if (llvm::Error e = exec("DELETE FROM candidates WHERE status NOT IN "
                           "('ok', 'started')"))
    return std::move(e);
  deleted += sqlite3_changes(db);
  if (keepBest > 0) {
    std::string sql =
        "DELETE FROM candidates WHERE status='ok' AND id NOT IN (SELECT id "
        "FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY op_signature, "
        "target_fingerprint ORDER BY median_seconds) AS rank FROM "
        "candidates WHERE status='ok') WHERE rank <= " +
        std::to_string(keepBest) + ")";
    if (llvm::Error e = exec(sql))
      return std::move(e);
    deleted += sqlite3_changes(db);
  }
  if (llvm::Error e = exec("COMMIT"))
    return std::move(e);
  return deleted;
}
