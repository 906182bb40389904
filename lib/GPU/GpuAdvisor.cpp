//===- GpuAdvisor.cpp - Kernel shapes of GEMMs on NVIDIA GPUs -------------===//

#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Support/IntMath.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <atomic>
#include <cmath>
#include <iterator>
#include <tuple>

using namespace mlir;
using namespace mlir::tensorop;

llvm::Expected<GpuTarget>
mlir::tensorop::loadGpuTarget(llvm::StringRef target,
                              llvm::StringRef hintsDir) {
  if (!target.starts_with("nvidia-"))
    return llvm::createStringError("target '" + target +
                                   "' is not an NVIDIA target (nvidia-sm80, "
                                   "nvidia-sm90)");
  llvm::Expected<TargetHints> hints = loadTargetHints(target, hintsDir);
  if (!hints)
    return hints.takeError();
  GpuTarget t;
  t.hints = std::move(*hints);
  auto buffer = llvm::MemoryBuffer::getFile(t.hints.path);
  if (!buffer)
    return llvm::createStringError("cannot read " + t.hints.path);
  llvm::Expected<llvm::json::Value> doc =
      llvm::json::parse((*buffer)->getBuffer());
  if (!doc)
    return doc.takeError();
  const llvm::json::Object *gpu = doc->getAsObject()->getObject("gpu");
  auto fail = [&](llvm::StringRef field) {
    return llvm::createStringError(t.hints.path + ": field 'gpu." + field +
                                   "' is missing or out of range");
  };
  if (!gpu)
    return fail("<object>");
  std::optional<llvm::StringRef> chip = gpu->getString("chip");
  if (!chip || !chip->starts_with("sm_"))
    return fail("chip");
  t.chip = chip->str();
  std::optional<int64_t> cc = gpu->getInteger("compute_capability");
  if (!cc || (*cc != 80 && *cc != 90))
    return fail("compute_capability");
  t.sm = int(*cc);
  t.ptxVersion = int(gpu->getInteger("ptx_version").value_or(80));
  std::optional<int64_t> sms = gpu->getInteger("sms");
  if (!sms || *sms < 1 || *sms > 4096)
    return fail("sms");
  t.sms = *sms;
  std::optional<int64_t> smem =
      gpu->getInteger("shared_memory_per_block_optin_bytes");
  if (!smem || *smem < 49152 || *smem > (1 << 20))
    return fail("shared_memory_per_block_optin_bytes");
  t.maxSharedPerBlock = *smem;
  std::optional<int64_t> bw = gpu->getInteger("hbm_bandwidth_measured_gbs");
  if (!bw)
    bw = gpu->getInteger("hbm_bandwidth_gbs");
  if (bw && (*bw < 100 || *bw > 100000))
    return fail("hbm_bandwidth_gbs");
  if (bw)
    t.hbmBytesPerSecond = double(*bw) * 1e9;
  return t;
}

GpuSketchAttr GpuSketchChoice::toAttr(MLIRContext *ctx,
                                      const GpuTarget &target) const {
  return GpuSketchAttr::get(ctx, kernel, precision, blockM, blockN, blockK,
                            warpsM, warpsN, consumers, stages, groupM, ctas,
                            target.hints.toAttr(ctx), source, clusterM,
                            clusterN, /*epilogue=*/EpilogueAttr(), store,
                            splitK);
}

GpuSketchChoice GpuSketchChoice::fromAttr(GpuSketchAttr a) {
  GpuSketchChoice c;
  c.kernel = a.getKernel().str();
  c.precision = a.getPrecision().str();
  c.blockM = a.getBlockM();
  c.blockN = a.getBlockN();
  c.blockK = a.getBlockK();
  c.warpsM = a.getWarpsM();
  c.warpsN = a.getWarpsN();
  c.consumers = a.getConsumers();
  c.stages = a.getStages();
  c.groupM = a.getGroupM();
  c.ctas = a.getCtas();
  c.clusterM = a.getClusterM();
  c.clusterN = a.getClusterN();
  c.splitK = a.getSplitK();
  c.source = a.getSource().str();
  c.store = a.getStore().str();
  return c;
}

std::string GpuSketchChoice::emitter() const {
  if (kernel == "wgmma")
    return "nvidia_gemm_wgmma";
  if (kernel == "mma_sync")
    return "nvidia_gemm_mma";
  if (kernel == "gemv")
    return "nvidia_gemv";
  return "nvidia_gemm_ffma";
}

std::string GpuSketchChoice::describe() const {
  std::string text =
      llvm::formatv("kernel={0} block_m={1} block_n={2} block_k={3} "
                    "warps_m={4} warps_n={5} consumers={6} stages={7} "
                    "group_m={8} ctas={9} cluster_m={10} cluster_n={11}",
                    kernel, blockM, blockN, blockK, warpsM, warpsN, consumers,
                    stages, groupM, ctas, clusterM, clusterN)
          .str();
  if (store != "global")
    text += " store=" + store;
  if (splitK > 1)
    text += " split_k=" + std::to_string(splitK);
  return text;
}

static int64_t elemBytes(llvm::StringRef t) {
  return t == "bf16" || t == "f16" ? 2 : 4;
}

/// Whether TMA can describe the rows of A and B (16-byte strides).
static bool tmaAligned(const GpuGemmProblem &p) {
  int64_t es = elemBytes(p.aType);
  return (p.k * es) % 16 == 0 && (p.n * es) % 16 == 0;
}

GpuWgmmaPadding mlir::tensorop::wgmmaPadding(const GpuGemmProblem &p) {
  GpuWgmmaPadding pad;
  int64_t es = elemBytes(p.aType), chunk = 16 / es;
  pad.lda = p.k;
  pad.ldb = p.n;
  if (p.conv)
    return pad;
  pad.padA = p.k % chunk != 0;
  pad.padB = p.n % chunk != 0;
  if (pad.padA)
    pad.lda = roundUp(p.k, chunk);
  if (pad.padB)
    pad.ldb = roundUp(p.n, chunk);
  auto aligned = [](int64_t bytes) { return roundUp(bytes, 256); };
  int64_t aBytes = pad.padA ? aligned(p.m * pad.lda * es) : 0;
  int64_t bBytes = pad.padB ? aligned(p.k * pad.ldb * es) : 0;
  pad.offsetB = aBytes;
  pad.workspaceBytes = aBytes + bBytes;
  return pad;
}

/// Whether C's rows are 16-byte aligned (TMA can store them).
static bool cRowsAligned(const GpuGemmProblem &p) {
  return (p.n * elemBytes(p.cType)) % 16 == 0;
}

namespace {
struct Candidate {
  int64_t bm, bn, wm, wn, nc;
  double efficiency; ///< relative throughput of one SM with this tile
};
} // namespace

/// Cost of running `tiles` tiles of `work` elements at `eff` on `sms` SMs:
/// whole waves. A persistent grid quantizes the same way: the CTA that gets
/// ceil(tiles / sms) tiles sets the time (2000x3000 in 128x256 tiles is 192
/// tiles: 60 CTAs run two, so the GEMM takes two tile times, not 1.45).
static double cost(int64_t tiles, int64_t sms, double work, double eff) {
  return std::ceil(double(tiles) / double(sms)) * work / eff;
}

/// Whole waves of `tiles` tiles on `sms` SMs.
static double waves(int64_t tiles, int64_t sms) {
  return std::ceil(double(tiles) / double(sms));
}

/// The candidate of least whole-wave cost for the problem's M x N (the
/// first of equal ones).
static const Candidate &cheapestTile(llvm::ArrayRef<Candidate> cands,
                                     const GpuGemmProblem &p, int64_t sms) {
  const Candidate *best = &cands.front();
  double bestCost = INFINITY;
  for (const Candidate &cand : cands) {
    int64_t tiles = ceilDiv(p.m, cand.bm) * ceilDiv(p.n, cand.bn);
    double v = cost(tiles, sms, double(cand.bm * cand.bn), cand.efficiency);
    if (v < bestCost) {
      bestCost = v;
      best = &cand;
    }
  }
  return *best;
}

/// The split-K kernel's schedule of `tiles` tiles on `clusters` clusters
/// of `sk` CTAs (python_emitters/nvidia_gemm_wgmma.py, splitk_schedule):
/// whole waves of clusters x sk tiles run data-parallel, and the tiles of
/// the last partial wave are split sk ways when there is at most one per
/// cluster (all tiles when there are at most `clusters`).
namespace {
struct SplitSchedule {
  int64_t dataParallelTiles, splitTiles;
};
} // namespace
static SplitSchedule splitSchedule(int64_t tiles, int64_t clusters,
                                   int64_t sk) {
  if (tiles <= clusters)
    return {0, tiles};
  int64_t rest = tiles % (clusters * sk);
  if (rest > 0 && rest <= clusters)
    return {tiles - rest, rest};
  return {tiles, 0};
}

/// Split-K as the builtin advisor chooses it: clusters of 2 CTAs; the
/// last partial wave's tiles (all tiles when they are few) are split in
/// two halves of K, whose partial tiles are reduced through distributed
/// shared memory, each CTA storing half the columns (splitSchedule). The
/// cost of a candidate is its data-parallel waves of all k-tiles plus one
/// split tile of half the k-tiles and kSplitKOverhead k-tiles for the
/// reduction; it is picked where it is at least 1 - kSplitKMinGain cheaper
/// than the unsplit choice `unsplit` (the cluster launch and the reduction
/// are not free) and each half keeps at least kSplitKMinKTiles k-tiles of
/// 64. Every tile is split only where the unsplit tiles fill at most half
/// the SMs: on the H200 (docs/benchmarks/gpu-gemm.md, "Split-K as a
/// reduce-scatter") 2 CTAs per tile took 4096x16x4096 from 0.87x to 1.01x
/// cuBLAS and 16x4096x14336 from 0.61x to 0.81x (64x64 tiles, 64 -> 128
/// CTAs), while splitting every tile of shapes that already had 128 tiles
/// gained at most 3% or lost (64x8192x8192, 128x4096x11008: the wave
/// model's 64-row rates overrate bigger split tiles there), and 4 CTAs
/// per tile was slower than 2 on all four shapes tried.
static constexpr int64_t kSplitKMinKTiles = 16;
static constexpr int64_t kSplitKOverhead = 4;
static constexpr double kSplitKMinGain = 0.98;
static std::optional<Candidate> splitKTile(llvm::ArrayRef<Candidate> cands,
                                           const Candidate &unsplit,
                                           const GpuGemmProblem &p,
                                           int64_t sms) {
  auto tiles = [&](const Candidate &c) {
    return ceilDiv(p.m, c.bm) * ceilDiv(p.n, c.bn);
  };
  int64_t kTiles = ceilDiv(p.k, 64), half = ceilDiv(kTiles, 2);
  if (kTiles - half < kSplitKMinKTiles)
    return std::nullopt;
  double best = kSplitKMinGain *
                cost(tiles(unsplit), sms,
                     double(unsplit.bm * unsplit.bn) * double(kTiles),
                     unsplit.efficiency);
  bool fewTiles = 2 * tiles(unsplit) <= sms;
  // Splitting every tile also where a taller tile reads B fewer times than
  // the unsplit choice, on no fewer CTAs: 128x4096x11008 in 64x64 tiles
  // (128 CTAs, B read by both tile rows) 0.82x cuBLAS, in 128x64 tiles
  // split in 2 (128 CTAs, B read once) 1.03x (docs/benchmarks/gpu-gemm.md,
  // "Stream-K"); 64x128 split in 2 (B still read twice) gained 2%.
  auto readsOfB = [&](const Candidate &c) { return ceilDiv(p.m, c.bm); };
  std::optional<Candidate> pick;
  for (const Candidate &cand : cands) {
    // 256x192's fp32 partial tile (192 KiB) does not fit in its stages.
    if (cand.bm * cand.bn > 128 * 256)
      continue;
    int64_t clusters = std::min(tiles(cand), sms / 2);
    SplitSchedule s = splitSchedule(tiles(cand), clusters, 2);
    bool fewerReads = readsOfB(cand) < readsOfB(unsplit) &&
                      2 * tiles(cand) >= tiles(unsplit);
    if (s.splitTiles == 0 ||
        (s.dataParallelTiles == 0 && !fewTiles && !fewerReads))
      continue;
    double waves = double(s.dataParallelTiles / (2 * clusters));
    double v = (waves * double(kTiles) + double(half + kSplitKOverhead)) *
               double(cand.bm * cand.bn) / cand.efficiency;
    if (v < best) {
      best = v;
      pick = cand;
    }
  }
  return pick;
}

