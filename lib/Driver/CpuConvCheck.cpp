//===- CpuConvCheck.cpp - gen's check of a convolution object -------------===//

#include "CpuConvCheck.h"
#include "BenchReport.h"
#include "tensorop/Driver/EpilogueConv.h"

#include "tensorop/Verify/CpuGemm.h"
#include "tensorop/Verify/Timing.h"

#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace llvm;
using namespace tensorop;

ConvObjectCheck tensorop::checkConvObject(ConvFn fn, const Conv2DShape &s,
                                          StringRef name, StringRef objectPath,
                                          unsigned seed, bool noBench,
                                          unsigned threads, double peak,
                                          bool peakGiven,
                                          const ConvPrepackedEntries
                                              *prepacked) {
  ConvObjectCheck out;
  const int rounds = 7;
  ConvComparison cmp = compareConvWithOneDNN(
      fn, s, seed, !noBench, rounds, 0.1, peak, /*second=*/nullptr,
      /*settleSeconds=*/threads > 1 ? 0.3 : 0, /*withOneDNN=*/true,
      prepacked);
  if (!cmp.error.empty()) {
    out.error = cmp.error;
    return out;
  }
  // A best sample above the FMA peak (measured again first, unless
  // given): the result verified before and after timing, and convolution
  // microkernels come from the shipped emitters only, so the peak figure
  // is what is suspect (other load while it was measured; this Zen 5 also
  // runs the FMA-only loop at a lower clock than real kernels): a warning,
  // and the timing marked, as in `tensorop bench --conv`.
  if (cmp.fasterThanPeak)
    warnAboveFmaPeak(cmp.fasterThanPeak, cmp.oursBest,
                     threads ? peak / threads : peak, threads, peakGiven,
                     "tensorop gen", name,
                     peakGiven ? "" : " (other load while it was measured?)",
                     "kernel");
  out.verified = cmp.verified();
  // Why it failed, in words (the numbers are in the report).
  const bool prepackedFailed = cmp.havePrepacked && !cmp.prepackedVerified();
  std::string why = prepackedFailed && cmp.before.ok() &&
                            cmp.exactMismatches <= 0 && cmp.guardsIntact &&
                            (!cmp.timed || cmp.after.ok())
                        ? "its prepacked entry (" + name.str() +
                              "_pack_filter, " + name.str() +
                              "_prepacked) is over the bound, wrong or out "
                              "of bounds"
                    : !cmp.verified() ? "over the bound, wrong or out of bounds"
                                      : "";
  std::string bound = describeConvBound(s);
  out.verification = json::Object{
      {"performed", true},
      {"object", objectPath},
      {"seed", int64_t(seed)},
      {"inputs", "seeded uniform [-1, 1) (input, filter); plus small "
                 "integers in [-4, 4] (exact results)"},
      {"reference", "fp64 of the same fp32 inputs: im2col of each image and "
                    "OpenBLAS dgemm with the HWCF filter (values and "
                    "magnitudes)"},
      {"bound", bound},
      {"output_prefill", "NaN"},
      {"output_guards", "canaries before the output, a PROT_NONE page after "
                        "it"},
      {"guards_intact", cmp.guardsIntact},
      {"max_error_ratio", cmp.before.maxRatio},
      {"elements_over_bound", cmp.before.failures()},
      {"exact_small_integer_mismatches",
       cmp.exactMismatches >= 0 ? json::Value(cmp.exactMismatches)
                                : json::Value("not applicable: R*S*C >= "
                                              "2^20")},
      {"max_error_ratio_after_timing",
       cmp.timed ? json::Value(cmp.after.maxRatio) : json::Value(nullptr)},
      {"failure", why},
      {"passed", out.verified}};
  if (cmp.havePrepacked)
    out.verification["prepacked"] = json::Object{
        {"entries", (name + "_pack_filter, " + name + "_prepacked").str()},
        {"method", "the filter packed by " + name.str() +
                       "_pack_filter into a NaN-prefilled buffer of " +
                       name.str() +
                       "_packed_filter_size() bytes, then " + name.str() +
                       "_prepacked on its own NaN-filled guarded output; "
                       "same inputs, reference and bound as above"},
        {"packed_filter_bytes", int64_t(cmp.packedBytes)},
        {"max_error_ratio", cmp.prepackedBefore.maxRatio},
        {"elements_over_bound", cmp.prepackedBefore.failures()},
        {"exact_small_integer_mismatches",
         cmp.prepackedExactMismatches >= 0
             ? json::Value(cmp.prepackedExactMismatches)
             : json::Value("not applicable")},
        {"guards_intact", cmp.prepackedGuardsIntact},
        {"max_error_ratio_after_timing",
         cmp.timed ? json::Value(cmp.prepackedAfter.maxRatio)
                   : json::Value(nullptr)},
        {"passed", cmp.prepackedVerified()}};
  if (cmp.timed)
    out.timing = json::Object{
        {"performed", true},
        {"precision", "fp32 (both)"},
        {"threads", int64_t(threads)},
        {"caches", "warm"},
        {"rounds", rounds},
        {"method", "round robin ours, oneDNN in one process, median and best"},
        {"settle_seconds_before_each_round", threads > 1 ? 0.3 : 0.0},
        {"tensorop_gflops_median", cmp.oursMedian},
        {"tensorop_gflops_best", cmp.oursBest},
        {"onednn", cmp.haveOneDNN ? oneDNNVersion() : std::string("not built in")},
        {"onednn_implementation", cmp.onednnImplementation},
        {"onednn_layouts", "source and destination NHWC, weights in the "
                           "primitive's preferred layout (format_tag::any), "
                           "reordered once before timing"},
        {"onednn_gflops_median",
         cmp.haveOneDNN ? json::Value(cmp.onednnMedian) : json::Value(nullptr)},
        {"onednn_gflops_best",
         cmp.haveOneDNN ? json::Value(cmp.onednnBest) : json::Value(nullptr)},
        {"onednn_max_error_ratio",
         cmp.haveOneDNN ? json::Value(cmp.onednn.maxRatio)
                        : json::Value(nullptr)},
        {"ratio_vs_onednn_median",
         cmp.haveOneDNN ? json::Value(cmp.oursMedian / cmp.onednnMedian)
                        : json::Value(nullptr)},
        {peakGiven ? "given_fma_peak_gflops" : "measured_fma_peak_gflops",
         peak},
        {"best_sample_above_peak", cmp.fasterThanPeak},
        {"cpu", cpuModelName() + " (" + cpuFamilyModel() + ")"}};
  if (cmp.timed && cmp.havePrepacked) {
    out.timing["prepacked_gflops_median"] = cmp.prepackedMedian;
    out.timing["prepacked_gflops_best"] = cmp.prepackedBest;
    out.timing["prepacked_method"] =
        "NAME_prepacked in the same rounds, the filter packed once before "
        "timing (like oneDNN's reordered weights: the like-for-like "
        "comparison)";
    out.timing["prepacked_ratio_vs_onednn_median"] =
        cmp.haveOneDNN ? json::Value(cmp.prepackedMedian / cmp.onednnMedian)
                       : json::Value(nullptr);
    out.timing["pack_filter_seconds_median"] = cmp.packSeconds;
  }

  std::string exact =
      cmp.exactMismatches >= 0
          ? std::to_string(cmp.exactMismatches) + " mismatches"
          : std::string("not applicable (R*S*C >= 2^20)");
  out.markdown =
      formatv("The shipped object `{0}.o` was loaded and run: output "
              "pre-filled with NaN between guard canaries and a PROT_NONE "
              "page, fp64 reference of the same inputs (seed {1}; im2col + "
              "dgemm), bound {2}.\n\n- max error / bound: {3:E2} ({4} "
              "elements over the bound)\n- small-integer inputs (exact): "
              "{5}\n- guards: {6}\n- result: **{7}**\n\n",
              name, seed, bound, cmp.before.maxRatio, cmp.before.failures(),
              exact, cmp.guardsIntact ? "intact" : "VIOLATED",
              out.verified ? "passed" : "FAILED: " + why)
          .str();
  out.summary = formatv("  verified: max error/bound {0:E2}, exact test {1} "
                        "-> {2}\n",
                        cmp.before.maxRatio, exact,
                        out.verified ? "passed" : "FAILED: " + why)
                    .str();
  if (cmp.havePrepacked) {
    std::string line = formatv(
        "{0}_pack_filter + {0}_prepacked ({1} bytes packed): max error/bound "
        "{2:E2}, {3} over the bound, exact test {4} mismatches, guards {5} "
        "-> {6}",
        name, cmp.packedBytes, cmp.prepackedBefore.maxRatio,
        cmp.prepackedBefore.failures(), cmp.prepackedExactMismatches,
        cmp.prepackedGuardsIntact ? "intact" : "VIOLATED",
        cmp.prepackedVerified() ? "passed" : "FAILED");
    out.summary += "  " + line + "\n";
    out.markdown += "- prepacked entry: " + line + "\n\n";
  }
  if (cmp.timed && cmp.haveOneDNN) {
    out.markdown +=
        formatv("## Speed ({0} thread(s), fp32 on both sides, warm caches, "
                "{1} round-robin rounds)\n\n| | median GFLOP/s | best "
                "GFLOP/s |\n| --- | --- | --- |\n| TensorOp | {2:F1} | {3:F1} "
                "|\n| {4} convolution (`{5}`; NHWC, weights reordered once) "
                "| {6:F1} | {7:F1} |\n\nRatio of medians: **{8:F2}x**. "
                "Machine: {9}; {11} FMA peak {10:F1} GFLOP/s per core.{12}\n",
                threads, rounds, cmp.oursMedian, cmp.oursBest,
                oneDNNVersion(), cmp.onednnImplementation, cmp.onednnMedian,
                cmp.onednnBest, cmp.oursMedian / cmp.onednnMedian,
                cpuModelName() + " (" + cpuFamilyModel() + ")",
                threads ? peak / threads : 0,
                peakGiven ? "given" : "measured",
                cmp.fasterThanPeak
                    ? " **The best sample is above that peak**: the result "
                      "verified before and after timing, so the peak figure "
                      "is suspect; treat these timings with care."
                    : "")
            .str();
    out.summary += formatv("  speed: {0:F1} GFLOP/s vs oneDNN {1:F1} "
                           "(median, {2} thread(s)): {3:F2}x{4}\n",
                           cmp.oursMedian, cmp.onednnMedian, threads,
                           cmp.oursMedian / cmp.onednnMedian,
                           cmp.fasterThanPeak
                               ? " (best sample above the FMA peak: "
                                 "timings suspect)"
                               : "")
                       .str();
    if (cmp.havePrepacked) {
      std::string line = formatv(
          "{0}_prepacked (filter packed once, as oneDNN's weights): {1:F1} "
          "GFLOP/s median, {2:F2}x oneDNN (like for like), {3:F2}x {0}; one "
          "{0}_pack_filter call {4:F1} us",
          name, cmp.prepackedMedian, cmp.prepackedMedian / cmp.onednnMedian,
          cmp.prepackedMedian / cmp.oursMedian, cmp.packSeconds * 1e6);
      out.summary += "  " + line + "\n";
      out.markdown += "\n" + line + ", same rounds.\n";
    }
  } else if (cmp.timed) {
    out.markdown += formatv("## Speed\n\nTensorOp {0:F1} GFLOP/s median "
                            "({1} thread(s)); no baseline: this build has "
                            "no oneDNN.\n",
                            cmp.oursMedian, threads)
                        .str();
  }
  return out;
}

