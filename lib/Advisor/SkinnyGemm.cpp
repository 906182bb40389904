//===- SkinnyGemm.cpp - Sketches of GEMMs with few rows or columns --------===//
//
// A GEMM with few rows (M <= 64) uses each element of B only M times, and
// one with few columns (N <= 16) each element of A only N times: packing
// the big operand (a read and a write pass, then a read) costs more than the
// FMAs, so these paths read both operands in place and stream the big one
// once. Measured on the Zen 5 build host (docs/benchmarks/
// cpu-gemm-classes.md, "Skinny GEMMs"); AVX-512 only, where the register
// file holds the blocks below (AVX2 keeps the builtin's earlier choice).
//
//===----------------------------------------------------------------------===//

#include "SkinnyGemm.h"
#include "Tiling.h"

#include "tensorop/Advisor/ThreadCount.h"
#include "tensorop/Dialect/KDotSketch.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tensorop;

namespace {

/// At most this many rows of C (whatever their blocks), a few-rows block
/// does so few FMAs per element of B that B's rows bind: each row's next
/// tiles are prefetched wherever B is (1 thread, quiet, gen's objects
/// without the prefetch where L3 holds B, new/base: 16x2048x2048 0.25,
/// 11x2164x2967 0.15, 4x1024x4096 0.39, 7x1298x979 0.78).
constexpr int64_t kFewRowsStreamB = 16;

/// Rows of one register block of the few-rows path: at most this many, so
/// that a block still has two B vectors (14 x 32 uses 31 registers).
constexpr int64_t kFewRowsBlock = 14;
/// Columns of at most this many vectors are one tile of the few-rows
/// path's block where B is in cache (chooseFewRowsSketch). Zen 5, 1
/// thread, quiet, same-process sketch A/B against libxsmm
/// (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: few rows, N in one
/// column tile"): 64x43x131 13 x 32 0.90x, 8 x 48 1.00x, 6 x 48 1.00x.
constexpr int64_t kNarrowNVectors = 4;
/// Rows of B one sweep along N covers (the K band) where B streams from
/// memory (unless the target's blocking.few_rows_band_rows applies), and
/// where B is one prepacked panel (its rows prefetched ahead; longer bands
/// were not measured there).
constexpr int64_t kBandRows = 128;
/// The K band where L3 holds B: the kernel is then bound by its FMAs, and
/// each band reloads and stores every C tile once more, so fewer, longer
/// bands win (a tile's B rows then come from L2 rather than L1 for the
/// later row blocks, which costs less). Zen 4, quiet, gen's objects against
/// bands of 128 in one process (docs/benchmarks/cpu-gemm-classes.md,
/// "Longer K bands where L3 holds B"): 1 thread 48x1500x700 +2.8%,
/// 33x777x1027 +2.5%, 16x4096x1024 +3.0%, 33x77x1027 +1.9%, 60x2000x1500
/// +1.1%, 16x2048x2048 -1.4% and +1.2% in two runs; 2 threads 33x777x1027
/// +8.5%, 33x77x1027 +6.2%, 4x1024x4096 and 16x2048x2048 -1.2%, -1.4%.
/// With B from memory, 384 rows lost in sketch A/Bs (13x1481x6894 -3.8%,
/// 10x2730x5200 -1.5%): 128 stays there.
constexpr int64_t kBandRowsInL3 = 384;
/// Vectors of a few-rows block from which the target's
/// blocking.few_rows_wide_band_rows applies: 4 or more leave registers for
/// at most 6 rows, so each B vector feeds at most 6 FMAs and the block
/// waits on B's bandwidth rather than on its FMAs.
constexpr int64_t kFewRowsWideBandMinVectors = 4;
/// Teams up to this many threads take blocking.few_rows_wide_band_rows (the
/// most it was measured on).
constexpr int64_t kFewRowsWideBandMaxThreads = 2;
/// blocking.few_rows_wide_band_rows needs this many consecutive rows of B
/// to put at most the L1's ways in any one set.
constexpr int64_t kFewRowsWideBandSpreadRows = 64;
/// One or two rows (GEMV) with B in L3: each tile walks down K instead (kc
/// rows, B prefetched this many rows ahead). With B in L3 the walk measured
/// 1.58x oneDNN at 1x2000x3000 against 1.18-1.26x swept in bands of 32-128
/// rows.
constexpr int64_t kGemvKc = 512;
constexpr int64_t kGemvPrefetchRows = 32;
/// Rows ahead a prepacked fp32 panel of B is prefetched (chooseFewRowsSketch).
constexpr int64_t kPanelPrefetchRows = 32;
/// A GEMV whose B does not fit in L3 streams it from memory: the sweep in
/// thin bands wins there, each row of B read left to right (the hardware
/// prefetchers' pattern), C (one or two rows) staying in L1. Quiet, 1
/// thread, same process as oneDNN (docs/benchmarks/cpu-gemm-classes.md,
/// "GEMV from memory"): 1x4096x4096 walk 0.83-0.92x oneDNN, bands of 16
/// rows 1.04x, of 32 1.07x, of 8 0.98x; 2x4096x4096 1.27x -> 1.60x;
/// 1x4096x11008 0.99x -> 1.24x; 1x11008x4096 1.04x -> 1.01x (a tie).
constexpr int64_t kGemvBandRows = 16;
/// Rows of the few-columns block where A's rows share L1 sets: 12. A's rows
/// are streams a page or more apart when K is a power of two, all in the
/// same L1 sets; more than the 12 ways evict each other (2048x16x2048: 16
/// rows 0.79-0.89x oneDNN, 12 rows 1.2-1.3x, 10 rows 1.26x). Where they do
/// not share sets, more rows (fewColumnsRows).
constexpr int64_t kFewColumnsBlock = 12;
/// k values ahead each row of A is prefetched (512 bytes: 1.29x, 1024:
/// 1.20x, 1536: 1.23x, none: 1.07x at 2048x16x2048, 8 rows).
constexpr int64_t kPrefetchAhead = 128;

/// Fewest rows of the K-vectorized block: with fewer, each B vector loaded
/// feeds too few FMAs (2000x8x2000, 1 thread: 2 x 8 0.85-0.96x libxsmm,
/// two blocks of 6 x 4 1.24x).
constexpr int64_t kKDotMinRows = 3;
/// k values ahead each row of A is prefetched by the K-vectorized kernel
/// (3026x6x4778: none 0.80x libxsmm, 128 1.09x, 256 1.18x).
constexpr int64_t kKDotPrefetchAhead = 256;

bool appliesOnTarget(const GemmProblem &p, const TargetHints &t) {
  return llvm::StringRef(t.name).starts_with("x86") && t.isa == "avx512" &&
         t.f32Lanes() == 16 && t.vectorRegisters >= 32 && p.aRowsInPlace &&
         !p.transposeA && !p.transposeB && !p.isDynamic() &&
         p.input == GemmInputType::F32;
}

/// The most rows, between minRows and maxRows, that are strideBytes apart
/// and put no more than perSetLimit of them (0: the L1's ways) in one L1
/// set (rows a multiple of L1 size / ways bytes apart all share one set,
/// and beyond its ways they evict each other's lines between uses);
/// minRows where none fits or the hints give no usable L1.
int64_t rowsPerL1SetWithin(const TargetHints &t, int64_t strideBytes,
                           int64_t maxRows, int64_t minRows,
                           int64_t perSetLimit) {
  if (maxRows <= minRows)
    return minRows;
  const CacheLevel *l1 = nullptr;
  for (const CacheLevel &cache : t.caches)
    if (cache.level == 1)
      l1 = &cache;
  if (!l1 || l1->ways <= 0 || l1->lineBytes <= 0 ||
      l1->sizeBytes < l1->ways * l1->lineBytes)
    return minRows;
  int64_t sets = l1->sizeBytes / l1->ways / l1->lineBytes;
  if (perSetLimit <= 0)
    perSetLimit = l1->ways;
  // (A row's set depends on its offset modulo the sets' span only; taken
  // first, the products stay small whatever the extents. A set's count
  // only grows with the rows, so the first row over the limit ends the
  // search; a map, since the hints may describe a cache of 2^36 sets.)
  int64_t span = sets * l1->lineBytes;
  int64_t step = strideBytes % span;
  llvm::SmallDenseMap<int64_t, int64_t> perSet;
  for (int64_t r = 0; r < maxRows; ++r)
    if (++perSet[(r % sets) * step % span / l1->lineBytes] > perSetLimit)
      return std::max(minRows, r);
  return maxRows;
}

/// Rows of the few-columns block (one accumulator each, one B vector): as
/// many as the registers hold (30), each row of A one stream, so that the
/// loads of many rows are in flight at once. Rows that would put more than
/// the L1 ways in one set are not taken (their lines evict each other):
/// with A's rows a multiple of 4096 bytes apart (K = 1024, 2048, ...) that
/// is kFewColumnsBlock = 12 rows, as before. libxsmm's kernel for these
/// shapes takes 30 rows too. Measured against 12 rows, 1 thread, loaded
/// (docs/benchmarks/cpu-gemm-classes.md, "Few columns: more rows of A"):
/// 3026x11x4778 0.94x -> 1.04x the best library, 3000x13x1500 0.86x ->
/// 0.98x, 2222x10x1111 0.87x -> 0.97x.
int64_t fewColumnsRows(const GemmProblem &p, const TargetHints &t) {
  int64_t maxRows = 0;
  for (int64_t rows = kFewColumnsBlock; rows <= t.vectorRegisters; ++rows)
    if (registerBlockVectorRegisters(rows, t.f32Lanes(), t.f32Lanes(),
                                     t.name) <= t.vectorRegisters)
      maxRows = rows;
  // A's rows K floats apart: the advisor is not told the row stride of a
  // strided view of a larger A (a view whose rows are a multiple of 4096
  // bytes apart may get rows that share sets: slower, never wrong).
  return rowsPerL1SetWithin(t, 4 * p.k, maxRows, kFewColumnsBlock,
                            /*perSetLimit=*/0);
}

/// L3's bytes, or four times L2's where the hints give no L3.
int64_t l3Bytes(const TargetHints &t) {
  return t.cacheBytes(3) ? t.cacheBytes(3) : 4 * t.cacheBytes(2);
}

/// Rows of a register block nv vectors wide over M rows: the fewest FMA
/// issue slots, a tile of fewer accumulators than the target's
/// fma.independent_accumulators_for_peak costing that many (its chains
/// bind); then the fewest tiles (passes over B); then the fewest rows
/// (tiles of equal height rather than a short edge tile).
int64_t fewerSlotsRows(int64_t m, int64_t nv, const TargetHints &t) {
  int64_t lanes = t.f32Lanes();
  int64_t best = 1;
  std::pair<int64_t, int64_t> bestCost = {-1, -1};
  for (int64_t mr = 1; mr <= m && registerBlockVectorRegisters(
                                      mr, nv * lanes, lanes, t.name) <=
                                      t.vectorRegisters;
       ++mr) {
    std::pair<int64_t, int64_t> cost = {
        rowTileFmaSlots(m, mr, nv, t.accumulatorsForPeak), ceilDiv(m, mr)};
    if (bestCost.first < 0 || cost < bestCost) {
      best = mr;
      bestCost = cost;
    }
  }
  return best;
}

/// The most rows of C that take the GEMV form for the team that runs the
/// GEMM, the hints key that says so, and the other thread count's figure.
struct GemvRows {
  int64_t limit, other;
  /// "gemv.rows {0} at one thread": which hint gives `limit` ({0}), and
  /// which gives `other`.
  const char *key, *otherKey;
  /// Whether `m` rows take the GEMV form on one thread and not on a team,
  /// or the other way round.
  bool teamDecides(int64_t m) const { return (m <= limit) != (m <= other); }
};
GemvRows gemvRows(const GemmProblem &p, const TargetHints &t) {
  // (0 in the hints: two rows; no rows_threaded: as on one thread.)
  int64_t one = t.gemvRows ? t.gemvRows : 2;
  int64_t team = t.gemvRowsThreaded ? t.gemvRowsThreaded : one;
  if (p.threads > 1)
    return {team, one, "gemv.rows_threaded {0} on a team of threads",
            "gemv.rows {0} at one thread"};
  return {one, team, "gemv.rows {0} at one thread",
          "gemv.rows_threaded {0} on a team of threads"};
}
} // namespace

