//===- WorkerDriver.cpp - tensorop worker: run one candidate, isolated ----===//
//
// The tuner's measurement process. It loads one candidate's object file,
// verifies it (NaN-filled output, fp64 reference, small-integer exact test),
// times it, verifies again, and prints one JSON object. C sits between
// canary cells and right before a PROT_NONE page, so a kernel that writes out
// of bounds is caught. A crash or hang kills only this process; the tuner
// records it and goes on.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/WorkerDriver.h"
#include "tensorop/Driver/KernelSandbox.h"
#include "tensorop/Verify/CpuConv.h"
#include "tensorop/Verify/CpuGemm.h"

#include "tensorop/Runtime/ObjectFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/prctl.h>
#include <csignal>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace llvm;

namespace {
int emit(json::Object o) {
  outs() << json::Value(std::move(o)) << "\n";
  outs().flush();
  return 0;
}

/// A convolution candidate: the checks of `tensorop gen` and `bench --conv`
/// (guarded NaN-filled output, fp64 reference, small-integer exact test,
/// again after timing), one JSON line as for a GEMM.
int measureConv(tensorop::ConvFn fn, const tensorop::WorkerOptions &o) {
  using namespace tensorop;
  const Conv2DShape &s = *o.conv;
  if (std::string tooBig = checkConvBufferBudget(s); !tooBig.empty())
    return emit(json::Object{{"status", "crash"}, {"error", tooBig}});
  // The fp64 reference's dgemm and oneDNN on the sketch's threads.
  setBaselineThreads(int(std::max(1u, o.threads)));
  ConvComparison c = compareConvWithOneDNN(
      fn, s, o.seed, /*time=*/true, o.rounds, o.roundSeconds, /*peak=*/0,
      /*second=*/nullptr, o.settleSeconds, /*withOneDNN=*/o.convBaseline);
  if (!c.error.empty())
    return emit(json::Object{{"status", "crash"}, {"error", c.error}});
  if (!c.guardsIntact)
    return emit(
        json::Object{{"status", "out_of_bounds"},
                     {"error", "the kernel wrote before or after the output"}});
  if (c.exactMismatches > 0)
    return emit(json::Object{
        {"status", "wrong_answer"},
        {"exact_mismatches", c.exactMismatches},
        {"error", formatv("{0} of {1} elements wrong with small-integer "
                          "inputs",
                          c.exactMismatches, s.outputElements())
                      .str()}});
  if (!c.before.ok())
    return emit(json::Object{
        {"status", "wrong_answer"},
        {"error_ratio", c.before.maxRatio},
        {"error", formatv("{0} elements over the bound (max error/bound "
                          "{1:E2})",
                          c.before.failures(), c.before.maxRatio)
                      .str()}});
  if (!c.after.ok())
    return emit(json::Object{{"status", "wrong_answer"},
                             {"error_ratio", c.after.maxRatio},
                             {"error", "wrong after timing"}});
  const double flops = s.flops();
  json::Object out{
      {"status", "ok"},
      {"error_ratio", std::max(c.before.maxRatio, c.after.maxRatio)},
      {"median_seconds", flops / (c.oursMedian * 1e9)},
      {"min_seconds", flops / (c.oursBest * 1e9)},
      {"gflops", c.oursMedian}};
  if (c.haveOneDNN) {
    if (!c.onednn.ok())
      return emit(json::Object{{"status", "crash"},
                               {"error", "oneDNN's result is over the bound"}});
    out["onednn_gflops"] = c.onednnMedian;
    out["onednn_implementation"] = c.onednnImplementation;
  }
  return emit(std::move(out));
}
} // namespace

std::string tensorop::convShapeArgument(const Conv2DShape &s) {
  return formatv("{0},{1},{2},{3},{4},{5},{6},{7},{8},{9},{10},{11},{12},"
                 "{13},{14}",
                 s.n, s.h, s.w, s.c, s.f, s.r, s.s, s.strideH, s.strideW,
                 s.dilationH, s.dilationW, s.padTop, s.padBottom, s.padLeft,
                 s.padRight)
      .str();
}

std::optional<tensorop::Conv2DShape>
tensorop::parseConvShapeArgument(const std::string &text) {
  SmallVector<StringRef> parts;
  StringRef(text).split(parts, ',');
  if (parts.size() != 15)
    return std::nullopt;
  int64_t v[15];
  for (size_t i = 0; i < 15; ++i)
    if (parts[i].trim().getAsInteger(10, v[i]) || v[i] < 0)
      return std::nullopt;
  Conv2DShape s;
  s.n = v[0], s.h = v[1], s.w = v[2], s.c = v[3], s.f = v[4], s.r = v[5],
  s.s = v[6], s.strideH = v[7], s.strideW = v[8], s.dilationH = v[9],
  s.dilationW = v[10], s.padTop = v[11], s.padBottom = v[12], s.padLeft = v[13],
  s.padRight = v[14];
  if (s.n < 1 || s.c < 1 || s.f < 1 || s.r < 1 || s.s < 1 || s.strideH < 1 ||
      s.strideW < 1 || s.dilationH < 1 || s.dilationW < 1 || s.outH() < 1 ||
      s.outW() < 1)
    return std::nullopt;
  return s;
}

