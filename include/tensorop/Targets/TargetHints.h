//===- TargetHints.h - Hardware hints of one target -------------*- C++ -*-===//
//
// The typed, validated form of hints/<target>.json: what the builtin advisor's
// analytical model and the LLM prompts read about a target.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TARGETS_TARGETHINTS_H
#define TENSOROP_TARGETS_TARGETHINTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
namespace tensorop {
class TargetAttr;

struct CacheLevel {
  int level = 0;
  int64_t sizeBytes = 0;
  int64_t ways = 0;
  int64_t lineBytes = 0;
  int64_t sharedByCores = 1;
};

/// Facts about one CPU of a target that the machine does not report (the
/// optional "cpus" object of a hints file, keyed by LLVM's CPU name, e.g.
/// "znver4"): target=host puts them over the file's generic values when it
/// runs on that CPU (HostHints.h). Unset fields keep the file's values.
struct CpuFacts {
  std::optional<double> fmaLatency;
  std::optional<int64_t> accumulatorsForPeak;
  std::optional<int64_t> convAccumulatorsForPeak;
  std::optional<int64_t> multiVectorAccumulatorsForPeak;
  std::optional<int64_t> datapathBits;
  std::optional<int64_t> minFmasPerBroadcast;
  std::optional<bool> embeddedBroadcast;
  std::optional<bool> explicitBroadcastTakesFpSlot;
  std::optional<int64_t> embeddedBelowFmas;
  std::optional<int64_t> aPanelL1Share, bBlockL2Share;
  std::optional<int64_t> gemvRows, gemvRowsThreaded, gemvBandVectors;
  std::optional<bool> gemvBandsInL3, gemvColumnPrefetch;
  std::optional<double> teamCostUs;
  std::optional<int64_t> bBlockL2ShareAStreamed;
  std::optional<int64_t> oneKBlockMaxK;
  std::optional<int64_t> bInPlaceMaxRowTiles;
  std::optional<int64_t> fewRowsBandRows, fewRowsBandMaxRows;
  std::optional<int64_t> smallMinTailAccumulators;
  std::optional<int64_t> bPanelL1MaxMr;
  std::optional<int64_t> bInL2InPlaceMaxRows;
  std::optional<int64_t> bandRowsPerL1Set;
  std::optional<int64_t> fewRowsPrefetchTilesInCache;
  std::optional<int64_t> fewRowsPrefetchTilesPastL2;
  std::optional<int64_t> fewRowsThinInCacheMaxBBytes;
  std::optional<int64_t> fewRowsWideBandRows;
  std::optional<int64_t> cStripL3Pct;
  std::optional<int64_t> wholeBBlockMinRows;
  std::optional<int64_t> kdotNTailMinSavingPct;
  std::optional<int64_t> inPlaceKBlocksMinGainPct;
  std::optional<int64_t> fewRowsBCachedMaxBytes;
  std::optional<int64_t> fewRowsBCachedMaxBytesThreaded;
  std::optional<int64_t> bInHalfL2InPlace;
  std::optional<int64_t> kdotMaxColumns;
  std::optional<int64_t> kdotTwoPassesMaxABytes;
  std::optional<int64_t> kdotNTailMaxABytes;
  std::optional<int64_t> fewRowsBandMaxThreads;
  std::optional<int64_t> fewRowsBandL1Pct;
  std::optional<int64_t> fewRowsPrefetchSpread;
  std::optional<int64_t> oneColumnBlockBL2Pct;
  std::optional<double> peakGflopsF32PerCore;
  std::string source; ///< Where these facts come from (required).
};

/// One field target=host took from the machine rather than the file.
struct HintOverlay {
  std::string field;  ///< e.g. "caches[0]", "broadcast.min_fmas_per_..."
  std::string value;  ///< e.g. "L1 data 32768 bytes, 8 ways, 64-byte lines"
  std::string source; ///< e.g. "/sys/devices/system/cpu/cpu0/cache/index0"
};

struct TargetHints {
  std::string name;
  std::string path; ///< The file it was read from.
  std::string arch, triple, cpu, features;
  std::string isa; ///< "avx512", "avx2", ...
  int64_t vectorBits = 0;
  int64_t vectorRegisters = 0;
  double fmaLatency = 0;
  /// Width of the FP datapaths (fma.datapath_bits): below vectorBits, a
  /// full-width FMA takes vectorBits / datapathBits pipe slots and a
  /// narrower one fewer (AVX-512 on Zen 4's 256-bit pipes).
  int64_t datapathBits = 0;
  int64_t accumulatorsForPeak = 0;
  /// The accumulators below which the convolution advisor scores a
  /// register block as latency-bound (fma.conv_accumulators_for_peak; 0:
  /// twice accumulatorsForPeak, as calibrated on Zen 4). Its own field
  /// because Zen 5's GEMM kernels need 12 chains while its convolution
  /// kernels with 14-15 ran as fast as oneDNN's picks and twice 12 lost
  /// (ConvAdvisor.cpp).
  int64_t convAccumulatorsForPeak = 0;
  /// The accumulators a GEMM register block of two or more vectors needs
  /// to run at the peak (fma.multi_vector_accumulators_for_peak; 0:
  /// accumulatorsForPeak). Its own field because on Emerald Rapids
  /// one-vector blocks of 10 rows reach 97% of the peak while blocks of
  /// 4-6 rows x 48-64 columns lost to taller ones in whole GEMMs
  /// (BuiltinAdvisor.cpp).
  int64_t multiVectorAccumulatorsForPeak = 0;
  int64_t minFmasPerBroadcast = 1;
  bool embeddedBroadcast = false;
  /// An explicit broadcast (vbroadcastss) takes an FP issue slot
  /// ("broadcast.explicit_takes_fp_slot"; false where the file says
  /// nothing).
  bool explicitBroadcastTakesFpSlot = false;
  /// Register blocks whose broadcast would feed fewer FMAs than this take
  /// embedded broadcasts where an explicit one takes an FP slot and
  /// embedded ones run at full rate ("broadcast.embedded_below_fmas"; 0,
  /// off, where the file says nothing). Measured in the GEMM loop, where
  /// B's loads compete too; min_fmas_per_explicit_broadcast is the
  /// register-only figure.
  int64_t embeddedBelowFmas = 0;
  std::vector<CacheLevel> caches;
  /// Cache blocking of the packed GEMM path (optional "blocking" object):
  /// the A micro-panel (mr x kc) takes at most 1/aPanelL1Share of L1, the
  /// packed B block (kc x nc) at most 1/bBlockL2Share of L2.
  int64_t aPanelL1Share = 4;
  int64_t bBlockL2Share = 2;
  /// GEMVs (optional "gemv" object, SkinnyGemm.cpp): the most rows of C
  /// that take the GEMV form ("gemv.rows"; 0: two), the vectors of a tile
  /// swept over B in bands ("gemv.band_vectors"; 0: as many as the
  /// registers hold), and whether a B that fits in L3 is swept in bands
  /// too rather than walked down K tile by tile ("gemv.bands_in_l3").
  int64_t gemvRows = 0;
  /// The same for a GEMM that runs on a team of two threads or more
  /// ("gemv.rows_threaded"; 0: gemvRows): the GEMV form splits differently
  /// across a team, and a target may measure fewer rows there.
  int64_t gemvRowsThreaded = 0;
  int64_t gemvBandVectors = 0;
  bool gemvBandsInL3 = false;
  /// Whether a GEMV swept in bands prefetches each row's tiles two ahead
  /// ("gemv.column_prefetch"; false: the hardware prefetchers alone).
  bool gemvColumnPrefetch = false;
  /// The packed B block's share of L2 where A's K block (the M block's
  /// rows x kc) is larger than L2, so that A is streamed from L3 once per
  /// B block: a larger B block means fewer passes over A
  /// ("b_block_l2_share_a_streamed"; 0: bBlockL2Share).
  int64_t bBlockL2ShareAStreamed = 0;
  /// The largest K that the packed path takes as one K block (kc = K,
  /// each C tile's accumulators kept over all of K and C stored once)
  /// where A's K block at kc = K is larger than L2 and the L1-sized kc is
  /// smaller than K ("one_k_block_max_k"; 0: never beyond the L1-sized kc).
  int64_t oneKBlockMaxK = 0;
  /// The most row tiles (mr-row register blocks) of one M block for which
  /// the packed fp32 path on AVX-512 reads B in place, each row's next
  /// tiles prefetched, instead of packing it: packing is a pass with no FMA
  /// to hide under that only those few tiles share
  /// ("b_in_place_max_row_tiles"; 0: B always packed).
  int64_t bInPlaceMaxRowTiles = 0;
  /// The rows of B in one K band of the few-rows path (SkinnyGemm.cpp: at
  /// most 64 rows of C, A and B read in place, B swept along N band after
  /// band) where B streams from memory, C has at most fewRowsBandMaxRows
  /// rows and the GEMM runs on one thread ("few_rows_band_rows",
  /// "few_rows_band_max_rows"; 0: bands of 128 rows): each band reloads
  /// and stores C, so shorter bands pay off for few rows only.
  int64_t fewRowsBandRows = 0, fewRowsBandMaxRows = 0;
  /// The most rows of one such K band, where B streams from memory, that
  /// may share an L1 set (B's rows a multiple of L1 size / ways bytes
  /// apart all do), for a GEMV and for one block of three vectors on one
  /// thread ("band_rows_per_l1_set"; 0: no such bound): beyond it the rows'
  /// prefetched lines evict each other before use.
  int64_t bandRowsPerL1Set = 0;
  /// How many tiles ahead the few-rows path (SkinnyGemm.cpp: at most 64
  /// rows of C, B read in place, swept along N) prefetches each of B's
  /// rows, in a block that is not a GEMV's, where L2 holds B (and where
  /// L3 does, unless fewRowsPrefetchTilesPastL2 is set)
  /// ("few_rows_prefetch_tiles_in_cache"; 0: the hardware prefetchers
  /// alone). Absent: 2, as from memory.
  int64_t fewRowsPrefetchTilesInCache = 2;
  /// The same where L3 holds B but L2 does not
  /// ("few_rows_prefetch_tiles_past_l2"). Absent (-1): the in-cache value.
  int64_t fewRowsPrefetchTilesPastL2 = -1;
  /// With at most 16 rows of C (where B's rows bind), the largest B, in
  /// bytes, that takes fewRowsPrefetchTilesInCache whether or not L2 holds
  /// it, in a block that is not a GEMV's nor one column tile
  /// ("few_rows_thin_in_cache_max_b_bytes"). Absent or 0: such blocks
  /// prefetch two tiles ahead whatever B.
  int64_t fewRowsThinInCacheMaxBBytes = 0;
  /// The K band (at most this many rows) of a few-rows block of 4 vectors or
  /// more (each B vector feeds few FMAs, so B's bandwidth binds) that sweeps
  /// more than one column tile of a B past L2 (in L3 on one or two threads,
  /// from memory on one; rows spread over L1's sets), with no column
  /// prefetch: the hardware prefetchers follow one tile down long bands
  /// ("few_rows_wide_band_rows"). Absent or 0: the in-cache or from-memory
  /// band and its prefetch.
  int64_t fewRowsWideBandRows = 0;
  /// The packed path's M block where C is updated in more than one K block:
  /// at most as many rows as keep their strip of C (all N columns) plus
  /// their packed A block within this percentage of the core's L3 share, so
  /// that C is re-read from L3 by each K block, not from memory
  /// ("c_strip_l3_pct"). Absent or 0: the M block is bounded by A's block
  /// alone.
  int64_t cStripL3Pct = 0;
  /// B packed, A read in place, one K block (1 thread, fp32): where M has
  /// at least this many rows and all of the packed B (K x N) fits within
  /// 60% of L2, one B block of all N columns, so that A (read once per B
  /// block) is streamed once ("whole_b_block_min_rows"). Absent or 0: B
  /// blocks of b_block_l2_share.
  int64_t wholeBBlockMinRows = 0;
  /// The least share, in percent, of a GEMM's vector instructions that
  /// computing N's remainder (N mod 16 columns) by the kernel vectorized
  /// along K instead of a mostly idle last vector must save, by the
  /// builtin advisor's estimate, before a sketch takes such an N tail
  /// ("kdot_n_tail_min_saving_pct"; #tensorop.n_tail). Absent or 0: never.
  int64_t kdotNTailMinSavingPct = 0;
  /// On one thread, fp32: the least gain, in points of 100 of the register
  /// block's score (the share of FMA slots doing useful work, N's padding
  /// counted), that reading a B in three quarters of L2 in place, in K
  /// blocks of the L1-sized kc with a tail kernel for N's remainder, must
  /// show over the packed block where the one-K-block in-place paths do
  /// not apply (K above 512, or B in more than half of L2)
  /// ("in_place_k_blocks_min_gain_pct"). Absent or 0: never.
  int64_t inPlaceKBlocksMinGainPct = 0;
  /// The largest B (bytes) the few-rows path (at most 64 rows of C) sweeps
  /// as a B that cache holds; a larger one takes the form for B from
  /// memory (short K bands, the columns prefetched two tiles ahead) even
  /// where L3 would hold it: a core that reads L3 at little more than
  /// memory's rate (Emerald Rapids' mesh L3, shared with the socket's other
  /// cores) ("few_rows_b_cached_max_bytes"). Absent or 0: L3's size.
  int64_t fewRowsBCachedMaxBytes = 0;
  /// The same bound for a team of threads, each of which reads its part
  /// of B through its own L2 ("few_rows_b_cached_max_bytes_threaded").
  /// Absent or 0: fewRowsBCachedMaxBytes.
  int64_t fewRowsBCachedMaxBytesThreaded = 0;
  /// 1: a GEMM past the small path's extents whose B stays in half of L2
  /// may read B in place (short K, K up to 512, or few rows); 0: such a B
  /// is packed, as on a CPU whose loads of B's rows in place (each row
  /// N x 4 bytes from the last, most vectors split across two cache
  /// lines) ran far behind packed panels: Emerald Rapids
  /// ("b_in_half_l2_in_place"). Absent: 1.
  int64_t bInHalfL2InPlace = 1;
  /// The most columns of C (N) that a GEMM with more than 16 rows computes
  /// with the kernel vectorized along K; more take the broadcast kernel,
  /// whose one vector then wastes 16 - N lanes ("kdot_max_columns"; Emerald
  /// Rapids 13). Absent or 0: 14, as many as that kernel's register
  /// blocks hold.
  int64_t kdotMaxColumns = 0;
  /// The largest A (bytes) that the kernel vectorized along K computes in
  /// two column passes (N = 8: A's rows read twice, 6 x 4 blocks); a
  /// larger A takes the broadcast kernel's 30-row blocks, whose many row
  /// streams keep more of A's loads in flight where A comes from L3; and
  /// an N tail of 8 columns (two passes) beside fewer than four vectors is
  /// dropped past it. Counted per thread (a team splits M)
  /// ("kdot_two_passes_max_a_bytes"; Emerald Rapids 3 MiB). Absent or 0:
  /// no bound but the one for A from memory.
  int64_t kdotTwoPassesMaxABytes = 0;
  /// The largest A (bytes) beside which an N tail computed in K-vectorized
  /// blocks of at most three rows (7-13 columns) is kept on one thread
  /// where the main part has fewer than four vectors: past it, A's second
  /// pass (from L3) costs more than the lanes the tail saves, and N is
  /// computed by the broadcast kernel alone ("kdot_n_tail_max_a_bytes";
  /// Zen 5 12 MiB). Absent or 0: no such bound.
  int64_t kdotNTailMaxABytes = 0;
  /// The most threads of a team on which the few-rows path takes
  /// fewRowsBandRows-row K bands (up to fewRowsBandMaxRows rows) for a B
  /// from memory ("few_rows_band_max_threads"; Emerald Rapids 2). Absent or
  /// 0: 1 (Zen 5's short bands lost on a team, which shares the memory
  /// bandwidth).
  int64_t fewRowsBandMaxThreads = 0;
  /// Where the few-rows path sweeps a B from memory and a band's lines in
  /// L1 (each band row's current tile, the tiles prefetched ahead and A's
  /// element) would outgrow L1, the band shrinks to this percentage of L1
  /// on one thread ("few_rows_band_l1_pct"; Emerald Rapids 33). Absent or
  /// 0: no bound.
  int64_t fewRowsBandL1Pct = 0;
  /// Where a sketch computes each column tile's row blocks in turn (micro
  /// order "nm") and prefetches the tiles ahead (prefetch_b_cols), row
  /// block b issues only the prefetches of the k steps u with
  /// u mod P = b mod P, P = min(this, the row blocks, k_unroll): the next
  /// tiles' lines are requested across all the row blocks instead of in a
  /// burst by the first, which left the memory idle while the others ran
  /// ("few_rows_prefetch_spread"; Emerald Rapids 4). Absent, 0 or 1: every
  /// row block issues all of them (ApplySketch.cpp).
  int64_t fewRowsPrefetchSpread = 0;
  /// The percentage of L2 that the packed B block (kc x nr) may take where
  /// N fits one register block's columns and A is read in place: each of
  /// A's rows is one stream per K block and C is reloaded once per K block,
  /// so K blocks take as much of L2 as this allows
  /// ("one_column_block_b_l2_pct"; 0: 1/bBlockL2Share).
  int64_t oneColumnBlockBL2Pct = 0;
  /// The fewest accumulators (rows x vectors) of the tail kernel that a
  /// register block on the small path (A and B read in place, the N
  /// remainder in a kernel of its own) may leave for N's remainder
  /// ("small_min_tail_accumulators"; 0: any).
  int64_t smallMinTailAccumulators = 0;
  /// The most rows (mr) of a register block for which the packed fp32 path
  /// on one thread keeps each packed B micro-panel (kc x nr) in L1 and
  /// runs the register blocks' loops n outside m (micro order "nm"), A's
  /// rows then coming from L2, instead of keeping the A micro-panel in L1
  /// and streaming B's panels from L2 ("b_panel_l1_max_mr"; 0: never).
  /// B's panels from L2 cost 4 * nr bytes per mr * nr FMAs: the fewer the
  /// rows, the more L2 bandwidth they need.
  int64_t bPanelL1MaxMr = 0;
  /// The most rows (M) of an fp32 GEMM on one thread whose B (K x N), in
  /// half of L2, is read in place in one K block, the N remainder in a
  /// tail kernel (the small path's form), whatever K and N, instead of
  /// being packed, in a register block of more than bPanelL1MaxMr rows
  /// ("b_in_l2_in_place_max_rows"; 0: never).
  int64_t bInL2InPlaceMaxRows = 0;
  int64_t cores = 1;
  double peakGflopsF32PerCore = 0;
  /// What forking and joining an OpenMP team costs a GEMM call, in
  /// microseconds ("threads.team_cost_us"; 0: not measured): times the
  /// core's peak, the flops a thread's share must reach before a team pays
  /// (ThreadCount.h).
  double teamCostUs = 0;
  /// The bf16 pair dot product with fp32 accumulation ("vdpbf16ps"), the
  /// CPU feature that has it ("avx512bf16") and which CPUs do; empty where
  /// the target has none (bf16 GEMMs are refused there).
  std::string bf16DotInstruction, bf16DotFeature, bf16DotCpus;
  bool hasBf16Dot() const { return !bf16DotInstruction.empty(); }
  /// The per-CPU facts of the file ("cpus"), by LLVM CPU name.
  std::map<std::string, CpuFacts> cpuFacts;

