//===- ConvAdvisor.cpp - Builtin choice and knobs of a conv sketch --------===//
//
// A convolution run the brgemm way is a sequence of small GEMMs (one per
// filter tap and channel block) into one register block of output pixels x
// output channels. The block is chosen as for a GEMM (fill the register
// file, share each broadcast among several FMAs) but scored by the work
// wasted on the edges of the output row (OW) and of the channels (F),
// which, unlike a GEMM's M, cannot be made up by the next row.
//
//===----------------------------------------------------------------------===//

#include "EmitterFamily.h"
#include "Tiling.h"

#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/UKernelRequest.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include <algorithm>
#include <numeric>
#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tensorop;

namespace {

bool readsInPlace(const TargetHints &t) {
  return llvm::StringRef(t.name).starts_with("x86");
}

/// Channels one call reduces over: all of them up to 512 (the A rows of a
/// block, mr x 512 floats, still fit L1), else balanced blocks.
/// Input channels below which the builtin advisor reduces a block's whole
/// filter window in one call (taps = "window").
constexpr int64_t kWindowMaxChannels = 16;

/// The most pixels a register block may read in place from input rows
/// `strideBytes` apart without the rows evicting each other from L1: rows
/// whose distance is a multiple of the L1 way size (4 KB on Zen 4 and Zen
/// 5: 1024 channels, or 512 at stride 2) all fall into one set, and once a
/// block has more rows than the set has ways every k step misses L1. The
/// rows' lines are touched on every k step, the filter panel's stream
/// through: one way is left for that stream. Measured on Zen 5 (12 ways;
/// 1 thread, loaded machine, ratio to oneDNN in the same process): 14x14
/// 1x1 1024>256 read in place at mr = 14, 0.66-0.79x; at mr = 7,
/// 0.95-0.99x. On Zen 4 (8 ways; two sketches and oneDNN in one process,
/// thread CPU time, loaded: bench/conv/sketch_pair_ab.sh,
/// docs/benchmarks/cpu-conv.md "L1 ways and in-place rows"): 7 rows in one
/// set against 2-4 rows (the limit "ways - 4" gave) 1.06-1.09x on 28x28
/// 1x1/2 512>1024 (N=8: 1.18x), equal on 14x14 1x1/2 1024>2048 and 3x3/2
/// 512>512; 14 rows in one set 0.62-0.77x; 14 rows in two sets against 4
/// on 56x56 1x1/2 256>512 1.06-1.09x. 0: no limit.
constexpr int64_t kL1AliasSpareWays = 1;
int64_t l1AliasRowLimit(const TargetHints &t, int64_t strideBytes) {
  int64_t l1 = t.cacheBytes(1);
  int64_t ways = 0;
  for (const CacheLevel &level : t.caches)
    if (level.level == 1)
      ways = level.ways;
  if (!l1 || ways <= kL1AliasSpareWays || strideBytes <= 0)
    return 0;
  int64_t waySize = l1 / ways;
  // The rows' starts fall into waySize / gcd(stride, waySize) different
  // sets; from a few dozen on they spread out.
  int64_t sets = waySize / std::gcd(strideBytes, waySize);
  if (sets >= 32)
    return 0;
  return sets * (ways - kL1AliasSpareWays);
}

int64_t channelBlock(int64_t c) {
  if (c <= kConvMaxChannelBlock)
    return c;
  return ceilDiv(c, ceilDiv(c, kConvMaxChannelBlock));
}

/// Whether a block of nv vectors per row broadcasts A from memory in the
/// FMA (AVX-512's m32{1to16}) rather than into a register first.
bool embeddedBroadcast(const TargetHints &t, int64_t nv) {
  return nv < t.minFmasPerBroadcast && t.embeddedBroadcast;
}
} // namespace