bool mlir::tensorop::chooseFewRowsSketch(const GemmProblem &p,
                                         const TargetHints &t,
                                         SketchChoice &c, std::string *note) {
  if (!appliesOnTarget(p, t) || p.m > kFewRows || p.n <= kFewColumns)
    return false;
  int64_t lanes = t.f32Lanes();
  // M in as few row blocks as hold it, each as wide as registers allow (up
  // to the 7 vectors unpacked B has masks for): an explicit broadcast
  // takes an FP slot, so each must feed two FMAs or more (16x2048x2048:
  // 16x16 0.83-0.88x oneDNN, 8x48 in two blocks 1.16-1.21x).
  int64_t blocks = ceilDiv(p.m, kFewRowsBlock);
  int64_t mr = ceilDiv(p.m, blocks);
  int64_t nv = 0;
  for (int64_t v = 7; v >= 1 && !nv; --v)
    if (registerBlockVectorRegisters(mr, v * lanes, lanes, t.name) <=
        t.vectorRegisters)
      nv = v;
  // A GEMV: at most two rows (or the target's gemv.rows: Zen 4 measured
  // four), never a panel of prepacked weights (their own prefetch, below).
  // (Zen 4, 1 thread, loaded, same process, against oneDNN: bands of 16
  // rows, 3 x 16 columns, no prefetch, against the builtin: 3x2000x3000
  // 0.80x -> 1.25x, 4x4096x4096 0.95x -> 1.48x, 1x2000x3000 0.76x ->
  // 1.30x, 2x2000x3000 1.00x -> 1.43x, 1x1024x1024 0.80x -> 0.98x;
  // docs/benchmarks/cpu-gemm-classes.md, "GEMV on Zen 4".)
  // On a team of threads the target's gemv.rows_threaded instead: each
  // thread then sweeps its own columns of B, and Zen 4 measured the GEMV
  // form of four rows 2.12x the best library on one thread but 0.45x the
  // other form on two (4x1024x4096, quiet, session 22: 81.6 -> 36.5
  // GFLOP/s).
  GemvRows rows = gemvRows(p, t);
  bool gemv = p.m <= 2 || (p.m <= rows.limit && !p.bPanelInPlace);
  // Its tiles as wide as the target measured (gemv.band_vectors), or as
  // registers allow.
  if (gemv && t.gemvBandVectors)
    nv = std::min(nv, t.gemvBandVectors);
  nv = std::min(nv, ceilDiv(p.n, lanes));
  if (nv < 2)
    return false;
  double bBytes = double(p.k) * double(p.n) * 4;
  // B past L3 is read from memory; so is, where the target measured it
  // (blocking.few_rows_b_cached_max_bytes), a B past that size that L3
  // would hold: Emerald Rapids reads its mesh L3 from one core at 31 GB/s,
  // L2 at 72, memory at 15, and there the form for B from memory won with
  // B of 7-56 MB in L3 (1 thread, same-process sketch A/B against the
  // in-cache form, against oneDNN: 16x4096x2048 0.84x -> 1.16x,
  // 24x2958x898 0.66x -> 0.86x, 20x3000x700 0.79x -> 1.14x, 50x3197x4421
  // 0.71x -> 0.87x; 40x2000x2500 0.92x -> 0.90x; 33x1200x1027, 4.9 MB,
  // 1.02x -> 0.99x: 6 MiB there; docs/benchmarks/cpu-gemm-classes.md,
  // "Emerald Rapids").
  // (Session 42 moved Emerald Rapids' bound to its L2, 2 MiB: gen's
  // objects against 6 MiB, 1 thread, 15 shapes of 4-63 rows with B of
  // 2.3-6.1 MB, geomean 1.186, 0.854x -> 1.013x the best library; on two
  // threads B of 2.3-2.7 MB lost 3-13%, and N of 460-800 lost past 3 MiB
  // too (7x795x1000 0.80), so teams keep 6 MiB:
  // few_rows_b_cached_max_bytes_threaded; "Emerald Rapids in the
  // forty-second session".)
  int64_t cachedMaxHint = p.threads > 1 && t.fewRowsBCachedMaxBytesThreaded > 0
                              ? t.fewRowsBCachedMaxBytesThreaded
                              : t.fewRowsBCachedMaxBytes;
  double cachedMax = double(l3Bytes(t));
  if (cachedMaxHint > 0)
    cachedMax = std::min(cachedMax, double(cachedMaxHint));
  bool bFromMemory = bBytes > cachedMax;
  // N in one column tile where it takes at most kNarrowNVectors vectors
  // and B is in cache: the few-rows block (two vectors wide at 10-14 rows)
  // would split it in two, broadcasting each row of A once per tile, for
  // the same FMAs. The rows then come from the fewest FMA slots, counting
  // an edge tile's as its chains need (fewerSlotsRows).
  int64_t nVectors = ceilDiv(p.n, lanes);
  bool oneTile = !gemv && !bFromMemory && nv < nVectors &&
                 nVectors <= kNarrowNVectors;
  if (oneTile) {
    nv = nVectors;
    mr = fewerSlotsRows(p.m, nv, t);
    blocks = ceilDiv(p.m, mr);
  }
  c.mr = mr;
  c.nr = nv * lanes;
  c.broadcast = "explicit";
  // B is swept along N in bands of K: each band's rows are read left to
  // right, tile after tile, so a row is a stream within its pages and the
  // band's rows stay in the TLB, while the next tiles of the row are
  // prefetched two blocks ahead. (Walking one tile down all of K instead
  // crosses a page per row, which neither the TLB nor the hardware
  // prefetchers follow: 12x3000x1500 ran at 0.26x oneDNN that way, 1.7x
  // swept.) With several row blocks, each tile is used by all of them
  // before the sweep moves on (micro order "nm"), from L1.
  // (The walk is for a B that L3 holds; from memory a GEMV sweeps too.)
  // (Or everywhere, where the target measured bands faster in L3 too:
  // gemv.bands_in_l3, Zen 4.)
  bool walk = gemv && !bFromMemory && !t.gemvBandsInL3;
  // From memory on one thread, the target's band for few rows where it
  // measured one (blocking.few_rows_band_rows up to few_rows_band_max_rows
  // rows: Zen 5 64 up to 20). Each band reloads and stores every C tile, M
  // elements a column against the band's rows of B: short bands paid where
  // C is thin. (Zen 5, quiet, against bands of 125-128: sketch A/B, 1
  // thread, M = 3, 12, 16, 20 +2..+11%, 8 -0.7%, 24, 32, 40, 48, 64
  // -1..-8%; gen's objects in one process, 1 thread, seven shapes of 3-20
  // rows new/base 0.985-1.243, geomean 1.070; 2 threads, where the team
  // shares the memory bandwidth, 0.940-1.039, geomean 0.989: not there.
  // docs/benchmarks/cpu-gemm-classes.md, "Zen 5: short K bands for few
  // rows from memory".) On a team only where the target measured them
  // ahead there too (blocking.few_rows_band_max_threads; Emerald Rapids 2:
  // gen's objects against bands of 128 on 2 threads, 8 drawn shapes of
  // 11-28 rows, every one faster, geomean 1.150; "Emerald Rapids in the
  // thirty-eighth session").
  bool shortBands =
      t.fewRowsBandRows && p.m <= t.fewRowsBandMaxRows &&
      p.threads <= std::max<int64_t>(1, t.fewRowsBandMaxThreads);
  // Blocks of kFewRowsWideBandMinVectors vectors or more over a B past L2
  // (in L3 on one or two threads, from memory on one): the target's longer
  // K band (blocking.few_rows_wide_band_rows) with no column prefetch. Each
  // tile then walks down many of B's rows at one stride, which the hardware
  // prefetchers follow, and the prefetch instructions no longer take load
  // slots from a block that waits on B. Zen 5 (1536), 1 thread, quiet,
  // same-process sketch A/B against the builtin (bands of 334-375, two
  // tiles ahead, or none up to 8 MiB), against the best library: 8 drawn
  // shapes of 3-6 rows with B of 12-28 MB, 7 faster, geomean +6.6%
  // (3x3497x897 0.98x -> 1.13x, 6x1444x4668 1.38x -> 1.62x, 3x5501x1078
  // -0.9%); six more shapes of B 5.6-6.7 MB +1.4..+12%; 6x4243x1434 0.89x
  // -> 0.95x libxsmm at a band of all of K; 4x1300x4500 lost 9%. Blocks of
  // 7-14 rows lost (7x2200x2600 -37%, 10x2800x1800 -23%) or stayed level.
  // Gen's objects against the build before, same process, drawn shapes of
  // 3-6 rows: 1 thread 12 shapes geomean 1.101 (B to 32 MiB; 0.991 the
  // lowest) and 10 more 1.025 (B 1.3-4.9 MB); 2 threads 10 shapes 1.173
  // (3x1607x1256 0.920) and 8 more 1.077 (docs/benchmarks/
  // cpu-gemm-classes.md, "Zen 5 in the forty-fifth session"). From memory
  // on one thread too, against bands of 63-64 two tiles ahead: sketch A/B
  // 5x3534x2536 +4%, 4x5000x3000 +17%, 6x3000x4000 +13%, 3x7000x2000
  // +14%; gen's objects, 10 drawn shapes with B of 57-188 MB, geomean
  // 1.049, 8 faster (6x4866x7328 0.961, 4x6921x6790 0.976). Not from
  // memory on two threads, which share its bandwidth: sketch A/B gained
  // (4x5000x3000 +22%) but gen's objects went both ways (11 drawn shapes,
  // 4x6589x7800 0.881, 4x3572x4106 1.134). Not where B's rows pile into
  // few L1 sets (N = 1024, 2048, 4096: rows 4096 bytes apart or a multiple
  // share one; presumably the walk down the band then evicts lines the next
  // tile reads, not measured here): sketch A/B against the bands of 64 two
  // tiles ahead, 3x4096x4096 -9%, 6x2048x8192 -20%.
  bool bPastL2 = bBytes > double(t.cacheBytes(2));
  bool wideBand =
      t.fewRowsWideBandRows > 0 && p.threads <= kFewRowsWideBandMaxThreads &&
      (!bFromMemory || p.threads == 1) && !gemv && !p.bPanelInPlace &&
      bPastL2 && c.nr < p.n && nv >= kFewRowsWideBandMinVectors &&
      rowsPerL1SetWithin(t, 4 * p.n, kFewRowsWideBandSpreadRows, 1, 0) >=
          kFewRowsWideBandSpreadRows;
  int64_t bandRows = wideBand          ? t.fewRowsWideBandRows
                     : gemv            ? kGemvBandRows
                     : p.bPanelInPlace ? kBandRows
                     : bFromMemory     ? (shortBands ? t.fewRowsBandRows
                                                     : kBandRows)
                                       : kBandRowsInL3;
  // From memory, a GEMV's band and that of a single block of three vectors
  // (7-9 rows) put at most the target's blocking.band_rows_per_l1_set rows
  // in one L1 set (Zen 5: 12, its ways). Each row's next tiles are
  // prefetched (or fetched) into L1 ahead of use, and where B's rows are a
  // multiple of 4096 bytes apart (N = 1024, 2048, 4096, ...) all of a
  // band's rows land in one set: more rows than ways evict their own lines
  // before use. Zen 5, 1 thread, quiet, against oneDNN (docs/benchmarks/
  // cpu-gemm-classes.md, "Zen 5: B's rows in one L1 set"): gen's objects
  // against the build before in one process, 8x4096x4096 1.07x -> 1.37x,
  // 1x4096x4096 1.02x -> 1.20x, 2x8192x4096 1.13x -> 1.45x, 1x1024x32768
  // 0.97x -> 1.09x (with the column prefetch below); sketch A/B, bands of
  // 64 against 12, 8x1024x16384 1.04x -> 1.13x. Other blocks lost with
  // bands of 12 (3x4096x8192, 3 x 112: 1.36x -> 1.20x; 5x1024x16384,
  // 5 x 80: 1.17x -> 0.99x; 20x4096x4096, 10 x 32: 1.16x -> 0.99x), and two
  // blocks of 8-9 x 48 went both ways (sketch A/B 15x4096x4096 +14%; gen's
  // objects 16x4096x4096 -0.8%, 18x1024x16384 -6.7%: C, reloaded per band,
  // doubles). Where L3 holds B the FMAs bound the kernel and longer bands
  // win whatever the sets (16x2048x2048, 4x1024x4096). One thread only:
  // on a team of two, which shares the memory bandwidth, short bands lost
  // (gen's objects against the file's field at 0 in one process, 2
  // threads, quiet, new/base: 8x4096x4096 0.79, 8x1024x16384 0.55,
  // 7x4096x8192 0.96, 1x4096x4096 0.95, 2x8192x4096 1.01; "Zen 5: B's rows
  // in one L1 set, on a team").
  if (bFromMemory && !p.bPanelInPlace && t.bandRowsPerL1Set &&
      p.threads == 1 && (gemv || (nv == 3 && blocks == 1)))
    bandRows =
        rowsPerL1SetWithin(t, 4 * p.n, bandRows, 1, t.bandRowsPerL1Set);
  c.kc = balancedTile(p.k, walk ? kGemvKc : bandRows, 1);
  // C stays in L2 across the bands: at most half of it per column block.
  int64_t ncTarget = t.cacheBytes(2) / 2 / (p.m * 4);
  c.nc = std::min(roundUp(p.n, c.nr), balancedTile(p.n, ncTarget, c.nr));
  c.mc = roundUp(p.m, mr);
  c.loopOrder = "mnk";
  c.microOrder = blocks > 1 ? "nm" : "mn";
  c.packA = "none";
  c.packB = "none";
  c.kUnroll = 4;
  // B one panel of prepacked weights (K x W, W = 32 or 64, rows
  // contiguous): the columns 2*nr ahead of a tile are only the panel's next
  // row or two, too close to hide the load from L3 or memory. Its rows are
  // prefetched kPanelPrefetchRows ahead instead (FFN 768/3072 fp32
  // prepacked, 1 thread, hand-written sketches against oneDNN in one
  // process, loaded: T = 64 0.87x -> 0.99x, T = 16 0.96x -> 1.12x;
  // 8 / 16 rows ahead gained less).
  bool prefetchRows = walk || p.bPanelInPlace;
  c.prefetchB = walk ? kGemvPrefetchRows
                : prefetchRows ? kPanelPrefetchRows
                               : 0;
  // A GEMV swept in bands reads each of its band's rows left to right,
  // the hardware stream prefetchers' own pattern. Whether a software
  // prefetch of each row's tiles two ahead pays on top of them is the
  // target's gemv.column_prefetch: on Zen 4 it only added load-port work
  // (1 thread, loaded, same process as oneDNN: 1x4096x4096 0.86-0.89x ->
  // 1.06x with none; docs/benchmarks/cpu-gemm-classes.md, "GEMV from memory
  // without the column prefetch"), on Zen 5 it pays (1 thread, quiet,
  // sketch A/B against oneDNN: 1x5000x4000 0.96x -> 1.17x, 1x4096x4096 in
  // bands of 12 0.97x -> 1.12x, 2x4096x4096 1.43x -> 1.74x; "Zen 5: B's rows
  // in one L1 set").
  bool gemvBands = gemv && !walk;
  // Other blocks prefetch two tiles ahead, except where L3 holds B and the
  // target measured otherwise (blocking.few_rows_prefetch_tiles_in_cache;
  // Zen 5 0: 1 thread, quiet, sketch A/B against the same sketch with the
  // prefetch, against the best library: 33x777x1027 0.95-0.97x -> 1.05-1.07x,
  // 64x147x137 0.99x -> 1.07x, 23x157x149 0.99x -> 1.03x, three more
  // +0.6% to +2.6%; docs/benchmarks/cpu-gemm-classes.md, "Zen 5: the
  // few-rows path's column prefetch with B in cache").
  // (One column tile with a B past L2 keeps two: there that distance is
  // B's rows ahead, which L3 alone does not bring in time; 30x64x100000,
  // 6 x 64, same-process sketch A/B against oneDNN: none 0.59x, two tiles
  // 1.13x.)
  // Past L2 (blocking.few_rows_prefetch_tiles_past_l2) the hardware
  // prefetchers do not keep up: Zen 5 1, same-process sketch A/B against
  // none and two tiles ahead, 1 thread, quiet, against oneDNN: 18x4000x1000
  // (B 16 MB) 0.38x none, 1.15x one or two tiles ahead; 24x3000x1500
  // 0.27x -> 1.06x (1.11x two); 40x800x4000 0.36x -> 1.06x; 33x777x1027
  // 1.04x -> 1.09x (1.01x two); one tile beat two in 8 of 11 such shapes
  // (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: few rows with B past L2";
  // session 31's prefetch losses were all B in L2, and still are).
  int64_t tilesAhead = 2;
  if (!gemv && !bFromMemory && p.m > kFewRowsStreamB && !(oneTile && bPastL2))
    tilesAhead = bPastL2 && t.fewRowsPrefetchTilesPastL2 >= 0
                     ? t.fewRowsPrefetchTilesPastL2
                     : t.fewRowsPrefetchTilesInCache;
  // With 16 rows or fewer, a B of at most the target's
  // blocking.few_rows_thin_in_cache_max_b_bytes takes the in-cache distance
  // too, in L2 or past it. Zen 5 (8 MiB), 1 thread, quiet, same-process
  // sketch A/B of the builtin (two tiles ahead) against none and one tile,
  // against the best library: B of 0.4-2.6 MB none +2..+31% on 7 of 8
  // (3x537x800 0.82x -> 1.08x, 7x231x995 0.90x -> 1.08x; 11x440x829 -2%),
  // 7.7-13 MB 0..+16% (15x859x3467 0.87x -> 1.01x), 15-23 MB -21..0%
  // (16x2048x2048 ran 4x slower without, session 31); docs/benchmarks/
  // cpu-gemm-classes.md, "Zen 5 in the forty-fourth session". (Not where
  // one column tile spans N: there two tiles ahead are B's next rows, below.)
  else if (!gemv && !bFromMemory && c.nr < p.n && p.m <= kFewRowsStreamB &&
           bBytes <= double(t.fewRowsThinInCacheMaxBBytes))
    tilesAhead = t.fewRowsPrefetchTilesInCache;
  // (In one column tile B's rows follow each other, so the same distance
  // reaches rows ahead: with at most 16 rows and B in L3 it is needed
  // there too; 12x50x50000, 6 x 64, same-process sketch A/B against
  // libxsmm: 0.78x without, 1.03x two tiles ahead.)
  if (wideBand)
    tilesAhead = 0;
  c.prefetchBCols = prefetchRows || (gemvBands && !t.gemvColumnPrefetch)
                        ? 0
                        : tilesAhead * c.nr;
  // From memory, a band's lines in L1 are, for each of its rows, the tile
  // being computed, the tiles prefetched ahead and A's element for each row
  // of C. Where that outgrows L1 the prefetched lines evict each other
  // before use, so the band shrinks to the target's share of L1
  // (blocking.few_rows_band_l1_pct; Emerald Rapids 33: 3x3595x1351, 3 x 112
  // two tiles ahead, 84 KB at 62 rows, same-process sketch A/B against
  // oneDNN: 62 rows 0.84-0.88x, 32 0.78x, 24 0.93x, 16 0.98-1.02x, 12
  // 1.03x, 8 1.04x; gen's objects against no bound, 10 drawn shapes of 3-6
  // rows, every one faster, geomean 1.158; docs/benchmarks/
  // cpu-gemm-classes.md, "Emerald Rapids in the fortieth session"). One
  // thread only: on two, 6 drawn shapes went 0.840-1.101 (geomean 1.011),
  // the narrowest N losing.
  if (bFromMemory && !walk && !wideBand && !p.bPanelInPlace &&
      p.threads == 1 && t.fewRowsBandL1Pct > 0) {
    constexpr int64_t bytes = 4;
    int64_t rowBytes = (c.nr + c.prefetchBCols + p.m) * bytes;
    int64_t l1 = t.cacheBytes(1);
    if (c.kc * rowBytes > l1)
      c.kc = balancedTile(
          p.k, std::max<int64_t>(4, l1 * t.fewRowsBandL1Pct / 100 / rowBytes),
          1);
  }
  // Blocks of three vectors (7..9 rows x 48) sweeping B with the column
  // prefetch: K not unrolled. Measured, not explained (the unrolled loop
  // is the same code four times over): best of 40-60 calls of 5, same
  // process, loaded (docs/benchmarks/cpu-gemm-classes.md, "Few rows with a
  // large B"), unroll 1 against 4: 16x2048x2048 1.03-1.10x in six runs,
  // 7x5000x2000 1.06-1.08x, 18x4000x1000 1.03-1.04x, 9x3000x3000 1.03-1.04x,
  // 8x4096x2048 1.01x, 15x2500x1800 0.99-1.01x, 8x4096x4096 0.96-0.97x.
  // Other blocks went both ways (12 x 32: 0.91-0.96x; 11 x 32:
  // 1.00-1.06x; 4 x 96 at 4x1024x4096 1.06x, one shape) and keep 4.
  if (nv == 3 && !prefetchRows && !oneTile)
    c.kUnroll = 1;
  c.prefetchA = 0;
  if (note && p.m > 2 && !p.bPanelInPlace && rows.teamDecides(p.m))
    *note = llvm::formatv("{0} rows of C on {1} thread{2}: {3}the GEMV form "
                          "({4}; {5})",
                          p.m, p.threads, p.threads == 1 ? "" : "s",
                          gemv ? "" : "not ",
                          llvm::formatv(rows.key, rows.limit).str(),
                          llvm::formatv(rows.otherKey, rows.other).str())
                .str();
  return true;
}