/// The FFMA kernel's tiles and their relative per-SM rates (8 C rows or
/// columns per thread from 64 up, 4 below), fitted to a tile sweep on the
/// H200 (docs/benchmarks/gpu-gemm.md, "fp32 and TF32"): 4096^3 128x64 at
/// 0.97x of 128x128; 1024^3 64x128 30.1 TFLOP/s, 128x64 29.5, 64x64 and
/// 32x64 28.1, 128x128 17.4 (64 tiles); 127x1000x513 32x32 6.4, 32x64 4.8,
/// 64x32 4.4, 64x64 3.1, 128x128 1.7; 2048^3 128x128 37.2, 128x64 29.5.
/// 128x256 (8x16 per thread, one CTA per SM) with two fragment buffers
/// (docs/benchmarks/gpu-gemm.md, "Session 13"): 4096^3 49.4 TFLOP/s against
/// 47.5 for 128x128, 1.04; it loses where its waves round up (3072^3 in
/// 288 tiles 36.4, 2000x3000x1504 in 192 tiles 33.8).
static const Candidate kFfmaTiles[] = {
    {128, 128, 0, 0, 0, 1.0},  {128, 256, 0, 0, 0, 1.04},
    {64, 128, 0, 0, 0, 0.92},  {128, 64, 0, 0, 0, 0.9},
    {64, 64, 0, 0, 0, 0.75},  {32, 64, 0, 0, 0, 0.5},   {64, 32, 0, 0, 0, 0.5},
    {32, 32, 0, 0, 0, 0.3}};

/// The FFMA kernel's tile and split-K from an occupancy model: a grid of
/// C = tiles x split_k CTAs puts ceil(C / SMs) CTAs on the busiest SM, which
/// runs them at the tile's rate (kFfmaTiles) times the share of it that
/// their warps reach (ffmaWarpRate: one 64-thread CTA of 2 warps leaves two
/// of the SM's four schedulers idle); a split CTA computes 1 / split_k of
/// the k-tiles plus kFfmaSplitOverheadKTiles for the reduction. Split-K is
/// considered where the tile's unsplit grid is at most 2 CTAs per SM, every
/// rank keeps kFfmaSplitMinKTiles k-tiles of 16, and the target has
/// clusters (sm_90); it is chosen where the model saves kFfmaSplitMinGain.
/// Fitted on the H200 (docs/benchmarks/gpu-gemm.md, "Session 15", call 1):
/// 600x700x3000 64x64 16.9 TFLOP/s unsplit (110 CTAs of 2 warps), 29.7
/// split 2, 31.6 split 4 (rates 0.5 : 0.9 : 1 at 2, 4, 8 warps per SM and
/// ~3 k-tiles of reduction); 64x128 1000^3 36.7 -> 38.5 split 2; 128x128
/// 600x700x3000 17.4 split 2 (60 CTAs) -> 33.2 split 4 (120); 777x1333x999
/// 128x128 20.1, split 2 19.6 (154 CTAs: still two on some SMs).
static constexpr double kFfmaSplitOverheadKTiles = 3;
static constexpr int64_t kFfmaSplitMinKTiles = 8;
static constexpr double kFfmaSplitMinGain = 0.95;

/// CTAs of each kFfmaTiles tile (same order) that one SM holds at once:
/// the fewer of 65536 registers over ptxas's count per thread (sm_90a,
/// 128x128 128 at minctasm 2, 128x256 240, 64x128 and 128x64 168, 64x64
/// 168, 32x64 96, 64x32 120, 32x32 80) and 228 KiB of shared memory over
/// the tile's stages (plus 1 KiB reserved per CTA). Checked against
/// ptxas by test/GPU/ptxas-ffma-resident.test.
static const int64_t kFfmaResident[] = {2, 1, 3, 3, 6, 8, 8, 12};
static_assert(std::size(kFfmaResident) == std::size(kFfmaTiles),
              "one residency per FFMA tile");

/// A grid of more CTAs than the SMs hold at once (kFfmaResident) runs its
/// last ones as a tail, clusters starting as others finish: the cost grows
/// by kFfmaTailPenalty times the share of the grid in that tail. Measured
/// on the H200 (docs/benchmarks/gpu-gemm.md, "Session 16", call 1):
/// 3000x500x1500 128x128 split 4 (384 CTAs, 264 held at once) 30.5
/// TFLOP/s, no faster than unsplit (30.8), against 64x128 split 2 (376
/// CTAs, 396 held) 43.1, which the model without the tail ranked 0.7%
/// behind; any penalty from 0.02 to 0.34 keeps the measured best of the
/// 12 shapes of sessions 15 and 16 (777x1333x999 64x128 split 4, 572 CTAs
/// of 396 held, still first at 0.34).
static constexpr double kFfmaTailPenalty = 0.15;

static double ffmaWarpRate(int64_t warps) {
  return warps >= 8 ? 1.0 : warps >= 4 ? 0.9 : warps >= 2 ? 0.5 : 0.25;
}

/// Threads of an FFMA tile (nvidia_gemm_ffma.py: 8 rows or columns of C
/// per thread from 64 up, else 4; 16 columns for block_n 256).
static int64_t ffmaThreads(int64_t bm, int64_t bn) {
  int64_t tm = bm >= 64 ? 8 : 4, tn = bn == 256 ? 16 : bn >= 64 ? 8 : 4;
  return bm * bn / (tm * tn);
}

static double ffmaCost(const Candidate &c, int64_t sk,
                       const GpuGemmProblem &p, int64_t sms) {
  int64_t tiles = ceilDiv(p.m, c.bm) * ceilDiv(p.n, c.bn);
  int64_t ctas = tiles * sk;
  int64_t perSm = ceilDiv(ctas, sms);
  int64_t kTiles = ceilDiv(p.k, 16);
  double work = double(ceilDiv(kTiles, sk)) +
                (sk > 1 ? kFfmaSplitOverheadKTiles : 0.0);
  int64_t held = kFfmaResident[&c - kFfmaTiles] * sms;
  double tail = double(std::max<int64_t>(0, ctas - held)) / double(ctas);
  return double(perSm) * double(c.bm * c.bn) * work *
         (1.0 + kFfmaTailPenalty * tail) /
         (c.efficiency * ffmaWarpRate(perSm * ffmaThreads(c.bm, c.bn) / 32));
}

/// The FFMA choice: the tile of least whole-wave cost (cheapestTile), or a
/// split tile where the occupancy model (ffmaCost) says it is
/// kFfmaSplitMinGain faster than the best unsplit tile.
static std::pair<Candidate, int64_t> ffmaTileAndSplit(const GpuGemmProblem &p,
                                                      const GpuTarget &t) {
  const Candidate &pick = cheapestTile(kFfmaTiles, p, t.sms);
  if (t.sm < 90)
    return {pick, 1};
  int64_t kTiles = ceilDiv(p.k, 16);
  double unsplit = INFINITY;
  for (const Candidate &c : kFfmaTiles)
    unsplit = std::min(unsplit, ffmaCost(c, 1, p, t.sms));
  std::pair<Candidate, int64_t> best = {pick, 1};
  double bestCost = kFfmaSplitMinGain * unsplit;
  for (const Candidate &c : kFfmaTiles) {
    int64_t tiles = ceilDiv(p.m, c.bm) * ceilDiv(p.n, c.bn);
    if (tiles > 2 * t.sms)
      continue;
    for (int64_t sk : {2, 4}) {
      if (kTiles / sk < kFfmaSplitMinKTiles ||
          ceilDiv(kTiles, sk) * (sk - 1) >= kTiles)
        continue;
      if (double v = ffmaCost(c, sk, p, t.sms); v < bestCost) {
        bestCost = v;
        best = {c, sk};
      }
    }
  }
  return best;
}

/// Whether the builtin advisor runs the GEMV kernel (nvidia_gemv.py): a
/// GEMM (not a convolution) with K and N multiples of 8 and few rows.
/// bf16/f16: at most 4 rows. On the H200 (docs/benchmarks/gpu-gemm.md,
/// "Skinny and irregular shapes") it ran M = 1..4 decode shapes at
/// 0.99-1.48x cuBLAS (wgmma: 0.54-0.88x), but its FFMAs grow with M:
/// 16x11008x4096 0.43x where wgmma 64x128 gives 0.90x. f32: up to 16
/// rows (the kernel's limit), where the FFMA tile kernel wastes most of
/// its 128 rows (docs/benchmarks/gpu-gemm.md, "fp32 and TF32": 1x4096x4096
/// 0.88x cuBLAS against 0.03x, 3x4096x4096 2.96x, 16x11008x4096 1.41x
/// against 0.32x). tf32: at most 4 rows, as bf16: 1x4096x4096 0.88x
/// against wgmma's 0.49x (3 rows take the time of 1), but 16x11008x4096
/// 0.42x against wgmma's 0.68x (the FFMAs outgrow streaming B). A tf32
/// request runs in full fp32 FMAs there: at least as precise (a remark
/// says so).
static bool gemvFits(const GpuGemmProblem &p) {
  int64_t maxRows = p.precision == "f32" ? 16 : 4;
  bool typed = p.precision == "bf16" || p.precision == "f16" ||
               p.precision == "f32" || p.precision == "tf32";
  return !p.conv && typed && p.m <= maxRows && p.k % 8 == 0 && p.n % 8 == 0;
}

