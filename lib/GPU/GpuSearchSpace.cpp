//===- GpuSearchSpace.cpp - The sketch space of one GEMM on a GPU ---------===//

#include "tensorop/GPU/GpuSearchSpace.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Support/IntMath.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <cmath>

using namespace mlir::tensorop;

namespace {
int64_t elemBytes(llvm::StringRef t) { return t == "f32" || t == "tf32" ? 4 : 2; }
} // namespace

GpuSearchSpace::GpuSearchSpace(const GpuGemmProblem &problem,
                               const GpuTarget &target,
                               const GpuSketchChoice &defaults)
    : p(problem), t(target), defaults(defaults) {
  if (defaults.kernel == "wgmma" && defaults.precision == "tf32")
    // The tf32 wgmma kernel runs without clusters, split-K or the smem
    // store (nvidia_wgmma_tf32.py).
    knobs = {kBlockM, kConsumers, kBlockN, kStages, kGroupM, kCtas};
  else if (defaults.kernel == "wgmma")
    knobs = {kBlockM,   kConsumers, kBlockN, kStages, kGroupM,
             kClusterM, kClusterN,  kSplitK, kCtas,   kStore};
  else if (defaults.kernel == "mma_sync")
    knobs = {kBlockM, kWarpsM, kBlockN, kWarpsN, kBlockK, kStages, kGroupM};
  else if (defaults.kernel == "gemv")
    knobs = {kBlockM, kBlockN, kBlockK, kWarpsN};
  else // ffma: tiles of 32..128 rows and columns, k-tiles of 16, split-K.
    knobs = {kBlockM, kBlockN, kStages, kSplitK, kGroupM};
}

llvm::StringRef GpuSearchSpace::knobName(unsigned knob) const {
  static constexpr llvm::StringLiteral names[] = {
      "block_m", "consumers", "warps_m", "block_n", "warps_n",
      "block_k", "stages",    "group_m", "ctas",    "cluster_m",
      "cluster_n", "split_k", "store"};
  return knob < knobs.size() ? names[knobs[knob]] : "?";
}

/// The value `knob` has in `prefix`, or the default's when it is not a knob
/// of this family or not decided yet.
int64_t GpuSearchSpace::get(Knob knob, llvm::ArrayRef<int64_t> prefix) const {
  for (size_t i = 0; i < knobs.size() && i < prefix.size(); ++i)
    if (knobs[i] == knob)
      return prefix[i];
  return valueOf(knob, defaults);
}

/// The sketch field of each knob, in the order of the Knob enumerators.
static constexpr int64_t GpuSketchChoice::*kFields[] = {
    &GpuSketchChoice::blockM,   &GpuSketchChoice::consumers,
    &GpuSketchChoice::warpsM,   &GpuSketchChoice::blockN,
    &GpuSketchChoice::warpsN,   &GpuSketchChoice::blockK,
    &GpuSketchChoice::stages,   &GpuSketchChoice::groupM,
    &GpuSketchChoice::ctas,     &GpuSketchChoice::clusterM,
    &GpuSketchChoice::clusterN, &GpuSketchChoice::splitK};

/// The store knob's values: the sketch's `store` string as an index.
/// "splitk_ws": the narrow tile's split-K through a global workspace.
static constexpr llvm::StringLiteral kStores[] = {"global", "smem_tma",
                                                  "splitk_ws"};

static int64_t storeIndex(llvm::StringRef store) {
  return store == kStores[1] ? 1 : store == kStores[2] ? 2 : 0;
}

/// Sets the field of `knob` in `c` to `value`.
static void setField(GpuSketchChoice &c, unsigned knob, int64_t value) {
  if (knob == GpuSearchSpace::storeKnob())
    c.store = kStores[value == 1 ? 1 : value == 2 ? 2 : 0].str();
  else
    c.*kFields[knob] = value;
}

