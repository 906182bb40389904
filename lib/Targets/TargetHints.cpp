//===- TargetHints.cpp - Read and validate hints/<target>.json ------------===//

#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Targets/HostHints.h"
#include "tensorop/Support/DataDir.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/TargetParser/Host.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

using namespace mlir;
using namespace mlir::tensorop;
using llvm::json::Object;

int64_t TargetHints::cacheBytes(int level) const {
  for (const CacheLevel &c : caches)
    if (c.level == level)
      return c.sizeBytes;
  return 0;
}

TargetAttr TargetHints::toAttr(MLIRContext *ctx) const {
  return TargetAttr::get(ctx, name, triple, cpu, features, vectorBits,
                         vectorRegisters);
}

std::string mlir::tensorop::defaultHintsDir() {
  if (const char *env = std::getenv("TENSOROP_HINTS_DIR"))
    return env;
  return dataPath("hints");
}

llvm::ArrayRef<llvm::StringLiteral> mlir::tensorop::supportedCpuTargets() {
  static constexpr llvm::StringLiteral targets[] = {"x86-avx512", "x86-avx2",
                                                    "riscv-rvv", "arm-neon"};
  return targets;
}

llvm::ArrayRef<llvm::StringLiteral> mlir::tensorop::cpuTargetVariants() {
  static constexpr llvm::StringLiteral variants[] = {"riscv-rvv-vlen256"};
  return variants;
}

bool mlir::tensorop::isCpuPipelineTarget(llvm::StringRef target) {
  return llvm::is_contained(supportedCpuTargets(), target) ||
         llvm::is_contained(cpuTargetVariants(), target);
}

llvm::ArrayRef<llvm::StringLiteral> mlir::tensorop::supportedGpuTargets() {
  static constexpr llvm::StringLiteral targets[] = {"nvidia-sm80",
                                                    "nvidia-sm90"};
  return targets;
}

llvm::Expected<std::string>
mlir::tensorop::resolveTargetName(llvm::StringRef target) {
  if (target != "host")
    return target.str();
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto has = [&](llvm::StringRef f) { return features.lookup(f); };
  if (has("avx512f") && has("avx512bw") && has("avx512vl") && has("bmi2"))
    return std::string("x86-avx512");
  if (has("avx2") && has("fma") && has("bmi2"))
    return std::string("x86-avx2");
  return llvm::createStringError(
      "target=host: this CPU (" + llvm::sys::getHostCPUName().str() +
      ") has neither AVX-512 nor AVX2+FMA; name a target explicitly");
}