/// The GEMV kernel's shape: B is streamed once, so what matters is enough
/// CTAs in flight to cover memory latency. bf16/f16: strips of 32 columns
/// while that gives at least one CTA per two SMs (1x4096x4096: 128 CTAs of
/// 32 columns 1.65x cuBLAS, 256 of 16 1.06x), else 16. f32/tf32 (4
/// columns per 16-byte load): strips of 32 columns only where that gives
/// two CTAs per SM (16x11008x4096: 688 CTAs of 32 columns 112 us, 1376 of
/// 16 127 us), else 16 (1x4096x4096: 256 CTAs of 16 21.4 us, 128 of 32
/// 29.5 us). Rows in blocks of at most 8 (registers). Warps: 8, and 16
/// for one f32/tf32 row (1x4096x4096: 20.7 us against 21.9 with 8; at
/// 16x11008x4096 16 warps measured slower, 159 us against 110).
static void proposeGemv(const GpuGemmProblem &p, const GpuTarget &target,
                        GpuSketchChoice &c) {
  c.kernel = "gemv";
  int64_t rowBlocks = ceilDiv(p.m, 8);
  c.blockM = ceilDiv(p.m, rowBlocks);
  int64_t strips32 = (ceilDiv(p.n, 32)) * rowBlocks;
  if (elemBytes(p.aType) == 4)
    c.blockN = strips32 >= 2 * target.sms ? 32 : 16;
  else
    c.blockN = strips32 * 2 >= target.sms ? 32 : 16;
  c.blockK = 8;
  c.warpsM = 1;
  c.warpsN = elemBytes(p.aType) == 4 && c.blockM == 1 ? 16 : 8;
  c.consumers = 0;
  c.stages = 2;
  c.groupM = 1;
  c.ctas = 0;
}

/// The problems the NVIDIA emitters take (nvidia_ptx.py): extents up to
/// 2^20 and A, B, C small enough for the kernels' 32-bit byte offsets.
static llvm::Error checkGpuProblemLimits(const GpuGemmProblem &p) {
  constexpr int64_t kMaxExtent = int64_t(1) << 20;
  for (auto [name, extent] : {std::pair<llvm::StringRef, int64_t>{"M", p.m},
                              {"N", p.n},
                              {"K", p.k}})
    if (extent < 1 || extent > kMaxExtent)
      return llvm::createStringError(
          llvm::formatv("the GEMM's {0} = {1} is outside the NVIDIA "
                        "kernels' range [1, {2}]",
                        name, extent, kMaxExtent)
              .str());
  for (auto [name, rows, cols] :
       {std::tuple<llvm::StringRef, int64_t, int64_t>{"A", p.m, p.k},
        {"B", p.k, p.n},
        {"C", p.m, p.n}})
    if (rows * cols * 4 >= (int64_t(1) << 31))
      return llvm::createStringError(
          llvm::formatv("{0} ({1} x {2}) is too large for the NVIDIA "
                        "kernels' 32-bit offsets (at most 2^29 elements)",
                        name, rows, cols)
              .str());
  return llvm::Error::success();
}

/// What no convolution kernel takes (both load 16-byte chunks of channels
/// and of filter rows); empty when one can.
static std::string convUnsupported(const GpuGemmProblem &p) {
  const GpuConvGeometry &g = *p.conv;
  // TF32 runs on the wgmma kernel only (convNotForWgmma has its rules).
  // Any C: where it is not a multiple of 8 (conv1's 3 channels) the
  // mma.sync kernel loads the input element by element.
  if (p.precision != "tf32" && g.f % 8)
    return llvm::formatv("the convolution kernels load the filter in 16-byte "
                         "chunks of 8 filters: F must be a multiple of 8 "
                         "(got F={0})",
                         g.f)
        .str();
  return "";
}

/// What the sm_90a implicit-GEMM convolution kernel (wgmma + TMA im2col)
/// cannot take; empty when it can (else the mma.sync kernel with cp.async
/// at computed addresses runs it).
static std::string convNotForWgmma(const GpuGemmProblem &p,
                                   const GpuTarget &target) {
  const GpuConvGeometry &g = *p.conv;
  if (target.sm < 90)
    return "the TMA im2col + wgmma convolution kernel needs sm_90a; " +
           target.hints.name + " is sm_" + std::to_string(target.sm);
  // One 128-byte swizzled row of channels per filter tap: 64 bf16/f16, 32
  // tf32 (python_emitters/tensorop_emit/nvidia_conv.py).
  int64_t es = elemBytes(p.aType);
  if (g.c % (128 / es))
    return llvm::formatv("the sm_90a convolution kernel loads {0} input "
                         "channels per filter tap: C must be a multiple of "
                         "{0} (got C={1})",
                         128 / es, g.c)
        .str();
  if (g.f % (16 / es))
    return llvm::formatv("TMA needs 16-byte filter rows: F must be a "
                         "multiple of {0} (got F={1})",
                         16 / es, g.f)
        .str();
  if (g.strideH > 8 || g.strideW > 8)
    return "TMA im2col traverses with strides of at most 8";
  // 4-D im2col tensor maps hold bounding-box corners in [-128, 127].
  int64_t corners[] = {
      -g.padTop, -g.padLeft,
      (g.outH - 1) * g.strideH - g.padTop - (g.h - 1),
      (g.outW - 1) * g.strideW - g.padLeft - (g.w - 1)};
  for (int64_t v : corners)
    if (v < -128 || v > 127)
      return llvm::formatv("the input's im2col bounding box needs a corner "
                           "offset of {0}, outside TMA's [-128, 127] (padding "
                           "or stride too large for the image)",
                           v)
          .str();
  return "";
}

/// TF32 on sm_90a: the wgmma kernel that computes C^T = B^T A^T (B^T from
/// registers, see python_emitters/tensorop_emit/nvidia_wgmma_tf32.py).
/// block_m is wgmma's N extent, block_n is split over the consumers.
/// Relative per-SM rates measured on the H200 (docs/benchmarks/gpu-gemm.md,
/// "TF32 on wgmma"): 256x128 2.65 TFLOP/s per SM at 8192^3, 128x256
/// 0.92-0.97x of it, 128x128 0.94x at 4096^3; with one consumer, for few
/// rows, 128x64 2.17 (0.82x) and 64x64 1.16 (0.44x) per CTA at
/// 128x4096x4096. Whole waves: the persistent CTA with one tile more than
/// the others sets the time (2000x3000x1504: 128x128 1.13x faster than
/// 256x128, 3 waves of small tiles against 2 of big ones).
static const Candidate kWgmmaTf32Tiles[] = {{256, 128, 0, 0, 2, 1.0},
                                            {128, 256, 0, 0, 2, 0.95},
                                            {128, 128, 0, 0, 2, 0.94},
                                            {128, 64, 0, 0, 1, 0.82},
                                            {64, 64, 0, 0, 1, 0.44}};
/// TF32 GEMMs of at most 32 rows: wgmma's N extent of 16 (M <= 16) or 32
/// rows instead of 64 or more, of which all but M would be padding
/// (16x11008x4096: 128x128 0.68x the best library, 16x128 1.06x). Such a
/// GEMM streams B once, so its time is the larger of B's bytes at the
/// kernel's share of the HBM bandwidth and the slowest CTA's strips at a
/// CTA's streaming rate (whole waves). Measured on the H200
/// (docs/benchmarks/gpu-gemm.md, "Session 11"): 16x11008x4096 with
/// 86 strips of 128 columns 50.4 us (3.6 TB/s of B: 0.84 of the 4.3
/// measured), 43 of 256 50.3 us, 172 of 64 (two waves) 55.5 us;
/// 16x4096x14336 with 32 strips of 128 97.4 us (75 GB/s per CTA). The
/// first of equal costs wins: 128 columns on two consumers.
static const Candidate kWgmmaTf32FewRowTiles[] = {{0, 128, 0, 0, 2, 1.0},
                                                  {0, 64, 0, 0, 1, 1.0},
                                                  {0, 256, 0, 0, 2, 1.0}};
static constexpr double kTf32StreamShare = 0.84;
static constexpr double kTf32StripBytesPerSecond = 80e9;
static constexpr int64_t kWgmmaTf32FewRows = 32;

static GpuSketchChoice proposeWgmmaTf32(const GpuGemmProblem &p,
                                        const GpuTarget &target,
                                        GpuSketchChoice c) {
  llvm::ArrayRef<Candidate> cands = kWgmmaTf32Tiles;
  auto tiles = [&](int64_t bm, int64_t bn) {
    return ceilDiv(p.m, bm) * ceilDiv(p.n, bn);
  };
  if (!p.conv && p.m <= kWgmmaTf32FewRows) {
    int64_t bm = p.m <= 16 ? 16 : 32;
    const Candidate *best = nullptr;
    double bestCost = INFINITY;
    double bBytes = double(p.k) * double(p.n) * 4;
    double streamSeconds =
        bBytes / (kTf32StreamShare * target.hbmBytesPerSecond);
    for (const Candidate &cand : kWgmmaTf32FewRowTiles) {
      double strip = double(p.k) * double(cand.bn) * 4;
      double v = std::max(streamSeconds,
                          cost(tiles(bm, cand.bn), target.sms, strip,
                               kTf32StripBytesPerSecond));
      if (v < bestCost) {
        bestCost = v;
        best = &cand;
      }
    }
    c.kernel = "wgmma";
    c.blockM = bm;
    c.blockN = best->bn;
    c.consumers = best->nc;
    c.blockK = 32;
    c.stages = std::min<int64_t>(
        8, (target.maxSharedPerBlock - 1024) / ((bm + c.blockN) * 128));
    c.ctas = std::min(tiles(bm, c.blockN), target.sms);
    c.groupM = 8;
    return c;
  }
  const Candidate &pick = cheapestTile(cands, p, target.sms);
  c.blockM = pick.bm;
  c.blockN = pick.bn;
  c.consumers = pick.nc;
  c.kernel = "wgmma";
  c.blockK = 32;
  int64_t stage = (c.blockM + c.blockN) * 128;
  c.stages = std::min<int64_t>(6, (target.maxSharedPerBlock - 1024) / stage);
  c.ctas = std::min(tiles(c.blockM, c.blockN), target.sms);
  c.groupM = 8;
  return c;
}

