//===- BenchDriver.cpp - tensorop bench: ours against OpenBLAS ------------===//
//
// For each shape: JIT-compile the pipeline's GEMM, verify it against an fp64
// reference (NaN-filled output first), time it and OpenBLAS sgemm alternately
// in this one process, verify again on the buffers the timed runs wrote, and
// reject any time faster than the measured FMA peak allows (shared/MEASURE.md).
//
// With --threads=N (N > 1), our kernels get N threads, OpenBLAS and oneDNN
// too, and our single-threaded kernel runs in the same rounds, so one run
// gives threads=N, threads=1 and both libraries side by side.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/BenchDriver.h"
#include "BenchReport.h"
#include "tensorop/Driver/Backend.h"
#include "tensorop/Driver/BenchShapes.h"
#include "tensorop/Driver/CompilerContext.h"
#include "tensorop/Driver/Operator.h"
#include "tensorop/Driver/SketchText.h"
#include "tensorop/Verify/CpuGemm.h"
#include "tensorop/Verify/Timing.h"

#include "tensorop/Runtime/JitGemm.h"
#include "tensorop/Runtime/OpenMPRuntime.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Transforms/Passes.h"
#include "tensorop/Tuner/TuningDB.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <map>
#include <optional>

using namespace llvm;

namespace {
struct Shape {
  int64_t m, n, k;
  /// The fp32 GEMM bench times at this shape.
  tensorop::Operator matmul() const {
    return tensorop::Operator::matmul(m, n, k, "f32", "f32");
  }
};

bool parseShape(StringRef s, Shape &out) {
  SmallVector<StringRef> parts;
  s.split(parts, 'x');
  SmallVector<int64_t> v;
  for (StringRef p : parts) {
    int64_t x;
    if (p.getAsInteger(10, x) || x <= 0)
      return false;
    v.push_back(x);
  }
  if (v.size() == 1)
    out = {v[0], v[0], v[0]};
  else if (v.size() == 3)
    out = {v[0], v[1], v[2]};
  else
    return false;
  return true;
}

} // namespace

using namespace tensorop;

