//===- DbCommand.cpp - tensorop db: the command line ----------------------===//
//
// Only the options; the database inspection is lib/Driver/DbDriver.cpp.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tensorop/Driver/DbDriver.h"

#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace {
cl::SubCommand dbCmd("db", "Inspect a tuning database: list | show ID | "
                           "export | prune");
cl::list<std::string> dbArgs(cl::Positional, cl::sub(dbCmd), cl::OneOrMore,
                             cl::desc("list | show <id|config_hash> | export "
                                      "| prune"));
cl::opt<std::string> dbFile("db", cl::sub(dbCmd), cl::Required,
                            cl::desc("Tuning database"));
cl::opt<bool> asJson("json", cl::sub(dbCmd), cl::init(false),
                     cl::desc("JSON output"));
cl::opt<std::string> opFilter("op", cl::sub(dbCmd), cl::init(""),
                              cl::desc("Only rows of this op signature"));
cl::opt<int> keepBest("keep-best", cl::sub(dbCmd), cl::init(0),
                      cl::desc("prune: also keep only the best N verified "
                               "rows per op and target (0: keep all)"));
} // namespace

bool tensorop::dbSubcommand() { return bool(dbCmd); }

int tensorop::runDb() {
  DbOptions o;
  o.args.assign(dbArgs.begin(), dbArgs.end());
  o.dbPath = dbFile;
  o.json = asJson;
  o.opFilter = opFilter;
  o.keepBest = keepBest;
  return inspectTuningDb(o);
}