/// bf16/f16 GEMMs of at most 32 rows (5..32: fewer take the GEMV kernel):
/// the few-rows wgmma kernel (nvidia_wgmma_fewrows.py, C^T = B^T A^T with
/// wgmma's N extent of 8, 16 or 32 over M) instead of 64-row tiles, three
/// quarters padding at M = 16 (16x4096x14336: 64x64 split 2 0.81x the
/// best library, 16x11008x4096 64x128 0.91x). Such a GEMM streams B once:
/// as for TF32 (kWgmmaTf32FewRowTiles), its time is the larger of B's
/// bytes at the kernel's share of the HBM bandwidth and the slowest CTA's
/// strips of B at a CTA's streaming rate (whole waves), plus 1 us per wave
/// (pipeline fill); the first of equal costs wins, so more CTAs where they
/// fit in as many waves. Stages: as many as fit, up to 16 (a stage holds
/// block_m + block_n rows of 128 bytes). Measured on the H200
/// (docs/benchmarks/gpu-gemm.md, "Session 12"): 16x4096x14336 64 strips of
/// 64 columns 1.01x the best library (16 stages; 8 stages 0.89x; 32 of 128
/// 0.78-0.82x), 16x11008x4096 86 of 128 on two consumers 0.98x (172 of 64,
/// two waves, 0.94x).
static const Candidate kWgmmaFewRowTiles[] = {{0, 64, 0, 0, 1, 1.0},
                                              {0, 128, 0, 0, 2, 1.0},
                                              {0, 256, 0, 0, 2, 1.0}};
static constexpr int64_t kWgmmaFewRows = 32;
static constexpr double kFewRowsStreamShare = 0.84;
static constexpr double kFewRowsStripBytesPerSecond = 80e9;
static constexpr double kFewRowsWaveSeconds = 1.0e-6;

/// Split-K of the streaming kernels (few rows: strips of B; few columns:
/// strips of A) on clusters of 2 CTAs, each streaming half of its strip's
/// K (python_emitters/tensorop_emit/wgmma_splitk.py): 2 where every strip
/// is split in one wave of clusters, each half keeps kSplitKMinKTiles
/// k-tiles, and the streaming model says it saves kStreamSplitGain. Model:
/// the larger of the operand's bytes at the kernel's share of the HBM
/// bandwidth and the slowest CTA's bytes at its streaming rate `ctaRate`,
/// plus 1 us (pipeline fill). The share is 1.0 where the operand fits in
/// the L2 (the calls repeat on the same operand, and part of it comes from
/// the L2), else kFewRowsStreamShare. Measured on the H200
/// (docs/benchmarks/gpu-gemm.md, "Session 14"): 64 strips of 64 columns
/// (one consumer) stream 51-58 GB/s per CTA (13x4096x4096, 24x4096x4096,
/// 32x4096x4096, 16x4096x14336), and split in 2 reach 4.0-4.3 TB/s on
/// 33.5 MB operands (13x4096x4096 43.8 -> 49.6 TFLOP/s, 24x4096x4096
/// 80.7 -> 89.5, 32x4096x4096 105.5 -> 127.2, 8x4096x4096 27.3 -> 33.6)
/// but lose on 117 MB (16x4096x14336 59.0 -> 54.6: HBM-bound either
/// way); the narrow 128x32 tile on two consumers streams 48 GB/s per CTA
/// and gains split on a 134 MB A (8192x24x8192 73.4 -> 79.6). Strips of
/// 128 columns on two consumers (few rows) lost split (13x4096x4096 35.8
/// and 30.9 TFLOP/s split 2 and 4) and are never split.
static constexpr double kStreamCtaBytesPerSecond = 57e9;
static constexpr double kNarrowPairCtaBytesPerSecond = 48e9;
static constexpr double kStreamSplitGain = 0.95;

static int64_t streamSplitK(double operandBytes, int64_t strips,
                            double stripBytes, double ctaRate, int64_t k,
                            const GpuTarget &target) {
  if (2 * strips > target.sms || ceilDiv(k, 64) < 2 * kSplitKMinKTiles)
    return 1;
  int64_t l2 = target.hints.cacheBytes(2);
  double share =
      l2 > 0 && operandBytes <= double(l2) ? 1.0 : kFewRowsStreamShare;
  double stream = operandBytes / (share * target.hbmBytesPerSecond);
  double whole = std::max(stream, stripBytes / ctaRate) + kFewRowsWaveSeconds;
  double split =
      std::max(stream, stripBytes / 2 / ctaRate) + kFewRowsWaveSeconds;
  return split < kStreamSplitGain * whole ? 2 : 1;
}

/// Few strips with long K (few rows): where split 2 of 64-column strips
/// was chosen and every rank keeps kSplitKMinKTiles k-tiles, the same
/// strips split in 4 when that grid has at most kWideSplitMaxCtas CTAs,
/// else strips of 128 columns on one consumer split in 4 when that grid
/// does. The most CTAs that fit first: 24x1536x8192 24 strips of 64 split
/// 4 (96 CTAs) 8.8 us against 10.2 for 12 of 128 split 4 (48 CTAs) and
/// 11.4 split 2 (docs/benchmarks/gpu-gemm.md, "Session 16", call 1;
/// cuBLASLt runs 96 CTAs in clusters of 4 there too). A CTA streams more bytes per k-tile from a
/// 128-column strip (its stages are twice as wide) on the same count of
/// CTAs, while a grid of clusters of 4 past ~100 CTAs does not fit at once
/// (one CTA per SM, clusters within a GPC). Measured on the H200
/// (docs/benchmarks/gpu-gemm.md, "Session 15", call 1): 16x2048x8192
/// 45.8 TFLOP/s (64 strips split 2, 64 CTAs) -> 55.6 (128 split 4, 64
/// CTAs), 20x3000x5000 45.9 (94 CTAs) -> 50.2 (96), while 64-column strips
/// split 4 lost (128 and 188 CTAs: 36.1, 34.6).
static constexpr int64_t kWideSplitMaxCtas = 96;

static GpuSketchChoice proposeWgmmaFewRows(const GpuGemmProblem &p,
                                           const GpuTarget &target,
                                           GpuSketchChoice c) {
  int64_t bm = p.m <= 8 ? 8 : p.m <= 16 ? 16 : 32;
  double bBytes = double(p.k) * double(p.n) * 2;
  double streamSeconds =
      bBytes / (kFewRowsStreamShare * target.hbmBytesPerSecond);
  const Candidate *best = nullptr;
  double bestCost = INFINITY;
  for (const Candidate &cand : kWgmmaFewRowTiles) {
    int64_t strips = ceilDiv(p.n, cand.bn);
    double strip = double(p.k) * double(cand.bn) * 2;
    double v = std::max(streamSeconds, cost(strips, target.sms, strip,
                                            kFewRowsStripBytesPerSecond)) +
               waves(strips, target.sms) * kFewRowsWaveSeconds;
    if (v < bestCost) {
      bestCost = v;
      best = &cand;
    }
  }
  c.kernel = "wgmma";
  c.blockM = bm;
  c.blockN = best->bn;
  c.consumers = best->nc;
  c.blockK = 64;
  c.stages = std::min<int64_t>(
      16, (target.maxSharedPerBlock - 1024) / ((bm + c.blockN) * 128));
  int64_t strips = ceilDiv(p.n, c.blockN);
  c.ctas = std::min(strips, target.sms);
  c.groupM = 8;
  if (c.consumers == 1)
    c.splitK = streamSplitK(bBytes, strips, double(p.k) * double(c.blockN) * 2,
                            kStreamCtaBytesPerSecond, p.k, target);
  int64_t wideStrips = ceilDiv(p.n, 128);
  bool long4 = ceilDiv(p.k, 64) >= 4 * kSplitKMinKTiles;
  if (c.splitK == 2 && c.blockN == 64 && long4 &&
      4 * strips <= kWideSplitMaxCtas) {
    c.splitK = 4;
  } else if (c.splitK == 2 && c.blockN == 64 && long4 &&
             4 * wideStrips <= kWideSplitMaxCtas) {
    c.blockN = 128;
    c.splitK = 4;
    c.stages = std::min<int64_t>(
        16, (target.maxSharedPerBlock - 1024) / ((bm + c.blockN) * 128));
    strips = wideStrips;
  }
  if (c.splitK > 1)
    c.ctas = strips * c.splitK;
  return c;
}

/// bf16/f16 GEMMs of at most 32 columns and more rows (4096x16x4096: 64x64
/// split 2 0.84x the best library): the plain wgmma kernel with a narrow
/// tile, block_n 16 (N <= 16) or 32 (wgmma n16 / n32; B's box one 32- or
/// 64-byte swizzle atom, not 64 zero-filled columns), so that up to 16
/// stages of A fit. Such a GEMM streams A once: the model of few rows
/// (proposeWgmmaFewRows) with A's strips of block_m rows, 128 on two
/// consumers or 64 on one, the first of equal ones. Measured on the H200
/// (docs/benchmarks/gpu-gemm.md, "Session 12"): 4096x16x4096 64 strips of
/// 64 rows 1.03-1.13x the best library (32 of 128: 0.94x); 8192x24x8192
/// 64 of 128 on two consumers 0.86x, 128 of 64 0.77x.
static const Candidate kWgmmaFewColTiles[] = {{128, 0, 0, 0, 2, 1.0},
                                              {64, 0, 0, 0, 1, 1.0}};

/// The most CTAs of 128-row strips split in 4 (few columns) for which
/// 64-row strips split in 4 take over (proposeWgmmaFewCols).
static constexpr int64_t kNarrowFewPairCtas = 40;

/// The most CTAs of a narrow grid split in 8 (clusters of 8, 64-row
/// strips) or, at N <= 16, in 4 (proposeWgmmaFewCols): 15 clusters of 8 or
/// 30 of 4, what the H200 holds at once one CTA per SM (the runner's
/// max_active_clusters); a grid past what is resident runs a second wave.
/// Measured on the H200 (docs/benchmarks/gpu-gemm.md, "Session 18b"), cap
/// 120 against 96, the builtin in one process: 11 shapes the cap changes
/// 1.10x geomean (0.98-1.26x; 120 CTAs: 960x16x12288 f16 1.10x,
/// 1920x12x16384 1.06x, 900x32x8192 and 960x32x32768 f16 0.98x, within
/// the controls' 0.97-1.01x). 128 CTAs, a second wave, lost (gpu18:
/// 1024x8x16384 f16 12.3 -> 15.9 us).
static constexpr int64_t kNarrowSplitMaxCtas = 120;