double mlir::tensorop::convRegisterBlockScore(const ConvProblem &p,
                                              const TargetHints &t, int64_t mr,
                                              int64_t nr) {
  int64_t lanes = t.f32Lanes();
  int64_t nv = nr / lanes;
  int64_t acc = mr * nv;
  int64_t ow = p.outW();
  // Twice the GEMM kernels' chains where the target measured nothing for
  // convolutions (Zen 4); Zen 5's GEMM figure (12) doubled lost on every
  // layer whose block it changed (fma.conv_accumulators_for_peak).
  int64_t chains = t.convAccumulatorsForPeak ? t.convAccumulatorsForPeak
                                             : 2 * t.accumulatorsForPeak;
  double latency =
      std::min(1.0, double(acc) / double(std::max<int64_t>(1, chains)));
  double broadcast =
      (nv >= t.minFmasPerBroadcast || embeddedBroadcast(t, nv)) ? 1.0 : 0.75;
  // Pixels and channels computed for nothing at the row's and the
  // channels' edges.
  double edge = double(ow) * double(p.f) /
                (double(roundUp(ow, mr)) * double(roundUp(p.f, nr)));
  return std::round(latency * broadcast * edge * 100) / 100;
}

ConvSketchAttr ConvSketchChoice::toAttr(MLIRContext *ctx,
                                        const TargetHints &target,
                                        std::string &error) const {
  auto emitToLoc = [&]() { return mlir::emitError(UnknownLoc::get(ctx)); };
  llvm::function_ref<InFlightDiagnostic()> emit = emitToLoc;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    error = diag.str();
    return success();
  });
  UKernelSpecAttr ukernel = UKernelSpecAttr::getChecked(
      emit, ctx, llvm::StringRef(emitter), kUnroll, llvm::StringRef(broadcast),
      prefetchB, /*prefetchBCols=*/int64_t{0}, /*prefetchA=*/int64_t{0});
  if (!ukernel)
    return {};
  return ConvSketchAttr::getChecked(
      emit, ctx, mr, nr, cb, llvm::StringRef(taps), llvm::StringRef(loopOrder),
      llvm::StringRef(packInput), llvm::StringRef(packFilter), ukernel,
      target.toAttr(ctx), llvm::StringRef(source), threads,
      /*epilogue=*/EpilogueAttr());
}

ConvSketchChoice ConvSketchChoice::fromAttr(ConvSketchAttr a) {
  ConvSketchChoice c;
  c.mr = a.getMr();
  c.nr = a.getNr();
  c.cb = a.getCb();
  c.taps = a.getTaps().str();
  c.loopOrder = a.getLoopOrder().str();
  c.packInput = a.getPackInput().str();
  c.packFilter = a.getPackFilter().str();
  UKernelSpecAttr uk = a.getUkernel();
  c.emitter = uk.getEmitter().str();
  c.kUnroll = uk.getKUnroll();
  c.broadcast = uk.getBroadcast().str();
  c.prefetchB = uk.getPrefetchB();
  c.source = a.getSource().str();
  c.threads = a.getThreads();
  return c;
}

int64_t mlir::tensorop::convPackGroupPanels(const ConvProblem &p,
                                            int64_t nr) {
  // Packing one panel at a time reads nr floats (128 bytes at nr = 32) out
  // of every filter row of F floats (2-8 KB apart): two lines per 4 KB page
  // or fewer, all in a few L2 sets, which the hardware prefetchers barely
  // follow. Reading 512 bytes per row (several panels) runs the pack at
  // the speed of a sequential copy (bench/conv/pack_filter_bench.c, 1
  // thread, thread CPU time, loaded machine: 9.4 MB of 3x3 512>512 filter
  // 0.216 ms one panel at a time, 0.190 ms two, 0.182 ms four, a plain
  // copy 0.186 ms; 8.4 MB of 1x1 1024>2048 0.217 -> 0.171 ms), and in the
  // layer it saves more than that (N=1 res5 3x3 0.80x -> 0.85x oneDNN,
  // 1x1/2 1024>2048 0.70x -> 0.83x, bench/conv/sketch_ab.sh, thread CPU
  // time, loaded). That pays where the pack is a large share of the call:
  // each filter element is used by N*OH*OW pixels, so at 49 (ResNet-50
  // res5 at N=1) the pack is about a fifth of it, at 196 a twentieth. The
  // group's blocks share the buffer, so the advisor's channel block
  // shrinks with the group, and at 196 pixels the extra passes over the
  // output cost more than the pack saves (N=1 28x28 3x3/2 256>256: 0.93x
  // -> 0.89x oneDNN).
  constexpr int64_t kPackRowBytes = 512;
  constexpr int64_t kGroupMaxPixels = 128;
  if (p.n * p.outH() * p.outW() > kGroupMaxPixels)
    return 1;
  int64_t panels = ceilDiv(p.f, nr);
  return std::clamp<int64_t>(kPackRowBytes / (4 * nr), 1, panels);
}