namespace {
const OptionalIntegerHint kOptionalBlockingFields[] = {
    {"b_block_l2_share_a_streamed", &CpuFacts::bBlockL2ShareAStreamed,
     &TargetHints::bBlockL2ShareAStreamed, 1, 64},
    {"one_k_block_max_k", &CpuFacts::oneKBlockMaxK, &TargetHints::oneKBlockMaxK,
     1, 65536},
    {"b_in_place_max_row_tiles", &CpuFacts::bInPlaceMaxRowTiles,
     &TargetHints::bInPlaceMaxRowTiles, 0, 1024},
    {"few_rows_band_rows", &CpuFacts::fewRowsBandRows,
     &TargetHints::fewRowsBandRows, 1, 65536},
    {"few_rows_band_max_rows", &CpuFacts::fewRowsBandMaxRows,
     &TargetHints::fewRowsBandMaxRows, 0, 64},
    {"small_min_tail_accumulators", &CpuFacts::smallMinTailAccumulators,
     &TargetHints::smallMinTailAccumulators, 0, 64},
    {"b_panel_l1_max_mr", &CpuFacts::bPanelL1MaxMr, &TargetHints::bPanelL1MaxMr,
     0, 64},
    {"b_in_l2_in_place_max_rows", &CpuFacts::bInL2InPlaceMaxRows,
     &TargetHints::bInL2InPlaceMaxRows, 0, 65536},
    {"band_rows_per_l1_set", &CpuFacts::bandRowsPerL1Set,
     &TargetHints::bandRowsPerL1Set, 0, 1024},
    {"few_rows_prefetch_tiles_in_cache", &CpuFacts::fewRowsPrefetchTilesInCache,
     &TargetHints::fewRowsPrefetchTilesInCache, 0, 8},
    {"few_rows_prefetch_tiles_past_l2", &CpuFacts::fewRowsPrefetchTilesPastL2,
     &TargetHints::fewRowsPrefetchTilesPastL2, 0, 8},
    {"few_rows_thin_in_cache_max_b_bytes",
     &CpuFacts::fewRowsThinInCacheMaxBBytes,
     &TargetHints::fewRowsThinInCacheMaxBBytes, 0, int64_t(1) << 40},
    {"few_rows_wide_band_rows", &CpuFacts::fewRowsWideBandRows,
     &TargetHints::fewRowsWideBandRows, 0, 1 << 20},
    {"c_strip_l3_pct", &CpuFacts::cStripL3Pct, &TargetHints::cStripL3Pct, 0,
     400},
    {"whole_b_block_min_rows", &CpuFacts::wholeBBlockMinRows,
     &TargetHints::wholeBBlockMinRows, 0, 1 << 30},
    {"kdot_n_tail_min_saving_pct", &CpuFacts::kdotNTailMinSavingPct,
     &TargetHints::kdotNTailMinSavingPct, 0, 100},
    {"in_place_k_blocks_min_gain_pct", &CpuFacts::inPlaceKBlocksMinGainPct,
     &TargetHints::inPlaceKBlocksMinGainPct, 0, 100},
    {"few_rows_b_cached_max_bytes", &CpuFacts::fewRowsBCachedMaxBytes,
     &TargetHints::fewRowsBCachedMaxBytes, 0, int64_t(1) << 40},
    {"few_rows_b_cached_max_bytes_threaded",
     &CpuFacts::fewRowsBCachedMaxBytesThreaded,
     &TargetHints::fewRowsBCachedMaxBytesThreaded, 0, int64_t(1) << 40},
    {"b_in_half_l2_in_place", &CpuFacts::bInHalfL2InPlace,
     &TargetHints::bInHalfL2InPlace, 0, 1},
    {"kdot_max_columns", &CpuFacts::kdotMaxColumns,
     &TargetHints::kdotMaxColumns, 0, 16},
    {"kdot_two_passes_max_a_bytes", &CpuFacts::kdotTwoPassesMaxABytes,
     &TargetHints::kdotTwoPassesMaxABytes, 0, int64_t(1) << 40},
    {"kdot_n_tail_max_a_bytes", &CpuFacts::kdotNTailMaxABytes,
     &TargetHints::kdotNTailMaxABytes, 0, int64_t(1) << 40},
    {"few_rows_band_max_threads", &CpuFacts::fewRowsBandMaxThreads,
     &TargetHints::fewRowsBandMaxThreads, 0, 1024},
    {"few_rows_band_l1_pct", &CpuFacts::fewRowsBandL1Pct,
     &TargetHints::fewRowsBandL1Pct, 0, 100},
    {"few_rows_prefetch_spread", &CpuFacts::fewRowsPrefetchSpread,
     &TargetHints::fewRowsPrefetchSpread, 0, 16},
    {"one_column_block_b_l2_pct", &CpuFacts::oneColumnBlockBL2Pct,
     &TargetHints::oneColumnBlockBL2Pct, 0, 100},
};
const OptionalIntegerHint kOptionalGemvIntegers[] = {
    {"rows", &CpuFacts::gemvRows, &TargetHints::gemvRows, 1, 16},
    {"rows_threaded", &CpuFacts::gemvRowsThreaded,
     &TargetHints::gemvRowsThreaded, 1, 16},
    {"band_vectors", &CpuFacts::gemvBandVectors, &TargetHints::gemvBandVectors,
     1, 7},
};

const OptionalFlagHint kOptionalGemvFlags[] = {
    {"bands_in_l3", &CpuFacts::gemvBandsInL3, &TargetHints::gemvBandsInL3},
    {"column_prefetch", &CpuFacts::gemvColumnPrefetch,
     &TargetHints::gemvColumnPrefetch},
};
} // namespace

