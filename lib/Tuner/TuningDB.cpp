//===- TuningDB.cpp - The crash-safe tuning database ----------------------===//

#include "tensorop/Tuner/TuningDB.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <sqlite3.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <random>
#include <thread>
#include <unistd.h>

using namespace mlir::tensorop;
using llvm::Expected;
using llvm::StringRef;

namespace {
/// Version 2 added the lease (owner, lease_until) and the integrity hash
/// (row_hash); version-1 files are migrated when opened for writing.
constexpr int kSchemaVersion = 2;
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

/// One row per confirmed candidate: the speed a tuner's confirmation (the
/// builtin and the best timed again, interleaved) measured. An extra table of
/// schema version 2: tools that do not know it ignore it, and it is created
/// when a database is opened for writing.
constexpr const char *kConfirmationsTable =
    "CREATE TABLE IF NOT EXISTS confirmations("
    " candidate_id INTEGER PRIMARY KEY REFERENCES candidates(id)"
    " ON DELETE CASCADE,"
    " gflops REAL NOT NULL, confirmed_at TEXT NOT NULL);";

constexpr const char *kColumnsV1 =
    "id, op_signature, target_fingerprint, config, config_hash, "
    "emitter_hash, tool_version, status, median_seconds, min_seconds, "
    "gflops, error_ratio, provenance, error, started_at, finished_at";
constexpr const char *kColumns =
    "id, op_signature, target_fingerprint, config, config_hash, "
    "emitter_hash, tool_version, status, median_seconds, min_seconds, "
    "gflops, error_ratio, provenance, error, started_at, finished_at, "
    "owner, lease_until, row_hash";

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
  if (sqlite3_column_count(s.stmt) > 16) {
    r.owner = s.text(16);
    if (sqlite3_column_type(s.stmt, 17) != SQLITE_NULL)
      r.leaseUntil = s.integer(17);
  }
  return r;
}

/// The stored row hash (column 18), "" for version-1 rows.
std::string storedRowHash(Statement &s) {
  return sqlite3_column_count(s.stmt) > 18 ? s.text(18) : "";
}

int64_t nowSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string hostName() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof(buf) - 1) != 0)
    return "unknown-host";
  return buf;
}

/// "host:pid:token": the token tells apart two handles of one process.
std::string newOwnerId() {
  std::random_device rd;
  uint64_t token = (uint64_t(rd()) << 32) ^ rd();
  return llvm::formatv("{0}:{1}:{2:x16}", hostName(), getpid(), token).str();
}

/// True when `owner` names a process on this host that no longer exists:
/// its lease is void whatever its time says (a tuner killed with kill -9).
bool ownerIsGone(llvm::StringRef owner) {
  llvm::SmallVector<llvm::StringRef, 3> parts;
  owner.split(parts, ':');
  if (parts.size() != 3 || parts[0] != hostName())
    return false;
  long long pid;
  if (parts[1].getAsInteger(10, pid) || pid <= 0)
    return true;
  return ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

std::string formatReal(const std::optional<double> &v) {
  return v ? llvm::formatv("{0:e17}", *v).str() : "null";
}
} // namespace

std::string mlir::tensorop::rowIntegrityHash(const CandidateRecord &r) {
  // Length-prefixed fields: no value can shift into its neighbour.
  std::string text;
  auto add = [&](llvm::StringRef field) {
    text += std::to_string(field.size());
    text += ':';
    text += field;
    text += ';';
  };
  add(r.opSignature);
  add(r.targetFingerprint);
  add(r.config);
  add(r.configHash);
  add(r.emitterHash);
  add(r.toolVersion);
  add(r.status);
  add(formatReal(r.medianSeconds));
  add(formatReal(r.minSeconds));
  add(formatReal(r.gflops));
  add(formatReal(r.errorRatio));
  add(r.provenance);
  add(r.error);
  add(r.startedAt);
  add(r.finishedAt);
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true);
}

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

namespace {
/// SQLite needs to create the -shm/-wal files next to a WAL database even to
/// read it; in a directory it cannot write (a read-only mount, a shared
/// results folder) it can only read the file as immutable.
bool directoryWritable(StringRef path) {
  llvm::SmallString<256> dir(path);
  llvm::sys::path::remove_filename(dir);
  if (dir.empty())
    dir = ".";
  return ::access(dir.c_str(), W_OK) == 0;
}

/// An SQLite URI for `path` (percent-encoding what URIs reserve).
std::string immutableUri(StringRef path) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#')
      uri += llvm::formatv("%{0:X2}", unsigned(uint8_t(c))).str();
    else
      uri += c;
  }
  return uri + "?mode=ro&immutable=1";
}
} // namespace