int64_t mlir::tensorop::convStripBlockRows(const ConvProblem &p) {
  // Filling the strip with each output row's R input rows copies every
  // input row R/SH times: at ResNet-50's conv1 (7x7/2, 224x224x3) 7 rows
  // of 2.7 KB per output row. At 2 threads that cost a quarter of the
  // layer (not at 1): N=1 0.73-0.74x oneDNN; with the copy removed from
  // the lowered code (wrong results, timing only) or on an input padded
  // beforehand 0.98-0.99x. Per block of B output rows the strip copies
  // SH*(B-1) + DH*(R-1) + 1 rows: with a strip of at most 32 KB (B = 3)
  // 0.84x, 64 KB (B = 9) 0.93-0.94x, 128 KB (B = 20) 0.96x (quiet,
  // bench/conv/sketch_ab.sh's harness, same process as oneDNN).
  constexpr int64_t kStripBytes = 128 * 1024;
  int64_t span = p.dilationH * (p.r - 1) + 1;
  int64_t rowBytes = (p.w + p.padLeft + p.padRight) * p.c * 4;
  int64_t rows = kStripBytes / rowBytes;
  if (rows <= span)
    return 1;
  int64_t block = std::min((rows - span) / p.strideH + 1, p.outH());
  // Compare copies per output row: SH*(B-1) + span over B against R.
  if (block <= 1 || p.strideH * (block - 1) + span >= block * p.r)
    return 1;
  return block;
}

std::string mlir::tensorop::convSignature(const ConvProblem &p) {
  auto s = [](int64_t v) { return std::to_string(v); };
  return "conv2d f32 n=" + s(p.n) + " h=" + s(p.h) + " w=" + s(p.w) +
         " c=" + s(p.c) + " f=" + s(p.f) + " r=" + s(p.r) + " s=" + s(p.s) +
         " stride=" + s(p.strideH) + "x" + s(p.strideW) +
         " dil=" + s(p.dilationH) + "x" + s(p.dilationW) + " pad=" +
         s(p.padTop) + "," + s(p.padBottom) + "," + s(p.padLeft) + "," +
         s(p.padRight);
}