/// The narrow split through a global workspace (proposeWgmmaFewCols): at
/// most kWsSplitMax slices (26 spill: the last unit's unrolled sums), taken
/// where it gives at least kWsSplitMinGain times the CTAs of the cluster
/// split.
static constexpr bool kWsSplitEnabled = true;
static constexpr int64_t kWsSplitMax = 24;
/// ... and at most kWsSplitMaxWide at block_n 32, where the last unit's
/// flat sum of more partials spills (ptxas: 24 slices, a 40-byte stack
/// frame; 16, none) and lost on the H200 (docs/benchmarks/gpu-gemm.md,
/// "Session 20", one call, NaN-prefilled and verified): 256x24x32768 16
/// slices 9.6 us against the builtin's 24 12.6 us (12: 10.8; 24 in 4 or 6
/// groups of the two-level sum: 10.2-10.4), 320x32x32768 12 slices 10.3
/// against 24 12.3. Block_n 16 keeps 24 (384x8x32768 f16: 22 slices, 1.22x
/// the best library in "Session 18c").
static constexpr int64_t kWsSplitMaxWide = 16;
static constexpr double kWsSplitMinGain = 1.25;
/// ... on at most 40 strips of 64 rows (3 slices or more): the range
/// measured ("Session 18c": 5..40 strips); 64 strips in 2 slices (4096x24
/// x6144) were not.
static constexpr int64_t kWsSplitMaxStrips = 40;

/// Many strips: where the choice so far is an unsplit grid whose strips
/// are more than half the SMs (streamSplitK cannot split them in one wave:
/// 64-row strips past 66, M > 4224), 128-row strips on two consumers split
/// through the workspace in G = min(kWsSplitMax, SMs / strips, k-tiles /
/// kSplitKMinKTiles) slices, one unit per SM. Taken where the streaming
/// model of streamSplitK without its HBM term (such grids stream A at
/// 2.6-3.3 TB/s, under it) says the slowest CTA's stream, its bytes of A
/// at its tile's per-CTA rate plus the pipeline fill, is at most
/// kWsPairMaxRatio of the choice's before. Measured on the H200
/// (docs/benchmarks/gpu-gemm.md, "Session 18c" variants, main's builtin in
/// the same call): 5000x24x4096 128x32 in 3 slices on 120 CTAs 13.0 us
/// against main's 79 64-row strips 15.4 (0.82x -> 0.95x the best library),
/// 5000x8x6144 128x16 21.4 us against 23.5 (0.86x -> 0.94x). Not where
/// the choice is split already (the pair strips' cluster split 4 of
/// 3000x24x8192 and the like) nor where the streaming model kept the grid
/// whole (A from HBM: 4096x16x8192, 0.98x; A the size of the L2 on pair
/// strips: 6144x8x4096). Measured against the rule off ("Session 20" call
/// 1): the 10 shapes it changes 1.02x-1.18x faster, 7 of them not tuned on.
/// A at most kWsPairMaxL2Share times the L2, the range measured (5000x8x6144:
/// 61 MB, 1.23 times the advisor's 50 MB); a longer K streams A from HBM
/// (4300x24x16384: 141 MB), where more CTAs may not help.
static constexpr bool kWsPairSplitEnabled = true;
static constexpr double kWsPairMaxRatio = 0.9;
/// The pair strips through the workspace over the cluster split 2 of
/// 64-row strips, in at least kWsPairMinSplit slices. Tuned on the H200
/// (docs/benchmarks/gpu-gemm.md, "Session 20" call 1 variants):
/// 3500x24x4096 4 slices on 112 CTAs 10.0 us against 11.8 (55 strips split
/// 2, 110 CTAs), 3000x8x8192 f16 5 slices 17.3 against 18.5, 4096x24x6144
/// 4 slices 19.1 against 19.3. Then, main's builtin against this one (calls
/// 2-4): 1.07x over the 17 shapes it changes (0.93x-1.19x; 12 not tuned
/// on, M 2600..4200, and the classes row 4096x16x4096 1.10x); the one loss
/// is 4096x32x6144 (17.1 -> 18.3 us), whose neighbours gained or tied.
static constexpr bool kWsPairOverSplit2 = true;
static constexpr int64_t kWsPairMinSplit = 4;
static constexpr double kWsPairMaxL2Share = 1.25;

static GpuSketchChoice proposeWgmmaFewCols(const GpuGemmProblem &p,
                                           const GpuTarget &target,
                                           GpuSketchChoice c) {
  int64_t bn = p.n <= 16 ? 16 : 32;
  double aBytes = double(p.m) * double(p.k) * 2;
  double streamSeconds =
      aBytes / (kFewRowsStreamShare * target.hbmBytesPerSecond);
  const Candidate *best = nullptr;
  double bestCost = INFINITY;
  for (const Candidate &cand : kWgmmaFewColTiles) {
    int64_t strips = ceilDiv(p.m, cand.bm);
    double strip = double(p.k) * double(cand.bm) * 2;
    double v = std::max(streamSeconds, cost(strips, target.sms, strip,
                                            kFewRowsStripBytesPerSecond)) +
               waves(strips, target.sms) * kFewRowsWaveSeconds;
    if (v < bestCost) {
      bestCost = v;
      best = &cand;
    }
  }
  c.kernel = "wgmma";
  c.blockM = best->bm;
  c.blockN = bn;
  c.consumers = best->nc;
  c.blockK = 64;
  c.stages = std::min<int64_t>(
      16, (target.maxSharedPerBlock - 1024) / ((c.blockM + bn) * 128));
  int64_t strips = ceilDiv(p.m, c.blockM);
  c.ctas = std::min(strips, target.sms);
  c.groupM = 8;
  c.splitK = streamSplitK(aBytes, strips, double(p.k) * double(c.blockM) * 2,
                          c.consumers == 2 ? kNarrowPairCtaBytesPerSecond
                                           : kStreamCtaBytesPerSecond,
                          p.k, target);
  // Two consumers on 128-row strips gained split only where A streams from
  // HBM (8192x24x8192, A 134 MB: 0.90x -> 0.95x); with an A the size of
  // the L2 it lost (6000x20x4096, A 49 MB: 22.1 -> 22.9 us, about 2.2 TB/s
  // either way, "Session 14"): kept whole there.
  int64_t l2 = target.hints.cacheBytes(2);
  if (c.consumers == 2 && l2 > 0 && aBytes <= double(l2))
    c.splitK = 1;
  // Strips of 128 rows on two consumers split in 4 when that grid has at
  // most kWideSplitMaxCtas CTAs and every rank keeps kSplitKMinKTiles
  // k-tiles. Measured on the H200 (docs/benchmarks/gpu-gemm.md):
  // 128-row strips load a box of B per 128 rows of A instead of 64, and
  // the split keeps as many CTAs streaming A. "Session 16", N = 24:
  // 3000x24x8192 128x32 split 4 (96 CTAs) 19.2 us against 23.9 (64x32
  // split 2, 94 CTAs) and 23.1 (128x32 split 2, 48). "Session 17", N = 32
  // (first measured so for N not a multiple of 32 only): 2048x32x8192 9.9
  // us against 14.7 (64x32 split 2, the same 64 CTAs), 1536x32x16384 18.6
  // against 23.4, 2560x32x4096 8.9 against 9.8, 3072x32x6144 11.9 against
  // 12.3. 128 CTAs of clusters of 4 lost (4096x24x6144, "Session 15").
  //
  // Where that grid is at most kNarrowFewPairCtas CTAs, A's 64-row strips
  // on one consumer split in 4 instead (twice the CTAs, at most
  // kWideSplitMaxCtas). Measured on the H200 (docs/benchmarks/gpu-gemm.md,
  // "Session 17", gpu17b call 1): 1200x24x16384 40 -> 76 CTAs 18.3 -> 14.7
  // us, 1024x32x16384 f16 32 -> 64 CTAs 14.7 -> 12.1; from 48 CTAs it
  // lost (1536x32x16384 18.8 -> 19.3 us, 1536x24x16384 19.2 -> 21.6).
  //
  // N <= 16 too (block_n 16 splits only in 2: its 2 column groups): there
  // block_n 32, B's row box of its ldb columns ("Session 17", gpu17b call
  // 2, variants: 1024x16x16384 64x16 split 2 on 32 CTAs 19.1 us, 64x32
  // split 4 on 64 CTAs 12.1; 1024x8x16384 f16 19.3 -> 12.1).
  int64_t pairStrips = ceilDiv(p.m, 128);
  int64_t rowStrips = ceilDiv(p.m, 64);
  bool longK = ceilDiv(p.k, 64) >= 4 * kSplitKMinKTiles;
  bool fewPairs = longK && 4 * pairStrips <= kNarrowFewPairCtas &&
                  4 * rowStrips <= kWideSplitMaxCtas;
  if (fewPairs)
    bn = c.blockN = 32;
  if (bn == 32 && 4 * pairStrips <= kWideSplitMaxCtas && longK) {
    c.blockM = fewPairs ? 64 : 128;
    c.consumers = fewPairs ? 1 : 2;
    c.splitK = 4;
    c.stages = std::min<int64_t>(
        16, (target.maxSharedPerBlock - 1024) / ((c.blockM + bn) * 128));
    strips = fewPairs ? rowStrips : pairStrips;
  }
  // Few 64-row strips split in 4 (at most 15: M <= 960) split in 8 where
  // every rank keeps kSplitKMinKTiles k-tiles: each rank then sums and
  // stores one 8-column group's row half (splitk_narrow_share). Such grids
  // are bound by the CTAs' streaming rate, not by HBM: on the H200
  // (docs/benchmarks/gpu-gemm.md, "Session 17/18 confirmation")
  // 640x24x32768 split 4 on 40 CTAs streamed A at 1.8 TB/s (23.0 us, the
  // best library 13.6), 768x24x24576 f16 on 48 at 2.0 TB/s (18.7 us against
  // 11.9): 42-46 GB/s per CTA, so twice the CTAs stream about twice as
  // fast until HBM binds.
  int64_t kTiles = ceilDiv(p.k, 64);
  if (c.splitK == 4 && c.blockM == 64 && bn == 32 &&
      kTiles >= 8 * kSplitKMinKTiles && 8 * strips <= kNarrowSplitMaxCtas)
    c.splitK = 8;
  // N <= 16 where 64-row strips split in 2 (more than 10 strips of 128
  // rows, so not block_n 32 above): split in 4 (each rank one column
  // group's row half) where that grid has at most kNarrowSplitMaxCtas CTAs
  // and every rank keeps kSplitKMinKTiles k-tiles. Measured before on the
  // H200 ("Session 17/18 confirmation"): 1536x16x12288 64x16 split 2 on 48
  // CTAs 15.5 us (2.4 TB/s), 0.74x the best library.
  if (c.splitK == 2 && c.blockM == 64 && bn == 16 &&
      kTiles >= 4 * kSplitKMinKTiles && 4 * strips <= kNarrowSplitMaxCtas)
    c.splitK = 4;
  if (c.splitK > 1)
    c.ctas = strips * c.splitK;
  // Few 64-row strips whose grid (clusters of at most 8, 15 resident) stays
  // well under the SMs: split K through a global workspace instead (store
  // "splitk_ws", no clusters): units (strip, slice) on up to one CTA per
  // SM, the last unit of a strip to arrive sums the partials in slice order
  // and stores. Where that grid has at least kWsSplitMinGain times the CTAs
  // and every slice keeps kSplitKMinKTiles k-tiles. A candidate: measured
  // in the same device call as its variants (docs/benchmarks/gpu-gemm.md,
  // "Session 18c").
  int64_t wsSplit = std::min(p.n <= 16 ? kWsSplitMax : kWsSplitMaxWide,
                             target.sms / rowStrips);
  // Both workspace splits: `stripCount` strips of blockM rows on `consumers`
  // consumers, each in `split` slices, B's columns in one box of 16 or 32.
  auto splitThroughWorkspace = [&](int64_t blockM, int64_t consumers,
                                   int64_t stripCount, int64_t split) {
    c.blockM = blockM;
    c.consumers = consumers;
    c.blockN = p.n <= 16 ? 16 : 32;
    c.stages = std::min<int64_t>(
        16, (target.maxSharedPerBlock - 1024) / ((c.blockM + c.blockN) * 128));
    c.splitK = split;
    c.store = "splitk_ws";
    c.ctas = stripCount * split;
  };
  // Not where the cluster split runs 128-row strips on two consumers:
  // there it did not gain ("Session 18c": 2048x32x8192 0.91x, 2304x32x8192
  // 0.96x and 0.98x, 1500x32x12288 1.05x, 1536x32x16384 1.02x).
  if (kWsSplitEnabled && tmaAligned(p) && !p.conv && wsSplit >= 2 &&
      rowStrips <= kWsSplitMaxStrips && c.consumers == 1 &&
      kTiles >= wsSplit * kSplitKMinKTiles &&
      double(rowStrips * wsSplit) >= kWsSplitMinGain * double(c.ctas))
    splitThroughWorkspace(64, 1, rowStrips, wsSplit);
  // Many strips: 128-row strips on two consumers through the workspace
  // (kWsPairSplitEnabled), where the grid so far is unsplit and its strips
  // are more than half the SMs.
  int64_t pairWs = std::min({kWsSplitMax, target.sms / pairStrips,
                             kTiles / kSplitKMinKTiles});
  auto ctaSeconds = [&](int64_t rows, int64_t consumers, int64_t split) {
    double bytes = double(rows) * double(p.k) * 2 / double(split);
    return bytes / (consumers == 2 ? kNarrowPairCtaBytesPerSecond
                                   : kStreamCtaBytesPerSecond) +
           kFewRowsWaveSeconds;
  };
  bool manyStrips =
      c.splitK == 1 && 2 * strips > target.sms &&
      ctaSeconds(128, 2, pairWs) <=
          kWsPairMaxRatio *
              ctaSeconds(c.blockM, c.consumers, std::max<int64_t>(1, c.splitK));
  // Also where the choice is 64-row strips on one consumer in the cluster
  // split 2 (M about 2600..4200 at long K) and the pairs split at least in
  // kWsPairMinSplit: there the streaming model above says the split of 2
  // streams as fast, but the pairs through the workspace measured faster
  // (kWsPairOverSplit2).
  bool overSplit2 = kWsPairOverSplit2 && c.splitK == 2 && c.blockM == 64 &&
                    c.consumers == 1 && pairWs >= kWsPairMinSplit;
  if (kWsPairSplitEnabled && c.store != "splitk_ws" && tmaAligned(p) &&
      !p.conv && pairWs >= 2 && (manyStrips || overSplit2) && l2 > 0 &&
      aBytes <= kWsPairMaxL2Share * double(l2))
    splitThroughWorkspace(128, 2, pairStrips, pairWs);
  return c;
}

