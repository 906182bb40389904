//===- ConvBench.cpp - tensorop bench --conv: ours against oneDNN ---------===//
//
// For each convolution layer: JIT-compile the pipeline's conv2d (the module
// gen builds, convModuleSource), verify it against the fp64 reference on a
// NaN-filled guarded output, time it and oneDNN's convolution primitive
// (NHWC source and destination, weights in the primitive's preferred layout
// reordered once before timing) round robin in this one process, verify
// both again after timing, and reject a time faster than the measured FMA
// peak (shared/MEASURE.md). Our prepacked entry (conv_prepacked, the filter
// packed once by conv_pack_filter before timing, as oneDNN's weights are
// reordered once) is verified and timed in the same rounds: that is the
// like-for-like ratio; the per-call one packs the filter in every call.
// The default layers are the convolutions of
// ResNet-50 at N=1 and N=8 plus odd shapes (C, F not multiples of 16,
// dilation 2); --shapes takes convolution requests instead ("conv2d N=1
// H=56 W=56 C=64 F=64 R=3 S=3 pad=1", no commas).
//
//===----------------------------------------------------------------------===//

#include "tensorop/Driver/BenchDriver.h"
#include "BenchReport.h"

#include "tensorop/Advisor/Request.h"
#include "tensorop/Driver/CompilerContext.h"
#include "tensorop/Driver/SketchText.h"
#include "tensorop/Runtime/ConvModule.h"
#include "tensorop/Runtime/JitGemm.h"
#include "tensorop/Runtime/OpenMPRuntime.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Tuner/TuningDB.h"
#include "tensorop/Verify/CpuConv.h"
#include "tensorop/Verify/CpuGemm.h"
#include "tensorop/Verify/Timing.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cblas.h>

#include <cmath>
#include <ctime>
#include <optional>

using namespace llvm;
using namespace tensorop;

namespace {
struct Layer {
  std::string label;
  Conv2DShape shape;
};

Conv2DShape conv(int64_t n, int64_t hw, int64_t c, int64_t f, int64_t k,
                 int64_t stride, int64_t pad, int64_t dilation = 1) {
  Conv2DShape s;
  s.n = n, s.h = s.w = hw, s.c = c, s.f = f, s.r = s.s = k;
  s.strideH = s.strideW = stride;
  s.padTop = s.padBottom = s.padLeft = s.padRight = pad;
  s.dilationH = s.dilationW = dilation;
  return s;
}

/// The distinct convolution layers of ResNet-50 (v1.5: the stride of a
/// stage's first block is on its 3x3 convolution) at batch `n`, then odd
/// shapes. Input sizes are those each layer sees.
std::vector<Layer> defaultLayers() {
  std::vector<Layer> layers;
  for (int64_t n : {1, 8}) {
    std::string b = "N" + std::to_string(n) + " ";
    auto add = [&](const std::string &name, Conv2DShape s) {
      layers.push_back({b + name, s});
    };
    add("conv1 7x7/2", conv(n, 224, 3, 64, 7, 2, 3));
    add("res2 1x1 64>64", conv(n, 56, 64, 64, 1, 1, 0));
    add("res2 3x3 64>64", conv(n, 56, 64, 64, 3, 1, 1));
    add("res2 1x1 64>256", conv(n, 56, 64, 256, 1, 1, 0));
    add("res2 1x1 256>64", conv(n, 56, 256, 64, 1, 1, 0));
    add("res3 1x1 256>128", conv(n, 56, 256, 128, 1, 1, 0));
    add("res3 3x3/2 128>128", conv(n, 56, 128, 128, 3, 2, 1));
    add("res3 proj 1x1/2 256>512", conv(n, 56, 256, 512, 1, 2, 0));
    add("res3 3x3 128>128", conv(n, 28, 128, 128, 3, 1, 1));
    add("res3 1x1 128>512", conv(n, 28, 128, 512, 1, 1, 0));
    add("res3 1x1 512>128", conv(n, 28, 512, 128, 1, 1, 0));
    add("res4 1x1 512>256", conv(n, 28, 512, 256, 1, 1, 0));
    add("res4 3x3/2 256>256", conv(n, 28, 256, 256, 3, 2, 1));
    add("res4 proj 1x1/2 512>1024", conv(n, 28, 512, 1024, 1, 2, 0));
    add("res4 3x3 256>256", conv(n, 14, 256, 256, 3, 1, 1));
    add("res4 1x1 256>1024", conv(n, 14, 256, 1024, 1, 1, 0));
    add("res4 1x1 1024>256", conv(n, 14, 1024, 256, 1, 1, 0));
    add("res5 1x1 1024>512", conv(n, 14, 1024, 512, 1, 1, 0));
    add("res5 3x3/2 512>512", conv(n, 14, 512, 512, 3, 2, 1));
    add("res5 proj 1x1/2 1024>2048", conv(n, 14, 1024, 2048, 1, 2, 0));
    add("res5 3x3 512>512", conv(n, 7, 512, 512, 3, 1, 1));
    add("res5 1x1 512>2048", conv(n, 7, 512, 2048, 1, 1, 0));
    add("res5 1x1 2048>512", conv(n, 7, 2048, 512, 1, 1, 0));
  }
  for (int64_t n : {1, 8}) {
    std::string b = "N" + std::to_string(n) + " ";
    layers.push_back({b + "odd 3x3 3>17", conv(n, 56, 3, 17, 3, 1, 1)});
    layers.push_back({b + "odd 3x3/2 33>47", conv(n, 28, 33, 47, 3, 2, 1)});
    layers.push_back({b + "odd 5x5 24>40", conv(n, 14, 24, 40, 5, 1, 2)});
    layers.push_back(
        {b + "dilated 3x3 d2 64>64", conv(n, 28, 64, 64, 3, 1, 2, 2)});
  }
  return layers;
}

json::Value orNull(bool have, double v) {
  return have ? json::Value(v) : json::Value(nullptr);
}
} // namespace

