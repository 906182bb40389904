//===- BuiltinAdvisor.cpp - Analytical, deterministic sketch choice -------===//
//
// The model of Low et al. (TOMS 2016), as Polly's MatmulOptimizer codes it,
// adapted to the microkernel's orientation here: the C tile is mr rows by nr
// columns with nr along the vector lanes; the A micro-panel (kc x mr) stays
// in L1 while B micro-panels (kc x nr) stream from an L2-resident kc x nc
// block, and the packed A block (mc x kc) lives in L3.
//
//===----------------------------------------------------------------------===//

#include "EmitterFamily.h"
#include "SkinnyGemm.h"
#include "Tiling.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Dialect/FusedPackB.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::tensorop;

namespace {

/// Every dimension at most this: the small path (nothing packed, one K
/// block).
constexpr int64_t kSmallExtent = 128;
/// K of at most this (the largest kc the packed path takes) with B in half
/// of L2: the small path's form (B in place, one K block, a tail kernel),
/// its A micro-panel (at most 16 rows x 512 x 4 bytes) within L1.
constexpr int64_t kInPlaceMaxK = 512;
/// At most this many rows of C: the skinny path (B streamed in place) where
/// SkinnyGemm.cpp's AVX-512 paths do not apply (AVX2, or few columns too).
constexpr int64_t kSkinnyRows = 16;
/// k-steps ahead the skinny path prefetches B.
constexpr int64_t kSkinnyPrefetchB = 32;
/// Pair rows ahead (2 KB for a 64-column panel) that a kernel reading B's
/// prepacked k pairs in place prefetches them. The hardware prefetchers
/// alone left the FFN block's bf16 panels (768 x 64 and 3072 x 64 pairs
/// from 4.7 MB of weights, mr 4) waiting on B: at T = 16 tokens 1.29-1.33x
/// faster with 8 (4 and 16 within noise of it; 32 slower), and 1.07-1.2x at
/// T = 64..256 (bench/models/ab_prepacked.sh, docs/benchmarks/models.md).
constexpr int64_t kPairsPrefetchB = 8;
/// The most threads the rules for B in L2 read in place in K blocks and
/// for one column block were measured on (this 2-core machine); larger
/// teams keep the packed path and the L1-sized kc.
constexpr int64_t kInPlaceRulesMaxThreads = 2;

/// Unpacked B needs nr <= 7 vectors (one mask register each on AVX-512)
/// and, on AVX2, one vector register more for the mask (the sketch
/// verifier's rule).
bool unpackedBFits(int64_t mr, int64_t nr, int64_t lanes, int64_t regs,
                   llvm::StringRef target) {
  if (nr > 7 * lanes)
    return false;
  return lanes == 16 ||
         registerBlockVectorRegisters(mr, nr, lanes, target) + 1 <= regs;
}

/// A register block and its score (the fraction of FMA issue slots doing
/// useful work; -1 where nothing fits the register file).
struct RegisterBlock {
  double score = -1;
  int64_t mr = 0, nr = 0;
  bool embedded = false;
};

/// Columns the register blocks cost, N's padding included, in FMA slots
/// of a full vector's columns. Packed B pads N to whole blocks of nr. B
/// read in place (`small`) gets a tail kernel for the N remainder, so only
/// its last vector's lanes past N are padding. Where AVX-512 runs on FP
/// datapaths half its width (fma.datapath_bits 256: Zen 4), a last vector
/// of at most half a vector's columns is computed as a half-width one in
/// half the slots (ApplySketch's tail kernel): it counts as half a vector.
/// A tail that then has fewer vector slots than an explicit broadcast
/// needs FMAs (one and a half for two) runs below peak, as a block with
/// too few vectors does: it costs the slots it needs. Zen 4, 8175x87x307,
/// 1 thread, same process, against oneDNN (docs/benchmarks/
/// cpu-gemm-classes.md, "Tall with a narrow N"): packed 9 x 48 (edge
/// 87/96) 0.90x; in place 9 x 48 (a 2.5-vector tail) 1.00x, 7 x 48 and 8 x
/// 48 0.99-1.00x; 6 x 64 (a 1.5-vector tail) 0.92-0.93x, 12 x 32 0.94x.
double paddedColumns(const GemmProblem &p, const TargetHints &t, bool small,
                     int64_t nr, bool embedded) {
  int64_t lanes = t.f32Lanes();
  if (!small)
    return double(roundUp(p.n, nr));
  int64_t rem = p.n % lanes;
  bool halfWidthLast = p.input == GemmInputType::F32 && t.isa == "avx512" &&
                       t.vectorBits == 512 && t.datapathBits == 256 &&
                       rem != 0 && rem <= lanes / 2;
  if (!halfWidthLast)
    return double(roundUp(p.n, lanes));
  double columns = double(p.n - rem) + lanes / 2.0;
  // The tail kernel's vectors (N mod nr): explicit broadcasts where the
  // block has them and the tail has minFmasPerBroadcast vectors or more
  // (ApplySketch gives narrower tails embedded ones).
  double tailSlots = double(p.n % nr - rem) / lanes + 0.5;
  int64_t tailVectors = ceilDiv(p.n % nr, lanes);
  if (!embedded && tailVectors >= t.minFmasPerBroadcast &&
      tailSlots < double(t.minFmasPerBroadcast))
    columns += (double(t.minFmasPerBroadcast) - tailSlots) * lanes;
  return columns;
}

/// Register block: every (mr, nv) that fits the register file, scored by
/// the fraction of FMA issue slots doing useful work. `small`: B read in
/// place with a tail kernel for the N remainder, so the N edge wastes only
/// the last vector's lanes.
/// `minTailAccumulators`: on the small path, leave out blocks whose tail
/// kernel has fewer accumulators (0: none left out). `fewestRows`: leave
/// out blocks of fewer rows (0: the default floor below).
RegisterBlock chooseRegisterBlockWith(const GemmProblem &p,
                                      const TargetHints &t, bool small,
                                      int64_t minTailAccumulators,
                                      int64_t fewestRows = 0) {
  int64_t lanes = t.f32Lanes();
  int64_t regs = t.vectorRegisters;
  RegisterBlock best, byRows;
  int64_t bestAcc = 0, byRowsAcc = 0;
  double bestRowsScore = -1;
  // Blocks narrower than 4 rows or wider than 4 vectors stream B panels
  // from L2 faster than the FMAs consume them (nr*4 bytes per k against
  // mr*nv FMAs), so they are only considered when M itself is that small.
  int64_t minRows = std::max(std::min<int64_t>(p.m, 4), fewestRows);
  // Ties go to wider blocks (each broadcast feeds more FMAs and the A
  // micro-panel kept in L1 is smaller), then to more accumulators.
  auto beats = [](double score, int64_t nr, int64_t acc,
                  const RegisterBlock &other, int64_t otherAcc) {
    return score > other.score ||
           (score == other.score &&
            (nr > other.nr || (nr == other.nr && acc > otherAcc)));
  };
  for (int64_t nv = 1; nv <= 4 && nv + 2 <= regs; ++nv) {
    // At most 16 rows, except for one-vector blocks on the small path,
    // which may take as many rows as the register file holds: their M
    // tiles then are fewer and taller (each one a call and a pass over
    // B), as the few-columns path's (SkinnyGemm.cpp) are for larger M.
    // Zen 5, 1 thread, quiet, same-process sketch A/B against libxsmm
    // (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: one-vector blocks of
    // more than 16 rows"): 47x13x89 16 rows 0.96x, 24 rows 1.00x;
    // 100x12x64 16 rows 0.96x, 25 rows 1.00x; 120x7x100 16 rows 0.93x, 30
    // rows 1.00x; 128x16x128 16 rows 0.99x, 26 rows 1.00x.
    int64_t maxRows = small && nv == 1 ? regs : 16;
    for (int64_t mr = minRows; mr <= maxRows && registerBlockVectorRegisters(mr, nv * lanes, lanes, t.name) <= regs; ++mr) {
      int64_t nr = nv * lanes;
      int64_t acc = mr * nv;
      // (A small GEMM's block no wider than N: a wider one would only
      // ever run its tail kernel.)
      if (small && (!unpackedBFits(mr, nr, lanes, regs, t.name) ||
                    (nv - 1) * lanes >= p.n))
        continue;
      // Nor one whose tail kernel (N's remainder) has fewer accumulators
      // than asked for: the score counts neither the tail nor its chains.
      // (Rows past M hold no chains: a taller block cannot pass for it.)
      int64_t tailAcc = std::min(mr, p.m) * ceilDiv(p.n % nr, lanes);
      if (small && tailAcc > 0 && tailAcc < minTailAccumulators)
        continue;
      // FMA latency x throughput needs this many independent chains
      // (fma.independent_accumulators_for_peak; Zen 5 12: its microkernel
      // with 8 accumulators ran at 64-91% of the fastest block, with 10 at
      // 88-96%, with 12 or more at 93-100%, so a 4 x 32 block gives way to
      // 11 x 32 at 163x541x541, +15% through gen's objects;
      // docs/benchmarks/cpu-gemm-classes.md, "Zen 5: blocks of fewer than
      // 12 accumulators").
      // Blocks of two or more vectors over a packed B may need more where
      // the target measured so (fma.multi_vector_accumulators_for_peak;
      // Emerald Rapids 20: 4-6 row blocks of 48-64 columns lost to taller
      // ones, 16 x 16 blocks did not; docs/benchmarks/cpu-gemm-classes.md,
      // "Emerald Rapids"). Not with B read in place (`small`): the losses
      // measured there came from the masked B loads its kernels then
      // issued for every vector; with plain loads blocks of 12-16 chains
      // won (Emerald Rapids, gen's objects, 38 drawn small shapes in three
      // sets geomean 1.010, 25 faster, "Emerald Rapids in the forty-third
      // session").
      int64_t chains =
          small ? t.accumulatorsForPeak : t.blockAccumulatorsForPeak(nv);
      double latency = std::min(1.0, double(acc) / double(chains));
      // An explicit broadcast shared by too few FMAs steals FP slots. With
      // B's rows read in place, whose loads compete too, that holds for
      // more FMAs than a register-only loop shows (embedded_below_fmas;
      // Zen 4: 13 x 32 at 37x53x71 +2.0% and +3.3% embedded, two runs). On
      // the packed path two-vector blocks moved by -3.4% (2137^3) to +2.0%
      // (docs/benchmarks/cpu-gemm-classes.md, "target=host"): not taken.
      // Nor where the embedded form's loads outnumber the FMAs (1 row).
      bool fpSlot = small && t.explicitBroadcastTakesFpSlot &&
                    nv < t.embeddedBelowFmas && acc >= mr + nv;
      bool embedded =
          (nv < t.minFmasPerBroadcast || fpSlot) && t.embeddedBroadcast;
      double broadcast =
          (nv >= t.minFmasPerBroadcast || embedded) ? 1.0 : 0.75;
      // An embedded broadcast is a load per FMA: mr + nv loads feed mr*nv
      // FMAs per k, so a one-vector block issues more loads than FMAs
      // and the load ports (as many 512-bit loads per cycle as FMAs on
      // Zen 5) set its pace. Measured at 333x777x555 (quiet, 1 thread):
      // 9x16 embedded 169-173 GFLOP/s, 12x32 / 8x48 / 6x64 explicit
      // 181-189, though 9x16 wastes the fewest lanes on the edges.
      if (embedded)
        broadcast = std::min(1.0, double(acc) / double(mr + nv));
      // Work wasted on zero-padded edge panels.
      // (In doubles: M * N overflows int64 for huge GEMMs.)
      double columns =
          double(p.n) / paddedColumns(p, t, small, nr, embedded);
      double edge = double(p.m) / double(roundUp(p.m, mr)) * columns;
      double score = std::round(latency * broadcast * edge * 100) / 100;
      // On the small path A is read in place, and an M edge tile runs a
      // K loop of its own rows only (x86_gemm_fma's unpacked-A loops): it
      // costs its rows' FMAs, or the slots its FMA chains need where it
      // has too few accumulators, not a whole block's.
      double rowsScore = -1;
      if (small && mr <= std::max(p.m, minRows)) {
        double rowSlots =
            double(rowTileFmaSlots(p.m, mr, nv, chains));
        rowsScore = std::round(double(p.m * nv) / rowSlots * broadcast *
                               columns * 100) / 100;
      }
      if (beats(score, nr, acc, best, bestAcc)) {
        best.score = score;
        bestAcc = acc;
        best.mr = mr;
        best.nr = nr;
        best.embedded = embedded;
        bestRowsScore = rowsScore;
      }
      if (rowsScore >= 0 && beats(rowsScore, nr, acc, byRows, byRowsAcc)) {
        byRows.score = rowsScore;
        byRowsAcc = acc;
        byRows.mr = mr;
        byRows.nr = nr;
        byRows.embedded = embedded;
      }
    }
  }
  // A one-vector block may take up to 30 rows (above), so it often fits
  // M with no edge tile while multi-vector blocks (at most 16 rows) pay a
  // whole block for theirs; on the small path that edge costs its rows
  // only. So where the rows' count prefers a multi-vector block to the
  // one-vector block chosen, it is taken: M = 19-22, one-vector blocks of
  // M rows with embedded broadcasts, 24 shapes (every N in 35..111, K in
  // 6..125) each 1.07-1.23x faster, geomean 0.88x -> 1.00x the best library
  // (Zen 5, 1 thread, quiet, gen's objects in one process;
  // docs/benchmarks/cpu-gemm-classes.md, "Zen 5: one-vector blocks of M
  // rows"). Counting the rows for every block changed 98 of 790 shapes,
  // with losses of 3-6% (4 x 48 -> 9 x 48 at 67x131x51 and 123x48x80).
  if (best.nr == lanes && byRows.nr > lanes &&
      byRows.score > bestRowsScore)
    return byRows;
  return best;
}

/// The register block: on the small path without tails of fewer
/// accumulators than the target measured to keep up where any block
/// avoids them (blocking.small_min_tail_accumulators; Zen 5 12: 4 x 64
/// blocks, whose 8-accumulator 4 x 32 tails take N's remainders of 17-32
/// columns, lost 5-6% to 4 x 48 and 6 x 64 blocks; docs/benchmarks/
/// cpu-gemm-classes.md, "Zen 5: small shapes lose in 4-row blocks"; the
/// file's 12 on Emerald Rapids too since its kernels load full B vectors
/// unmasked, "Emerald Rapids in the forty-third session").
RegisterBlock chooseRegisterBlock(const GemmProblem &p, const TargetHints &t,
                                  bool small, int64_t fewestRows = 0) {
  RegisterBlock b = chooseRegisterBlockWith(
      p, t, small, t.smallMinTailAccumulators, fewestRows);
  return b.score >= 0 ? b
                      : chooseRegisterBlockWith(p, t, small, 0, fewestRows);
}

/// The register block reading B in place (the small path's scoring, N's
/// remainder in a tail kernel) with at least `fewestRows` rows, or with
/// any number where none that tall fits.
RegisterBlock inPlaceRegisterBlock(const GemmProblem &p, const TargetHints &t,
                                   int64_t fewestRows) {
  RegisterBlock b = chooseRegisterBlock(p, t, /*small=*/true, fewestRows);
  return b.score >= 0 ? b : chooseRegisterBlock(p, t, /*small=*/true);
}

/// The fewest rows a register block reading B's rows in place from L2
/// takes (0: no floor): blocks of blocking.b_panel_l1_max_mr rows or fewer
/// stream B's rows from L2 faster than their FMAs consume them. Measured on
/// one thread (keepBPanelsInL1 below) and, for B in L2 read in place, two
/// (Zen 5, session 44: 104x90x149 8 x 48 packed 0.89x oneDNN, in place
/// 0.99x); fp32 only.
int64_t fewestRowsStreamingB(const GemmProblem &p, const TargetHints &t) {
  if (p.threads > kInPlaceRulesMaxThreads ||
      p.input != GemmInputType::F32 || p.bPairsInPlace)
    return 0;
  return t.bPanelL1MaxMr + 1;
}

/// Keeps each packed B micro-panel in L1 where the register block has so
/// few rows that streaming B's panels from L2 would bind: with the A
/// micro-panel in L1 (micro order "mn"), every k step loads 4 * nr bytes
/// of B from L2 for mr * nr FMAs, 32 bytes a cycle for a 4-row block at
/// two 512-bit FMAs a cycle. So the register blocks' loops run n outside
/// m ("nm"), kc shrinks until the B micro-panel (kc x nr) takes two
/// thirds of L1, and the M block until its A block (mc x kc), now read
/// from L2 once per micro-panel, takes half of L2. A's packing stays as
/// chosen at the larger kc. Zen 5, 1 thread, quiet, same-process sketch
/// A/B against the libraries (docs/benchmarks/cpu-gemm-classes.md, "Zen 5:
/// B micro-panels in L1 for 4-row blocks"): every 4-row shape gained,
/// +0.3% to +4% (512^3 +1.4% to +3.3% in three runs); 8-row blocks lost
/// 0.7-2.8% and 9-row ones moved -5% to +2%, so the hints bound mr
/// (blocking.b_panel_l1_max_mr). Through gen's objects, eight 4-row shapes:
/// new/base geomean 1.014 and 1.022 in two runs. (Shapes whose B fits half
/// of L2 under b_in_l2_in_place_max_rows rows now read B in place in
/// taller blocks instead.) One thread, fp32 and packed B panels only:
/// nothing else was measured.
void keepBPanelsInL1(const GemmProblem &p, const TargetHints &t,
                     SketchChoice &c) {
  if (t.bPanelL1MaxMr <= 0 || c.mr > t.bPanelL1MaxMr || p.threads != 1 ||
      p.input != GemmInputType::F32 || p.bPairsInPlace ||
      c.emitter != "x86_gemm_fma" ||
      (c.packB != "kmajor_nr" && c.packB != kFusedPackB))
    return;
  constexpr int64_t bytes = 4;
  c.microOrder = "nm";
  int64_t kcTarget =
      std::max<int64_t>(t.cacheBytes(1) * 2 / 3 / (c.nr * bytes), 16);
  c.kc = balancedTile(p.k, kcTarget, 1);
  int64_t mcTarget = t.cacheBytes(2) / 2 / (c.kc * bytes);
  c.mc = std::min(c.mc, balancedTile(p.m, mcTarget, c.mr));
}

/// The fewest rows limitMBlockToCStrip makes an M block of: each M block
/// packs B's K blocks again, so below this (N of tens of thousands) the
/// rule leaves the M block as it is; nothing that thin was measured.
constexpr int64_t kCStripMinRows = 256;

/// Bounds the M block where C is updated in more than one K block (loop
/// order mkn: every K block re-reads the M block's strip of C, all N
/// columns) so that the strip and the packed A block take at most
/// blocking.c_strip_l3_pct of the core's L3 share: C then comes back from
/// L3 for each K block instead of from memory. With A's block alone
/// bounding it, 2864^3 ran all of M in one block (C 33 MB, past L3) and
/// 0.91x oneDNN. Zen 5, 1 thread, quiet, same-process sketch A/B, the
/// strip in 100% of the 16 MiB share against the builtin sketch
/// (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: C's strip in L3"):
/// 2864^3 0.912x -> 0.995x, 2515^3 0.973x -> 1.014x, 2300^3 0.922x ->
/// 0.977x, 4096x2048x2048 0.969x -> 1.000x, 3000x2000x1500 0.949x ->
/// 0.955x; gen's objects, 10 drawn large shapes 1.043. Two threads, the
/// same bound per thread, went both ways through gen's objects (-6% to
/// +5% on 5 drawn shapes): one thread only. fp32 and packed A only (A read
/// in place, N <= 1024: not measured).
void limitMBlockToCStrip(const GemmProblem &p, const TargetHints &t,
                         int64_t l3Share, int64_t aBytes, SketchChoice &c) {
  if (t.cStripL3Pct <= 0 || p.threads != 1 ||
      p.input != GemmInputType::F32 || p.bPairsInPlace || p.isDynamic() ||
      c.packA == "none" || c.kc >= p.k || p.n <= kFewColumns)
    return;
  const int64_t budget = l3Share * t.cStripL3Pct / 100;
  const int64_t rowBytes = p.n * 4 + c.kc * aBytes;
  if (std::min(p.m, c.mc) * rowBytes <= budget)
    return;
  int64_t rows = budget / rowBytes;
  if (rows < kCStripMinRows)
    return;
  c.mc = std::min(c.mc, balancedTile(p.m, rows, c.mr));
}

/// The share of L2, in percent, that takeAllColumnsInOneBBlock lets all of
/// the packed B take (the probe's 573 KB B, 55% of the 1 MiB L2, gained;
/// six drawn shapes with B in 55-60% of L2 all gained).
constexpr int64_t kWholeBBlockL2Pct = 60;

/// One B block of all N columns for tall shapes in one K block: each B
/// block reads the M block's A rows (A in L3, not L2, at thousands of rows)
/// once more, and all of B fits L2 anyway. Zen 5, 1 thread, quiet
/// (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: all of N in one B block
/// for tall shapes"): same-process sketch A/B, 6696x423x332 nc 144 0.995x
/// -> nc 432 1.045x libxsmm; gen's objects, 8 drawn tall shapes (M
/// 2048-8000): M of 5000 or more +0.3..+3.5%, M of 2400-3600 -1.3..-2.5%,
/// so the hints give the fewest rows (blocking.whole_b_block_min_rows);
/// then, from 5000 rows, 10 drawn shapes geomean +4.6% (9 faster,
/// 7339x535x245 0.876x -> 0.998x the best library) and 6 more with B in
/// 55-60% of L2 +3.3%, every one faster. Measured for N of 150-700 and K
/// of 150-600 with A read in place only (packed A: not measured).
void takeAllColumnsInOneBBlock(const GemmProblem &p, const TargetHints &t,
                               SketchChoice &c) {
  if (t.wholeBBlockMinRows <= 0 || p.threads != 1 ||
      p.input != GemmInputType::F32 || p.bPairsInPlace || p.isDynamic() ||
      p.m < t.wholeBBlockMinRows || c.kc < p.k || c.packA != "none" ||
      (c.packB != "kmajor_nr" && c.packB != kFusedPackB))
    return;
  const int64_t wholeN = roundUp(p.n, c.nr);
  if (wholeN * c.kc * 4 > t.cacheBytes(2) * kWholeBBlockL2Pct / 100)
    return;
  c.nc = wholeN;
}

class BuiltinAdvisor : public Advisor {
public:
  llvm::StringRef name() const override { return "builtin"; }