/// The wgmma kernel's bf16/f16 GEMM tiles and their relative per-SM rates
/// measured on the H200 (docs/benchmarks/gpu-gemm.md). 128x192: an
/// estimate between 128x256 and 128x128, for whole waves where 128x256
/// leaves SMs idle (2000x3000x1504: 256 tiles in 2 waves instead of 192 in
/// 2; measured 0.70x cuBLAS against 0.60x). 64x256 (one consumer: m64n256
/// wgmmas, the widest): 128x14336x4096 in 112 tiles 0.97x cuBLAS against
/// 128x128's 0.94x (same tile count, "Stream-K" there). 128x64 (two
/// consumers): 128x14336x4096 298 TFLOP/s in 224 tiles where 128x128 gives
/// 407 in 112 (0.6 of 1.0 per SM after whole waves); it matters split
/// (splitKTile).
static const Candidate kWgmmaTiles[] = {
    {128, 256, 0, 0, 2, 1.0}, {128, 192, 0, 0, 2, 0.97},
    {64, 256, 0, 0, 1, 0.95}, {128, 128, 0, 0, 2, 0.93},
    {64, 128, 0, 0, 1, 0.62}, {128, 64, 0, 0, 2, 0.60},
    {64, 64, 0, 0, 1, 0.40}};

/// The same kernel where A's or B's rows are 16-byte but not 128-byte
/// aligned (K or N a multiple of 8 but not of 64 for bf16/f16): every TMA
/// box row then straddles two 128-byte lines, the L2-to-SM traffic, not
/// the tensor cores, sets the pace, and tiles that read A and B fewer times
/// per flop win. Per-SM rates measured on the H200 under full load,
/// relative to 128x256 on aligned rows (5.25 TFLOP/s per SM at 4096^3;
/// docs/benchmarks/gpu-gemm.md, "Session 11"):
/// 4096x4104x4112 256x128 0.87, 128x256 0.83, 128x192 0.77, 128x128 0.64,
/// 64x256 0.47 (aligned 4096^3: 128x192 0.99, 64x256 0.97, 128x128 0.94);
/// 2000x3000x1504 256x192 (one wave of 128 tiles, 3 stages) 0.91, 192x128
/// (one consumer, 264 tiles) 0.79, 128x192 0.76. The smaller tiles, not
/// measured so, scaled like 128x128 and 64x256 (0.69x and 0.49x of their
/// aligned rates).
static const Candidate kWgmmaTilesRowsUnaligned[] = {
    {256, 192, 0, 0, 2, 0.91}, {256, 128, 0, 0, 2, 0.87},
    {128, 256, 0, 0, 2, 0.83}, {192, 128, 0, 0, 1, 0.79},
    {128, 192, 0, 0, 2, 0.77}, {128, 128, 0, 0, 2, 0.64},
    {64, 256, 0, 0, 1, 0.47}, {128, 64, 0, 0, 2, 0.41},
    {64, 128, 0, 0, 1, 0.30}, {64, 64, 0, 0, 1, 0.20}};

/// Whether kWgmmaTiles' rates hold: the rows TMA reads of A and B (the
/// padded copies' where there are any) are 128-byte aligned, or the GEMM
/// has fewer than 1024 rows or columns: A or B is streamed about once from
/// few tiles (4096x16x4096, 16x4104x4104 keep their tiles), and the mid
/// sizes run on the small tiles whose unaligned rates are estimates
/// (1000^3: 128x64 by them measured 0.68x the best library, 64x128 by
/// kWgmmaTiles 0.71x); else kWgmmaTilesRowsUnaligned's.
static bool rowsLineAligned(const GpuGemmProblem &p) {
  GpuWgmmaPadding pad = wgmmaPadding(p);
  int64_t es = elemBytes(p.aType);
  if (p.m < 1024 || p.n < 1024)
    return true;
  return (pad.lda * es) % 128 == 0 && (pad.ldb * es) % 128 == 0;
}

/// The mma.sync kernel's tiles (bf16/f16, tf32). Element loads (rows TMA
/// and cp.async cannot take in 16-byte chunks) make big tiles slow to
/// fill: their rate falls with the tile's area.
static const Candidate kMmaTiles[] = {{128, 128, 2, 4, 0, 1.0},
                                      {128, 64, 2, 2, 0, 0.75},
                                      {64, 64, 2, 2, 0, 0.5}};
static double mmaEfficiency(const Candidate &cand, bool aligned) {
  return aligned ? cand.efficiency
                 : cand.efficiency * 4096.0 / double(cand.bm * cand.bn);
}
static const Candidate &mmaSyncTile(const GpuGemmProblem &p,
                                    const GpuTarget &target) {
  bool aligned = tmaAligned(p);
  const Candidate *best = &kMmaTiles[0];
  double bestCost = INFINITY;
  for (const Candidate &cand : kMmaTiles) {
    int64_t tiles = ceilDiv(p.m, cand.bm) * ceilDiv(p.n, cand.bn);
    // two CTAs per SM
    double v = cost(tiles, target.sms * 2, double(cand.bm * cand.bn),
                    mmaEfficiency(cand, aligned));
    if (v < bestCost) {
      bestCost = v;
      best = &cand;
    }
  }
  return *best;
}

/// The model that decides between the wgmma kernel on padded copies and
/// the mma.sync kernel with element loads, in seconds. Rates fitted to the
/// H200 (docs/benchmarks/gpu-gemm.md, classes table of 2026-12-01): the
/// wgmma kernel's 128x256 tile at 5.0 TFLOP/s per SM (4096^3 bf16 about 660
/// TFLOP/s) plus about 1 us per wave (pipeline fill, epilogue); mma.sync
/// with element loads at 0.57 TFLOP/s per CTA slot at efficiency 1 (two
/// per SM: 4093x4099x4111 bf16 at 73 TFLOP/s on 64x64 tiles,
/// 127x1000x513 at 8.7). A pad copy reads A (or B) and writes its padded
/// copy at 60% of the HBM bandwidth (2-byte loads of rows that are only
/// element-aligned), plus 2 us for its launch in the stream.
static constexpr double kWgmmaSmFlops = 5.0e12;
/// TF32: the 256x128 tile at 2.65 TFLOP/s per SM (8192^3); mma.sync with
/// element loads at 0.74x its bf16 rate (127x1000x513 tf32 6.4 TFLOP/s).
static constexpr double kWgmmaTf32SmFlops = 2.65e12;
static constexpr double kMmaUnalignedTf32SlotFlops = 4.2e11;
static constexpr double kWgmmaWaveSeconds = 1.0e-6;
static constexpr double kMmaUnalignedSlotFlops = 5.7e11;
static constexpr double kPadBandwidthShare = 0.6;
static constexpr double kPadLaunchSeconds = 2.0e-6;