/// The K-vectorized kernel's sketch for mr x nr register blocks: A and B
/// read whole (one K block, one column tile of B's transposed copy), A's
/// rows prefetched ahead, B's none (it sits in L1).
static void setKDotSketch(const GemmProblem &p, int64_t mr, int64_t nr,
                          SketchChoice &c) {
  c.mr = mr;
  c.nr = nr;
  c.broadcast = "none";
  c.emitter = kKDotEmitter.str();
  c.kc = p.k;
  c.nc = roundUp(p.n, nr);
  c.mc = roundUp(p.m, mr);
  c.loopOrder = "mkn";
  c.microOrder = "mn";
  c.packA = "none";
  c.packB = kTransposedPackB.str();
  c.kUnroll = 2;
  c.prefetchB = 0;
  c.prefetchBCols = 0;
  c.prefetchA = kKDotPrefetchAhead;
}

/// Rows of a K-vectorized block of nr columns: as many as the register
/// file holds (mr*nr accumulators, nr B vectors, two A vectors), at most
/// kFewColumnsBlock rows of A streamed at once (the L1 ways, as for the
/// broadcast kernel).
static int64_t kDotRows(const TargetHints &t, int64_t nr) {
  return std::min(kFewColumnsBlock, (t.vectorRegisters - 2 - nr) / nr);
}