  /// target=host only (empty for a named target): the CPU it ran on, the
  /// fields taken from the machine, and what could not be (a remark each).
  std::string hostCpu;
  std::vector<HintOverlay> hostOverlay;
  std::vector<std::string> hostRemarks;

  int64_t f32Lanes() const { return vectorBits / 32; }
  /// Size in bytes of the data cache at `level`, or 0 if unknown.
  int64_t cacheBytes(int level) const;
  /// The independent accumulators a GEMM register block of `vectors`
  /// vectors needs for the peak: multiVectorAccumulatorsForPeak for two
  /// or more where set, else accumulatorsForPeak.
  int64_t blockAccumulatorsForPeak(int64_t vectors) const {
    return vectors > 1 && multiVectorAccumulatorsForPeak > 0
               ? multiVectorAccumulatorsForPeak
               : accumulatorsForPeak;
  }
  TargetAttr toAttr(MLIRContext *ctx) const;
};

/// The directory hints are read from: $TENSOROP_HINTS_DIR, else hints/ of
/// the data directory (tensorop/Support/DataDir.h: <prefix>/share/tensorop
/// next to the installed binary).
std::string defaultHintsDir();

/// Maps "host" to the best x86 target this CPU supports; other names are
/// returned unchanged. Fails if the host has no supported vector ISA.
llvm::Expected<std::string> resolveTargetName(llvm::StringRef target);

/// The hints `target` (as the user wrote it) compiles with: the named
/// target's file, or for "host" the file resolveTargetName picks with this
/// machine's caches and CPU facts put over it (HostHints.h).
llvm::Expected<TargetHints> loadHintsForTarget(llvm::StringRef target,
                                               llvm::StringRef dir = "");

/// The targets the CPU pipeline can generate code for.
llvm::ArrayRef<llvm::StringLiteral> supportedCpuTargets();

/// Targets the CPU pipeline also builds for that are variants of a
/// supported one rather than targets of their own: riscv-rvv-vlen256 (RVV
/// with VLEN >= 256), the wide half of gen's per-VLEN riscv-rvv build.
/// `tensorop gen` does not take them (its riscv-rvv object holds both).
llvm::ArrayRef<llvm::StringLiteral> cpuTargetVariants();

/// Whether the CPU pipeline takes `target` (a supported CPU target or a
/// variant; "host" is resolved before).
bool isCpuPipelineTarget(llvm::StringRef target);

/// The targets the NVIDIA pipeline can generate code for.
llvm::ArrayRef<llvm::StringLiteral> supportedGpuTargets();

/// Identifies the machine a tuning record was measured on: the target, the
/// CPU model and its family/model numbers (from /proc/cpuinfo), e.g.
/// "x86-avx512;AMD EPYC;family 26 model 2".
std::string targetFingerprint(llvm::StringRef targetName);

/// Reads and validates `<dir>/<target>.json`; an error names the file and
/// the field that is wrong.
llvm::Expected<TargetHints> loadTargetHints(llvm::StringRef target,
                                            llvm::StringRef dir = "");

/// Validates the text of a hints file for `target`; `path` names it in
/// errors. (loadTargetHints reads the file; the hints fuzzer calls this.)
llvm::Expected<TargetHints> parseTargetHints(llvm::StringRef text,
                                             llvm::StringRef target,
                                             llvm::StringRef path);

/// A hints number as the file writes it (3.3, 114.1, 220), not its binary
/// expansion (3.2999999999999998), for remarks and reports: 15 significant
/// digits, so a decimal of up to 15 digits prints back as it was written.
std::string hintNumberText(double v);

/// An optional integer field of "blocking" or "gemv", read alike at the
/// file's top level (into TargetHints) and in each "cpus" entry (into
/// CpuFacts), and put by target=host over the file's value on that CPU.
struct OptionalIntegerHint {
  const char *key; ///< e.g. "one_k_block_max_k" (under "blocking.")
  std::optional<int64_t> CpuFacts::*fact;
  int64_t TargetHints::*hint;
  int64_t min, max;
};

/// An optional boolean field of "gemv", read and put alike.
struct OptionalFlagHint {
  const char *key; ///< e.g. "bands_in_l3" (under "gemv.")
  std::optional<bool> CpuFacts::*fact;
  bool TargetHints::*hint;
};

/// Every optional field of "blocking" and of "gemv": one list each, so that
/// a field's key and range are written once for the file's reader, the
/// per-CPU reader and target=host's overlay.
llvm::ArrayRef<OptionalIntegerHint> optionalBlockingFields();
llvm::ArrayRef<OptionalIntegerHint> optionalGemvIntegers();
llvm::ArrayRef<OptionalFlagHint> optionalGemvFlags();

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_TARGETS_TARGETHINTS_H