bool mlir::tensorop::paddedWgmmaPays(const GpuGemmProblem &p,
                                     const GpuTarget &target,
                                     std::string &note) {
  GpuWgmmaPadding pad = wgmmaPadding(p);
  if (!pad.any())
    return false;
  int64_t es = elemBytes(p.aType);
  double padBytes = 0, padLaunches = 0;
  if (pad.padA) {
    padBytes += double(p.m) * double(p.k + pad.lda) * double(es);
    padLaunches += 1;
  }
  if (pad.padB) {
    padBytes += double(p.k) * double(p.n + pad.ldb) * double(es);
    padLaunches += 1;
  }
  double padSeconds = padBytes / (kPadBandwidthShare * target.hbmBytesPerSecond) +
                      padLaunches * kPadLaunchSeconds;
  auto tilesOf = [&](const Candidate &c) {
    return ceilDiv(p.m, c.bm) * ceilDiv(p.n, c.bn);
  };
  double flopsPerElem = 2.0 * double(p.k);
  bool tf32 = p.precision == "tf32";
  const Candidate &w =
      cheapestTile(tf32 ? llvm::ArrayRef<Candidate>(kWgmmaTf32Tiles)
                        : llvm::ArrayRef<Candidate>(kWgmmaTiles),
                   p, target.sms);
  double wWaves = std::ceil(double(tilesOf(w)) / double(target.sms));
  double wgmmaSeconds =
      wWaves * (double(w.bm * w.bn) * flopsPerElem /
                    (w.efficiency *
                     (tf32 ? kWgmmaTf32SmFlops : kWgmmaSmFlops)) +
                kWgmmaWaveSeconds);
  const Candidate &m = mmaSyncTile(p, target);
  double mWaves = std::ceil(double(tilesOf(m)) / double(2 * target.sms));
  double mmaSeconds =
      mWaves * double(m.bm * m.bn) * flopsPerElem /
      (mmaEfficiency(m, false) *
       (tf32 ? kMmaUnalignedTf32SlotFlops : kMmaUnalignedSlotFlops));
  bool pays = padSeconds + wgmmaSeconds < mmaSeconds;
  std::string copies;
  if (pad.padA)
    copies +=
        llvm::formatv("A's rows of K={0} padded to {1}", p.k, pad.lda).str();
  if (pad.padB)
    copies += llvm::formatv("{0}B's rows of N={1} padded to {2}",
                            pad.padA ? ", " : "", p.n, pad.ldb)
                  .str();
  note = llvm::formatv("{0}: rows TMA cannot describe ({1}); model: pad "
                       "copies {2:f1} us + wgmma {3:f1} us against mma.sync "
                       "with element loads {4:f1} us",
                       pays ? "wgmma on padded copies"
                            : "mma.sync kept (element loads)",
                       copies, padSeconds * 1e6, wgmmaSeconds * 1e6,
                       mmaSeconds * 1e6)
             .str();
  return pays;
}

llvm::Expected<GpuSketchChoice>
mlir::tensorop::proposeGpuSketch(const GpuGemmProblem &p,
                                 const GpuTarget &target) {
  if (llvm::Error e = checkGpuProblemLimits(p))
    return std::move(e);
  if (p.conv) {
    if (std::string why = convUnsupported(p); !why.empty())
      return llvm::createStringError(why);
  }
  GpuSketchChoice c;
  c.precision = p.precision;
  c.source = "builtin";
  auto tiles = [&](int64_t bm, int64_t bn) {
    return ceilDiv(p.m, bm) * ceilDiv(p.n, bn);
  };
  if (gemvFits(p)) {
    proposeGemv(p, target, c);
    return c;
  }
  if (p.precision == "f32") {
    // FFMA tiles (nvidia_gemm_ffma.py) from whole waves: 128x128 leaves
    // most SMs idle on small and mid shapes (1024^3: 64 tiles on 132 SMs;
    // 127x1000x513: 8). Relative per-SM rates: see kFfmaTiles. Three
    // buffers filled by cp.async: measured on the H200 against two filled
    // through registers, 127x1000x513 (32x32) 14.4 us against 20.2, 1024^3
    // (64x128) 67.9 against 71.0, 2000x3000x1504 483 against 516, 4096^3
    // 3289 against 3520. With the emitter's two fragment buffers (the
    // default with cp.async), 4 buffers keep as many k-tiles in flight as 3
    // did with one (4096^3 47.5 TFLOP/s with 3 or 4); 128x256 with 3 (4096^3
    // 49.4, docs/benchmarks/gpu-gemm.md "Session 13").
    // Split-K where the chosen tiles leave SMs idle (ffmaTileAndSplit).
    auto [pick, splitK] = ffmaTileAndSplit(p, target);
    c.kernel = "ffma";
    c.blockM = pick.bm;
    c.blockN = pick.bn;
    c.blockK = 16;
    c.stages = pick.bn == 256 ? 3 : 4;
    c.splitK = splitK;
    return c;
  }
  if (p.precision == "tf32" && p.conv) {
    // No mma.sync TF32 convolution kernel: the wgmma one or nothing.
    if (std::string why = convNotForWgmma(p, target); !why.empty())
      return llvm::createStringError("TF32 convolutions run on the sm_90a "
                                     "wgmma kernel only: " +
                                     why);
    return proposeWgmmaTf32(p, target, c);
  }
  if (p.precision == "tf32" && target.sm >= 90 && tmaAligned(p))
    return proposeWgmmaTf32(p, target, c);
  std::string padNote;
  // TF32 rows TMA cannot describe: padded copies as for bf16/f16 below,
  // where N is even (the TF32 kernel stores C in pairs of columns).
  if (p.precision == "tf32" && target.sm >= 90 && p.n % 2 == 0 &&
      paddedWgmmaPays(p, target, padNote)) {
    GpuSketchChoice t = proposeWgmmaTf32(p, target, c);
    t.note = padNote;
    return t;
  }
  bool half = p.precision == "bf16" || p.precision == "f16";
  bool wgmma = target.sm >= 90 && half && tmaAligned(p);
  if (p.conv)
    wgmma = convNotForWgmma(p, target).empty();
  // Rows TMA cannot describe: the wgmma kernel on padded copies of A and B
  // where the model says the copies cost less than the mma.sync kernel's
  // element loads lose (paddedWgmmaPays).
  if (!wgmma && !p.conv && target.sm >= 90 && half)
    wgmma = paddedWgmmaPays(p, target, padNote);
  if (wgmma && !p.conv && p.m <= kWgmmaFewRows) {
    GpuSketchChoice f = proposeWgmmaFewRows(p, target, c);
    f.note = padNote;
    return f;
  }
  if (wgmma && !p.conv && p.n <= kWgmmaFewRows) {
    GpuSketchChoice f = proposeWgmmaFewCols(p, target, c);
    f.note = padNote;
    return f;
  }
  if (wgmma) {
    // Relative rates measured on the H200: kWgmmaTiles. Split-K where few
    // tiles leave SMs idle and K is long (splitKTile).
    // Convolutions: rates from a tile sweep of ResNet-50's layers on the
    // H200 (docs/benchmarks/gpu-conv.md, run 4), and whole waves: a
    // persistent CTA that gets one tile more than others sets the time.
    static const Candidate convCands[] = {{128, 128, 0, 0, 2, 1.0},
                                          {64, 128, 0, 0, 1, 0.9},
                                          {128, 256, 0, 0, 2, 0.9},
                                          {128, 64, 0, 0, 2, 0.85},
                                          {64, 64, 0, 0, 1, 0.5}};
    llvm::ArrayRef<Candidate> all = kWgmmaTiles;
    if (!rowsLineAligned(p))
      all = kWgmmaTilesRowsUnaligned;
    if (p.conv)
      all = convCands;
    const Candidate &pick = cheapestTile(all, p, target.sms);
    c.blockM = pick.bm;
    c.blockN = pick.bn;
    c.consumers = pick.nc;
    c.kernel = "wgmma";
    c.blockK = 64;
    int64_t stage = (c.blockM + c.blockN) * 64 * 2;
    c.stages = std::min<int64_t>(6, (target.maxSharedPerBlock - 1024) / stage);
    c.ctas = std::min(tiles(c.blockM, c.blockN), target.sms);
    c.groupM = 8;
    // Convolutions too: their split ranks start inside K at their own
    // filter tap and channel (nvidia_conv.py, emit_tap_start).
    if (std::optional<Candidate> sk = splitKTile(all, pick, p, target.sms)) {
      c.blockM = sk->bm;
      c.blockN = sk->bn;
      c.consumers = sk->nc;
      c.splitK = 2;
      c.ctas = std::min(tiles(c.blockM, c.blockN), target.sms / 2) * 2;
      int64_t stage = (c.blockM + c.blockN) * 64 * 2;
      c.note = padNote;
      if (splitSchedule(tiles(c.blockM, c.blockN), c.ctas / 2, 2)
              .dataParallelTiles == 0) {
        // Every tile split: the reduction ends in the register store; 8
        // stages where they fit (as measured).
        c.stages =
            std::min<int64_t>(8, (target.maxSharedPerBlock - 1024) / stage);
        return c;
      }
      // Data-parallel waves first: they take the smem_tma store, as
      // unsplit tiles do below (the split tiles' slices the register one),
      // where C's rows are 16-byte aligned for its tensor map.
      c.stages = std::min<int64_t>(6, (target.maxSharedPerBlock - 1024) / stage);
      if (!cRowsAligned(p))
        return c;
      c.store = "smem_tma";
      while (wgmmaSharedBytes(c) + 16 > target.maxSharedPerBlock &&
             c.stages > 2)
        --c.stages;
      return c;
    }
    // C through shared memory and TMA stores: measured on the H200 at
    // 1.04-1.19x the register store on plain GEMMs and bias+ReLU, equal
    // with GELU (docs/benchmarks/gpu-gemm.md, "Store through shared
    // memory"). A convolution's output is C's M x F row-major matrix, so
    // the implicit-GEMM kernel takes the same store (docs/benchmarks/
    // gpu-conv.md: its short-K 1x1 layers are epilogue-bound).
    // A stage fewer (not below 4) where that makes room for its buffers:
    // 2000x3000x1504 in 128x192 tiles, 5 stages and the register store
    // 0.70x cuBLAS, 4 stages and smem_tma 0.83x (docs/benchmarks/
    // gpu-gemm.md, "Stream-K"). C's rows unaligned (N odd or not a multiple
    // of 8): the register store, column by column where N is odd.
    c.note = padNote;
    if (!cRowsAligned(p)) {
      c.store = "global";
      return c;
    }
    // Tiles of 256 rows: down to 3 stages (256x192's stages are 56 KiB:
    // 3 and smem_tma measured 0.99x cuBLAS at 2000x3000x1504).
    c.store = "smem_tma";
    int64_t minStages = c.blockM == 256 ? 3 : 4;
    while (wgmmaSharedBytes(c) > target.maxSharedPerBlock &&
           c.stages > minStages)
      --c.stages;
    if (wgmmaSharedBytes(c) > target.maxSharedPerBlock) {
      c.store = "global";
      c.stages = std::min<int64_t>(6, (target.maxSharedPerBlock - 1024) / stage);
    }
    return c;
  }
  // mma.sync: bf16/f16 on sm_80 (or rows TMA cannot describe where the pad
  // copies do not pay), tf32.
  c.kernel = "mma_sync";
  const Candidate &pick = mmaSyncTile(p, target);
  c.blockM = pick.bm;
  c.blockN = pick.bn;
  c.warpsM = pick.wm;
  c.warpsN = pick.wn;
  c.blockK = p.precision == "tf32" ? 16 : 32;
  c.stages = 4;
  c.groupM = 8;
  c.note = padNote;
  return c;
}

