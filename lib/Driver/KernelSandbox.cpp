//===- KernelSandbox.cpp - Model-written kernels run only sandboxed -------===//
//
// The worker inside the sandbox is this very binary (`tensorop worker`),
// made visible read-only as /sandbox/tensorop next to a read-only copy of
// the candidate's object; its shared libraries (LLVM, MLIR, OpenBLAS,
// oneDNN, libomp) are under /usr, which the sandbox shows read-only.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/KernelSandbox.h"

#include "tensorop/Emitters/Sandbox.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace llvm;
using namespace tensorop;

bool tensorop::usesModelWrittenEmitter(StringRef sketch) {
  return sketch.contains("emitter = \"llm_");
}

unsigned tensorop::sandboxedKernelTimeout(int64_t m, int64_t n, int64_t k,
                                          bool timed) {
  if (const char *env = std::getenv("TENSOROP_KERNEL_TIMEOUT")) {
    unsigned seconds = 0;
    if (!StringRef(env).getAsInteger(10, seconds) && seconds > 0)
      return seconds;
  }
  // Seconds per GFLOP of one kernel run: the fp64 reference, a handful of
  // verification runs and, when timed, the rounds against OpenBLAS.
  double gflop = 2.0 * double(m) * double(n) * double(k) / 1e9;
  double seconds = 30 + gflop * (timed ? 20 : 5);
  return unsigned(std::min(seconds, 3600.0));
}

ChildOutcome tensorop::runWorkerSandboxed(StringRef object,
                                          ArrayRef<std::string> workerArgs,
                                          int64_t m, int64_t n, int64_t k,
                                          unsigned threads,
                                          unsigned timeoutSeconds) {
  ChildOutcome o;
  std::string self = sys::fs::getMainExecutable(nullptr, nullptr);
  std::vector<std::string> argv = {"/sandbox/tensorop", "worker"};
  argv.insert(argv.end(), workerArgs.begin(), workerArgs.end());
  argv.push_back("--object=/sandbox/kernel.o");
  argv.push_back("--sandboxed");
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  mlir::tensorop::SandboxOptions options;
  options.timeoutSeconds = timeoutSeconds;
  // The buffers, plus the address space the libraries reserve (LLVM and
  // MLIR mapped, thread stacks and malloc arenas of OpenBLAS and libomp).
  options.memoryBytes = gemmVerificationBytes(m, n, k) + (8ull << 30) +
                        uint64_t(cores) * (64ull << 20);
  options.maxProcesses = 2 * std::max(cores, threads) + 32;
  options.maxOutputBytes = 1ull << 20;
  Expected<mlir::tensorop::SandboxResult> r =
      mlir::tensorop::runSandboxedProgram(
          argv, {{"tensorop", self}, {"kernel.o", object.str()}}, "",
          options);
  if (!r) {
    o.failedToRun = true;
    o.message = toString(r.takeError());
    return o;
  }
  o.stdoutText = std::move(r->stdoutText);
  o.stderrText = std::move(r->stderrText);
  o.killed = r->timedOut || r->outputTruncated;
  if (r->timedOut)
    o.message = formatv("timed out after {0} s in the sandbox",
                        timeoutSeconds);
  else if (r->outputTruncated)
    o.message = "killed in the sandbox: printed more than 1 MiB";
  // bwrap exits with 128 + N when the worker died of signal N.
  if (r->exitCode > 128 && r->exitCode < 128 + 65) {
    o.rc = -2;
    if (o.message.empty())
      o.message = std::string(strsignal(r->exitCode - 128)) +
                  " in the sandboxed worker";
  } else {
    o.rc = r->exitCode;
  }
  return o;
}

namespace {
json::Object checkToJSON(const Check &c) {
  return json::Object{{"max_ratio", std::isfinite(c.maxRatio)
                                        ? json::Value(c.maxRatio)
                                        : json::Value(nullptr)},
                      {"over_bound", c.overBound},
                      {"nans", c.nans}};
}
Check checkFromJSON(const json::Object *o) {
  Check c;
  if (!o) {
    c.nans = 1; // Missing: never a pass.
    c.maxRatio = HUGE_VAL;
    return c;
  }
  // An infinite ratio is sent as null.
  c.maxRatio = o->getNumber("max_ratio").value_or(HUGE_VAL);
  c.overBound = o->getInteger("over_bound").value_or(1);
  c.nans = o->getInteger("nans").value_or(1);
  return c;
}
} // namespace