llvm::Expected<ConvSketchChoice>
mlir::tensorop::builtinConvChoice(const ConvProblem &p, const TargetHints &t) {
  ConvSketchChoice c;
  c.source = "builtin";
  int64_t lanes = t.f32Lanes();
  int64_t regs = t.vectorRegisters;
  double bestScore = -1;
  int64_t bestAcc = 0;
  // In-place input rows SW*C floats apart: no more of them per block than
  // L1's ways hold (l1AliasRowLimit).
  int64_t mrLimit = 16;
  if (readsInPlace(t))
    if (int64_t rows = l1AliasRowLimit(t, 4 * p.strideW * p.c))
      mrLimit = std::min(mrLimit, rows);
  for (int64_t nv = 1; nv <= 4 && nv + 2 <= regs; ++nv) {
    for (int64_t mr = 1;
         mr <= mrLimit &&
         registerBlockVectorRegisters(mr, nv * lanes, lanes, t.name) <= regs;
         ++mr) {
      int64_t nr = nv * lanes;
      int64_t acc = mr * nv;
      double score = convRegisterBlockScore(p, t, mr, nr);
      bool wider = nr > c.nr;
      if (score > bestScore ||
          (score == bestScore &&
           (acc > bestAcc || (acc == bestAcc && wider)))) {
        bestScore = score;
        bestAcc = acc;
        c.mr = mr;
        c.nr = nr;
        c.broadcast = embeddedBroadcast(t, nv) ? "embedded" : "explicit";
      }
    }
  }
  if (bestScore < 0)
    return llvm::createStringError("target " + t.name +
                                   " has too few vector registers");
  c.cb = channelBlock(p.c);
  c.emitter = emitterForIsa(t.isa);
  bool inPlace = readsInPlace(t);
  c.packInput = inPlace ? "none" : "kmajor_mr";
  c.taps = inPlace && p.s > 1 ? "row" : "one";
  // The filter read in place (x86: masked loads at the F edge) saves a
  // pass over all R*S*C*F of it on every call, which on a small layer
  // (14x14x64, 3x3: 2*14*14 FLOPs per filter element) is a large share of
  // the work; a row of taps walks on through the filter only where one
  // channel block covers C (the next tap lies C rows on).
  int64_t nv = c.nr / lanes;
  bool maskRegister =
      lanes == 16 || registerBlockVectorRegisters(c.mr, c.nr, lanes, t.name) +
                             1 <=
                         regs;
  bool rowsWalk = c.taps != "row" || c.cb >= p.c;
  c.packFilter =
      inPlace && nv <= 7 && maskRegister && rowsWalk ? "none" : "kmajor_nr";
  // A filter that does not stay in (half of) L2 would be read from L3 once
  // per output row ("pf"), or once per row of each panel ("fp": R*S*C*nr,
  // 1.2 MB for 3x3 512>512 at nr = 32, still past L2). Loop order "fcp"
  // puts the channel blocks outside the rows too, and packs each (panel,
  // channel block) in the loop nest into an L2-resident buffer of
  // R*S*cb*nr, so all output rows pass over it while it stays in L2, and
  // every filter element is read from memory once. The pack in place of
  // an in-place read costs one copy of the filter, which the rows repay:
  // in-place rows lie F*4 bytes apart (2-8 KB at F = 512-2048) and share
  // a few L2 sets. Measured (1 thread, loaded machine, ratios to oneDNN
  // side by side): 3x3 512>512 on 7x7 0.39 -> 0.77, 1x1/2 1024>2048 on
  // 14x14 0.40 -> 0.83, 3x3/2 512>512 0.42 -> 0.81; at N=8 0.55 -> 0.94
  // and 0.59 -> 1.03; 3x3 256>256 on 14x14 0.73 -> 0.85.
  //
  // But "fcp" reads the input once per panel. Where the packed filter,
  // the input rows of one output row and that output row fit in 3/4 of
  // L2, "pf" with the filter packed once reads it from L2 on every row
  // and the input once, which wins where the input is large: N=8 56x56
  // 3x3/2 128>128 (589 KB filter, 12.8 MB input read 4 times by "fcp")
  // 0.82x -> 1.00-1.08x oneDNN; 3x3 128>128 on 28x28 at N=1 and N=8 and
  // 56x56/2 at N=1 within 2% either way (1 thread, thread CPU time, same
  // process as oneDNN, loaded machine).
  double filterBytes = 4.0 * p.r * p.s * p.c * roundUp(p.f, c.nr);
  int64_t l2 = t.cacheBytes(2) ? t.cacheBytes(2) : (1 << 20);
  double rowBytes =
      4.0 * p.c * p.w * p.r + 4.0 * p.outW() * roundUp(p.f, c.nr);
  bool packedFilterStaysInL2 = filterBytes + rowBytes <= 0.75 * l2;
  c.loopOrder = "pf";
  if (filterBytes > l2 / 2 && inPlace && packedFilterStaysInL2) {
    c.packFilter = "kmajor_nr";
  } else if (filterBytes > l2 / 2) {
    c.loopOrder = "fcp";
    c.packFilter = "kmajor_nr";
    // Channel blocks whose packed block (of convPackGroupPanels panels)
    // takes at most half of L2.
    int64_t group = convPackGroupPanels(p, c.nr);
    int64_t fitting =
        std::max<int64_t>(1, (l2 / 2) / (4 * p.r * p.s * c.nr * group));
    if (c.cb > fitting)
      c.cb = ceilDiv(p.c, ceilDiv(p.c, fitting));
  }
  // Few input channels: a row of taps reduces over only S*C (21 at conv1's
  // 7x7x3, 9 at 3x3x3), so loading and storing the block once per filter
  // row and a K loop of C steps per tap cost as much as the FMAs. taps =
  // "window" makes the whole window one call: K = S*C per filter row (the
  // row's taps are consecutive floats where dilation along W is 1), the R
  // rows as the kernel's taps.
  if (c.taps == "row" && p.dilationW == 1 && c.cb >= p.c &&
      p.c < kWindowMaxChannels)
    c.taps = "window";
  // A window call reduces over only R*S*C k-steps, each feeding a block of
  // mr broadcasts x nv vectors: where four vectors cover F without waste
  // (F a multiple of 64 on AVX-512), the 6x64 block (4 FMAs per broadcast)
  // beats 14x32 (2) although 6 pixels do not divide OW: measured in one
  // process by thread CPU time (loaded machine) at 1.24-1.27x on 224x224
  // 3x3 3>64, 1.04x on conv1 7x7/2 3>64, 1.02-1.03x on 112x112 5x5/2 3>64
  // and 56x56 3x3 8>64. (Blocks narrower than F's vectors were not better
  // on these; F = 17 or 33 is another matter, left to tuning.) Only with
  // 32 registers: on AVX2 four vectors leave room for 2 rows.
  if (c.taps == "window" && regs >= 32) {
    int64_t wide = 4 * lanes;
    int64_t mr = 1;
    while (mr < 16 &&
           registerBlockVectorRegisters(mr + 1, wide, lanes, t.name) <= regs)
      ++mr;
    if (p.f % wide == 0 && wide > c.nr && mr >= 4) {
      c.mr = mr;
      c.nr = wide;
      c.broadcast = embeddedBroadcast(t, 4) ? "embedded" : "explicit";
    }
  }
  c.kUnroll = 4;
  c.prefetchB = 0;
  return c;
}