int64_t mlir::tensorop::wgmmaSharedBytes(const GpuSketchChoice &s) {
  // The stages (A and B tiles of 64 columns of 2-byte elements) and their
  // two mbarriers each (nvidia_gemm_wgmma.py).
  int64_t bytes = s.stages * (s.blockM + s.blockN) * 128 + 16 * s.stages;
  // smem_tma: two 8 KiB buffers per consumer warpgroup, 1024-byte aligned
  // (nvidia_smem_store.py).
  if (s.store == "smem_tma")
    bytes = roundUp(bytes, 1024) + s.consumers * 2 * 8192;
  return bytes;
}

GpuSketchFields GpuSketchChoice::fields() const {
  return {kernel,    precision, blockM, blockN, blockK,   warpsM,   warpsN,
          consumers, stages,    groupM, ctas,   clusterM, clusterN, store,
          splitK};
}

llvm::Error mlir::tensorop::checkGpuSketch(const GpuSketchChoice &s,
                                           const GpuGemmProblem &p,
                                           const GpuTarget &t) {
  auto fail = [](llvm::StringRef field, const llvm::Twine &why) {
    return llvm::createStringError("gpu_sketch field '" + field + "': " + why);
  };
  if (llvm::Error e = checkGpuProblemLimits(p))
    return e;
  // The sketch's own rules: those of the #tensorop.gpu_sketch verifier.
  if (std::optional<GpuSketchViolation> v =
          findGpuSketchViolation(s.fields(), t.sm))
    return fail(v->field, v->why);
  // The problem's and the target hints' rules.
  if (s.precision != p.precision)
    return fail("precision", "is \"" + s.precision +
                                 "\" but the matmul "
                                 "computes in " +
                                 p.precision);
  if (p.conv) {
    if (std::string why = convUnsupported(p); !why.empty())
      return fail("kernel", why);
    if (s.kernel == "wgmma") {
      if (std::string why = convNotForWgmma(p, t); !why.empty())
        return fail("kernel", why);
    } else if (p.precision == "tf32") {
      return fail("kernel", "TF32 convolutions run on the wgmma kernel only, "
                            "not " +
                                s.kernel);
    } else if (s.kernel != "mma_sync") {
      return fail("kernel", "convolutions run on the wgmma (TMA im2col) or "
                            "mma_sync (cp.async) kernels, not " +
                                s.kernel);
    }
    if (s.clusterM * s.clusterN > 1)
      return fail("cluster_m", "convolutions run without clusters");
    // The N extents of 8, 16 and 32 rows are for GEMMs of few rows.
    if (s.kernel == "wgmma" && s.blockM < 64)
      return fail("block_m",
                  llvm::formatv("{0} take block_m of 64 or more, got {1}",
                                p.precision == "tf32" ? "TF32 convolutions"
                                                      : "convolutions",
                                s.blockM)
                      .str());
  }
  if (s.kernel == "gemv") {
    if (p.conv)
      return fail("kernel", "convolutions run on the wgmma or mma_sync "
                            "kernels, not gemv");
    if (p.m > 16)
      return fail("kernel", llvm::formatv("the GEMV kernel is for M <= 16, "
                                          "got M={0}",
                                          p.m)
                                .str());
    if (p.k % 8 || p.n % 8)
      return fail("kernel",
                  llvm::formatv("the GEMV kernel loads 16-byte chunks of A "
                                "and B rows: K and N must be multiples of 8, "
                                "got K={0} N={1}",
                                p.k, p.n)
                      .str());
  }
  // Rank r of a split runs the r-th of split_k equal ranges of K's
  // k-tiles (`tileK` deep); none may be empty.
  auto emptySplitRange = [&](int64_t tileK) -> std::string {
    int64_t kTiles = ceilDiv(p.k, tileK);
    if (ceilDiv(kTiles, s.splitK) * (s.splitK - 1) < kTiles)
      return "";
    return llvm::formatv("K={0} has {1} k-tiles of {2}: too few for {3} "
                         "non-empty ranges",
                         p.k, kTiles, tileK, s.splitK)
        .str();
  };
  // nvidia_gemm_ffma.py: k-tiles of 16.
  if (s.kernel == "ffma" && s.splitK > 1)
    if (std::string why = emptySplitRange(16); !why.empty())
      return fail("split_k", why);
  if (s.kernel == "wgmma") {
    // Rows TMA cannot describe: bf16/f16 GEMMs run on padded copies of A
    // and B (wgmmaPadding); C is stored from registers at its own stride.
    // TF32: where N is even (its kernel stores C in pairs of columns).
    bool padded = !p.conv && (p.precision != "tf32" || p.n % 2 == 0);
    if (!tmaAligned(p) && !padded)
      return fail("kernel",
                  llvm::formatv("TMA needs 16-byte aligned rows (K and "
                                "N multiples of {2}), got K={0} N={1}; "
                                "convolutions and TF32 GEMMs with N odd do "
                                "not run on padded copies",
                                p.k, p.n, 16 / elemBytes(p.aType))
                      .str());
    if (s.store == "smem_tma" && !cRowsAligned(p))
      return fail("store",
                  llvm::formatv("the TMA store needs 16-byte aligned rows of "
                                "C (N a multiple of {0}, got N={1}): store = "
                                "\"global\"",
                                16 / elemBytes(p.cType), p.n)
                      .str());
    int64_t smem = wgmmaSharedBytes(s);
    // The split-K workspace is the kernel's own (its counters zeroed at
    // acquisition); it does not share the pad copies' yet.
    if (s.store == "splitk_ws" && (!tmaAligned(p) || p.conv))
      return fail("store", "\"splitk_ws\" needs 16-byte aligned rows of A "
                           "and B (no pad copies) and a GEMM");
    if (s.splitK > 1 && s.store != "splitk_ws")
      // Two barriers; the fp32 partial tile overlays the stages (the
      // verifier's rule: they hold it).
      smem += 16;
    // wgmma: k-tiles of 64.
    if (s.splitK > 1)
      if (std::string why = emptySplitRange(64); !why.empty())
        return fail("split_k", why);
    if (smem > t.maxSharedPerBlock)
      return fail(s.store == "smem_tma" ? "store" : "stages",
                  llvm::formatv("{0} stages{1} need {2} bytes of shared "
                                "memory; the target allows {3}",
                                s.stages,
                                s.store == "smem_tma"
                                    ? " and the smem_tma store's buffers"
                                    : "",
                                smem, t.maxSharedPerBlock)
                      .str());
  }
  return llvm::Error::success();
}

llvm::json::Object mlir::tensorop::emitterSpec(const GpuSketchChoice &s,
                                               const GpuGemmProblem &p,
                                               const GpuTarget &t,
                                               llvm::StringRef name) {
  llvm::json::Object spec{{"name", name},
                          {"m", p.m},
                          {"n", p.n},
                          {"k", p.k},
                          {"a_dtype", p.precision},
                          {"c_dtype", p.cType},
                          {"accumulate", p.accumulate},
                          {"sm", t.sm},
                          {"group_m", s.groupM}};
  if (const GpuConvGeometry *g = p.conv ? &*p.conv : nullptr)
    spec["conv"] = llvm::json::Object{
        {"n", g->n},
        {"h", g->h},
        {"w", g->w},
        {"c", g->c},
        {"f", g->f},
        {"r", g->r},
        {"s", g->s},
        {"stride_h", g->strideH},
        {"stride_w", g->strideW},
        {"dilation_h", g->dilationH},
        {"dilation_w", g->dilationW},
        {"pad_top", g->padTop},
        {"pad_left", g->padLeft},
        {"pad_bottom", g->padBottom},
        {"pad_right", g->padRight}};
  if (s.kernel == "wgmma") {
    spec["block_m"] = s.blockM;
    spec["block_n"] = s.blockN;
    spec["consumers"] = s.consumers;
    spec["stages"] = s.stages;
    spec["sms"] = s.ctas > 0 ? s.ctas : t.sms;
    if (s.clusterM * s.clusterN > 1) {
      spec["cluster_m"] = s.clusterM;
      spec["cluster_n"] = s.clusterN;
    }
    // store "splitk_ws": C is stored from registers by the last unit of
    // a tile, after the split-K reduction through a global workspace
    if (s.store == "splitk_ws")
      spec["split_reduce"] = "workspace";
    else if (s.store != "global")
      spec["store"] = s.store;
    if (s.splitK > 1)
      spec["split_k"] = s.splitK;
    GpuWgmmaPadding pad = wgmmaPadding(p);
    if (pad.padA)
      spec["lda"] = pad.lda;
    if (pad.padB)
      spec["ldb"] = pad.ldb;
  } else if (s.kernel == "gemv") {
    spec["block_m"] = s.blockM;
    spec["block_n"] = s.blockN;
    spec["block_k"] = s.blockK;
    spec["warps"] = s.warpsN;
  } else if (s.kernel == "ffma") {
    spec["block_m"] = s.blockM;
    spec["block_n"] = s.blockN;
    spec["stages"] = s.stages;
    if (s.splitK > 1)
      spec["split_k"] = s.splitK;
  } else if (s.kernel == "mma_sync") {
    spec["block_m"] = s.blockM;
    spec["block_n"] = s.blockN;
    spec["block_k"] = s.blockK;
    spec["warps_m"] = s.warpsM;
    spec["warps_n"] = s.warpsN;
    spec["stages"] = s.stages;
  }
  return spec;
}

static std::atomic<GpuLLMProposer> gpuLLMProposer{nullptr};

void mlir::tensorop::registerGpuLLMProposer(GpuLLMProposer proposer) {
  gpuLLMProposer = proposer;
}

llvm::Expected<GpuSketchChoice>
mlir::tensorop::proposeGpuSketchWithLLM(const GpuGemmProblem &p,
                                        const GpuTarget &t,
                                        std::vector<AdvisorNote> &notes) {
  if (GpuLLMProposer proposer = gpuLLMProposer)
    return proposer(p, t, notes);
  return llvm::createStringError(
      "advisor=llm is not available for NVIDIA targets: this build/consumer "
      "did not link TensorOp::LLM with TensorOp::NVIDIA (TensorOpGPULLM)");
}