json::Object tensorop::comparisonToJSON(const GemmComparison &c) {
  return json::Object{{"error", c.error},
                      {"before", checkToJSON(c.before)},
                      {"after", checkToJSON(c.after)},
                      {"blas", checkToJSON(c.blas)},
                      {"exact_mismatches", c.exactMismatches},
                      {"timed", c.timed},
                      {"ours_median", c.oursMedian},
                      {"ours_best", c.oursBest},
                      {"blas_median", c.blasMedian},
                      {"blas_best", c.blasBest},
                      {"have_onednn", c.haveOneDNN},
                      {"onednn", checkToJSON(c.onednn)},
                      {"onednn_median", c.onednnMedian},
                      {"onednn_best", c.onednnBest},
                      {"faster_than_peak", c.fasterThanPeak}};
}

GemmComparison tensorop::comparisonFromJSON(const json::Object &o) {
  GemmComparison c;
  c.error = o.getString("error").value_or("").str();
  c.before = checkFromJSON(o.getObject("before"));
  c.after = checkFromJSON(o.getObject("after"));
  c.blas = checkFromJSON(o.getObject("blas"));
  c.exactMismatches = o.getInteger("exact_mismatches").value_or(-1);
  c.timed = o.getBoolean("timed").value_or(false);
  c.oursMedian = o.getNumber("ours_median").value_or(0);
  c.oursBest = o.getNumber("ours_best").value_or(0);
  c.blasMedian = o.getNumber("blas_median").value_or(0);
  c.blasBest = o.getNumber("blas_best").value_or(0);
  c.haveOneDNN = o.getBoolean("have_onednn").value_or(false);
  c.onednn = checkFromJSON(o.getObject("onednn"));
  c.onednnMedian = o.getNumber("onednn_median").value_or(0);
  c.onednnBest = o.getNumber("onednn_best").value_or(0);
  c.fasterThanPeak = o.getBoolean("faster_than_peak").value_or(false);
  return c;
}

GemmComparison tensorop::compareInSandbox(StringRef object, StringRef symbol,
                                          int64_t m, int64_t n, int64_t k,
                                          unsigned seed, bool time, int rounds,
                                          double roundSeconds, double peak,
                                          unsigned threads,
                                          double settleSeconds) {
  unsigned timeout = sandboxedKernelTimeout(m, n, k, time);
  ChildOutcome o = runWorkerSandboxed(
      object,
      {"--compare", "--symbol=" + symbol.str(), "--m=" + std::to_string(m),
       "--n=" + std::to_string(n), "--k=" + std::to_string(k),
       "--seed=" + std::to_string(seed), "--time=" + std::to_string(time),
       "--rounds=" + std::to_string(rounds),
       formatv("--round-seconds={0}", roundSeconds).str(),
       // Not formatv's default two decimals: a peak given below 0.005
       // GFLOP/s would reach the worker as 0 (no check).
       "--peak=" + std::to_string(peak),
       "--threads=" + std::to_string(threads),
       formatv("--settle-seconds={0}", settleSeconds).str()},
      m, n, k, threads, timeout);
  GemmComparison c;
  StringRef text = StringRef(o.stdoutText).trim();
  if (o.rc == 0 && !text.empty()) {
    Expected<json::Value> v = json::parse(text);
    if (v && v->getAsObject())
      return comparisonFromJSON(*v->getAsObject());
    consumeError(v.takeError());
  }
  std::string detail = StringRef(o.stderrText).trim().take_back(400).str();
  if (o.failedToRun)
    c.error = "cannot run the kernel sandboxed: " + o.message;
  else if (o.killed)
    c.error = "the kernel was killed in the sandboxed worker: " + o.message;
  else if (o.rc < 0)
    c.error = "the kernel crashed the sandboxed worker: " + o.message;
  else
    c.error = "the sandboxed worker failed (exit " + std::to_string(o.rc) +
              ")" + (detail.empty() ? "" : ": " + detail);
  return c;
}