/// Whether each thread's share of A (a team splits M) is past maxBytes, a
/// target's bound on the K-vectorized kernel's passes over A (none where
/// 0: blocking.kdot_two_passes_max_a_bytes, kdot_n_tail_max_a_bytes).
static bool aPastBound(const GemmProblem &p, int64_t maxBytes) {
  return maxBytes > 0 && double(p.m) * double(p.k) * 4 /
                                 double(std::max<int64_t>(1, p.threads)) >
                             double(maxBytes);
}

/// The K-vectorized block of at most kKDotColumns columns. Where
/// kDotRows leaves fewer than kKDotMinRows rows (N = 8: 2 rows), the
/// columns go in two blocks instead, each reusing its B vectors over more
/// rows.
static void setKDotBlock(const GemmProblem &p, const TargetHints &t,
                         SketchChoice &c) {
  int64_t nr = p.n;
  if (kDotRows(t, nr) < kKDotMinRows)
    nr = ceilDiv(p.n, ceilDiv(p.n, 4));
  setKDotSketch(p, std::min(kDotRows(t, nr), p.m), nr, c);
}

/// Whether the K-vectorized kernel's per-tile costs leave it at least 1.3
/// times as fast as the broadcast kernel (chooseSmallKDotSketch's model,
/// in vector instructions per call): M * K FMAs for the broadcast kernel,
/// M * N * (v + 2) for the K-vectorized one, v = ceil(K / lanes) vectors
/// along K and 2 for its horizontal sums, plus B's transposed copy, about
/// N * K / 8.
static bool kdotAheadOfBroadcast(const GemmProblem &p, const TargetHints &t) {
  int64_t kVectors = ceilDiv(p.k, t.f32Lanes());
  return 80 * p.m * p.k >= 13 * (8 * p.m * p.n * (kVectors + 2) + p.n * p.k);
}