int tensorop::benchmarkConv(const BenchOptions &options) {
  auto usage = [](const Twine &msg) {
    errs() << "tensorop bench --conv: " << msg << "\n";
    return 2;
  };
  if (options.rounds < 5)
    return usage("--rounds must be at least 5 (MEASURE.md)");
  if (options.threads < 1)
    return usage("--threads must be at least 1");
  if (options.peakGflops < 0)
    return usage("--peak must be positive (GFLOP/s)");
  for (StringRef out : {StringRef(options.jsonOut),
                        StringRef(options.markdownOut)})
    if (std::string why = checkReportPath(out); !why.empty())
      return usage(why);
  if (!options.tunedDb.empty() && !options.sketch.empty())
    return usage("--tuned-db and --sketch both choose the sketch: give one");
  if (!options.tunedDb.empty())
    if (Expected<std::unique_ptr<mlir::tensorop::TuningDB>> db =
            mlir::tensorop::TuningDB::open(options.tunedDb,
                                           /*readOnly=*/true);
        !db)
      return usage("--tuned-db: " + toString(db.takeError()));
  if (!options.sketch.empty() &&
      !StringRef(options.sketch).starts_with("#tensorop.conv_sketch<"))
    return usage("--sketch with --conv takes a #tensorop.conv_sketch<...> "
                 "(got '" + options.sketch + "')");
  std::vector<Layer> layers;
  for (const std::string &text : options.shapes) {
    Expected<mlir::tensorop::OpRequest> r = mlir::tensorop::parseRequest(text);
    if (!r)
      return usage("bad shape '" + text + "': " + toString(r.takeError()));
    if (r->op != "conv2d" || r->dtype != "f32" || r->target != "host")
      return usage("bad shape '" + text + "': give an fp32 convolution "
                   "without a target (e.g. 'conv2d N=1 H=56 W=56 C=64 F=64 "
                   "R=3 S=3 pad=1'; --target names the target)");
    layers.push_back({text, r->conv});
  }
  if (layers.empty())
    layers = defaultLayers();

  Expected<std::string> resolved = resolveBenchTarget(options.target);
  if (!resolved)
    return usage(toString(resolved.takeError()));
  std::unique_ptr<mlir::MLIRContext> context = makeCompilerContext();
  if (!options.sketch.empty())
    if (Error e = checkSketchText(*context, options.sketch, SketchKind::Conv))
      return usage("--sketch: " + toString(std::move(e)));
  const int threads = options.threads;
  setBaselineThreads(threads);
  const bool peakGiven = options.peakGflops > 0;
  const double peak =
      peakGiven ? options.peakGflops : measureFmaPeakGflops();
  const double settle = threads > 1 ? 0.3 : 0;
  std::string blasCore = openblas_get_corename();
  outs() << formatv("machine: {0} ({1}); {2} fp32 FMA peak {3:F1} "
                    "GFLOP/s per core\n",
                    cpuModelName(), cpuFamilyModel(),
                    peakGiven ? "given" : "measured", peak);
  outs() << (haveOneDNN() ? oneDNNVersion() : "oneDNN: not built in")
         << "; OpenBLAS " << blasCore << " (fp64 reference only)\n";
  if (!openblasCoreWarning().empty())
    errs() << "tensorop bench: " << openblasCoreWarning() << "\n";
  outs() << formatv("precision fp32 (both sides), {0} thread(s) on every "
                    "side, warm caches, {1} round-robin rounds{2}, target {3}, "
                    "LLVM {4}\n\n",
                    threads, options.rounds,
                    threads > 1 ? " (0.3 s idle before each side's batch)"
                                : "",
                    *resolved, LLVM_VERSION_STRING);
  outs() << formatv("{0,-28} {1,9} {2,9} {3,9} {4,7} {5,7} {6,10} {7,10} "
                    "{8,10}  {9}\n",
                    "layer", "ours med", "prepacked", "dnnl med", "ratio",
                    "ratio pp", "err ours", "err after", "err dnnl", "path");

  json::Array results;
  std::string table =
      "| layer | N | HxW | C | F | kernel | stride | pad | dilation | "
      "TensorOp GFLOP/s (per call) | TensorOp prepacked GFLOP/s | oneDNN "
      "GFLOP/s | ratio (per call) | ratio (prepacked) | error/bound ours | "
      "error/bound oneDNN | our path |\n| --- | --- | --- | --- | --- | --- "
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
      "|\n";
  int status = 0;
  double logSum = 0, minRatio = 0;
  int timedLayers = 0, below09 = 0, sketched = 0;
  // The same over the prepacked entry's ratios (the like-for-like ones).
  double logSumPrepacked = 0, minPrepacked = 0;
  int below09Prepacked = 0;
  for (const Layer &layer : layers) {
    const Conv2DShape &s = layer.shape;
    if (std::string tooBig = checkConvBufferBudget(s); !tooBig.empty()) {
      errs() << layer.label << ": " << tooBig << "\n";
      status = 1;
      continue;
    }
    // --sketch: every layer gets that sketch (the verifier checks it
    // against the layer and the target when the module is compiled).
    std::string source =
        mlir::tensorop::convModuleSource("conv", s, options.sketch) +
        mlir::tensorop::convPrepackedSource("conv", s, options.sketch);
    // --tuned-db: the pipeline's db= takes each layer's best verified
    // record (the advisor where there is none; the path column says which).
    std::string opts =
        "target=" + *resolved + " advisor=" + options.advisor +
        (options.tunedDb.empty() ? "" : " db=" + options.tunedDb);
    Expected<mlir::tensorop::JitGemm> kernel = mlir::tensorop::compileGemm(
        *context, source, "conv",
        threads > 1 ? opts + " threads=" + std::to_string(threads) : opts);
    if (!kernel) {
      errs() << layer.label << ": " << toString(kernel.takeError()) << "\n";
      status = 1;
      continue;
    }
    std::optional<mlir::tensorop::JitGemm> oneThread;
    if (threads > 1) {
      Expected<mlir::tensorop::JitGemm> k =
          mlir::tensorop::compileGemm(*context, source, "conv", opts);
      if (!k) {
        errs() << layer.label << " (1 thread): " << toString(k.takeError())
               << "\n";
        status = 1;
        continue;
      }
      oneThread.emplace(std::move(*k));
    }
    // The prepacked entries of the same module.
    ConvPrepackedEntries prepacked;
    {
      std::string missing;
      auto find = [&](StringRef symbol) -> void * {
        Expected<void *> address = kernel->engine->lookup(symbol);
        if (address)
          return *address;
        consumeError(address.takeError());
        missing += (missing.empty() ? "" : ", ") + symbol.str();
        return nullptr;
      };
      prepacked.packedSize =
          reinterpret_cast<size_t (*)()>(find("conv_packed_filter_size"));
      prepacked.pack = reinterpret_cast<void (*)(const float *, float *)>(
          find("conv_pack_filter"));
      prepacked.run =
          reinterpret_cast<void (*)(const float *, const float *, float *)>(
              find("conv_prepacked"));
      if (!missing.empty()) {
        errs() << layer.label << ": the JIT module lacks " << missing << "\n";
        status = 1;
        continue;
      }
    }
    ConvComparison r = compareConvWithOneDNN(
        kernel->fn, s, options.seed, /*time=*/true, options.rounds,
        options.roundSeconds, peak * threads,
        oneThread ? oneThread->fn : nullptr, settle, /*withOneDNN=*/true,
        &prepacked);
    if (!r.error.empty()) {
      errs() << layer.label << ": " << r.error << "\n";
      status = 1;
      continue;
    }
    if (!r.timed) {
      errs() << layer.label << ": TensorOp result FAILED verification ("
             << r.before.failures() << " elements over the bound, max ratio "
             << r.before.maxRatio << ", exact test " << r.exactMismatches
             << ", guards " << (r.guardsIntact ? "intact" : "VIOLATED")
             << "); not timed\n";
      status = 1;
      continue;
    }
    // As in `tensorop bench` (BenchDriver.cpp): a verified kernel timed
    // above the FMA peak is reported, not dropped. The peak is a loop of
    // nothing but FMAs, which runs this Zen 5 at a lower clock than real
    // kernels do (measured 217 GFLOP/s while oneDNN's and our 3x3 layers
    // ran at 232-242 in the same process), so it is no upper bound here.
    warnAboveFmaPeak(r.fasterThanPeak, r.oursBest, peak, threads, peakGiven,
                     "tensorop bench --conv", layer.label, "", "layer");
    bool ok = r.verified() && (!r.haveOneDNN || r.onednn.ok());
    if (!ok) {
      errs() << layer.label << ": "
             << (!r.after.ok() ? "TensorOp FAILED verification after timing"
                               : "oneDNN's result is over the bound")
             << "\n";
      status = 1;
    }
    std::string path = kernel->sketch.empty() ? "upstream loops"
                       : StringRef(kernel->sketch).contains("source = \"db:")
                           ? "sketch (tuned)"
                           : "sketch";
    sketched += !kernel->sketch.empty();
    double ratio = r.haveOneDNN ? r.oursMedian / r.onednnMedian : 0;
    double ratioPrepacked =
        r.haveOneDNN ? r.prepackedMedian / r.onednnMedian : 0;
    if (r.haveOneDNN && ok) {
      logSum += std::log(ratio);
      minRatio = timedLayers ? std::min(minRatio, ratio) : ratio;
      below09 += ratio < 0.9;
      logSumPrepacked += std::log(ratioPrepacked);
      minPrepacked =
          timedLayers ? std::min(minPrepacked, ratioPrepacked) : ratioPrepacked;
      below09Prepacked += ratioPrepacked < 0.9;
      ++timedLayers;
    }
    double errOurs = std::max(r.before.maxRatio, r.prepackedBefore.maxRatio);
    double errAfter = std::max(r.after.maxRatio, r.prepackedAfter.maxRatio);
    outs() << formatv("{0,-28} {1,9:F1} {2,9:F1} {3,9:F1} {4,7:F3} {5,7:F3} "
                      "{6,10:E2} {7,10:E2} {8,10:E2}  {9}\n",
                      layer.label, r.oursMedian, r.prepackedMedian,
                      r.onednnMedian, ratio, ratioPrepacked, errOurs, errAfter,
                      r.onednn.maxRatio, path);
    outs().flush();
    auto pair = [](int64_t a, int64_t b) {
      return a == b ? std::to_string(a)
                    : std::to_string(a) + "x" + std::to_string(b);
    };
    table += formatv("| {0} | {1} | {2}x{3} | {4} | {5} | {6}x{7} | {8} | {9} "
                     "| {10} | {11:F1} | {12:F1} | {13:F1} | {14:F2}x | "
                     "{15:F2}x | {16:E1} | {17:E1} | {18} |\n",
                     layer.label, s.n, s.h, s.w, s.c, s.f, s.r, s.s,
                     pair(s.strideH, s.strideW), pair(s.padTop, s.padLeft),
                     pair(s.dilationH, s.dilationW), r.oursMedian,
                     r.prepackedMedian, r.onednnMedian, ratio, ratioPrepacked,
                     std::max(errOurs, errAfter), r.onednn.maxRatio, path)
                 .str();
    results.push_back(json::Object{
        {"layer", layer.label},
        {"shape", mlir::tensorop::describeConvShape(s)},
        {"n", s.n}, {"h", s.h}, {"w", s.w}, {"c", s.c}, {"f", s.f},
        {"r", s.r}, {"s", s.s}, {"stride_h", s.strideH},
        {"stride_w", s.strideW}, {"dilation_h", s.dilationH},
        {"dilation_w", s.dilationW}, {"pad_top", s.padTop},
        {"pad_bottom", s.padBottom}, {"pad_left", s.padLeft},
        {"pad_right", s.padRight},
        {"flops_per_call", s.flops()},
        {"ours_gflops_median", r.oursMedian},
        {"ours_gflops_best", r.oursBest},
        {"onednn_gflops_median", orNull(r.haveOneDNN, r.onednnMedian)},
        {"onednn_gflops_best", orNull(r.haveOneDNN, r.onednnBest)},
        {"onednn_implementation", r.onednnImplementation},
        {"ratio_vs_onednn_median", orNull(r.haveOneDNN, ratio)},
        {"prepacked_gflops_median", r.prepackedMedian},
        {"prepacked_gflops_best", r.prepackedBest},
        {"prepacked_ratio_vs_onednn_median",
         orNull(r.haveOneDNN, ratioPrepacked)},
        {"prepacked_error_ratio_before_timing", r.prepackedBefore.maxRatio},
        {"prepacked_error_ratio_after_timing", r.prepackedAfter.maxRatio},
        {"prepacked_exact_small_integer_mismatches",
         r.prepackedExactMismatches},
        {"prepacked_guards_intact", r.prepackedGuardsIntact},
        {"packed_filter_bytes", int64_t(r.packedBytes)},
        {"pack_filter_seconds_median", r.packSeconds},
        {"error_ratio_before_timing", r.before.maxRatio},
        {"error_ratio_after_timing", r.after.maxRatio},
        {"error_ratio_onednn", orNull(r.haveOneDNN, r.onednn.maxRatio)},
        {"exact_small_integer_mismatches", r.exactMismatches},
        {"guards_intact", r.guardsIntact},
        {"verified", ok},
        {"above_peak", r.fasterThanPeak},
        {"single_thread_gflops_median", orNull(r.haveSecond, r.secondMedian)},
        {"error_ratio_single_thread", orNull(r.haveSecond, r.second.maxRatio)},
        {"compile_seconds", kernel->compileSeconds},
        {"path", path},
        {"sketch", kernel->sketch}});
  }
  double geomean = timedLayers ? std::exp(logSum / timedLayers) : 0;
  double geomeanPrepacked =
      timedLayers ? std::exp(logSumPrepacked / timedLayers) : 0;
  if (timedLayers)
    outs() << formatv("\n{0} layers timed: geomean ratio {1:F3}, lowest "
                      "{2:F3}, {3} below 0.9 (filter packed per call); "
                      "prepacked (like for like) {4:F3}, lowest {5:F3}, {6} "
                      "below 0.9; {7} of {8} layers on the sketch path\n",
                      timedLayers, geomean, minRatio, below09,
                      geomeanPrepacked, minPrepacked, below09Prepacked,
                      sketched, layers.size());

  json::Object doc{
      {"tool", "tensorop bench --conv"},
      {"date", benchDate()},
      {"cpu", cpuModelName()},
      {"cpu_id", cpuFamilyModel()},
      {"measured_fma_peak_gflops_per_core", peak},
      {"peak_given", peakGiven},
      {"precision", "fp32 inputs, fp32 accumulation, fp32 output (both)"},
      {"threads", threads},
      {"settle_seconds_before_each_batch", settle},
      {"openmp_runtime_ours",
       threads > 1 ? json::Value(mlir::tensorop::openMPRuntimePath().str())
                   : json::Value(nullptr)},
      {"caches", "warm (same buffers every repetition)"},
      {"rounds", options.rounds},
      {"round_seconds", options.roundSeconds},
      {"target", *resolved},
      {"advisor", options.advisor},
      {"tuned_db", options.tunedDb.empty() ? json::Value(nullptr)
                                           : json::Value(options.tunedDb)},
      {"onednn", haveOneDNN() ? oneDNNVersion() : std::string("not built in")},
      {"onednn_setup", "dnnl_dilated_convolution_forward_desc_init, "
                       "forward_inference, convolution_direct; src and dst "
                       "NHWC (user buffers), weights format_tag::any "
                       "reordered once from HWCF (hwio) before timing"},
      {"openblas_core", blasCore},
      {"openblas_coretype_env", openblasCoreWarning()},
      {"llvm", LLVM_VERSION_STRING},
      {"jit", "MLIR ExecutionEngine, LLVM -O3, host CPU"},
      {"verification", "fp64 reference of the same inputs (im2col + OpenBLAS "
                       "dgemm), bound 2*K*6e-8*(sum |x||w|) + 6e-8*|R| with K "
                       "= R*S*C, NaN-prefilled guarded output, small-integer "
                       "exact test, re-verified after timing; oneDNN's "
                       "output checked against the same bound"},
      {"layers_timed", timedLayers},
      {"geomean_ratio_vs_onednn", geomean},
      {"lowest_ratio_vs_onednn", minRatio},
      {"layers_below_0_9", below09},
      {"prepacked_geomean_ratio_vs_onednn", geomeanPrepacked},
      {"prepacked_lowest_ratio_vs_onednn", minPrepacked},
      {"prepacked_layers_below_0_9", below09Prepacked},
      {"prepacked_note", "ours_* packs the filter inside every call; "
                         "prepacked_* calls conv_prepacked on a filter "
                         "packed once before timing by conv_pack_filter, as "
                         "oneDNN's weights are reordered once: the "
                         "like-for-like comparison"},
      {"layers_on_sketch_path", sketched},
      {"results", std::move(results)}};
  if (!options.jsonOut.empty()) {
    std::error_code ec;
    raw_fd_ostream os(options.jsonOut, ec);
    if (ec)
      return usage("cannot write " + options.jsonOut + ": " + ec.message());
    os << formatv("{0:2}", json::Value(std::move(doc))) << "\n";
  }
  if (!options.markdownOut.empty()) {
    std::error_code ec;
    raw_fd_ostream os(options.markdownOut, ec);
    if (ec)
      return usage("cannot write " + options.markdownOut + ": " +
                   ec.message());
    os << table;
  }
  return status;
}