llvm::ArrayRef<OptionalIntegerHint> mlir::tensorop::optionalBlockingFields() {
  return kOptionalBlockingFields;
}

llvm::ArrayRef<OptionalIntegerHint> mlir::tensorop::optionalGemvIntegers() {
  return kOptionalGemvIntegers;
}

llvm::ArrayRef<OptionalFlagHint> mlir::tensorop::optionalGemvFlags() {
  return kOptionalGemvFlags;
}

namespace {

/// Walks a JSON document and reports the first missing or ill-typed field
/// with its path, e.g. "caches[1].size_bytes".
class HintsReader {
public:
  HintsReader(llvm::StringRef file) : file(file) {}

  llvm::Error fail(const llvm::Twine &field, const llvm::Twine &what) {
    return llvm::createStringError(file + ": field '" + field + "' " + what);
  }

  llvm::Error str(const Object &o, llvm::StringRef key, const Twine &path,
                  std::string &out) {
    std::optional<llvm::StringRef> v = o.getString(key);
    if (!v)
      return fail(path.concat(key), "is missing or not a string");
    if (v->empty())
      return fail(path.concat(key), "must not be empty");
    out = v->str();
    return llvm::Error::success();
  }

  llvm::Error num(const Object &o, llvm::StringRef key, const Twine &path,
                  double &out, double min, double max) {
    std::optional<double> v = o.getNumber(key);
    if (!v)
      return fail(path.concat(key), "is missing or not a number");
    if (*v < min || *v > max)
      return fail(path.concat(key),
                  llvm::formatv("is {0}, outside [{1}, {2}]", *v, min, max)
                      .str());
    out = *v;
    return llvm::Error::success();
  }

  llvm::Error integer(const Object &o, llvm::StringRef key, const Twine &path,
                      int64_t &out, int64_t min, int64_t max) {
    double d;
    if (llvm::Error e = num(o, key, path, d, min, max))
      return e;
    if (d != static_cast<double>(static_cast<int64_t>(d)))
      return fail(path.concat(key), "must be an integer");
    out = static_cast<int64_t>(d);
    return llvm::Error::success();
  }

  const Object *obj(const Object &o, llvm::StringRef key) {
    return o.getObject(key);
  }

  /// An optional number: left unset where the key is absent.
  template <typename T>
  llvm::Error optional(const Object &o, llvm::StringRef key,
                       const Twine &path, std::optional<T> &out, T min,
                       T max) {
    if (!o.get(key))
      return llvm::Error::success();
    T v;
    if constexpr (std::is_same_v<T, double>) {
      if (llvm::Error e = num(o, key, path, v, min, max))
        return e;
    } else {
      if (llvm::Error e = integer(o, key, path, v, min, max))
        return e;
    }
    out = v;
    return llvm::Error::success();
  }

  /// An optional number into a field of TargetHints, which keeps its
  /// default (0: not measured) where the key is absent.
  template <typename T>
  llvm::Error optionalField(const Object &o, llvm::StringRef key,
                            const Twine &path, T &out, T min, T max) {
    std::optional<T> v;
    if (llvm::Error e = optional(o, key, path, v, min, max))
      return e;
    if (v)
      out = *v;
    return llvm::Error::success();
  }

  llvm::Error optionalBool(const Object &o, llvm::StringRef key,
                           const Twine &path, std::optional<bool> &out) {
    if (!o.get(key))
      return llvm::Error::success();
    out = o.getBoolean(key);
    if (!out)
      return fail(path.concat(key), "is not a boolean");
    return llvm::Error::success();
  }