llvm::Expected<std::unique_ptr<TuningDB>> TuningDB::open(StringRef path,
                                                         bool readOnly) {
  std::unique_ptr<TuningDB> t(new TuningDB());
  t->filePath = path.str();
  t->owner = newOwnerId();
  t->readOnlyHandle = readOnly;
  if (const char *lease = std::getenv("TENSOROP_DB_LEASE_SECONDS")) {
    long long v;
    if (StringRef(lease).getAsInteger(10, v) || v < 1 || v > 86400 * 7)
      return llvm::createStringError(
          "TENSOROP_DB_LEASE_SECONDS must be a whole number of seconds in "
          "1..604800, got '" +
          StringRef(lease) + "'");
    t->leaseLength = v;
  }
  bool existed = llvm::sys::fs::exists(path);
  if (readOnly && !existed)
    return llvm::createStringError("tuning database " + path +
                                   " does not exist");
  // SQLite would fall back to reading silently and fail at the first write.
  if (!readOnly && !directoryWritable(path))
    return llvm::createStringError(
        "cannot open tuning database " + path +
        " for writing: its directory is not writable; commands that only "
        "read the database open it read-only");
  int rc;
  if (readOnly && !directoryWritable(path)) {
    rc = sqlite3_open_v2(immutableUri(path).c_str(), &t->db,
                         SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  } else {
    int flags = readOnly ? SQLITE_OPEN_READONLY
                         : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    rc = sqlite3_open_v2(t->filePath.c_str(), &t->db, flags, nullptr);
  }
  if (rc != SQLITE_OK)
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
    std::string found =
        version.ok() && version.step() == SQLITE_ROW ? version.text(0) : "";
    if (found == "1")
      t->schemaVersion = 1;
    else if (found == std::to_string(kSchemaVersion))
      t->schemaVersion = kSchemaVersion;
    else
      return notOurs("schema version " + found + ", expected 1 or " +
                     std::to_string(kSchemaVersion));
  } else if (readOnly) {
    return notOurs("it is empty");
  }
  {
    Statement maxId(t->db, hasTables ? "SELECT COALESCE(MAX(id), 0) FROM "
                                       "candidates"
                                     : "SELECT 0");
    if (maxId.ok() && maxId.step() == SQLITE_ROW)
      t->idAtOpen = maxId.integer(0);
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
        " owner TEXT, lease_until INTEGER, row_hash TEXT,"
        " UNIQUE(op_signature, target_fingerprint, config_hash));"
        "CREATE INDEX candidates_by_op ON candidates(op_signature,"
        " target_fingerprint, status);"
        "COMMIT;";
    if (llvm::Error e = t->exec(schema))
      return std::move(e);
    t->schemaVersion = kSchemaVersion;
  } else if (t->schemaVersion == 1) {
    if (llvm::Error e = t->migrateFromVersion1())
      return std::move(e);
  }
  if (!t->hasConfirmations) {
    if (llvm::Error e = t->exec(kConfirmationsTable))
      return std::move(e);
    t->hasConfirmations = true;
  }
  // A row still "started" whose lease ran out, or whose owner died here,
  // belongs to a run that died with its candidate.
  Expected<int64_t> expired = t->expireLeases(std::nullopt);
  if (!expired)
    return expired.takeError();
  t->suspectOnOpen = *expired;
  return std::move(t);
}

llvm::Error TuningDB::migrateFromVersion1() {
  if (llvm::Error e = exec("BEGIN IMMEDIATE"))
    return e;
  auto rollback = [&](llvm::Error e) {
    llvm::consumeError(exec("ROLLBACK"));
    return e;
  };
  // Another tuner may have migrated it while we waited for the lock.
  {
    Statement version(db, "SELECT value FROM meta WHERE key='schema_version'");
    if (version.ok() && version.step() == SQLITE_ROW && version.text(0) != "1") {
      schemaVersion = kSchemaVersion;
      return exec("COMMIT");
    }
  }
  if (llvm::Error e = exec(
          "ALTER TABLE candidates ADD COLUMN owner TEXT;"
          "ALTER TABLE candidates ADD COLUMN lease_until INTEGER;"
          "ALTER TABLE candidates ADD COLUMN row_hash TEXT;"
          "UPDATE meta SET value='" +
          std::to_string(kSchemaVersion) + "' WHERE key='schema_version';"))
    return rollback(std::move(e));
  // Version-1 rows had no integrity hash: they are taken as they are.
  std::vector<int64_t> ids;
  {
    Statement s(db, "SELECT id FROM candidates");
    while (s.step() == SQLITE_ROW)
      ids.push_back(s.integer(0));
  }
  for (int64_t id : ids)
    if (llvm::Error e = rehash(id))
      return rollback(std::move(e));
  schemaVersion = kSchemaVersion;
  return exec("COMMIT");
}

