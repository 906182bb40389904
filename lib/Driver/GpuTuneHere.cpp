//===- GpuTuneHere.cpp - tensorop tune on several GPUs of this machine ----===//
//
// The tune loop measures one candidate at a time; several GPUs here are kept
// busy the way a GPU machine elsewhere is: the loop queues --batch-size
// candidates per operator in a batch directory (a scratch one), run.sh runs
// them here, one runner per GPU with a free GPU taking the next, and the
// loop reads the results and queues the next batch, until the budget is
// spent and the confirmation batch (on one GPU) has run. The price: the tree
// grows by a batch at a time instead of one candidate.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/TuneBackend.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

extern char **environ;

using namespace llvm;
using namespace tensorop;

namespace {
/// Runs DIR/run.sh here with the runner and GPUs of this command; its
/// progress lines go to stderr.
int runBatchHere(StringRef dir, const TuneOptions &o, std::string &error) {
  SmallString<256> script(dir);
  sys::path::append(script, "run.sh");
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    StringRef var(*e);
    if (!var.starts_with("TENSOROP_GPU_RUNNER=") &&
        !var.starts_with("TENSOROP_GPUS="))
      env.push_back(var.str());
  }
  env.push_back("TENSOROP_GPU_RUNNER=" + o.runner);
  env.push_back("TENSOROP_GPUS=" + o.gpus);
  std::vector<StringRef> envRefs(env.begin(), env.end());
  ErrorOr<std::string> sh = sys::findProgramByName("sh");
  if (!sh) {
    error = "no sh on PATH to run " + script.str().str();
    return -1;
  }
  // run.sh's progress goes to stderr: stdout carries the summary (--json).
  // (A redirect to /dev/stderr would truncate a stderr that is a file.)
  StringRef args[] = {"sh", "-c", "sh \"$0\" 1>&2", script};
  return sys::ExecuteAndWait(*sh, args, envRefs, {}, 0, 0, &error);
}
} // namespace

int tensorop::tuneOnSeveralGpus(const TuneOptions &options) {
  TuneOptions o = options;
  SmallString<128> dir;
  if (std::error_code ec =
          sys::fs::createUniqueDirectory("tensorop-gpu-tune-batch", dir)) {
    errs() << "tensorop tune: cannot create a batch directory: " << ec.message()
           << "\n";
    return 2;
  }
  o.batchDir = dir.str().str();
  o.quietSummary = true;
  o.batchRunsHere = true;
  SmallString<256> manifest(dir);
  sys::path::append(manifest, "batch.json");
  // Each round measures at least one candidate or the confirmation; the
  // bound only guards against a loop that stops making progress.
  unsigned maxRounds = o.budget + 4;
  for (unsigned round = 1;; ++round) {
    int rc = runTuneLoop(o, *createNvidiaTuneBackend());
    if (rc != 0) {
      sys::fs::remove_directories(dir);
      return rc;
    }
    if (!sys::fs::exists(manifest))
      break; // nothing queued: searched and confirmed
    if (round > maxRounds) {
      errs() << "tensorop tune: still queuing after " << maxRounds
             << " rounds; stopped (the batch is kept in " << dir << ")\n";
      return 1;
    }
    errs() << "tensorop tune: round " << round << ": running the batch on GPUs "
           << o.gpus << " here\n";
    std::string error;
    int shRc = runBatchHere(dir, o, error);
    if (shRc != 0) {
      errs() << "tensorop tune: " << dir << "/run.sh failed ("
             << (error.empty() ? "exit " + std::to_string(shRc) : error)
             << "); the batch is kept there\n";
      return 1;
    }
  }
  // The summary, from the database: nothing is left to queue.
  o.quietSummary = options.quietSummary;
  int rc = runTuneLoop(o, *createNvidiaTuneBackend());
  sys::fs::remove_directories(dir);
  return rc;
}