bool mlir::tensorop::chooseKDotSketch(const GemmProblem &p,
                                      const TargetHints &t, SketchChoice &c) {
  // Fewer columns where the target measured the broadcast kernel ahead
  // at the widest (blocking.kdot_max_columns; Emerald Rapids 13: N = 14,
  // 1 thread, same-process sketch A/B against libxsmm, 125x14x145 0.71x
  // -> 0.97x and 2000x14x600 0.86x -> 0.98x in blocks of 25-30 x 16;
  // docs/benchmarks/cpu-gemm-classes.md, "Emerald Rapids").
  int64_t maxColumns = kKDotHeldAColumns;
  if (t.kdotMaxColumns > 0)
    maxColumns = std::min(maxColumns, t.kdotMaxColumns);
  if (!appliesOnTarget(p, t) || p.n > maxColumns || p.m <= kFewColumns)
    return false;
  // A short K leaves the K-vectorized tile's horizontal sums most of its
  // work: the small GEMMs' model decides here too. Emerald Rapids, 1
  // thread, same-process sketch A/B against libxsmm, K-vectorized against
  // the broadcast kernel's 30 x 16 (docs/benchmarks/cpu-gemm-classes.md,
  // "Emerald Rapids in the thirty-ninth session"): 157x13x31 0.35x against
  // 0.98x, 2000x6x30 0.72x / 0.96x, 1500x8x40 0.68x / 0.99x, 900x4x20
  // 0.77x / 0.94x (the model: broadcast); 3000x7x60 0.98x / 0.98x,
  // 1200x5x100 1.49x / 0.98x (the model: K-vectorized). It also keeps the
  // Zen 5 measurements below (6000x9x777, 4000x10x1000, 3000x11x700
  // taken; 4000x13x500, 1.01x, not). Gen's objects, 8 drawn shapes of
  // 9-13 columns: every one faster, geomean 1.596.
  if (!kdotAheadOfBroadcast(p, t))
    return false;
  if (p.n > kKDotColumns) {
    // 9 <= N <= 14: all N columns in one block, as many rows as fit with
    // the rows' A vectors held and B streamed through two registers (N = 9:
    // 3 rows, 10..14: 2; kdotHoldsA: N = 10 holds B instead, it fits). B's
    // N rows are read once per block of rows: only where they
    // fit in L1 (short K) does this beat the broadcast kernel's waste of
    // 16 - N lanes (1 thread, loaded, against libxsmm: 6000x9x777 1.50x,
    // 4000x10x1000 1.15x, 3000x11x700 1.06x, 4000x13x500 1.01x; with B
    // from L2: 4000x9x3000 0.98x, 3026x11x4778 0.65-0.69x).
    // With 2 rows per block B's rows are reloaded twice as often as with 3:
    // they must leave a quarter of L1 to A (1000x11x1000, B 44 KB: 0.93x ->
    // 0.85x; 4000x10x1000, 40 KB: 1.05-1.22x; 3000x11x700, 31 KB: 1.19x;
    // 3 rows, 3000x9x1300, 47 KB: 1.08x).
    int64_t rows = (t.vectorRegisters - 2) / (p.n + 1);
    int64_t paddedK = roundUp(p.k, t.f32Lanes());
    int64_t budget = rows >= 3 ? t.cacheBytes(1) : t.cacheBytes(1) * 3 / 4;
    if (rows < 2 || p.n * paddedK * 4 > budget)
      return false;
    setKDotSketch(p, std::min(p.m, rows), p.n, c);
    return true;
  }
  // A streamed from memory (more than twice L3) by blocks of at most
  // kKDotMinRows rows (N = 7: 3 rows) or in two column passes (N = 8: A
  // read twice) ran behind the broadcast kernel's 30-row blocks, whose
  // many row streams keep more of A's loads in flight (1 thread, quiet,
  // same-process sketch A/B against libxsmm, docs/benchmarks/
  // cpu-gemm-classes.md, "Zen 5: few columns from memory, N = 7 and 8"):
  // 5024x7x7620 (153 MB) 0.85-0.87x against 0.97-1.00x, 4000x7x5000 (80
  // MB) 0.86x against 1.00x, 4000x8x7500 (120 MB) 0.88x against 1.01x;
  // from L3 or a little past it the K-vectorized kernel stays ahead
  // (3000x7x2000 1.11x against 0.99x, 2000x7x6000 (48 MB) 1.02x against
  // 0.99x), as it does for N <= 6 at any size (4000x6x7500 1.00x against
  // 0.96x). Gen's objects against the K-vectorized kernel's, 8 shapes
  // drawn after (84-150 MB): 1 thread new/base geomean 1.097 (0.92x ->
  // 1.00x the best library; 6000x8x4000 lost 3% and 7% in two runs), 2
  // threads 1.127, every shape faster ("Zen 5: few columns from memory,
  // landed").
  bool aFromMemory =
      double(p.m) * double(p.k) * 4 > 2.0 * double(l3Bytes(t));
  if (aFromMemory && kDotRows(t, p.n) <= kKDotMinRows)
    return false;
  // Two column passes (N = 8) over an A past the target's
  // blocking.kdot_two_passes_max_a_bytes take the broadcast kernel too.
  // Emerald Rapids (3 MiB; L2 2 MiB, its mesh L3 read by one core at 31
  // GB/s), 1 thread, same-process sketch A/B against libxsmm, K-vectorized
  // against 30 x 16 (docs/benchmarks/cpu-gemm-classes.md, "Emerald Rapids
  // in the thirty-eighth session"): 400x8x500 (0.8 MB) 1.18x against
  // 1.00x, 600x8x1000 (2.4 MB) 1.09x against 0.98x; 1000x8x1000 (4 MB)
  // 0.94x against 1.05x, 3000x8x500 (6 MB) 0.96x against 1.00x,
  // 2000x8x2000 0.90x against 0.97x, 3266x8x2755 0.80x against 1.00x.
  // N = 7 (one pass of 3 rows) stayed ahead there up to 48 MB. Gen's
  // objects against the K-vectorized kernel's, 10 drawn shapes of
  // 6.5-134 MB, every one faster, geomean 1.199 (0.823x -> 0.987x). A
  // team splits M, so each thread's share of A counts (2 threads,
  // 2306x8x382, 1.8 MB a thread: 0.86x the K-vectorized kernel's; seven
  // shapes of 4.6 MB a thread or more 1.13-1.23x).
  if (kDotRows(t, p.n) < kKDotMinRows &&
      aPastBound(p, t.kdotTwoPassesMaxABytes))
    return false;
  setKDotBlock(p, t, c);
  return true;
}

