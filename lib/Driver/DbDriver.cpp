//===- DbDriver.cpp - tensorop db: inspect a tuning database --------------===//
//
//   tensorop db list|show|export|prune --db=PATH [--json]
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/DbDriver.h"
#include "tensorop/Driver/CompilerContext.h"

#include "tensorop/GPU/GpuSearchSpace.h"
#include "tensorop/Tuner/SearchSpace.h"
#include "tensorop/Tuner/TuningDB.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace mlir::tensorop;

namespace {
json::Value toJson(const CandidateRecord &r) {
  auto opt = [](std::optional<double> v) {
    return v ? json::Value(*v) : json::Value(nullptr);
  };
  return json::Object{{"id", r.id},
                      {"op_signature", r.opSignature},
                      {"target_fingerprint", r.targetFingerprint},
                      {"config", r.config},
                      {"config_hash", r.configHash},
                      {"emitter_hash", r.emitterHash},
                      {"tool_version", r.toolVersion},
                      {"status", r.status},
                      {"median_seconds", opt(r.medianSeconds)},
                      {"min_seconds", opt(r.minSeconds)},
                      {"gflops", opt(r.gflops)},
                      {"error_ratio", opt(r.errorRatio)},
                      {"provenance", r.provenance},
                      {"error", r.error},
                      {"started_at", r.startedAt},
                      {"finished_at", r.finishedAt},
                      {"owner", r.owner},
                      {"integrity",
                       r.integrityProblem.empty() ? "ok"
                                                  : r.integrityProblem}};
}
} // namespace

int tensorop::inspectTuningDb(const DbOptions &options) {
  const std::vector<std::string> &dbArgs = options.args;
  const std::string &dbFile = options.dbPath;
  auto fail = [](const Twine &msg) {
    errs() << "tensorop db: " << msg << "\n";
    return 2;
  };
  if (dbArgs.empty())
    return fail("no action given (expected list, show, export or prune)");
  StringRef verb = dbArgs.front();
  bool writes = verb == "prune";
  if (verb != "list" && verb != "show" && verb != "export" && !writes)
    return fail("unknown action '" + verb +
                "' (expected list, show, export or prune)");
  // Nothing given is ignored: "db list extra" listed everything, and
  // "--keep-best=-1" pruned as if it were 0.
  if (verb != "show" && dbArgs.size() > 1)
    return fail("'" + verb + "' takes no argument (got '" + dbArgs[1] +
                "')");
  if (options.keepBest < 0)
    return fail("--keep-best must be 0 (keep all) or positive (got " +
                Twine(options.keepBest) + ")");
  if (options.keepBest > 0 && !writes)
    return fail("--keep-best applies to 'prune' only");
  if (!options.opFilter.empty() && writes)
    return fail("--op applies to 'list', 'show' and 'export' (prune works on "
                "every op)");
  Expected<std::unique_ptr<TuningDB>> db =
      TuningDB::open(dbFile, /*readOnly=*/!writes);
  if (!db)
    return fail(toString(db.takeError()));
  // Config hashes are recomputed from the sketch text, CPU or GPU.
  std::unique_ptr<mlir::MLIRContext> ctx = makeCompilerContext();
  (*db)->setConfigHasher([&ctx](StringRef config) {
    return config.starts_with("#tensorop.gpu_sketch")
               ? gpuConfigHashOfText(ctx.get(), config)
               : configHashOfText(ctx.get(), config);
  });
  if (writes) {
    Expected<int64_t> n = (*db)->prune(options.keepBest);
    if (!n)
      return fail(toString(n.takeError()));
    outs() << "pruned " << *n << " row(s) from " << dbFile << "\n";
    return 0;
  }
  Expected<std::vector<CandidateRecord>> rows = (*db)->list(options.opFilter);
  if (!rows)
    return fail(toString(rows.takeError()));
  for (const std::string &w : (*db)->warnings())
    errs() << "tensorop db: warning: " << w << "\n";
  if (verb == "show") {
    if (dbArgs.size() != 2)
      return fail("show needs one id or config hash");
    for (const CandidateRecord &r : *rows)
      if (std::to_string(r.id) == dbArgs[1] || r.configHash == dbArgs[1]) {
        outs() << formatv("{0:2}\n", toJson(r));
        return 0;
      }
    return fail("no row with id or config hash '" + dbArgs[1] + "'");
  }
  if (verb == "export" || options.json) {
    json::Array all;
    for (const CandidateRecord &r : *rows)
      all.push_back(toJson(r));
    outs() << formatv("{0:2}\n", json::Value(std::move(all)));
    return 0;
  }
  outs() << formatv("{0,5} {1,-14} {2,-17} {3,10} {4,-36} {5}\n", "id",
                    "status", "config_hash", "GFLOP/s", "op", "error");
  for (const CandidateRecord &r : *rows)
    outs() << formatv("{0,5} {1,-14} {2,-17} {3,10} {4,-36} {5}\n", r.id,
                      r.integrityProblem.empty() ? r.status : "TAMPERED",
                      r.configHash,
                      r.gflops ? formatv("{0:F1}", *r.gflops).str() : "-",
                      r.opSignature,
                      StringRef(r.integrityProblem.empty() ? r.error
                                                           : r.integrityProblem)
                          .split('\n')
                          .first.take_front(60));
  return 0;
}