namespace {
/// Candidates of one op in the database and the wall time they took.
std::pair<int64_t, double> tuningEffort(StringRef dbPath, StringRef signature) {
  Expected<std::unique_ptr<mlir::tensorop::TuningDB>> db =
      mlir::tensorop::TuningDB::open(dbPath, /*readOnly=*/true);
  if (!db) {
    consumeError(db.takeError());
    return {0, 0};
  }
  Expected<std::vector<mlir::tensorop::CandidateRecord>> rows =
      (*db)->list(signature);
  if (!rows) {
    consumeError(rows.takeError());
    return {0, 0};
  }
  auto parse = [](const std::string &t) -> std::time_t {
    std::tm tm = {};
    if (!strptime(t.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm))
      return 0;
    return timegm(&tm);
  };
  std::time_t first = 0, last = 0;
  for (const auto &r : *rows) {
    std::time_t s = parse(r.startedAt), e = parse(r.finishedAt);
    if (s && (!first || s < first))
      first = s;
    if (e > last)
      last = e;
  }
  return {int64_t(rows->size()), first && last ? double(last - first) : 0};
}

/// builtin vs tuned vs OpenBLAS for one shape, round robin in one run.
int compareTuned(const BenchOptions &options, mlir::MLIRContext &ctx,
                 const Shape &s, StringRef target, double peak,
                 json::Array &results, std::string &table) {
  const std::string &advisor = options.advisor, &tunedDb = options.tunedDb;
  const unsigned seed = options.seed;
  const int rounds = options.rounds;
  const double roundSeconds = options.roundSeconds;
  std::string label = formatv("{0}x{1}x{2}", s.m, s.n, s.k).str();
  std::string opts = ("target=" + target + " advisor=" + advisor).str();
  std::string source =
      s.matmul().moduleSource("gemm", tensorop::Placement::Host);
  auto builtin = mlir::tensorop::compileGemm(ctx, source, "gemm", opts);
  auto tuned = mlir::tensorop::compileGemm(ctx, source, "gemm",
                                           opts + " db=" + tunedDb);
  if (!builtin || !tuned) {
    errs() << label << ": "
           << (builtin ? toString(tuned.takeError())
                       : toString(builtin.takeError()))
           << "\n";
    return 1;
  }
  if (!StringRef(tuned->sketch).contains("source = \"db:")) {
    errs() << label << ": no verified record in " << tunedDb
           << " for this shape on this machine; skipped\n";
    return 1;
  }
  GemmComparison vb = compareWithOpenBLAS(builtin->fn, s.m, s.n, s.k, seed,
                                          false, rounds, roundSeconds, peak);
  GemmComparison vt = compareWithOpenBLAS(tuned->fn, s.m, s.n, s.k, seed,
                                          false, rounds, roundSeconds, peak);
  if (!vb.error.empty() || !vt.error.empty()) {
    errs() << label << ": " << (vb.error.empty() ? vt.error : vb.error)
           << "\n";
    return 1;
  }
  if (!vb.verified() || !vt.verified()) {
    errs() << label << ": verification FAILED (builtin "
           << vb.before.maxRatio << ", tuned " << vt.before.maxRatio
           << "); not timed\n";
    return 1;
  }
  AlignedBuffer a(s.m * s.k), b(s.k * s.n), c1(s.m * s.n), c2(s.m * s.n),
      c3(s.m * s.n);
  if (!a.ok() || !b.ok() || !c1.ok() || !c2.ok() || !c3.ok()) {
    errs() << label << ": cannot allocate the timing buffers\n";
    return 1;
  }
  fillRandom(a.data, a.size, seed);
  fillRandom(b.data, b.size, seed + 1);
  auto samples = timeRoundRobin(
      {[&] { builtin->fn(a.data, b.data, c1.data); },
       [&] { tuned->fn(a.data, b.data, c2.data); },
       [&] { blasSgemm(a.data, b.data, c3.data, s.m, s.n, s.k); }},
      rounds, roundSeconds);
  GemmReference ref = computeReference(a.data, b.data, s.m, s.n, s.k);
  if (!ref.ok()) {
    errs() << label << ": cannot allocate the fp64 reference\n";
    return 1;
  }
  Check after1 = checkResult(c1.data, ref), after2 = checkResult(c2.data, ref);
  double flops = s.matmul().flops();
  double gb = flops / median(samples[0]) / 1e9;
  double gt = flops / median(samples[1]) / 1e9;
  double go = flops / median(samples[2]) / 1e9;
  auto [candidates, seconds] = tuningEffort(
      tunedDb, formatv("gemm f32 m={0} n={1} k={2} ta=0 tb=0", s.m, s.n, s.k)
                   .str());
  outs() << formatv("{0,-16} builtin {1,7:F1}  tuned {2,7:F1}  OpenBLAS "
                    "{3,7:F1}  tuned/builtin {4:F3}  tuned/OpenBLAS {5:F3}  "
                    "({6} candidates, {7:F0} s)\n",
                    label, gb, gt, go, gt / gb, gt / go, candidates, seconds);
  table += formatv("| {0} | {1:F1} | {2:F1} | {3:F1} | {4:F2}x | {5:F2}x | "
                   "{6} | {7:F0} s |\n",
                   label, gb, gt, go, gt / gb, gt / go, candidates, seconds)
               .str();
  results.push_back(json::Object{{"m", s.m},
                                 {"n", s.n},
                                 {"k", s.k},
                                 {"builtin_gflops_median", gb},
                                 {"tuned_gflops_median", gt},
                                 {"openblas_gflops_median", go},
                                 {"tuning_candidates", candidates},
                                 {"tuning_seconds", seconds},
                                 {"builtin_sketch", builtin->sketch},
                                 {"tuned_sketch", tuned->sketch},
                                 {"verified_after_timing",
                                  after1.ok() && after2.ok()}});
  return after1.ok() && after2.ok() ? 0 : 1;
}
} // namespace

Expected<std::string> tensorop::resolveBenchTarget(StringRef target) {
  if (is_contained(mlir::tensorop::supportedGpuTargets(), target))
    return createStringError(
        "--target=" + target +
        ": NVIDIA kernels are timed against cuBLAS / cuDNN by "
        "tensorop-gpu-runner on the GPU machine, not by tensorop bench "
        "(docs/GPU.md)");
  Expected<std::string> resolved = mlir::tensorop::resolveTargetName(target);
  if (!resolved)
    return resolved.takeError();
  Expected<mlir::tensorop::TargetHints> hints =
      mlir::tensorop::loadTargetHints(*resolved);
  if (!hints)
    return hints.takeError();
  // (A cross target once measured the FMA peak, then failed in the JIT on
  // NEON assembly.)
  StringMap<bool> host = sys::getHostCPUFeatures();
  bool runsHere = hints->arch == "x86_64" &&
                  (hints->isa == "avx512"
                       ? host.lookup("avx512f") && host.lookup("avx512bw")
                       : host.lookup("avx2") && host.lookup("fma"));
  if (!runsHere)
    return createStringError(
        "target '" + *resolved + "' (" + hints->arch + ", " + hints->isa +
        ") does not run on this machine: tensorop bench times kernels here, "
        "in its own process (tensorop gen builds and verifies kernels for "
        "other targets, under qemu-user for RVV and NEON)");
  return *resolved;
}