int tensorop::measureCandidate(const WorkerOptions &options) {
  const std::string &object = options.object, &symbol = options.symbol;
  const int64_t wm = options.m, wn = options.n, wk = options.k;
  const unsigned wseed = options.seed;
  const int wrounds = options.rounds;
  const double wroundSeconds = options.roundSeconds;
  // A worker never outlives its tuner (a killed tuner must not leave a
  // hanging candidate behind).
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1 && !options.sandboxed)
    return 3;
  // No timed rounds left the samples empty, and their median read past them
  // (a segfault, recorded as the candidate's crash).
  if (wrounds < 1) {
    llvm::errs() << "tensorop worker: --rounds must be at least 1 (got "
                 << wrounds << ")\n";
    return 2;
  }
  Expected<mlir::tensorop::LoadedObject> loaded =
      mlir::tensorop::loadObjectFile(object, symbol);
  if (!loaded)
    return emit(json::Object{{"status", "compile_error"},
                 {"error", "cannot load the object: " +
                               toString(loaded.takeError())}});
  if (options.conv)
    return measureConv(reinterpret_cast<ConvFn>(loaded->symbol), options);
  auto fn = reinterpret_cast<GemmFn>(loaded->symbol);
  int64_t m = wm, n = wn, k = wk;
  if (options.compare) {
    setBaselineThreads(std::max(1u, options.threads));
    GemmComparison c = compareWithOpenBLAS(
        fn, m, n, k, wseed, options.time, wrounds, wroundSeconds,
        options.peak, /*second=*/nullptr, options.settleSeconds);
    return emit(comparisonToJSON(c));
  }
  if (std::string tooBig = checkGemmBufferBudget(m, n, k); !tooBig.empty())
    return emit(json::Object{{"status", "crash"}, {"error", tooBig}});
  AlignedBuffer a(m * k), b(k * n);
  GuardedBuffer c(m * n);
  if (!a.ok() || !b.ok() || !c.ok())
    return emit(json::Object{{"status", "crash"},
                 {"error", "cannot allocate the buffers"}});

  // Exact test with small integers.
  fillSmallIntegers(a.data, a.size, 7, wseed);
  fillSmallIntegers(b.data, b.size, 5, uint64_t(wseed) * 3);
  int64_t mismatches;
  {
    GemmReference exact = computeReference(a.data, b.data, m, n, k);
    if (!exact.ok())
      return emit(json::Object{{"status", "crash"},
                   {"error", "cannot allocate the fp64 reference"}});
    c.fillNaN();
    fn(a.data, b.data, c.data());
    if (!c.canariesIntact())
      return emit(json::Object{{"status", "out_of_bounds"},
                   {"error", "the kernel wrote before C"}});
    mismatches = countExactMismatches(c.data(), exact.values);
  }
  if (mismatches)
    return emit(json::Object{{"status", "wrong_answer"},
                 {"exact_mismatches", mismatches},
                 {"error", formatv("{0} of {1} elements wrong with "
                                   "small-integer inputs",
                                   mismatches, m * n)
                               .str()}});

  fillRandom(a.data, a.size, wseed);
  fillRandom(b.data, b.size, wseed + 1);
  GemmReference ref = computeReference(a.data, b.data, m, n, k);
  if (!ref.ok())
    return emit(json::Object{{"status", "crash"},
                 {"error", "cannot allocate the fp64 reference"}});
  c.fillNaN();
  fn(a.data, b.data, c.data());
  Check before = checkResult(c.data(), ref);
  if (!c.canariesIntact())
    return emit(json::Object{{"status", "out_of_bounds"},
                 {"error", "the kernel wrote before C"}});
  if (!before.ok())
    return emit(json::Object{{"status", "wrong_answer"},
                 {"error_ratio", before.maxRatio},
                 {"error", formatv("{0} elements over the bound (max "
                                   "error/bound {1:E2})",
                                   before.failures(), before.maxRatio)
                               .str()}});
  c.fillNaN();
  TimingSamples t = timeAlternating([&] { fn(a.data, b.data, c.data()); },
                                    [] {}, wrounds, wroundSeconds);
  Check after = checkResult(c.data(), ref);
  if (!c.canariesIntact())
    return emit(json::Object{{"status", "out_of_bounds"},
                 {"error", "the kernel wrote before C while timed"}});
  if (!after.ok())
    return emit(json::Object{{"status", "wrong_answer"},
                 {"error_ratio", after.maxRatio},
                 {"error", "wrong after timing"}});
  double med = median(t.a), best = minimum(t.a);
  return emit(json::Object{{"status", "ok"},
               {"error_ratio", std::max(before.maxRatio, after.maxRatio)},
               {"median_seconds", med},
               {"min_seconds", best},
               {"gflops", 2.0 * m * n * k / med / 1e9}});
}