std::vector<ConvSketchChoice>
mlir::tensorop::convSearchSpace(const ConvProblem &p, const TargetHints &t,
                                int64_t threads) {
  std::vector<ConvSketchChoice> out;
  int64_t lanes = t.f32Lanes();
  int64_t regs = t.vectorRegisters;
  bool x86 = readsInPlace(t);
  std::vector<int64_t> cbs = {channelBlock(p.c)};
  for (int64_t cb : {64, 128, 256})
    if (cb < p.c && !llvm::is_contained(cbs, cb))
      cbs.push_back(cb);
  for (int64_t nv = 1; nv <= 4; ++nv)
    for (int64_t mr = 1; mr <= 16; ++mr) {
      int64_t nr = nv * lanes;
      int64_t need = registerBlockVectorRegisters(mr, nr, lanes, t.name);
      if (need > regs)
        break;
      for (int64_t cb : cbs)
        for (const char *packInput : {"none", "kmajor_mr"})
          for (const char *taps : {"one", "row", "window"})
            for (const char *packFilter : {"kmajor_nr", "none"})
              for (const char *order : {"pf", "fp", "fcp"})
                for (int64_t ku : {1, 2, 4, 8})
                  for (const char *bc : {"explicit", "embedded"})
                    for (int64_t prefetchB : {0, 8}) {
                      llvm::StringRef pi = packInput, tp = taps,
                                      pf = packFilter;
                      if (!x86 && (pi == "none" || tp != "one" || pf == "none"))
                        continue;
                      if (tp == "row" && (pi != "none" || p.s == 1))
                        continue;
                      if (tp == "window" &&
                          (pi != "none" || p.dilationW != 1 || cb < p.c))
                        continue;
                      if (pf == "none" &&
                          (nv > 7 || (lanes != 16 && need + 1 > regs)))
                        continue;
                      if (llvm::StringRef(bc) == "embedded" && lanes != 16)
                        continue;
                      ConvSketchChoice c;
                      c.mr = mr;
                      c.nr = nr;
                      c.cb = cb;
                      c.taps = taps;
                      c.loopOrder = order;
                      c.packInput = packInput;
                      c.packFilter = packFilter;
                      c.emitter = emitterForIsa(t.isa);
                      c.kUnroll = ku;
                      c.broadcast = bc;
                      c.prefetchB = prefetchB;
                      c.source = "tune";
                      c.threads = threads;
                      out.push_back(c);
                    }
    }
  return out;
}

EmitterRequest mlir::tensorop::convUKernelEmitterRequest(
    ConvSketchAttr sketch, const TargetHints &hints, int64_t ldaBytes,
    int64_t ldbBytes, int64_t taps, int64_t tapABytes,
    llvm::StringRef emitterDir, unsigned timeoutSeconds) {
  EmitterRequest request = ukernelEmitterRequest(
      sketch.getUkernel(), sketch.getTarget(), sketch.getMr(), sketch.getNr(),
      hints, ldaBytes, ldbBytes, emitterDir, timeoutSeconds);
  if (taps > 1) {
    request.spec["taps"] = taps;
    request.spec["tap_a_bytes"] = tapABytes;
  }
  return request;
}