  llvm::Expected<ConvSketchChoice>
  proposeConv(const ConvProblem &p, const TargetHints &t) override {
    return builtinConvChoice(p, t);
  }

  llvm::Expected<SketchChoice> propose(const GemmProblem &p,
                                       const TargetHints &t) override {
    // N's remainder by the kernel vectorized along K where that saves
    // enough (SkinnyGemm.cpp): the sketch is then the one for the other
    // columns, with the tail.
    NTailChoice tail = chooseKDotNTail(p, t);
    if (!tail.columns)
      return proposeWhole(p, t);
    GemmProblem mainProblem = p;
    mainProblem.n = p.n - tail.columns;
    llvm::Expected<SketchChoice> main = proposeWhole(mainProblem, t);
    if (!main)
      return main;
    main->nTail = tail;
    return main;
  }

private:
  /// The sketch of the whole GEMM, without an N tail.
  llvm::Expected<SketchChoice> proposeWhole(const GemmProblem &p,
                                            const TargetHints &t) {
    SketchChoice c;
    c.source = "builtin";
    notesList.clear();
    int64_t lanes = t.f32Lanes();
    int64_t regs = t.vectorRegisters;

    // Small GEMMs read A and B in place (below); their N remainder then
    // gets a kernel of its own (ApplySketch's tail kernel), so only the
    // last vector's lanes past N are wasted, whatever nr is.
    bool inPlace = t.isa != "rvv" && t.isa != "neon" &&
                   llvm::StringRef(t.name).starts_with("x86") &&
                   p.aRowsInPlace && !p.transposeA && !p.transposeB &&
                   !p.isDynamic();
    bool small = inPlace && std::max({p.m, p.n, p.k}) <= kSmallExtent;
    // A short K (at most kSmallExtent) with a B that stays in half of L2
    // takes the same path: one K block (each C tile in registers over all
    // of K, stored once) and B read in place, whose N remainder gets a tail
    // kernel, so a wide block wastes no lanes past N. The packed path
    // scores the edge in whole blocks and so picks a one-vector block
    // where N is not a multiple of 32 (200x300x100: 10 x 16, every FMA
    // with a broadcast load of its own). Few rows or columns keep their
    // own paths (SkinnyGemm.cpp), and an N in whole blocks of 4 vectors
    // keeps packed B: its block is as wide already, and packed panels read
    // faster than rows in place (500x256x64, same 5x64 block: 0.97x the
    // best library in place, 1.03x packed). Measured on AVX-512 only
    // (docs/benchmarks/cpu-gemm-classes.md, "Short K with B in L2"; K up to
    // kInPlaceMaxK: "Shapes nobody tuned on").
    // (Not where the target measured packed panels ahead of B's rows in
    // place: blocking.b_in_half_l2_in_place 0, Emerald Rapids: 4206x183x99
    // 6 x 64 in place 0.87x the best library, packed 1.04x; 2345x606x231
    // 0.86x, packed 1.13-1.15x whatever the block; docs/benchmarks/
    // cpu-gemm-classes.md, "Emerald Rapids".)
    bool bInHalfL2 = inPlace && !small && t.isa == "avx512" &&
                     t.bInHalfL2InPlace != 0 && p.m > kFewRows &&
                     p.n > kFewColumns &&
                     // Divided, not multiplied: K * N overflows int64_t
                     // for the largest extents a problem may carry.
                     p.k <= t.cacheBytes(2) / 2 / 4 / p.n;
    bool inPlaceCandidate =
        bInHalfL2 && p.k <= kInPlaceMaxK && p.n % (4 * lanes) != 0;
    if (inPlaceCandidate && p.k <= kSmallExtent)
      small = true;
    // Whatever K and N, a B that stays in half of L2 is read in place in
    // one K block where M has at most blocking.b_in_l2_in_place_max_rows
    // rows: packing B is a pass over all of it that only M's few row tiles
    // share, while every tile reads B's rows from L2 either way. Zen 5, 1
    // thread, quiet, same-process sketch A/B against the packed path
    // (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: B in L2 read in place
    // under 400 rows"): 72-200 rows +2.9% to +9.5% (72x128x900 0.90x ->
    // 0.99x libxsmm, 128x128x600 0.96x -> 1.00x), 256-400 rows +1.6% to
    // +4.0%, 500-1000 rows +0% to +0.9%. One thread and fp32 only: nothing
    // else was measured. Blocks of so few rows that B's rows, streamed
    // from L2 for every k step, bind (blocking.b_panel_l1_max_mr) are left
    // out: in place, 4-row blocks lost to packed micro-panels in L1
    // (keepBPanelsInL1) through gen's objects, 92x134x157 -3.1% and 256^3
    // -1.1%, where taller blocks in place won (128x128x600: 8 x 48 in place
    // 1.00x libxsmm, 4 x 64 0.98x, packed 0.96x).
    std::optional<RegisterBlock> inL2Block;
    int64_t streamingBRows = fewestRowsStreamingB(p, t);
    if (bInHalfL2 && !small && streamingBRows > 0 &&
        p.m <= t.bInL2InPlaceMaxRows) {
      RegisterBlock taller =
          chooseRegisterBlock(p, t, /*small=*/true, streamingBRows);
      if (taller.score >= 0) {
        small = true;
        inL2Block = taller;
      }
    }
    bool midK = inPlaceCandidate && !small;

    RegisterBlock block =
        inL2Block ? *inL2Block : chooseRegisterBlock(p, t, small);
    // A K above kSmallExtent but at most kInPlaceMaxK, with B in half of
    // L2, reads B in place only where that wastes fewer lanes than the
    // packed block does: packed panels read a little faster than B's rows
    // (700x90x400, 7x48 either way: packed 1.07x the best library, in place
    // 1.04x), but the packed path, scoring the N edge in whole blocks, may
    // fall back to one-vector blocks with a broadcast load per FMA
    // (8061x176x343: 16x16, 0.75x; 6x64 in place with a 6x48 tail, 0.95x;
    // 97x67x157: 14x16, 0.86x; 7x48 in place, 1.07x).
    if (midK) {
      // B's rows stream from L2 here too: blocks of so few rows that this
      // binds are left out, as on the B-in-L2 path above. Zen 5, 1 thread,
      // quiet, gen's objects against the build before in one process
      // (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: 4-row blocks
      // reading B in place"): 5248x107x265 and the 9 shapes of 2000
      // drawn whose 4 x 64 block changed (to 6 x 64, 7 x 48, 13-14 x 32)
      // 1.087-1.200x, geomean 0.886x -> 0.999x the best library.
      RegisterBlock inPlaceBlock = inPlaceRegisterBlock(p, t, streamingBRows);
      if (inPlaceBlock.score > block.score) {
        small = true;
        block = inPlaceBlock;
      }
    }
    // B in three quarters of L2 past the one-K-block limits above (K above
    // kInPlaceMaxK, or B in more than half of L2) is read in place too
    // where the packed block wastes enough more lanes on N's edge (by the
    // hints' blocking.in_place_k_blocks_min_gain_pct points of the block's
    // score: packed panels read a little faster than B's rows), in K
    // blocks of the L1-sized kc, N's remainder in a tail kernel: the
    // packed path pads N to whole blocks and so often falls back to
    // one-vector blocks with a broadcast load per FMA (1399x173x1019:
    // 16 x 16). Zen 5, 1 thread, quiet, gen's objects against the build
    // before in one process, shapes drawn at random among those whose
    // sketch changes (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: B in L2
    // read in place in K blocks"):
    // blocks of three or four vectors 27 shapes, 25 faster (1051x183x620
    // 1.19x, 512x181x691 1.16x, 8170x365x392 1.15x), 638x374x480 0.95x,
    // 727x177x1020 0.97x; two-vector blocks (14 x 32, 12 x 32) lost in all
    // four shapes, 0.97-0.99x, so they keep B packed. One K block
    // (kc = K) in place lost: 1399x173x1019 6 x 64 at kc 1019 0.96x the
    // best library, at kc 510 1.02x (the A micro-panel of all of K fills
    // half of L1), so one_k_block_max_k does not apply here. On two
    // threads (each reading the whole B in place from its own L2; session
    // 36, the same comparison at 2 threads, section "Zen 5: the one-thread
    // rules on two threads"): 14 drawn shapes, 13 faster, geomean 1.108
    // (2269x110x1442 1.195, 1441x181x636 1.152; 446x171x996 0.991). One
    // and two threads, fp32 only, on Zen 5 (the file's 4; Zen 4's overlay
    // 0): nothing else was measured.
    bool inPlaceKBlocks = false;
    if (t.inPlaceKBlocksMinGainPct > 0 && inPlace && !small &&
        !inPlaceCandidate && t.isa == "avx512" &&
        p.threads <= kInPlaceRulesMaxThreads &&
        p.input == GemmInputType::F32 && p.m > kFewRows &&
        p.n > kFewColumns && p.n % (4 * lanes) != 0 &&
        p.k <= t.cacheBytes(2) * 3 / 4 / 4 / p.n) {
      RegisterBlock inPlaceBlock = inPlaceRegisterBlock(p, t, streamingBRows);
      if (inPlaceBlock.nr >= 3 * lanes &&
          std::round((inPlaceBlock.score - block.score) * 100) >=
              t.inPlaceKBlocksMinGainPct) {
        inPlaceKBlocks = true;
        block = inPlaceBlock;
      }
    }
    if (block.score < 0)
      return llvm::createStringError("target " + t.name +
                                     " has too few vector registers");
    c.mr = block.mr;
    c.nr = block.nr;
    c.broadcast = block.embedded ? "embedded" : "explicit";

    int64_t l1 = t.cacheBytes(1), l2 = t.cacheBytes(2);
    int64_t l3 = t.cacheBytes(3) ? t.cacheBytes(3) : 4 * l2;
    for (const CacheLevel &level : t.caches)
      if (level.level == 3)
        l3 /= std::max<int64_t>(1, level.sharedByCores);
    // Bytes of one packed k value: bf16 panels hold k pairs in 4 bytes (kc
    // even, so no pair straddles two K tiles); f16 is packed as fp32.
    const bool bf16 = p.input == GemmInputType::BF16;
    const int64_t bytes = bf16 ? 2 : 4;
    // kc: the A micro-panel takes at most 1/aPanelL1Share of L1 (a quarter
    // unless the target's hints say otherwise).
    int64_t kcTarget = std::clamp<int64_t>(
        l1 / t.aPanelL1Share / (c.mr * bytes), 64, 512);
    c.kc = balancedTile(p.k, kcTarget, bf16 ? 2 : 1);
    // B packed once into k pairs and read in place (a panel of prepacked
    // weights, tensorop.b_k_pairs) is not an L2 block packed per call:
    // kc bounds no B block, and the kernel streams B's pair rows from
    // wherever the weights are (L3 or memory, for a transformer's). So
    // one K block (each C tile kept in registers over all of K, C stored
    // once: the epilogue's store form) and B prefetched kPairsPrefetchB
    // pair rows ahead. A's rows are read in place too, a 32-bit pair per
    // broadcast: they need no L1-sized panel either. (FFN block 768/3072,
    // 1 thread, B prefetched either way, against oneDNN in one process:
    // kc 384 / 512 0.95-1.00x, one K block 1.00-1.06x at T = 16..256.)
    if (p.bPairsInPlace)
      c.kc = roundUp(p.k, 2);
    // mc: the packed A block takes at most half of this core's L3 share.
    int64_t mcTarget = l3 / 2 / (c.kc * bytes);
    c.mc = std::min(balancedTile(p.m, mcTarget, c.mr), roundUp(p.m, c.mr));
    // nc: the packed B block takes at most 1/bBlockL2Share of L2 (half
    // unless the hints say otherwise). Where A's K block is larger than L2
    // it is streamed from L3 once per B block, and the hints may give B a
    // larger share (fewer passes over A): on Zen 4, half of L2 instead of a
    // quarter, 1024^3 +2.1%, 4096x1024x1024 +4.6%, 2048^3 +2.0% through
    // gen's objects; where A's block fits in L2, half lost up to 3%
    // (337x823x953; docs/benchmarks/cpu-gemm-classes.md, "Where 1024^3
    // loses").
    int64_t bShare = t.bBlockL2Share;
    if (t.bBlockL2ShareAStreamed > 0 &&
        std::min(p.m, c.mc) * c.kc * bytes > l2)
      bShare = t.bBlockL2ShareAStreamed;
    int64_t ncTarget = l2 / bShare / (c.kc * bytes);
    c.nc = std::min(balancedTile(p.n, ncTarget, c.nr), roundUp(p.n, c.nr));
    // One K block where the hints allow it (one_k_block_max_k): a K a
    // little above the L1-sized kc, with an A K block that L2 cannot hold
    // anyway (A streamed from L3), is taken whole, so that each C tile
    // stays in registers over all of K and is stored once instead of
    // being reloaded per K block; the A micro-panel (mr x K) still fits
    // L1, and the B block keeps the columns it has at the L1-sized kc
    // (growing with kc to all of L2: nc 256 read faster than nc 128 at kc
    // 1024). Zen 4, 1 thread, same-process sketch A/B against oneDNN,
    // loaded: 1024^3 kc 512 -> 1024 0.992x -> 1.011x, 4096x1024x1024
    // 0.970x -> 0.995x and 1.000x; kc 1024 in two K blocks at 2048^3 gained
    // nothing (docs/benchmarks/cpu-gemm-classes.md, "One K block").
    if (t.oneKBlockMaxK > 0 && p.input == GemmInputType::F32 &&
        !p.bPairsInPlace && c.kc < p.k && p.k <= t.oneKBlockMaxK &&
        !inPlaceKBlocks && c.mr * p.k * bytes <= l1 &&
        std::min(p.m, c.mc) * p.k * bytes > l2) {
      c.kc = p.k;
      mcTarget = l3 / 2 / (c.kc * bytes);
      c.mc = std::min(balancedTile(p.m, mcTarget, c.mr), roundUp(p.m, c.mr));
    }

    // N within one register block's columns, A read in place: each
    // element of A serves one block's FMAs only, so nothing is gained by
    // keeping A's micro-panel in L1, while short K blocks cut each of A's
    // rows into short streams (a K block of 284 floats: 18 lines a row,
    // too few for the hardware prefetchers where A comes from memory) and
    // reload C per block. K blocks then take as much of L2 as the packed B
    // block may (b_block_l2_share); the M block stays as it was (A is not
    // packed, and a smaller one would pack B again per block). Zen 5, 1
    // thread, quiet, same-process sketch A/B (docs/benchmarks/
    // cpu-gemm-classes.md, "Zen 5: one column block"): 5137x29x5396 (A
    // 111 MB) kc 284 0.93x libxsmm, 1349 1.00x, 5396 0.99x. On two
    // threads, gen's objects against the build before (session 36): 11
    // drawn shapes geomean 1.020, 4185x30x1894 1.075, 5037x52x3746 0.976
    // and 5197x47x4867 0.986 the losses. Measured for N of 17-64, M above
    // 64 and 1-2 threads only (fewer rows or columns have paths of their
    // own). Emerald Rapids' 2 MiB L2 takes a B block of up to 45% of it
    // (blocking.one_column_block_b_l2_pct): 5886x48x4728 in one K block
    // 0.84x -> 1.03x libxsmm (sketch A/B), while B blocks of 0.96-1.0 MiB
    // lost 3-7%; gen's objects, 12 drawn shapes 1.012 at 1 thread, 10
    // more 1.007 at 2 (docs/benchmarks/cpu-gemm-classes.md, "Emerald
    // Rapids in the forty-second session").
    if (p.threads <= kInPlaceRulesMaxThreads &&
        p.input == GemmInputType::F32 && !p.bPairsInPlace && p.aRowsInPlace &&
        !p.transposeA && p.n <= c.nr && c.kc < p.k && p.m > kFewRows &&
        p.n > kFewColumns && t.isa == "avx512") {
      int64_t bBlockBytes = t.oneColumnBlockBL2Pct > 0
                                ? l2 * t.oneColumnBlockBL2Pct / 100
                                : l2 / t.bBlockL2Share;
      c.kc = std::max(c.kc, balancedTile(p.k, bBlockBytes / (c.nr * bytes), 1));
    }

    // m outermost so that the (large) A block is packed once per k block
    // and B blocks, cheap to copy, are re-packed per m block.
    c.loopOrder = "mkn";
    c.microOrder = "mn";
    c.emitter = emitterForIsa(t.isa);
    // A read in place (x86 microkernel only) saves copying A, which costs
    // most where each element of A serves few columns: measured 1.0-1.44x
    // over packed A for N <= 1024 on AVX-512 and AVX2 (1.44x at
    // 4096x64x4096, 1.23x at 100^3, 1.02x at 127x1000x513), 0.99x at 2048^3
    // (docs/benchmarks/cpu-packing-a.md). Wider B too where K is one
    // block: then each row of A is read whole, once per B block, and the
    // copy gains nothing. Zen 4, 1 thread, quiet, same-process sketch A/B
    // against oneDNN: 729x1493x191 +2.1%, 1099x1239x491 +1.8%,
    // 194x2091x383 +1.6%, 1500x1200x800 +1.5%, 479x1361x593 +1.0%,
    // 1024x2048x1024 +0.8%, 397x6222x485 +0.7%; with several K blocks
    // -2.3% to +1.2% (2137^3 -2.3%, 2048^3 -1.2%, 640x3000x1200 -1.0%):
    // those keep A packed (docs/benchmarks/cpu-gemm-classes.md, "A in
    // place in one K block").
    if (c.emitter == "x86_gemm_fma" &&
        llvm::StringRef(t.name).starts_with("x86") && p.aRowsInPlace &&
        !p.transposeA && (p.n <= 1024 || c.kc >= p.k))
      c.packA = "none";
    limitMBlockToCStrip(p, t, l3, bytes, c);
    c.kUnroll = 4;
    c.prefetchB = p.bPairsInPlace ? kPairsPrefetchB : 0;
    // The skinny block: all M rows, as many vectors as registers allow.
    int64_t skinnyNv = 0;
    for (int64_t nv = 4; nv >= 1 && !skinnyNv && p.m <= kSkinnyRows; --nv)
      if (registerBlockVectorRegisters(p.m, nv * lanes, lanes, t.name) <=
              regs &&
          unpackedBFits(p.m, nv * lanes, lanes, regs, t.name))
        skinnyNv = nv;
    if (inPlace && c.emitter == "x86_gemm_fma" &&
        unpackedBFits(c.mr, c.nr, lanes, regs, t.name)) {
      if (small && chooseSmallKDotSketch(p, t, c)) {
        // Small with at most 8 columns and a long enough K: the kernel
        // vectorized along K, whose lanes the broadcast kernel's N columns
        // would mostly leave idle (SkinnyGemm.cpp).
      } else if (small) {
        // Small: B read in place too and one K block, so a call allocates
        // and copies nothing and keeps each C tile in registers over all of
        // K (the libxsmm way). Measured at 16^3 (docs/benchmarks/
        // cpu-gemm-classes.md): the malloc and B copy cost a third.
        c.packB = "none";
        c.kc = p.k;
        c.nc = roundUp(p.n, c.nr);
        c.mc = roundUp(p.m, c.mr);
      } else if (inPlaceKBlocks) {
        // One column tile, so that N's remainder gets the tail kernel.
        c.packB = "none";
        c.nc = roundUp(p.n, c.nr);
      } else if (std::string gemvNote;
                 chooseFewRowsSketch(p, t, c, &gemvNote) ||
                 chooseKDotSketch(p, t, c) ||
                 chooseFewColumnsSketch(p, t, c)) {
        // Few rows or few columns on AVX-512: the operand that is streamed
        // is read once, in place (SkinnyGemm.cpp). Where the team's size
        // decided the GEMV form, a note says so.
        if (!gemvNote.empty())
          notesList.push_back(AdvisorNote::info(std::move(gemvNote)));
      } else if (p.m <= kSkinnyRows) {
        // Skinny (few rows, large B): each element of B serves only M
        // FMAs, so B is streamed once, in place, with the whole of M in
        // one register block. Rows of B a k-step apart are a page or more
        // apart, which the hardware prefetchers do not follow: the kernel
        // prefetches B itself (8x4096x4096: 0.31x oneDNN without, 1.07x
        // with, prefetch 16-32 k-steps ahead).
        c.packA = "none";
        c.packB = "none";
        if (skinnyNv) {
          c.mr = p.m;
          c.nr = skinnyNv * lanes;
          c.broadcast = skinnyNv < t.minFmasPerBroadcast && t.embeddedBroadcast
                            ? "embedded"
                            : "explicit";
        }
        c.nc = roundUp(p.n, c.nr);
        c.mc = roundUp(p.m, c.mr);
        c.prefetchB = kSkinnyPrefetchB;
      } else if (t.isa == "avx512" && c.packB == "kmajor_nr" &&
                 ceilDiv(std::min(p.m, c.mc), c.mr) <=
                     t.bInPlaceMaxRowTiles) {
        // Few row tiles per B block, where the hints say so
        // (b_in_place_max_row_tiles): B read in place, each row's next
        // tiles prefetched two tiles ahead, instead of packed. Packing is a
        // pass of loads and stores with no FMA to hide under, and only the
        // M block's few row tiles share it (127x1000x513, 8x48: packing all
        // of B took 7% of the GEMM). Zen 4, against a packing pass and
        // oneDNN (docs/benchmarks/cpu-gemm-classes.md, "What oneDNN does on
        // the packed rows"): 10-20 tiles +6-15%, 25 tiles +0-2%, 37-100
        // tiles no gain or a loss. Zen 5 reads B's strided rows too slowly
        // for its FMAs: there the copy fused into the first row tile
        // (below) wins, 10-20 tiles +9-17% (same-process sketch A/B, quiet:
        // 127x1000x513 0.85x -> 1.02x oneDNN, 80x1000x513 0.86x -> 0.98x;
        // "Zen 5: B packed for few row tiles").
        c.packB = "none";
        c.prefetchBCols = 2 * c.nr;
      } else if (t.isa == "avx512" && c.packB == "kmajor_nr" &&
                 p.input == GemmInputType::F32 && p.n >= 4 * c.nr) {
        // More row tiles share each B block: B stays packed, but the copy
        // is fused into the block's first row tile (it reads B in place,
        // its next two tiles' rows prefetched, and stores the panels the
        // other tiles read), as oneDNN's "nocopy" sgemm does; the packing
        // pass, with no FMA to hide under, goes. Zen 4, 1 thread, loaded,
        // same-process A/B against the packing pass (docs/benchmarks/
        // cpu-gemm-classes.md, "B's copy fused into the first row tile"):
        // +0.2-4.7% on 13 packed rows of the class table and the unseen
        // set, none lower (B at least four blocks wide: narrower ones,
        // whose pass is small, were not measured). Not keyed on hints: the
        // copy's share only grows with FMA speed (Zen 5).
        c.packB = kFusedPackB.str();
        c.prefetchBCols = 2 * c.nr;
      }
    }
    keepBPanelsInL1(p, t, c);
    takeAllColumnsInOneBBlock(p, t, c);
    return c;
  }
};
} // namespace

std::unique_ptr<Advisor> mlir::tensorop::createBuiltinAdvisor() {
  return std::make_unique<BuiltinAdvisor>();
}