ConvObjectCheck
tensorop::checkEpilogueConvObject(void *fn, const Conv2DShape &s,
                                  ArrayRef<std::string> steps, StringRef name,
                                  StringRef objectPath, unsigned seed,
                                  const ConvPrepackedEntries *prepacked) {
  ConvObjectCheck out;
  EpilogueConvCheck check = checkEpilogueConv(fn, s, steps, seed);
  if (!check.error.empty()) {
    out.error = check.error;
    return out;
  }
  // The prepacked entry (same epilogue operands, the packed filter in the
  // filter's place) on the same inputs.
  std::optional<EpilogueConvCheck> packedCheck;
  if (prepacked && prepacked->complete()) {
    packedCheck = checkEpilogueConv(
        reinterpret_cast<void *>(prepacked->run), s, steps, seed,
        prepacked->pack, prepacked->packedSize());
    if (!packedCheck->error.empty()) {
      out.error = packedCheck->error;
      return out;
    }
  }
  out.verified =
      check.failures == 0 && (!packedCheck || packedCheck->failures == 0);
  json::Array stepList;
  for (const std::string &step : steps)
    stepList.push_back(step);
  out.verification = json::Object{
      {"performed", true},
      {"object", objectPath},
      {"seed", int64_t(seed)},
      {"inputs", "seeded uniform [-1, 1) (input, filter, bias, residual)"},
      {"epilogue", std::move(stepList)},
      {"reference", "fp64 of the same fp32 inputs: im2col of each image and "
                    "OpenBLAS dgemm with the HWCF filter, then the "
                    "epilogue's steps in fp64"},
      {"bound", check.bound},
      {"output_prefill", "NaN"},
      {"max_error_ratio", check.maxRatio},
      {"elements_over_bound", check.failures},
      {"passed", out.verified}};
  if (packedCheck)
    out.verification["prepacked"] = json::Object{
        {"entries", (name + "_pack_filter, " + name + "_prepacked").str()},
        {"method", "the filter packed into a NaN-prefilled buffer, then the "
                   "prepacked entry with the same bias / residual on a "
                   "NaN-prefilled output"},
        {"max_error_ratio", packedCheck->maxRatio},
        {"elements_over_bound", packedCheck->failures},
        {"passed", packedCheck->failures == 0}};
  out.timing = json::Object{
      {"performed", false},
      {"reason", "not timed: no baseline computes the same fused epilogue "
                 "yet"}};
  out.markdown =
      formatv("The shipped object `{0}.o` was loaded and run: output "
              "pre-filled with NaN, fp64 reference of the same inputs (seed "
              "{1}; im2col + dgemm, then the epilogue's steps), bound {2}."
              "\n\n- max error / bound: {3:E2} ({4} elements over the "
              "bound)\n- result: **{5}**\n\nNot timed: no baseline computes "
              "the same fused epilogue yet.\n",
              name, seed, check.bound, check.maxRatio, check.failures,
              out.verified ? "passed" : "FAILED")
          .str();
  out.summary = formatv("  verified (with the epilogue): max error/bound "
                        "{0:E2}, {1} elements over it -> {2}; not timed (no "
                        "baseline with the same epilogue yet)\n",
                        check.maxRatio, check.failures,
                        out.verified ? "passed" : "FAILED")
                    .str();
  if (packedCheck) {
    std::string line =
        formatv("{0}_pack_filter + {0}_prepacked (with the epilogue): max "
                "error/bound {1:E2}, {2} elements over it -> {3}",
                name, packedCheck->maxRatio, packedCheck->failures,
                packedCheck->failures == 0 ? "passed" : "FAILED")
            .str();
    out.summary += "  " + line + "\n";
    out.markdown += "\n- prepacked entry: " + line + "\n";
  }
  return out;
}