  /// The "cpus" object: per-CPU facts target=host puts over the file's.
  llvm::Error cpuFacts(const Object &root,
                       std::map<std::string, CpuFacts> &out) {
    const llvm::json::Value *cpus = root.get("cpus");
    if (!cpus)
      return llvm::Error::success();
    const Object *all = cpus->getAsObject();
    if (!all)
      return fail("cpus", "must be an object (LLVM CPU name -> facts)");
    for (const auto &[key, value] : *all) {
      std::string name = llvm::StringRef(key).str();
      std::string p = "cpus." + name;
      const Object *o = value.getAsObject();
      if (!o)
        return fail(p, "must be an object");
      CpuFacts f;
      if (llvm::Error e = str(*o, "source", p + ".", f.source))
        return e;
      if (const llvm::json::Value *v = o->get("fma")) {
        const Object *fma = v->getAsObject();
        if (!fma)
          return fail(p + ".fma", "must be an object");
        if (llvm::Error e = optional(*fma, "latency_cycles", p + ".fma.",
                                     f.fmaLatency, 1.0, 64.0))
          return e;
        if (llvm::Error e =
                optional(*fma, "independent_accumulators_for_peak",
                         p + ".fma.", f.accumulatorsForPeak, int64_t(1),
                         int64_t(256)))
          return e;
        if (llvm::Error e =
                optional(*fma, "conv_accumulators_for_peak", p + ".fma.",
                         f.convAccumulatorsForPeak, int64_t(1), int64_t(256)))
          return e;
        if (llvm::Error e = optional(
                *fma, "multi_vector_accumulators_for_peak", p + ".fma.",
                f.multiVectorAccumulatorsForPeak, int64_t(1), int64_t(256)))
          return e;
        if (llvm::Error e = optional(*fma, "datapath_bits", p + ".fma.",
                                     f.datapathBits, int64_t(32),
                                     int64_t(4096)))
          return e;
      }
      if (const llvm::json::Value *v = o->get("broadcast")) {
        const Object *bc = v->getAsObject();
        if (!bc)
          return fail(p + ".broadcast", "must be an object");
        if (llvm::Error e = optional(*bc, "min_fmas_per_explicit_broadcast",
                                     p + ".broadcast.", f.minFmasPerBroadcast,
                                     int64_t(1), int64_t(64)))
          return e;
        if (llvm::Error e = optionalBool(*bc, "embedded_full_rate",
                                         p + ".broadcast.",
                                         f.embeddedBroadcast))
          return e;
        if (llvm::Error e =
                optionalBool(*bc, "explicit_takes_fp_slot", p + ".broadcast.",
                             f.explicitBroadcastTakesFpSlot))
          return e;
        if (llvm::Error e = optional(*bc, "embedded_below_fmas",
                                     p + ".broadcast.", f.embeddedBelowFmas,
                                     int64_t(1), int64_t(64)))
          return e;
      }
      if (const llvm::json::Value *v = o->get("blocking")) {
        const Object *b = v->getAsObject();
        if (!b)
          return fail(p + ".blocking", "must be an object");
        if (llvm::Error e =
                optional(*b, "a_panel_l1_share", p + ".blocking.",
                         f.aPanelL1Share, int64_t(1), int64_t(64)))
          return e;
        if (llvm::Error e =
                optional(*b, "b_block_l2_share", p + ".blocking.",
                         f.bBlockL2Share, int64_t(1), int64_t(64)))
          return e;
        for (const OptionalIntegerHint &field : kOptionalBlockingFields)
          if (llvm::Error e = optional(*b, field.key, p + ".blocking.",
                                       f.*field.fact, field.min, field.max))
            return e;
      }
      if (const llvm::json::Value *v = o->get("gemv")) {
        const Object *g = v->getAsObject();
        if (!g)
          return fail(p + ".gemv", "must be an object");
        for (const OptionalIntegerHint &field : kOptionalGemvIntegers)
          if (llvm::Error e = optional(*g, field.key, p + ".gemv.",
                                       f.*field.fact, field.min, field.max))
            return e;
        for (const OptionalFlagHint &field : kOptionalGemvFlags)
          if (llvm::Error e =
                  optionalBool(*g, field.key, p + ".gemv.", f.*field.fact))
            return e;
      }
      if (llvm::Error e = optional(*o, "peak_gflops_f32_per_core", p + ".",
                                   f.peakGflopsF32PerCore, 0.001, 1e6))
        return e;
      if (const llvm::json::Value *v = o->get("threads")) {
        const Object *th = v->getAsObject();
        if (!th)
          return fail(p + ".threads", "must be an object");
        if (llvm::Error e = optional(*th, "team_cost_us", p + ".threads.",
                                     f.teamCostUs, 0.001, 1e6))
          return e;
      }
      out[name] = std::move(f);
    }
    return llvm::Error::success();
  }