bool mlir::tensorop::chooseSmallKDotSketch(const GemmProblem &p,
                                           const TargetHints &t,
                                           SketchChoice &c) {
  if (!appliesOnTarget(p, t) || p.n > kKDotColumns)
    return false;
  // Per call, in vector instructions: the broadcast kernel M * K FMAs
  // (its lanes do useful work N / lanes of the time); the K-vectorized
  // kernel M * N * (v + 2), v = ceil(K / lanes) vectors along K and the 2
  // its horizontal sums after K, plus B's transposed copy, about N * K / 8,
  // which only the GEMM's rows share. kdot is taken where it is at least
  // 1.3 times as fast. Zen 5, 1 thread, quiet, same-process sketch A/B,
  // kdot / broadcast (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: small
  // GEMMs of at most 8 columns"; N = 8 then in two blocks of 4 columns):
  // taken, 111x3x77 3.2x, 50x2x128 6.3x, 64x4x100 2.9x, 12x2x100 4.0x,
  // 120x7x100 1.6x, 128x6x40 1.35x, 60x6x32 1.26x; not taken, 64x8x40
  // 0.70x, 100x8x32 0.94x, 8x8x50 0.60x, 40x8x24 0.73x, 60x6x12 0.55x,
  // 90x4x8 0.61x, and for B's copy 16x8x64 1.09x and 10x6x50 1.01x. The
  // copy's term came from a GEMM of one row, through gen's objects:
  // 1x8x128 kdot 0.56x the broadcast kernel, 1x2x100 1.35x, 2x4x64 1.61x.
  if (!kdotAheadOfBroadcast(p, t))
    return false;
  // Rows: as for chooseKDotSketch, but N = 8 in one block of 2 rows
  // rather than two blocks of 4 columns (its split, which pays where A's
  // rows stream from memory): with a short K a tile's horizontal sums
  // weigh more than its row loads. Through gen's objects, same process,
  // Zen 5, quiet: 57x8x96 +48%, 128x8x128 +13%, 25x8x120 +9%. (At most 4
  // rows at N = 4..6 moved -6% to +13%: not taken.)
  // (appliesOnTarget's 32 registers leave N = 8 its 2 rows.)
  setKDotSketch(p, std::min(kDotRows(t, p.n), p.m), p.n, c);
  // A small A is in cache: prefetching its rows only costs issue slots
  // (111x3x77: 1.55x OpenBLAS with 256 k values ahead, 1.84x without).
  c.prefetchA = 0;
  return true;
}