llvm::Error TuningDB::rehash(int64_t id) {
  Statement read(db, std::string("SELECT ") + kColumns +
                         " FROM candidates WHERE id=?1");
  if (!read.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  read.bindInt(1, id);
  if (read.step() != SQLITE_ROW)
    return llvm::createStringError(filePath + ": row " + std::to_string(id) +
                                   " vanished");
  std::string hash = rowIntegrityHash(readRow(read));
  Statement write(db, "UPDATE candidates SET row_hash=?1 WHERE id=?2");
  write.bind(1, hash);
  write.bindInt(2, id);
  if (write.step() != SQLITE_DONE)
    return llvm::createStringError(filePath + ": cannot record a row hash: " +
                                   sqlite3_errmsg(db));
  return llvm::Error::success();
}

llvm::Expected<int64_t>
TuningDB::expireLeases(std::optional<int64_t> onlyId) {
  std::string sql = "SELECT id, owner, lease_until FROM candidates WHERE "
                    "status='started'";
  if (onlyId)
    sql += " AND id=" + std::to_string(*onlyId);
  std::vector<int64_t> expired;
  {
    Statement s(db, sql);
    if (!s.ok())
      return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
    int64_t now = nowSeconds();
    while (s.step() == SQLITE_ROW) {
      bool noLease = sqlite3_column_type(s.stmt, 2) == SQLITE_NULL;
      if (noLease || s.integer(2) < now || ownerIsGone(s.text(1)))
        expired.push_back(s.integer(0));
    }
  }
  for (int64_t id : expired) {
    Statement s(db, "UPDATE candidates SET status='suspect', error='the "
                    "tuner stopped while this candidate ran', "
                    "lease_until=NULL WHERE id=?1 AND status='started'");
    s.bindInt(1, id);
    if (s.step() != SQLITE_DONE)
      return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
    if (llvm::Error e = rehash(id))
      return std::move(e);
  }
  return int64_t(expired.size());
}

void TuningDB::check(CandidateRecord &r, StringRef stored) {
  r.integrityProblem.clear();
  if (schemaVersion >= 2) {
    if (stored.empty())
      r.integrityProblem = "it has no integrity hash";
    else if (stored != rowIntegrityHash(r))
      r.integrityProblem = "its integrity hash does not match its contents";
  }
  if (r.integrityProblem.empty() && configHasher) {
    std::optional<std::string> hash = configHasher(r.config);
    if (!hash)
      r.integrityProblem = "its config is not a sketch this tool reads";
    else if (*hash != r.configHash)
      r.integrityProblem = "its config hashes to " + *hash + ", not to its "
                           "config_hash";
  }
  if (r.integrityProblem.empty() ||
      llvm::is_contained(reportedIds, r.id))
    return;
  reportedIds.push_back(r.id);
  warningList.push_back(llvm::formatv("{0}: row {1} (config_hash {2}) is "
                                      "ignored: {3}",
                                      filePath, r.id, r.configHash,
                                      r.integrityProblem)
                            .str());
}

llvm::Expected<std::optional<CandidateRecord>>
TuningDB::find(StringRef op, StringRef target, StringRef configHash) {
  Statement s(db, std::string("SELECT ") +
                      (schemaVersion >= 2 ? kColumns : kColumnsV1) +
                      " FROM candidates WHERE op_signature=?1 AND "
                      "target_fingerprint=?2 AND config_hash=?3");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bind(1, op);
  s.bind(2, target);
  s.bind(3, configHash);
  if (s.step() == SQLITE_ROW) {
    CandidateRecord r = readRow(s);
    check(r, storedRowHash(s));
    return std::optional<CandidateRecord>(std::move(r));
  }
  return std::optional<CandidateRecord>();
}

llvm::Expected<Claim> TuningDB::claim(const CandidateRecord &r,
                                      StringRef initialStatus) {
  if (llvm::Error e = exec("BEGIN IMMEDIATE"))
    return std::move(e);
  auto rollback = [&](llvm::Error e) -> llvm::Expected<Claim> {
    llvm::consumeError(exec("ROLLBACK"));
    return std::move(e);
  };
  auto commit = [&](Claim c) -> llvm::Expected<Claim> {
    if (llvm::Error e = exec("COMMIT"))
      return std::move(e);
    return c;
  };
  Expected<std::optional<CandidateRecord>> found =
      find(r.opSignature, r.targetFingerprint, r.configHash);
  if (!found)
    return rollback(found.takeError());
  Claim c;
  if (!*found) {
    Expected<int64_t> id = insert(r, initialStatus);
    if (!id)
      return rollback(id.takeError());
    c.id = *id;
    return commit(c);
  }
  c.id = (*found)->id;
  if (!(*found)->integrityProblem.empty()) {
    // A tampered row is measured again, under this tuner's lease.
    Statement s(db, "UPDATE candidates SET config=?1, emitter_hash=?2, "
                    "tool_version=?3, status=?4, provenance=?5, "
                    "started_at=?6, owner=?7, lease_until=?8, "
                    "median_seconds=NULL, min_seconds=NULL, gflops=NULL, "
                    "error_ratio=NULL, error=NULL, finished_at=NULL "
                    "WHERE id=?9");
    s.bind(1, r.config);
    s.bind(2, r.emitterHash);
    s.bind(3, r.toolVersion);
    s.bind(4, initialStatus);
    s.bind(5, r.provenance);
    s.bind(6, utcNow());
    s.bind(7, owner);
    s.bindInt(8, nowSeconds() + leaseLength);
    s.bindInt(9, c.id);
    if (s.step() != SQLITE_DONE)
      return rollback(llvm::createStringError(
          filePath + ": cannot reset a row: " + sqlite3_errmsg(db)));
    if (llvm::Error e = rehash(c.id))
      return rollback(std::move(e));
    return commit(c);
  }
  if ((*found)->status == status::kStarted) {
    Expected<int64_t> expired = expireLeases(c.id);
    if (!expired)
      return rollback(expired.takeError());
    if (*expired == 0) {
      c.kind = Claim::InFlight;
      c.record = **found;
      return commit(c);
    }
    Expected<std::optional<CandidateRecord>> again =
        find(r.opSignature, r.targetFingerprint, r.configHash);
    if (!again)
      return rollback(again.takeError());
    found = std::move(again);
  }
  c.kind = Claim::Known;
  c.record = **found;
  return commit(c);
}

llvm::Expected<CandidateRecord> TuningDB::waitFor(int64_t id) {
  for (;;) {
    {
      Statement s(db, std::string("SELECT ") + kColumns +
                          " FROM candidates WHERE id=?1");
      if (!s.ok())
        return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
      s.bindInt(1, id);
      if (s.step() != SQLITE_ROW)
        return llvm::createStringError(filePath + ": row " +
                                       std::to_string(id) +
                                       " was deleted while another tuner ran "
                                       "it");
      CandidateRecord r = readRow(s);
      if (r.status != status::kStarted) {
        check(r, storedRowHash(s));
        return r;
      }
    }
    if (llvm::Error e = exec("BEGIN IMMEDIATE"))
      return std::move(e);
    Expected<int64_t> expired = expireLeases(id);
    if (!expired) {
      llvm::consumeError(exec("ROLLBACK"));
      return expired.takeError();
    }
    if (llvm::Error e = exec("COMMIT"))
      return std::move(e);
    if (*expired == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

llvm::Error TuningDB::renew(int64_t id) {
  Statement s(db, "UPDATE candidates SET lease_until=?1 WHERE id=?2 AND "
                  "owner=?3 AND status='started'");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bindInt(1, nowSeconds() + leaseLength);
  s.bindInt(2, id);
  s.bind(3, owner);
  if (s.step() != SQLITE_DONE)
    return llvm::createStringError(filePath + ": cannot renew a lease: " +
                                   sqlite3_errmsg(db));
  return llvm::Error::success();
}

llvm::Expected<int64_t> TuningDB::markStarted(const CandidateRecord &r) {
  return insert(r, status::kStarted);
}

llvm::Expected<int64_t> TuningDB::markPending(const CandidateRecord &r) {
  return insert(r, status::kPending);
}

llvm::Expected<int64_t> TuningDB::insert(const CandidateRecord &r,
                                         llvm::StringRef initialStatus) {
  CandidateRecord stored = r;
  stored.status = initialStatus.str();
  stored.startedAt = utcNow();
  stored.medianSeconds = stored.minSeconds = stored.gflops =
      stored.errorRatio = std::nullopt;
  stored.error.clear();
  stored.finishedAt.clear();
  Statement s(db, "INSERT INTO candidates(op_signature, target_fingerprint, "
                  "config, config_hash, emitter_hash, tool_version, status, "
                  "provenance, started_at, owner, lease_until, row_hash) "
                  "VALUES(?1,?2,?3,?4,?5,?6,?9,?7,?8,?10,?11,?12)");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bind(1, stored.opSignature);
  s.bind(2, stored.targetFingerprint);
  s.bind(3, stored.config);
  s.bind(4, stored.configHash);
  s.bind(5, stored.emitterHash);
  s.bind(6, stored.toolVersion);
  s.bind(7, stored.provenance);
  s.bind(8, stored.startedAt);
  s.bind(9, initialStatus);
  s.bind(10, owner);
  s.bindInt(11, nowSeconds() + leaseLength);
  s.bind(12, rowIntegrityHash(stored));
  if (s.step() != SQLITE_DONE)
    return llvm::createStringError(filePath + ": cannot record a candidate: " +
                                   sqlite3_errmsg(db));
  return sqlite3_last_insert_rowid(db);
}

llvm::Error TuningDB::finish(int64_t id, const CandidateRecord &r) {
  if (llvm::Error e = exec("BEGIN IMMEDIATE"))
    return e;
  auto rollback = [&](llvm::Error e) {
    llvm::consumeError(exec("ROLLBACK"));
    return e;
  };
  Statement s(db, "UPDATE candidates SET status=?1, median_seconds=?2, "
                  "min_seconds=?3, gflops=?4, error_ratio=?5, error=?6, "
                  "emitter_hash=?7, finished_at=?8, "
                  "provenance=COALESCE(NULLIF(?10,''), provenance), "
                  "lease_until=NULL WHERE id=?9");
  if (!s.ok())
    return rollback(
        llvm::createStringError(filePath + ": " + sqlite3_errmsg(db)));
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
    return rollback(llvm::createStringError(
        filePath + ": cannot record a result: " + sqlite3_errmsg(db)));
  if (llvm::Error e = rehash(id))
    return rollback(std::move(e));
  return exec("COMMIT");
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
  // Confirmed rows first, by their confirmed speed; then the others by their
  // median time. (Confirmations exist only in version-2 files: the table is
  // made by a writer, which migrates first.)
  bool confirmations = hasConfirmations && schemaVersion >= 2;
  std::string confirmed =
      "(SELECT f.gflops FROM confirmations f WHERE f.candidate_id = "
      "candidates.id)";
  Statement s(db, std::string("SELECT ") +
                      (schemaVersion >= 2 ? kColumns : kColumnsV1) +
                      (confirmations ? ", " + confirmed : std::string()) +
                      " FROM candidates WHERE op_signature=?1 AND "
                      "target_fingerprint=?2 AND status='ok' ORDER BY " +
                      (confirmations ? "(" + confirmed + " IS NULL), " +
                                           confirmed + " DESC, "
                                     : std::string()) +
                      "median_seconds ASC");
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  s.bind(1, op);
  s.bind(2, target);
  while (s.step() == SQLITE_ROW) {
    CandidateRecord r = readRow(s);
    if (confirmations)
      r.confirmedGflops = s.real(19);
    check(r, storedRowHash(s));
    if (r.integrityProblem.empty())
      return std::optional<CandidateRecord>(std::move(r));
  }
  return std::optional<CandidateRecord>();
}

llvm::Expected<std::vector<CandidateRecord>>
TuningDB::list(StringRef op) {
  std::string sql = std::string("SELECT ") +
                    (schemaVersion >= 2 ? kColumns : kColumnsV1) +
                    " FROM candidates" +
                    (op.empty() ? "" : " WHERE op_signature=?1") +
                    " ORDER BY id";
  Statement s(db, sql);
  if (!s.ok())
    return llvm::createStringError(filePath + ": " + sqlite3_errmsg(db));
  if (!op.empty())
    s.bind(1, op);
  std::vector<CandidateRecord> rows;
  int rc;
  while ((rc = s.step()) == SQLITE_ROW) {
    rows.push_back(readRow(s));
    check(rows.back(), storedRowHash(s));
  }
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