  std::string file;
};
} // namespace

llvm::Expected<TargetHints>
mlir::tensorop::loadTargetHints(llvm::StringRef target, llvm::StringRef dir) {
  std::string directory = dir.empty() ? defaultHintsDir() : dir.str();
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, target + ".json");
  if (!llvm::sys::fs::exists(path)) {
    std::string known;
    for (llvm::StringRef t : supportedCpuTargets())
      known += (known.empty() ? "" : ", ") + t.str();
    return llvm::createStringError("unknown target '" + target +
                                   "': no hints file " + path +
                                   " (CPU targets: host, " + known + ")");
  }
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return llvm::createStringError("cannot read " + path + ": " +
                                   buffer.getError().message());
  return parseTargetHints((*buffer)->getBuffer(), target, path);
}

llvm::Expected<TargetHints>
mlir::tensorop::parseTargetHints(llvm::StringRef text, llvm::StringRef target,
                                 llvm::StringRef path) {
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(text);
  if (!doc)
    return llvm::createStringError(path + ": invalid JSON: " +
                                   llvm::toString(doc.takeError()));
  HintsReader r(path);
  const Object *root = doc->getAsObject();
  if (!root)
    return r.fail("<root>", "must be a JSON object");

  TargetHints h;
  h.path = path.str();
  std::string schema;
  if (llvm::Error e = r.str(*root, "schema", "", schema))
    return std::move(e);
  if (schema != "tensorop-hints/1")
    return r.fail("schema", "is '" + schema + "', expected 'tensorop-hints/1'");
  if (llvm::Error e = r.str(*root, "target", "", h.name))
    return std::move(e);
  if (h.name != target)
    return r.fail("target", "is '" + h.name + "' but the file is for '" +
                                target + "'");
  for (auto [key, out] : {std::pair<llvm::StringRef, std::string *>{
                              "arch", &h.arch},
                          {"triple", &h.triple},
                          {"cpu", &h.cpu},
                          {"features", &h.features}})
    if (llvm::Error e = r.str(*root, key, "", *out))
      return std::move(e);

  const Object *vec = r.obj(*root, "vector");
  if (!vec)
    return r.fail("vector", "is missing or not an object");
  if (llvm::Error e = r.str(*vec, "isa", "vector.", h.isa))
    return std::move(e);
  if (llvm::Error e = r.integer(*vec, "bits", "vector.", h.vectorBits, 64, 2048))
    return std::move(e);
  if (h.vectorBits % 32 != 0)
    return r.fail("vector.bits", "must be a multiple of 32");
  if (llvm::Error e =
          r.integer(*vec, "registers", "vector.", h.vectorRegisters, 1, 256))
    return std::move(e);

  const Object *fma = r.obj(*root, "fma");
  if (!fma)
    return r.fail("fma", "is missing or not an object");
  if (llvm::Error e = r.num(*fma, "latency_cycles", "fma.", h.fmaLatency, 1, 64))
    return std::move(e);
  if (llvm::Error e = r.integer(*fma, "independent_accumulators_for_peak",
                                "fma.", h.accumulatorsForPeak, 1, 256))
    return std::move(e);
  if (llvm::Error e =
          r.optionalField(*fma, "conv_accumulators_for_peak", "fma.",
                          h.convAccumulatorsForPeak, int64_t(1), int64_t(256)))
    return std::move(e);
  if (llvm::Error e = r.optionalField(
          *fma, "multi_vector_accumulators_for_peak", "fma.",
          h.multiVectorAccumulatorsForPeak, int64_t(1), int64_t(256)))
    return std::move(e);
  // Optional: the width of the FP datapaths (AVX-512 on 256-bit pipes:
  // Zen 4). Absent: the vector width.
  h.datapathBits = h.vectorBits;
  if (fma->get("datapath_bits")) {
    if (llvm::Error e = r.integer(*fma, "datapath_bits", "fma.", h.datapathBits,
                                  32, h.vectorBits))
      return std::move(e);
    if (h.vectorBits % h.datapathBits != 0 || h.datapathBits % 32 != 0)
      return r.fail("fma.datapath_bits",
                    "must be a multiple of 32 that divides vector.bits");
  }

  if (const Object *bc = r.obj(*root, "broadcast")) {
    if (llvm::Error e = r.integer(*bc, "min_fmas_per_explicit_broadcast",
                                  "broadcast.", h.minFmasPerBroadcast, 1, 64))
      return std::move(e);
    h.embeddedBroadcast = bc->getBoolean("embedded_full_rate").value_or(false);
    h.explicitBroadcastTakesFpSlot =
        bc->getBoolean("explicit_takes_fp_slot").value_or(false);
    if (llvm::Error e =
            r.optionalField(*bc, "embedded_below_fmas", "broadcast.",
                            h.embeddedBelowFmas, int64_t(1), int64_t(64)))
      return std::move(e);
  }

  // Optional: the bf16 dot product (vdpbf16ps) the bf16 GEMM kernel needs.
  // A target without it refuses bf16 GEMMs (MatmulSupport.cpp).
  if (const Object *bf16 = r.obj(*root, "bf16_dot")) {
    if (llvm::Error e = r.str(*bf16, "instruction", "bf16_dot.",
                              h.bf16DotInstruction))
      return std::move(e);
    if (llvm::Error e = r.str(*bf16, "feature", "bf16_dot.", h.bf16DotFeature))
      return std::move(e);
    if (llvm::Error e = r.str(*bf16, "cpus", "bf16_dot.", h.bf16DotCpus))
      return std::move(e);
  }

  // Optional: the cache shares of the packed GEMM path's blocks (the
  // defaults, 4 and 2, where a target measured nothing else).
  if (const Object *blocking = r.obj(*root, "blocking")) {
    if (llvm::Error e = r.integer(*blocking, "a_panel_l1_share", "blocking.",
                                  h.aPanelL1Share, 1, 64))
      return std::move(e);
    if (llvm::Error e = r.integer(*blocking, "b_block_l2_share", "blocking.",
                                  h.bBlockL2Share, 1, 64))
      return std::move(e);
    for (const OptionalIntegerHint &field : kOptionalBlockingFields)
      if (llvm::Error e = r.optionalField(*blocking, field.key, "blocking.",
                                          h.*field.hint, field.min, field.max))
        return std::move(e);
  }

  // Optional: how a GEMV sweeps B (SkinnyGemm.cpp; the defaults where a
  // target measured nothing else).
  if (const Object *gemv = r.obj(*root, "gemv")) {
    for (const OptionalIntegerHint &field : kOptionalGemvIntegers)
      if (llvm::Error e = r.optionalField(*gemv, field.key, "gemv.",
                                          h.*field.hint, field.min, field.max))
        return std::move(e);
    for (const OptionalFlagHint &field : kOptionalGemvFlags) {
      std::optional<bool> flag;
      if (llvm::Error e = r.optionalBool(*gemv, field.key, "gemv.", flag))
        return std::move(e);
      if (flag)
        h.*field.hint = *flag;
    }
  }

  const llvm::json::Array *caches = root->getArray("caches");
  if (!caches || caches->empty())
    return r.fail("caches", "is missing or empty");
  for (auto [i, v] : llvm::enumerate(*caches)) {
    std::string p = ("caches[" + llvm::Twine(i) + "].").str();
    const Object *c = v.getAsObject();
    if (!c)
      return r.fail("caches[" + llvm::Twine(i) + "]", "must be an object");
    CacheLevel level;
    int64_t lvl;
    if (llvm::Error e = r.integer(*c, "level", p, lvl, 1, 4))
      return std::move(e);
    level.level = lvl;
    if (llvm::Error e =
            r.integer(*c, "size_bytes", p, level.sizeBytes, 1024, 1ll << 40))
      return std::move(e);
    if (llvm::Error e = r.integer(*c, "ways", p, level.ways, 1, 1024))
      return std::move(e);
    if (llvm::Error e = r.integer(*c, "line_bytes", p, level.lineBytes, 16, 1024))
      return std::move(e);
    if (llvm::Error e = r.integer(*c, "shared_by_cores", p, level.sharedByCores,
                                  1, 1 << 20))
      return std::move(e);
    h.caches.push_back(level);
  }
  if (!h.cacheBytes(1) || !h.cacheBytes(2))
    return r.fail("caches", "must describe at least levels 1 and 2");
  if (llvm::Error e = r.integer(*root, "cores", "", h.cores, 1, 1 << 20))
    return std::move(e);
  if (llvm::Error e = r.num(*root, "peak_gflops_f32_per_core", "",
                            h.peakGflopsF32PerCore, 0.001, 1e6))
    return std::move(e);
  // Optional: what an OpenMP team costs a call (ThreadCount.h).
  if (const Object *threads = r.obj(*root, "threads")) {
    if (llvm::Error e = r.optionalField(*threads, "team_cost_us", "threads.",
                                        h.teamCostUs, 0.001, 1e6))
      return std::move(e);
  }
  if (llvm::Error e = r.cpuFacts(*root, h.cpuFacts))
    return std::move(e);
  // A CPU's datapath width obeys the file-level rule against this file's
  // vector width.
  for (const auto &[name, facts] : h.cpuFacts)
    if (facts.datapathBits &&
        (h.vectorBits % *facts.datapathBits != 0 ||
         *facts.datapathBits % 32 != 0 || *facts.datapathBits > h.vectorBits))
      return r.fail("cpus." + name + ".fma.datapath_bits",
                    "must be a multiple of 32 that divides vector.bits");
  return h;
}