int64_t GpuSearchSpace::valueOf(Knob knob, const GpuSketchChoice &c) const {
  static_assert(std::size(kFields) == kSplitK + 1,
                "one int64_t field per knob before kStore");
  if (knob == kStore)
    return storeIndex(c.store);
  return c.*kFields[knob];
}

std::vector<int64_t>
GpuSearchSpace::options(unsigned index, llvm::ArrayRef<int64_t> prefix) const {
  Knob knob = knobs[index];
  int64_t bm = get(kBlockM, prefix), bn = get(kBlockN, prefix);
  std::vector<int64_t> v;
  bool wgmma = defaults.kernel == "wgmma";
  // tf32 wgmma: C^T = B^T A^T, block_m is wgmma's N extent and block_n is
  // split into 64-row blocks of C^T over the consumers.
  bool wgmmaTf32 = wgmma && p.precision == "tf32";
  // bf16/f16 wgmma with block_m 8, 16 or 32: the few-rows kernel
  // (nvidia_wgmma_fewrows.py, C^T = B^T A^T), whose consumers split
  // block_n as the tf32 kernel's do; no clusters (but split-K) or smem store.
  bool fewRows = wgmma && !wgmmaTf32 && bm < 64;
  // ... and block_n 16 or 32 the narrow tiles of GEMMs of few columns
  // (B's box one 32- or 64-byte swizzle atom), under the same rules.
  bool fewCols = wgmma && !wgmmaTf32 && !fewRows && bn < 64;
  bool narrow = fewRows || fewCols;
  int64_t es = elemBytes(p.precision);
  if (defaults.kernel == "gemv")
    return gemvOptions(knob, prefix);
  // The FFMA kernel's tiles and buffers (nvidia_gemm_ffma.py: 2 through
  // registers, 3-4 by cp.async; 4 buffers of 128x128 take 66 KiB).
  if (defaults.kernel == "ffma" && knob == kBlockN && bm == 128)
    return {32, 64, 128, 256};
  if (defaults.kernel == "ffma" && (knob == kBlockM || knob == kBlockN))
    return {32, 64, 128};
  // FFMA split-K (sm_90 clusters of 2 or 4 CTAs, every tile split): where
  // every rank keeps a k-tile of 16 and the grid of few tiles leaves SMs
  // idle (a full wave of tiles gains nothing from splitting).
  if (defaults.kernel == "ffma" && knob == kSplitK) {
    std::vector<int64_t> fit = {1};
    int64_t kTiles = ceilDiv(p.k, 16);
    int64_t tiles = ceilDiv(p.m, bm) * ceilDiv(p.n, bn);
    for (int64_t sk : {2, 4})
      if (t.sm >= 90 && ceilDiv(kTiles, sk) * (sk - 1) < kTiles &&
          tiles < 2 * t.sms)
        fit.push_back(sk);
    return fit;
  }
  if (defaults.kernel == "ffma" && knob == kStages) {
    std::vector<int64_t> fit;
    for (int64_t s : {2, 3, 4})
      if (s * 16 * (bm + 4 + bn) * 4 <= t.maxSharedPerBlock &&
          (s > 2 || bn != 256)) // 128x256 only through cp.async
        fit.push_back(s);
    return fit;
  }
  switch (knob) {
  case kBlockM:
    for (int64_t x : wgmma ? std::vector<int64_t>{64, 128, 192, 256}
                           : std::vector<int64_t>{32, 64, 128, 256})
      v.push_back(x);
    // tf32 wgmma: N extents of 16 and 32 rows for GEMMs of few rows.
    if (wgmmaTf32 && !p.conv && p.m <= 32)
      v.insert(v.begin(), {16, 32});
    else if (wgmma && !p.conv && p.m <= 32)
      v.insert(v.begin(), {8, 16, 32});
    break;
  case kConsumers:
    for (int64_t c : {1, 2})
      if (wgmmaTf32 || fewRows || bm % (64 * c) == 0)
        v.push_back(c);
    break;
  case kWarpsM:
    for (int64_t w : {1, 2, 4})
      if (bm % (16 * w) == 0)
        v.push_back(w);
    break;
  case kBlockN:
    // bf16/f16 wgmma: narrow tiles for GEMMs of at most 32 columns.
    if (wgmma && !wgmmaTf32 && !fewRows && !p.conv && p.n <= 32)
      v = {16, 32};
    for (int64_t x : wgmma ? std::vector<int64_t>{64, 128, 192, 256}
                           : std::vector<int64_t>{32, 64, 128, 256}) {
      // wgmma: accumulators of one consumer thread (the emitter's limit).
      int64_t nc = get(kConsumers, prefix);
      if (wgmmaTf32 && (x % (64 * nc) || (x / nc / 64) * (bm / 2) > 128))
        continue;
      if (fewRows && x % (64 * nc))
        continue;
      if (wgmma && !wgmmaTf32 && !fewRows && (bm / nc / 64) * (x / 2) > 192)
        continue;
      v.push_back(x);
    }
    break;
  case kWarpsN: {
    int64_t wm = get(kWarpsM, prefix);
    for (int64_t w : {1, 2, 4, 8}) {
      if (bn % (16 * w) || wm * w > 16)
        continue;
      // mma.sync accumulators per thread: keep them in registers.
      int64_t acc = (bm / wm / 16) * (bn / w / 8) * 4;
      if (acc > 128)
        continue;
      v.push_back(w);
    }
    break;
  }
  case kBlockK: {
    // The emitter's cp.async split: every thread copies whole 16-byte
    // chunks of the A and B tiles.
    int64_t threads = 32 * get(kWarpsM, prefix) * get(kWarpsN, prefix);
    for (int64_t k : p.precision == "tf32" ? std::vector<int64_t>{8, 16, 32}
                                           : std::vector<int64_t>{16, 32, 64}) {
      int64_t ca = k * es / 16, cb = bn * es / 16;
      if ((bm * ca) % threads || threads % ca || (k * cb) % threads ||
          threads % cb)
        continue;
      v.push_back(k);
    }
    break;
  }
  case kSplitK: {
    // Split-K (bf16/f16 wgmma, no other cluster): 2 or 4 CTAs per split
    // tile (8 on the narrow block_n 32) where every one gets a k-tile, the
    // emitter's register rule holds for 4 (narrow tiles: each rank a slice
    // of 8-column groups, or split in 2 * block_n / 8 a group's row half),
    // and the stages hold the CTA's fp32 partial tile (it overlays them).
    v = {1};
    if (get(kClusterM, prefix) * get(kClusterN, prefix) > 1)
      break;
    int64_t kTiles = ceilDiv(p.k, 64);
    int64_t acc = (bm / get(kConsumers, prefix) / 64) * (bn / 2);
    for (int64_t sk : {2, 4, 8}) {
      if (ceilDiv(kTiles, sk) * (sk - 1) >= kTiles || (sk == 4 && acc > 96) ||
          (sk == 8 && !(fewCols && bn == 32)) ||
          (fewCols && (bn / 8) % sk && sk != bn / 4))
        continue;
      int64_t stages = get(kStages, prefix) * (bm + bn) * 64 * es;
      if (stages + 16 * get(kStages, prefix) + 16 <= t.maxSharedPerBlock &&
          stages >= bm * bn * 4)
        v.push_back(sk);
    }
    // The narrow tiles' split through a global workspace (store
    // "splitk_ws", no clusters): the builtin's number of slices, one unit
    // per SM, at most 24, every slice non-empty.
    if (fewCols) {
      int64_t g = std::min<int64_t>(24, t.sms / ceilDiv(p.m, bm));
      if (g >= 2 && ceilDiv(kTiles, g) * (g - 1) < kTiles &&
          !llvm::is_contained(v, g))
        v.push_back(g);
    }
    break;
  }
  case kStages:
    // The few-rows kernel's small stages: up to 16.
    for (int64_t s = 2; s <= (narrow ? 16 : 8); ++s) {
      int64_t smem =
          // wgmma: one 128-byte swizzle row of K per tile row and stage
          // (64 bf16/f16 or 32 tf32).
          wgmma ? s * (bm + bn) * 128 + 16 * s
                : s * ceilDiv(bm * (get(kBlockK, prefix) * es + 16) +
                                  get(kBlockK, prefix) * (bn * es + 32),
                              128) *
                      128;
      if (smem <= t.maxSharedPerBlock)
        v.push_back(s);
    }
    break;
  case kGroupM:
    v = {1, 2, 4, 8, 16};
    break;
  case kClusterM:
    // A cluster of two tiles down M shares B; pointless with one tile row.
    // Convolutions run without clusters.
    v = {1};
    if (!p.conv && !narrow && ceilDiv(p.m, bm) > 1)
      v.push_back(2);
    break;
  case kClusterN:
    v = {1};
    if (!p.conv && !narrow && get(kClusterM, prefix) == 1 &&
        ceilDiv(p.n, bn) > 1)
      v.push_back(2);
    break;
  case kStore: {
    // smem_tma takes two 8 KiB C buffers per consumer warpgroup: offered
    // where they fit beside the stages (with split-K: for its
    // data-parallel tiles, and two barriers more). Convolutions take it too.
    v = {0};
    if (fewCols) {
      // A narrow split either way (cluster or workspace); a split the
      // clusters cannot take only through the workspace. A and B must be
      // TMA-aligned (no pad copies beside the workspace).
      int64_t sk = get(kSplitK, prefix);
      bool aligned = (p.k * es) % 16 == 0 && (p.n * es) % 16 == 0 && !p.conv;
      if (sk != 1 && sk != 2 && sk != 4 && sk != 8)
        v.clear();
      if (sk > 1 && aligned)
        v.push_back(2);
      break;
    }
    // C's rows must be 16-byte aligned for its tensor map (else the
    // register store, at C's own stride, is the only store).
    if ((p.n * elemBytes(p.cType)) % 16 || narrow)
      break;
    GpuSketchChoice s = defaults;
    s.blockM = bm;
    s.blockN = bn;
    s.consumers = get(kConsumers, prefix);
    s.stages = get(kStages, prefix);
    s.store = "smem_tma";
    if (wgmma && wgmmaSharedBytes(s) + (get(kSplitK, prefix) > 1 ? 16 : 0) <=
                     t.maxSharedPerBlock)
      v.push_back(1);
    break;
  }
  case kCtas: {
    // The persistent grid: one CTA per SM, or two where they fit, in whole
    // clusters (the emitter rounds the same way).
    int64_t cm = get(kClusterM, prefix), cn = get(kClusterN, prefix);
    int64_t cs = cm * cn;
    if (int64_t sk = get(kSplitK, prefix); sk > 1) {
      int64_t tiles = ceilDiv(p.m, bm) * ceilDiv(p.n, bn);
      v = {std::min(tiles, t.sms / sk) * sk};
      break;
    }
    int64_t clusterTiles =
        ceilDiv(ceilDiv(p.m, bm), cm) * ceilDiv(ceilDiv(p.n, bn), cn);
    v = {std::min(clusterTiles, t.sms / cs) * cs,
         std::min(clusterTiles, 2 * t.sms / cs) * cs};
    break;
  }
  }
  llvm::sort(v);
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

/// The GEMV kernel's knobs (its rules: findGpuSketchViolation): rows per
/// CTA up to min(M, 8), column strips, chunk rows and warps within the
/// register budget.
std::vector<int64_t>
GpuSearchSpace::gemvOptions(Knob knob, llvm::ArrayRef<int64_t> prefix) const {
  std::vector<int64_t> v;
  int64_t bm = get(kBlockM, prefix);
  auto regsFit = [&](int64_t bk, int64_t warps) {
    int64_t regs = gemvThreadRegisters(p.precision, bm, bk);
    return regs <= std::min<int64_t>(255, 65536 / (32 * warps));
  };
  switch (knob) {
  case kBlockM:
    for (int64_t x : {1, 2, 4})
      if (x < p.m)
        v.push_back(x);
    v.push_back(std::min<int64_t>(p.m, 8));
    v.push_back(defaults.blockM);
    break;
  case kBlockN:
    v = {16, 32, 64};
    break;
  case kBlockK:
    for (int64_t bk : {8, 16})
      if (regsFit(bk, 4))
        v.push_back(bk);
    break;
  case kWarpsN:
    for (int64_t w : {4, 8, 16})
      if (regsFit(get(kBlockK, prefix), w))
        v.push_back(w);
    break;
  default:
    v.push_back(valueOf(knob, defaults));
    break;
  }
  llvm::sort(v);
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::optional<int64_t>
GpuSearchSpace::defaultValue(unsigned index,
                             llvm::ArrayRef<int64_t> prefix) const {
  int64_t want = valueOf(knobs[index], defaults);
  if (llvm::is_contained(options(index, prefix), want))
    return want;
  return std::nullopt;
}

double GpuSearchSpace::prior(unsigned index, llvm::ArrayRef<int64_t> prefix,
                             int64_t value) const {
  std::optional<int64_t> def = defaultValue(index, prefix);
  if (!def)
    return 0.5;
  if (value == *def)
    return 1.0;
  double a = double(value), b = double(*def);
  return 0.9 / (1.0 + std::abs(std::log2((a + 1) / (b + 1))));
}

GpuSketchChoice GpuSearchSpace::toChoice(llvm::ArrayRef<int64_t> v) const {
  GpuSketchChoice c = defaults;
  for (size_t i = 0; i < knobs.size() && i < v.size(); ++i)
    setField(c, knobs[i], v[i]);
  c.source = "tuner";
  return c;
}

std::optional<std::vector<int64_t>>
GpuSearchSpace::toPoint(const GpuSketchChoice &c) const {
  if (c.kernel != defaults.kernel || c.precision != defaults.precision)
    return std::nullopt;
  std::vector<int64_t> point;
  for (unsigned i = 0; i < knobs.size(); ++i) {
    int64_t value = valueOf(knobs[i], c);
    if (!llvm::is_contained(options(i, point), value))
      return std::nullopt;
    point.push_back(value);
  }
  // Knobs that are not decisions of this family must be the default's.
  GpuSketchChoice back = toChoice(point);
  for (int64_t GpuSketchChoice::*field : kFields)
    if (back.*field != c.*field)
      return std::nullopt;
  if (back.store != c.store)
    return std::nullopt;
  return point;
}

std::string mlir::tensorop::gpuConfigHash(const GpuSketchChoice &c) {
  std::string text = llvm::formatv(
      "kernel={0} precision={1} bm={2} bn={3} bk={4} wm={5} wn={6} "
      "consumers={7} stages={8} group_m={9} ctas={10}",
      c.kernel, c.precision, c.blockM, c.blockN, c.blockK, c.warpsM, c.warpsN,
      c.consumers, c.stages, c.groupM, c.ctas);
  // Appended only for clusters, so that the hashes of 1x1 sketches (rows of
  // databases written before clusters existed) stay the same.
  if (c.clusterM != 1 || c.clusterN != 1)
    text += llvm::formatv(" cluster={0}x{1}", c.clusterM, c.clusterN).str();
  // Likewise only for the store through shared memory.
  if (c.store != "global")
    text += " store=" + c.store;
  // Likewise only for split-K sketches.
  if (c.splitK != 1)
    text += " split_k=" + std::to_string(c.splitK);
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true)
      .substr(0, 16);
}

std::optional<std::string>
mlir::tensorop::gpuConfigHashOfText(MLIRContext *ctx, llvm::StringRef config) {
  // A parse error of a damaged row is reported by the caller, not here.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  auto attr =
      llvm::dyn_cast_or_null<GpuSketchAttr>(parseAttribute(config, ctx));
  if (!attr)
    return std::nullopt;
  return gpuConfigHash(GpuSketchChoice::fromAttr(attr));
}