int tensorop::benchmark(const BenchOptions &options) {
  if (options.conv)
    return benchmarkConv(options);
  // The target's family decides how its kernels are timed.
  return Backend::forTarget(options.target)->bench(options);
}

int tensorop::benchmarkOnCpu(const BenchOptions &options) {
  // The names the command's options had when this lived in tools/.
  const std::vector<std::string> &shapes = options.shapes;
  const std::string &target = options.target, &sketchOverride = options.sketch,
                    &jsonOut = options.jsonOut,
                    &markdownOut = options.markdownOut;
  const unsigned benchThreads = options.threads;
  const std::string &advisor = options.advisor, &tunedDb = options.tunedDb;
  const unsigned seed = options.seed;
  const int rounds = options.rounds;
  const double roundSeconds = options.roundSeconds;
  Expected<std::string> resolved = resolveBenchTarget(target);
  if (!resolved) {
    errs() << "tensorop bench: " << toString(resolved.takeError()) << "\n";
    return 2;
  }
  std::vector<Shape> list;
  std::vector<std::string> names = shapes;
  if (names.empty())
    names = options.classes
                ? gemmClassShapes()
                : std::vector<std::string>{"256", "512", "1024", "2048",
                                           "127x1000x513"};
  for (const std::string &s : names) {
    Shape sh;
    if (!parseShape(s, sh)) {
      errs() << "tensorop bench: bad shape '" << s
             << "' (expected N or MxNxK with positive integers)\n";
      return 2;
    }
    list.push_back(sh);
  }
  if (rounds < 5) {
    errs() << "tensorop bench: --rounds must be at least 5 (MEASURE.md)\n";
    return 2;
  }
  for (StringRef out : {StringRef(jsonOut), StringRef(markdownOut)})
    if (std::string why = checkReportPath(out); !why.empty()) {
      errs() << "tensorop bench: " << why << "\n";
      return 2;
    }

  std::unique_ptr<mlir::MLIRContext> context = makeCompilerContext();
  mlir::MLIRContext &ctx = *context;

  if (benchThreads < 1) {
    errs() << "tensorop bench: --threads must be at least 1\n";
    return 2;
  }
  if (!sketchOverride.empty())
    if (Error e = checkSketchText(ctx, sketchOverride, SketchKind::Gemm)) {
      errs() << "tensorop bench: --sketch: " << toString(std::move(e)) << "\n";
      return 2;
    }
  int threads = benchThreads;
  if (threads > 1 && !tunedDb.empty()) {
    errs() << "tensorop bench: --threads is not supported with --tuned-db "
              "(tuned sketches carry their own thread count)\n";
    return 2;
  }
  // Before the peak is measured: a missing or foreign database failed per
  // shape, located at a line of bench's own module.
  if (!tunedDb.empty())
    if (Expected<std::unique_ptr<mlir::tensorop::TuningDB>> db =
            mlir::tensorop::TuningDB::open(tunedDb, /*readOnly=*/true);
        !db) {
      errs() << "tensorop bench: --tuned-db: " << toString(db.takeError())
             << "\n";
      return 2;
    }
  setBaselineThreads(threads);
  setLibxsmmBaseline(true);
  if (options.peakGflops < 0) {
    errs() << "tensorop bench: --peak must be positive (GFLOP/s)\n";
    return 2;
  }
  bool peakGiven = options.peakGflops > 0;
  double peak = peakGiven ? options.peakGflops : measureFmaPeakGflops();
  // Idle workers of one side's thread pool must not spin on the cores the
  // next side uses.
  double settle = threads > 1 ? 0.3 : 0;
  std::string blasConfig = openblas_get_config();
  std::string blasCore = openblas_get_corename();
  outs() << formatv("machine: {0} ({1}); measured fp32 FMA peak {2:F1} "
                    "GFLOP/s per core\n",
                    cpuModelName(), cpuFamilyModel(), peak);
  outs() << "OpenBLAS: " << blasConfig << " (core " << blasCore << ")\n";
  if (haveOneDNN())
    outs() << oneDNNVersion() << ", " << threads
           << (threads > 1 ? " threads\n" : " thread\n");
  if (haveLibxsmm())
    outs() << libxsmmVersion()
           << (threads > 1 ? ": single-threaded kernels, not timed at " +
                                 std::to_string(threads) + " threads\n"
                           : "\n");
  if (!openblasCoreWarning().empty())
    errs() << "tensorop bench: " << openblasCoreWarning() << "\n";
  outs() << formatv("precision fp32 (both sides), {3} thread(s) on every "
                    "side, warm caches, {0} alternating rounds{4}, target "
                    "{1}, LLVM {2}\n",
                    int(rounds), *resolved, LLVM_VERSION_STRING, threads,
                    threads > 1 ? " (0.3 s idle before each side's batch)"
                                : "");
  if (threads > 1)
    outs() << "our threaded kernels run on " << mlir::tensorop::openMPRuntimePath()
           << "; \"1t med\" is our single-threaded kernel in the same "
              "rounds\n";
  outs() << "\n";
  if (tunedDb.empty())
    outs() << formatv("{0,-16} {1,9} {2,9} {3,9} {4,9} {5,7} {6,10} {7,10} "
                      "{8,10}{9}{10}",
                      "shape", "ours med", "ours min", "blas med", "blas min",
                      "ratio", "err ours", "err after", "err blas",
                      haveOneDNN() ? "  dnnl med  ratio/dnnl   err dnnl" : "",
                      threads > 1 ? "    1t med  ratio/1t" : "")
           << (haveLibxsmm() && threads == 1 ? "  xsmm med" : "")
           << "  vs best   class\n";

  json::Array results;
  std::string table =
      threads > 1
          ? "| shape MxNxK | TensorOp " + std::to_string(threads) +
                "T median | TensorOp 1T median | OpenBLAS " +
                std::to_string(threads) + "T median | oneDNN " +
                std::to_string(threads) +
                "T median | vs TensorOp 1T | vs OpenBLAS | vs oneDNN | "
                "error/bound ours (" + std::to_string(threads) + "T, 1T) |\n"
                "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
      : haveOneDNN()
          ? "| shape MxNxK | TensorOp median | TensorOp best | OpenBLAS "
            "median | oneDNN median | vs OpenBLAS | vs oneDNN | error/bound "
            "ours | error/bound OpenBLAS | error/bound oneDNN |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
          : "| shape MxNxK | TensorOp median | TensorOp best | "
            "OpenBLAS median | OpenBLAS best | ratio (median) | "
            "error/bound ours | error/bound OpenBLAS |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  int status = 0;
  // Ours against the best library per shape, by class.
  std::map<std::string, std::vector<double>> ratiosByClass;
  std::vector<double> allRatios;
  std::string classTable =
      "| class | shape MxNxK | TensorOp | OpenBLAS | oneDNN | libxsmm | best "
      "library | vs best |\n| --- | --- | --- | --- | --- | --- | --- | --- "
      "|\n";
  if (!tunedDb.empty()) {
    std::string tunedTable =
        "| shape MxNxK | builtin GFLOP/s | tuned GFLOP/s | OpenBLAS GFLOP/s | "
        "tuned/builtin | tuned/OpenBLAS | candidates | tuning time |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
    json::Array tunedResults;
    for (const Shape &s : list)
      status |= compareTuned(options, ctx, s, *resolved, peak, tunedResults,
                             tunedTable);
    if (!markdownOut.empty()) {
      std::error_code ec;
      raw_fd_ostream os(markdownOut, ec);
      if (!ec)
        os << tunedTable;
    }
    if (!jsonOut.empty()) {
      std::error_code ec;
      raw_fd_ostream os(jsonOut, ec);
      if (!ec)
        os << formatv("{0:2}\n",
                      json::Value(json::Object{
                          {"tool", "tensorop bench --tuned-db"},
                          {"date", benchDate()},
                          {"cpu", cpuModelName()},
                          {"cpu_id", cpuFamilyModel()},
                          {"measured_fma_peak_gflops_per_core", peak},
                          {"precision", "fp32 (all three)"},
                          {"threads", 1},
                          {"openblas", blasConfig},
                          {"openblas_core", blasCore},
      {"onednn", haveOneDNN() ? oneDNNVersion() : std::string("not built in")},
                          {"rounds", int(rounds)},
                          {"results", std::move(tunedResults)}}));
    }
    return status;
  }
  for (const Shape &s : list) {
    std::string label = formatv("{0}x{1}x{2}", s.m, s.n, s.k).str();
    if (std::string tooBig = checkGemmBufferBudget(s.m, s.n, s.k);
        !tooBig.empty()) {
      errs() << label << ": " << tooBig << "\n";
      status = 1;
      continue;
    }
    // The target as given: target=host builds with this machine's hints
    // (HostHints.h), as gen does.
    std::string opts = ("target=" + target + " advisor=" + advisor);
    std::string source = s.matmul().moduleSource(
        "gemm", tensorop::Placement::Host, sketchOverride);
    Expected<mlir::tensorop::JitGemm> gemm = mlir::tensorop::compileGemm(
        ctx, source, "gemm",
        threads > 1 ? opts + " threads=" + std::to_string(threads) : opts);
    if (!gemm) {
      errs() << label << ": " << toString(gemm.takeError()) << "\n";
      status = 1;
      continue;
    }
    std::optional<mlir::tensorop::JitGemm> oneThread;
    if (threads > 1) {
      Expected<mlir::tensorop::JitGemm> g =
          mlir::tensorop::compileGemm(ctx, source, "gemm", opts);
      if (!g) {
        errs() << label << " (1 thread): " << toString(g.takeError()) << "\n";
        status = 1;
        continue;
      }
      oneThread.emplace(std::move(*g));
    }
    GemmComparison r = compareWithOpenBLAS(
        gemm->fn, s.m, s.n, s.k, seed, /*time=*/true, rounds, roundSeconds,
        peak * threads, oneThread ? oneThread->fn : nullptr, settle);
    if (!r.error.empty()) {
      errs() << label << ": " << r.error << "\n";
      status = 1;
      continue;
    }
    if (!r.timed) {
      errs() << label << ": TensorOp result FAILED verification ("
             << r.before.failures() << " elements over the bound, max ratio "
             << r.before.maxRatio << "; " << r.exactMismatches
             << " wrong with small-integer inputs"
             << (r.haveSecond ? "; single-threaded kernel: " +
                                    std::to_string(r.second.failures()) +
                                    " over the bound"
                              : "")
             << "); not timed\n";
      status = 1;
      continue;
    }
    // A verified kernel timed above the peak: reported (here and in the
    // JSON), not failed.
    warnAboveFmaPeak(r.fasterThanPeak, r.oursBest, peak, threads, peakGiven,
                     "tensorop bench", label,
                     " (other load while it was measured?)", "shape");
    if (!r.after.ok() || (r.haveSecond && !r.second.ok())) {
      errs() << label << ": result FAILED verification after timing\n";
      status = 1;
    }
    // The best library of this shape (verified ones only).
    std::string bestName = "OpenBLAS";
    double bestMed = r.blas.ok() ? r.blasMedian : 0;
    if (r.haveOneDNN && r.onednn.ok() && r.onednnMedian > bestMed) {
      bestName = "oneDNN";
      bestMed = r.onednnMedian;
    }
    if (r.haveLibxsmm && r.libxsmm.ok() && r.libxsmmMedian > bestMed) {
      bestName = "libxsmm";
      bestMed = r.libxsmmMedian;
    }
    std::string cls = gemmShapeClass(s.m, s.n, s.k);
    double vsBest = bestMed > 0 ? r.oursMedian / bestMed : 0;
    if (vsBest > 0 && r.after.ok()) {
      ratiosByClass[cls].push_back(vsBest);
      allRatios.push_back(vsBest);
    }
    auto cell = [](bool have, double v) {
      return have ? formatv("{0:F1}", v).str() : std::string("-");
    };
    classTable += formatv("| {0} | {1} | {2:F1} | {3:F1} | {4} | {5} | {6} | "
                          "{7:F2}x |\n",
                          cls, label, r.oursMedian, r.blasMedian,
                          cell(r.haveOneDNN, r.onednnMedian),
                          cell(r.haveLibxsmm, r.libxsmmMedian), bestName,
                          vsBest)
                      .str();
    Check before = r.before, after = r.after, blasCheck = r.blas;
    double oursMed = r.oursMedian, oursBest = r.oursBest,
           blasMed = r.blasMedian, blasBest = r.blasBest;
    std::string dnnlColumns =
        r.haveOneDNN ? formatv("  {0,8:F1} {1,11:F3} {2,10:E2}", r.onednnMedian,
                               oursMed / r.onednnMedian, r.onednn.maxRatio)
                           .str()
                     : "";
    std::string secondColumns =
        r.haveSecond ? formatv("  {0,8:F1} {1,9:F3}", r.secondMedian,
                               oursMed / r.secondMedian)
                           .str()
                     : "";
    outs() << formatv("{0,-16} {1,9:F1} {2,9:F1} {3,9:F1} {4,9:F1} {5,7:F3} "
                      "{6,10:E2} {7,10:E2} {8,10:E2}{9}{10}",
                      label, oursMed, oursBest, blasMed, blasBest,
                      oursMed / blasMed, before.maxRatio, after.maxRatio,
                      blasCheck.maxRatio, dnnlColumns, secondColumns)
           << (haveLibxsmm() && threads == 1
                   ? formatv("  {0,8}", cell(r.haveLibxsmm, r.libxsmmMedian))
                         .str()
                   : "")
           << formatv("  {0,6:F3}x  {1}{2}\n", vsBest, cls,
                      r.fasterThanPeak ? " (above peak)" : "");
    outs().flush();
    if (threads > 1)
      table += formatv("| {0} | {1:F1} | {2:F1} | {3:F1} | {4} | {5:F2}x | "
                       "{6:F2}x | {7} | {8:E1}, {9:E1} |\n",
                       label, oursMed, r.secondMedian, blasMed,
                       r.haveOneDNN ? formatv("{0:F1}", r.onednnMedian).str()
                                    : std::string("-"),
                       oursMed / r.secondMedian, oursMed / blasMed,
                       r.haveOneDNN
                           ? formatv("{0:F2}x", oursMed / r.onednnMedian).str()
                           : std::string("-"),
                       std::max(before.maxRatio, after.maxRatio),
                       r.second.maxRatio)
                   .str();
    else if (r.haveOneDNN)
      table += formatv("| {0} | {1:F1} | {2:F1} | {3:F1} | {4:F1} | {5:F2}x | "
                       "{6:F2}x | {7:E1} | {8:E1} | {9:E1} |\n",
                       label, oursMed, oursBest, blasMed, r.onednnMedian,
                       oursMed / blasMed, oursMed / r.onednnMedian,
                       std::max(before.maxRatio, after.maxRatio),
                       blasCheck.maxRatio, r.onednn.maxRatio)
                   .str();
    else
      table += formatv("| {0} | {1:F1} | {2:F1} | {3:F1} | {4:F1} | {5:F2}x | "
                       "{6:E1} | {7:E1} |\n",
                       label, oursMed, oursBest, blasMed, blasBest,
                       oursMed / blasMed, std::max(before.maxRatio,
                                                   after.maxRatio),
                       blasCheck.maxRatio)
                   .str();
    results.push_back(json::Object{
        {"m", s.m},
        {"n", s.n},
        {"k", s.k},
        {"ours_gflops_median", oursMed},
        {"ours_gflops_best", oursBest},
        {"openblas_gflops_median", blasMed},
        {"openblas_gflops_best", blasBest},
        {"ratio_median", oursMed / blasMed},
        {"error_ratio_before_timing", before.maxRatio},
        {"error_ratio_after_timing", after.maxRatio},
        {"error_ratio_openblas", blasCheck.maxRatio},
        {"verified", r.verified()},
        {"exact_small_integer_mismatches", r.exactMismatches},
        {"onednn_gflops_median",
         r.haveOneDNN ? json::Value(r.onednnMedian) : json::Value(nullptr)},
        {"onednn_gflops_best",
         r.haveOneDNN ? json::Value(r.onednnBest) : json::Value(nullptr)},
        {"ratio_vs_onednn_median",
         r.haveOneDNN ? json::Value(oursMed / r.onednnMedian)
                      : json::Value(nullptr)},
        {"error_ratio_onednn",
         r.haveOneDNN ? json::Value(r.onednn.maxRatio) : json::Value(nullptr)},
        {"compile_seconds", gemm->compileSeconds},
        {"sketch", gemm->sketch},
        {"single_thread_gflops_median",
         r.haveSecond ? json::Value(r.secondMedian) : json::Value(nullptr)},
        {"single_thread_gflops_best",
         r.haveSecond ? json::Value(r.secondBest) : json::Value(nullptr)},
        {"error_ratio_single_thread",
         r.haveSecond ? json::Value(r.second.maxRatio) : json::Value(nullptr)},
        {"libxsmm_gflops_median",
         r.haveLibxsmm ? json::Value(r.libxsmmMedian) : json::Value(nullptr)},
        {"error_ratio_libxsmm",
         r.haveLibxsmm ? json::Value(r.libxsmm.maxRatio)
                       : json::Value(nullptr)},
        {"class", cls},
        {"best_library", bestName},
        {"ratio_vs_best_library", vsBest},
        {"above_peak", r.fasterThanPeak},
        {"single_thread_sketch",
         oneThread ? json::Value(oneThread->sketch) : json::Value(nullptr)}});
  }

  // Per class and overall: ours against the best library of each shape.
  json::Object classSummary;
  if (!allRatios.empty()) {
    outs() << "\n";
    for (const auto &[cls, ratios] : ratiosByClass) {
      double lowest = *std::min_element(ratios.begin(), ratios.end());
      outs() << formatv("{0,-10} geomean {1:F3}x the best library over {2} "
                        "shape(s), lowest {3:F3}x\n",
                        cls, geomean(ratios), ratios.size(), lowest);
      classTable += formatv("\n{0}: geomean {1:F2}x the best library over {2} "
                            "shape(s), lowest {3:F2}x",
                            cls, geomean(ratios), ratios.size(), lowest)
                        .str();
      classSummary[cls] = json::Object{{"geomean_vs_best", geomean(ratios)},
                                       {"lowest_vs_best", lowest},
                                       {"shapes", int64_t(ratios.size())}};
    }
    double lowest = *std::min_element(allRatios.begin(), allRatios.end());
    outs() << formatv("{0,-10} geomean {1:F3}x the best library over {2} "
                      "shape(s), lowest {3:F3}x\n",
                      "all", geomean(allRatios), allRatios.size(), lowest);
    classTable += formatv("\nall: geomean {0:F2}x the best library over {1} "
                          "shape(s), lowest {2:F2}x\n",
                          geomean(allRatios), allRatios.size(), lowest)
                      .str();
  }
  json::Object doc{
      {"tool", "tensorop bench"},
      {"date", benchDate()},
      {"cpu", cpuModelName()},
      {"cpu_id", cpuFamilyModel()},
      {"measured_fma_peak_gflops_per_core", peak},
      {"precision", "fp32 inputs, fp32 accumulation, fp32 output (both)"},
      {"threads", threads},
      {"settle_seconds_before_each_batch", settle},
      {"openmp_runtime_ours",
       threads > 1 ? json::Value(mlir::tensorop::openMPRuntimePath().str())
                   : json::Value(nullptr)},
      {"caches", "warm (same buffers every repetition)"},
      {"rounds", int(rounds)},
      {"target", *resolved},
      {"advisor", std::string(advisor)},
      {"openblas", blasConfig},
      {"openblas_core", blasCore},
      {"onednn", haveOneDNN() ? oneDNNVersion() : std::string("not built in")},
      {"libxsmm",
       haveLibxsmm() ? libxsmmVersion() : std::string("not built in")},
      {"openblas_coretype_env", openblasCoreWarning()},
      {"llvm", LLVM_VERSION_STRING},
      {"jit", "MLIR ExecutionEngine, LLVM -O3, host CPU"},
      {"verification", "fp64 dgemm reference of the same inputs, bound "
                       "2*K*6e-8*(|A||B|) + 6e-8*|R|, NaN-prefilled output, "
                       "re-verified after timing"},
      {"classes", std::move(classSummary)},
      {"peak_given", peakGiven},
      {"results", std::move(results)}};
  if (!jsonOut.empty()) {
    std::error_code ec;
    raw_fd_ostream os(jsonOut, ec);
    if (ec) {
      errs() << "tensorop bench: cannot write " << jsonOut << ": "
             << ec.message() << "\n";
      return 1;
    }
    os << formatv("{0:2}", json::Value(std::move(doc))) << "\n";
  }
  if (!markdownOut.empty()) {
    std::error_code ec;
    raw_fd_ostream os(markdownOut, ec);
    if (!ec)
      os << table << "\n" << classTable;
  }
  return status;
}