bool mlir::tensorop::chooseFewColumnsSketch(const GemmProblem &p,
                                            const TargetHints &t,
                                            SketchChoice &c) {
  if (!appliesOnTarget(p, t) || p.n > kFewColumns || p.m <= kFewColumns)
    return false;
  // One vector of columns, up to 30 rows (fewColumnsRows), each element of
  // A an embedded broadcast (one FMA per broadcast: an explicit one would
  // take an FP slot of its own). The block keeps its C tile in registers
  // over all of K (one K block, so C is stored once, not read) while its
  // rows of A stream in place; B (K x N, small) is read in place.
  c.mr = std::min(p.m, fewColumnsRows(p, t));
  c.nr = t.f32Lanes();
  c.broadcast = "embedded";
  c.kc = p.k;
  c.nc = c.nr;
  c.mc = roundUp(p.m, c.mr);
  c.loopOrder = "mkn";
  c.microOrder = "mn";
  c.packA = "none";
  c.packB = "none";
  c.kUnroll = 4;
  c.prefetchB = 0;
  c.prefetchBCols = 0;
  // With more rows than kFewColumnsBlock the many row streams keep the
  // hardware prefetchers busy enough, and a prefetch per row and cache line
  // cost more than it saved (30 rows, 1 thread, loaded: 5066x11x4389 none
  // 0.99x libxsmm, 64 k values ahead 0.96x; 3026x11x4778 none 1.04x, 128
  // ahead 0.99x).
  c.prefetchA = c.mr > kFewColumnsBlock ? 0 : kPrefetchAhead;
  return true;
}