llvm::Expected<TargetHints>
mlir::tensorop::loadHintsForTarget(llvm::StringRef target,
                                   llvm::StringRef dir) {
  llvm::Expected<std::string> resolved = resolveTargetName(target);
  if (!resolved)
    return resolved.takeError();
  llvm::Expected<TargetHints> hints = loadTargetHints(*resolved, dir);
  if (hints && target == "host")
    overlayHostMachine(*hints, readHostMachine());
  return hints;
}

std::string mlir::tensorop::targetFingerprint(llvm::StringRef targetName) {
  std::string model, family, number;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  auto value = [](const std::string &l) {
    size_t colon = l.find(':');
    return colon == std::string::npos ? std::string()
                                      : llvm::StringRef(l.substr(colon + 1))
                                            .trim()
                                            .str();
  };
  while (std::getline(in, line) && (model.empty() || family.empty() ||
                                    number.empty())) {
    llvm::StringRef key = llvm::StringRef(line).split(':').first.trim();
    if (key == "model name" && model.empty())
      model = value(line);
    else if (key == "cpu family" && family.empty())
      family = value(line);
    else if (key == "model" && number.empty())
      number = value(line);
  }
  if (model.empty())
    model = llvm::sys::getHostCPUName().str();
  return (targetName + ";" + model + ";family " + family + " model " + number)
      .str();
}

std::string mlir::tensorop::hintNumberText(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", v);
  return text;
}