NTailChoice mlir::tensorop::chooseKDotNTail(const GemmProblem &p,
                                            const TargetHints &t) {
  int64_t lanes = t.f32Lanes();
  int64_t columns = lanes ? p.n % lanes : 0;
  if (t.kdotNTailMinSavingPct <= 0 || !appliesOnTarget(p, t) ||
      p.bPanelInPlace || p.bPairsInPlace || columns == 0 ||
      p.n <= kFewColumns || p.m <= kFewColumns || columns > kKDotHeldAColumns)
    return {};
  // The tail reads all of A a second time, after the main kernel's pass:
  // from L3 at best (5000x34x3000, A 60 MB: 0.96x -> 0.90x libxsmm with
  // the tail; 2000x50x2000, A 16 MB: 1.00x -> 1.15x).
  if (t.cacheBytes(3) <= 0 || p.m > t.cacheBytes(3) / 4 / p.k)
    return {};
  // A tail of two column passes (8 columns: A read twice more) over more
  // of A a thread than the target's blocking.kdot_two_passes_max_a_bytes,
  // beside a main part of at most three vectors, costs more than the lanes
  // it saves. Emerald Rapids (3 MiB), 1 thread, gen's objects with and
  // without the tail in one process, against the best library
  // (docs/benchmarks/cpu-gemm-classes.md, "Emerald Rapids in the
  // thirty-eighth session"): 5000x24x3000 0.92x -> 1.04x, 6000x24x1000
  // 0.97x -> 1.06x, 3000x40x2000 0.94x -> 1.01x, 2500x56x2500 0.97x ->
  // 0.99x; wider, the tail paid: 4000x72x1500 1.06x -> 1.04x without it,
  // 1500x88x3000 1.04x -> 0.97x.
  if (kDotRows(t, columns) < kKDotMinRows && p.n < 4 * lanes &&
      aPastBound(p, t.kdotTwoPassesMaxABytes))
    return {};
  // So a tail in blocks of at most kKDotMinRows rows (7-13 columns) over
  // more of A than blocking.kdot_n_tail_max_a_bytes: A's second pass, from
  // L3, costs more than the lanes the tail saves. Zen 5 (12 MiB), 1 thread,
  // gen's objects without such tails against the build with them, shapes
  // drawn among those whose sketch changes (N 17-63; docs/benchmarks/
  // cpu-gemm-classes.md, "Zen 5: N tails beside a large A"): A of 2.5-10.4
  // MB kept the tail faster in all 6 (842x24x1052 0.875, 2116x41x301
  // 0.901, 4175x57x622 0.921); A of 15.5-32 MB ran faster without it in
  // all 13 (4315x23x1376 1.284, 4834x39x1358 1.204, 4271x40x1882 1.107); A
  // of 10.9-13 MB went both ways (3974x57x710 0.932, 3254x41x977 0.957,
  // 1202x39x2274 1.024, 4061x59x798 1.089), hence the middle. Tails
  // of up to 6 columns (blocks of 4 rows or more) paid beside an A of
  // 18-24 MB (3833x52x1177 0.90 and 4303x33x1130 0.88 without them): not
  // bounded. One thread only (two: not measured).
  if (p.threads == 1 && kDotRows(t, columns) <= kKDotMinRows &&
      p.n < 4 * lanes && aPastBound(p, t.kdotNTailMaxABytes))
    return {};
  // The block: as the few-columns GEMM's (setKDotBlock; 9..14 columns:
  // chooseKDotSketch's, B's columns in L1 next to A's rows).
  GemmProblem tailProblem = p;
  tailProblem.n = columns;
  SketchChoice block;
  if (columns > kKDotColumns) {
    if (!chooseKDotSketch(tailProblem, t, block))
      return {};
  } else {
    setKDotBlock(tailProblem, t, block);
  }
  // Vector instructions per call (the units of chooseSmallKDotSketch's
  // model). The broadcast kernel spends one FMA per row and k step on the
  // last vector (half of one on 256-bit datapaths, whose last vector of at
  // most 8 columns is a ymm); the K-vectorized kernel columns * (v + 2)
  // per row, v = ceil(K / lanes) FMAs and the horizontal sums, plus B's
  // transposed copy (a scalar strided loop), kNTailCopyCost per element:
  // with 2 the small shapes 37x53x71 (-1% twice, 0.95x libxsmm in the
  // class table) and 63x87x89 (-4.7%) took a tail; with 5 their estimate
  // falls below zero and every shape measured with a gain keeps its tail.
  // Zen 5, 1 thread, quiet, same-process A/B of the builtin sketch against
  // the builtin's sketches of the two parts, then through gen's objects
  // (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: N tails vectorized
  // along K"): 84x34x131 (saving 0.24) +25%, 64x18x64 (0.33) +44%,
  // 200x22x400 +19%, 1000x100x1000 (0.10) +21%, 800x200x800 (0.033)
  // +12%, 1500x260x300 (0.042) +6%; 27 drawn shapes geomean +6.4%;
  // 500x1000x500 (0.006) -3%, 127x1000x513 (0.002) -1%. (300x516x300,
  // +4%, scores 0.0198 and falls just under the file's 2%.)
  constexpr double kNTailCopyCost = 5;
  double m = double(p.m), k = double(p.k);
  double lastVector =
      t.datapathBits > 0 && t.datapathBits < t.vectorBits &&
              columns * 32 <= t.datapathBits
          ? double(t.datapathBits) / double(t.vectorBits)
          : 1.0;
  double kdot = m * columns * (double(ceilDiv(p.k, lanes)) + 2) +
                kNTailCopyCost * columns * k;
  double total = m * k * (double(p.n / lanes) + lastVector);
  double saving = (m * k * lastVector - kdot) / total;
  if (saving * 100 < double(t.kdotNTailMinSavingPct))
    return {};
  // On a team the tail is a second fork and join: what it saves must pay
  // for one (300x40x300 at 2 threads: 0.86x -> 0.74x oneDNN with the tail).
  MinFlopsPerThread team = minFlopsPerThreadFor(kTargetMinFlopsPerThread, t);
  double flops = 2.0 * m * double(p.n) * k;
  if (p.threads > 1 && saving * flops / double(p.threads) < double(team.flops))
    return {};
  NTailChoice tail;
  tail.columns = columns;
  tail.mr = block.mr;
  tail.nr = block.nr;
  tail.kUnroll = block.kUnroll;
  // A that L2 holds is in cache after the main kernel's pass.
  tail.prefetchA = p.m * p.k * 4 > t.cacheBytes(2) ? block.prefetchA : 0;
  tail.threads = chooseGemmThreads(tailProblem, p.threads, team).threads;
  return tail;
}
