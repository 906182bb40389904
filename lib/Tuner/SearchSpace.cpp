//===- SearchSpace.cpp - The sketch space of one GEMM on one target -------===//

#include "tensorop/Tuner/SearchSpace.h"
#include "tensorop/Advisor/SharedPackB.h"
#include "tensorop/Dialect/FusedPackB.h"
#include "tensorop/Dialect/KDotSketch.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Support/IntMath.h"
#include "tensorop/Tuner/ConvSearchSpace.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <thread>

using namespace mlir::tensorop;

namespace {
constexpr llvm::StringLiteral kOrders[] = {"mkn", "mnk", "nkm",
                                           "nmk", "kmn", "knm"};
constexpr llvm::StringLiteral kMicroOrders[] = {"mn", "nm"};
constexpr llvm::StringLiteral kBroadcasts[] = {"explicit", "embedded"};
constexpr llvm::StringLiteral kPackBs[] = {"kmajor_nr", "none", kFusedPackB};
constexpr llvm::StringLiteral kPackAs[] = {"kmajor_mr", "none"};

std::vector<int64_t> sortedUnique(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}
} // namespace

SearchSpace::~SearchSpace() = default;

llvm::StringRef GemmSearchSpace::knobName(unsigned knob) {
  static constexpr llvm::StringLiteral names[] = {
      "register_block", "kc",          "nc",       "mc",
      "loop_order",     "micro_order", "k_unroll", "broadcast",
      "prefetch_b",     "pack_b",      "pack_a",   "threads",
      "share_b",        "n_tail"};
  return knob < kNumKnobs ? names[knob] : "?";
}

GemmSearchSpace::GemmSearchSpace(const GemmProblem &problem,
                                 const TargetHints &target,
                                 const SketchChoice &defaults)
    : p(problem), t(target), defaults(defaults) {
  // The knobs below are those of the broadcast kernels (x86_gemm_fma).
  // Where the builtin chose the kernel vectorized along K (few columns),
  // the space starts from the broadcast sketch it chose before that kernel
  // existed (SkinnyGemm.cpp's few-columns form: 12 rows x one vector, A and
  // B in place, one K block), so that every candidate is legal; the
  // builtin's own sketch is what the tuner's result is compared with.
  if (this->defaults.emitter == kKDotEmitter) {
    SketchChoice &d = this->defaults;
    d.emitter = "x86_gemm_fma";
    d.broadcast = t.f32Lanes() == 16 ? "embedded" : "explicit";
    d.mr = std::min<int64_t>(12, p.m);
    d.nr = t.f32Lanes();
    d.mc = roundUp(p.m, d.mr);
    d.nc = d.nr;
    d.kc = p.k;
    d.packA = "none";
    d.packB = "none";
    d.kUnroll = 4;
    d.prefetchA = 128;
  }
  // Register blocks the target's register file holds, scored like the
  // builtin advisor (useful fraction of FMA slots); the 12 best are kept so
  // that the tree's first level stays small.
  int64_t lanes = t.f32Lanes(), regs = t.vectorRegisters;
  for (int64_t nv = 1; nv <= 4 && nv + 2 <= regs; ++nv)
    for (int64_t mr = 1; mr <= 16 && registerBlockVectorRegisters(mr, nv * lanes, lanes, t.name) <= regs; ++mr) {
      int64_t nr = nv * lanes;
      double latency =
          std::min(1.0, double(mr * nv) / double(t.accumulatorsForPeak));
      double edge = double(p.m * p.n) /
                    double(roundUp(p.m, mr) * roundUp(p.n, nr));
      blocks.push_back({mr, nr, latency * edge});
    }
  // Best score first; equal scores keep the order above (narrow nr, then
  // small mr). A total order, so std::sort: libstdc++'s stable_sort uses the
  // deprecated get_temporary_buffer.
  std::sort(blocks.begin(), blocks.end(), [](const Block &a, const Block &b) {
    if (a.score != b.score)
      return a.score > b.score;
    return std::make_pair(a.nr, a.mr) < std::make_pair(b.nr, b.mr);
  });
  if (blocks.size() > 12)
    blocks.resize(12);
  bool hasDefault = llvm::any_of(blocks, [&](const Block &b) {
    return b.mr == this->defaults.mr && b.nr == this->defaults.nr;
  });
  if (!hasDefault)
    blocks.insert(blocks.begin(), {this->defaults.mr, this->defaults.nr, 1.0});
  // Candidates are timed on this machine: more threads than it runs at once
  // would only measure time slicing.
  unsigned hw = std::thread::hardware_concurrency();
  threadLimit = std::max<int64_t>(1, std::min<int64_t>(hw ? hw : 1, t.cores));
}

std::vector<int64_t>
GemmSearchSpace::options(unsigned knob, llvm::ArrayRef<int64_t> prefix) const {
  auto block = [&] { return blocks[prefix[kRegisterBlock]]; };
  switch (knob) {
  case kRegisterBlock: {
    std::vector<int64_t> v(blocks.size());
    for (size_t i = 0; i < blocks.size(); ++i)
      v[i] = i;
    return v;
  }
  case kKc: {
    std::vector<int64_t> v;
    for (int64_t kc : {64, 128, 192, 256, 384, 512})
      v.push_back(std::min<int64_t>(kc, p.k));
    // The default, and for skinny GEMMs (few rows or columns) the bands a
    // sweep of B in place uses and all of K (C kept in registers while A
    // streams).
    v.push_back(std::min(defaults.kc, p.k));
    if (std::min(p.m, p.n) <= 40) {
      v.push_back(std::min<int64_t>(32, p.k));
      v.push_back(p.k);
    }
    return sortedUnique(v);
  }
  case kNc: {
    int64_t nr = block().nr, full = roundUp(p.n, nr);
    std::vector<int64_t> v = {full, std::min(full, roundUp(defaults.nc, nr))};
    for (int64_t f : {1, 2, 4, 8, 16, 32})
      v.push_back(std::min(full, f * nr));
    return sortedUnique(v);
  }
  case kMc: {
    int64_t mr = block().mr, full = roundUp(p.m, mr);
    std::vector<int64_t> v = {full, std::min(full, roundUp(defaults.mc, mr))};
    for (int64_t f : {4, 16, 32, 64})
      v.push_back(std::min(full, f * mr));
    return sortedUnique(v);
  }
  case kLoopOrder:
    return {0, 1, 2, 3, 4, 5};
  case kMicroOrder:
    return {0, 1};
  case kKUnroll:
    return {1, 2, 4, 8};
  case kBroadcast:
    // Embedded broadcasts exist only with 512-bit vectors.
    if (t.f32Lanes() == 16)
      return {0, 1};
    return {0};
  case kPrefetch:
    return {0, 4, 8, 16};
  case kPackB: {
    // What the SketchAttr verifier and apply-sketch accept for unpacked B
    // (on AVX2 the B mask takes one more vector register).
    int64_t lanes = t.f32Lanes();
    int64_t needed =
        registerBlockVectorRegisters(block().mr, block().nr, lanes, t.name);
    bool maskFits = lanes == 16 || needed + 1 <= t.vectorRegisters;
    bool inPlace = t.name.rfind("x86", 0) == 0 &&
                   defaults.emitter == "x86_gemm_fma" && !p.transposeB &&
                   block().nr <= 7 * lanes;
    std::vector<int64_t> v = {0};
    if (inPlace && maskFits)
      v.push_back(1);
    // The fused copy (x86_gemm_fma's store_b_panel): AVX-512, fp32.
    if (inPlace && lanes == 16 && p.input == GemmInputType::F32)
      v.push_back(2);
    return v;
  }
  case kPackA:
    // What the SketchAttr verifier and apply-sketch accept for unpacked A
    // (it needs no register beyond the block's, so any block qualifies).
    if (t.name.rfind("x86", 0) == 0 && defaults.emitter == "x86_gemm_fma" &&
        !p.transposeA)
      return {0, 1};
    return {0};
  case kThreads: {
    std::vector<int64_t> v;
    for (int64_t n = 1; n <= threadLimit; ++n)
      v.push_back(n);
    return v;
  }
  case kShareB:
    // Something to share: B packed, and more than one thread.
    if (prefix.size() > kThreads && prefix[kPackB] == 0 &&
        prefix[kThreads] > 1)
      return {0, 1};
    return {0};
  case kNTail:
    // The builtin's tail or none: its block and rows are the builtin's.
    if (defaults.nTail.columns)
      return {0, 1};
    return {0};
  }
  return {};
}

std::optional<int64_t>
GemmSearchSpace::defaultValue(unsigned knob,
                              llvm::ArrayRef<int64_t> prefix) const {
  std::optional<int64_t> want;
  switch (knob) {
  case kRegisterBlock:
    for (size_t i = 0; i < blocks.size(); ++i)
      if (blocks[i].mr == defaults.mr && blocks[i].nr == defaults.nr)
        want = i;
    break;
  case kKc:
    want = std::min(defaults.kc, p.k);
    break;
  case kNc:
    want = std::min(roundUp(p.n, blocks[prefix[0]].nr),
                    roundUp(defaults.nc, blocks[prefix[0]].nr));
    break;
  case kMc:
    want = std::min(roundUp(p.m, blocks[prefix[0]].mr),
                    roundUp(defaults.mc, blocks[prefix[0]].mr));
    break;
  case kLoopOrder:
    for (int i = 0; i < 6; ++i)
      if (kOrders[i] == defaults.loopOrder)
        want = i;
    break;
  case kMicroOrder:
    want = defaults.microOrder == "mn" ? 0 : 1;
    break;
  case kKUnroll:
    want = defaults.kUnroll;
    break;
  case kBroadcast:
    want = defaults.broadcast == "embedded" ? 1 : 0;
    break;
  case kPrefetch:
    want = defaults.prefetchB;
    break;
  case kPackB:
    want = defaults.packB == "none" ? 1 : defaults.packB == kFusedPackB ? 2 : 0;
    break;
  case kPackA:
    want = defaults.packA == "none" ? 1 : 0;
    break;
  case kThreads:
    want = defaults.threads;
    break;
  case kShareB:
    want = defaults.packB == kSharedPackB ? 1 : 0;
    break;
  case kNTail:
    want = defaults.nTail.columns ? 1 : 0;
    break;
  }
  std::vector<int64_t> opts = options(knob, prefix);
  if (want && llvm::is_contained(opts, *want))
    return want;
  return std::nullopt;
}

double GemmSearchSpace::prior(unsigned knob, llvm::ArrayRef<int64_t> prefix,
                              int64_t value) const {
  if (knob == kRegisterBlock) {
    // The advisor's own block first, so the first point of a search is
    // exactly the advisor's sketch and everything after it is measured
    // against that.
    const Block &b = blocks[value];
    if (b.mr == defaults.mr && b.nr == defaults.nr)
      return 2.0;
    return b.score;
  }
  if (knob == kThreads) {
    // All cores for GEMMs big enough that splitting them pays (at 2*10^8
    // flops, 512^3 and up, a chunk runs for milliseconds against the
    // microseconds of waking a thread team), else the default. The
    // measurement decides in between.
    double flops = 2.0 * double(p.m) * double(p.n) * double(p.k);
    int64_t preferred = flops >= 2e8 ? threadLimit : defaults.threads;
    if (value == preferred)
      return 1.0;
    return 0.9 / (1.0 + std::abs(double(value - preferred)));
  }
  std::optional<int64_t> def = defaultValue(knob, prefix);
  if (!def)
    return 0.5;
  if (value == *def)
    return 1.0;
  // Numeric knobs: nearer the default first.
  double a = std::abs(double(value)), b = std::abs(double(*def));
  return 0.9 / (1.0 + std::abs(std::log2((a + 1) / (b + 1))));
}

SketchChoice GemmSearchSpace::toChoice(llvm::ArrayRef<int64_t> v) const {
  SketchChoice c = defaults;
  const Block &b = blocks[v[kRegisterBlock]];
  c.mr = b.mr;
  c.nr = b.nr;
  c.kc = v[kKc];
  c.nc = v[kNc];
  c.mc = v[kMc];
  c.loopOrder = kOrders[v[kLoopOrder]].str();
  c.microOrder = kMicroOrders[v[kMicroOrder]].str();
  c.kUnroll = v[kKUnroll];
  c.broadcast = kBroadcasts[v[kBroadcast]].str();
  c.prefetchB = v[kPrefetch];
  c.packB = kPackBs[v[kPackB]].str();
  c.packA = kPackAs[v[kPackA]].str();
  // The builtin's row prefetches follow operands read in place (the fused
  // copy's first row tile reads B in place).
  if ((c.packB != "none" && c.packB != kFusedPackB) || c.prefetchB)
    c.prefetchBCols = 0;
  if (c.packA != "none")
    c.prefetchA = 0;
  c.threads = v[kThreads];
  if (v[kShareB])
    c.packB = kSharedPackB.str();
  // The tail's team no larger than the candidate's.
  if (v[kNTail])
    c.nTail.threads = std::min(c.nTail.threads, c.threads);
  else
    c.nTail = NTailChoice();
  c.source = "tuner";
  return c;
}

std::optional<std::vector<int64_t>>
GemmSearchSpace::toPoint(const SketchChoice &c) const {
  std::vector<int64_t> point;
  for (unsigned knob = 0; knob < kNumKnobs; ++knob) {
    for (int64_t v : options(knob, point)) {
      std::vector<int64_t> trial = point;
      trial.push_back(v);
      trial.resize(kNumKnobs, 0);
      SketchChoice probe = toChoice(trial);
      bool same = false;
      switch (knob) {
      case kRegisterBlock:
        same = probe.mr == c.mr && probe.nr == c.nr;
        break;
      case kKc:
        same = probe.kc == c.kc;
        break;
      case kNc:
        same = probe.nc == c.nc;
        break;
      case kMc:
        same = probe.mc == c.mc;
        break;
      case kLoopOrder:
        same = probe.loopOrder == c.loopOrder;
        break;
      case kMicroOrder:
        same = probe.microOrder == c.microOrder;
        break;
      case kKUnroll:
        same = probe.kUnroll == c.kUnroll;
        break;
      case kBroadcast:
        same = probe.broadcast == c.broadcast;
        break;
      case kPrefetch:
        same = probe.prefetchB == c.prefetchB;
        break;
      case kPackB:
        // (Shared or not is the share_b knob's.)
        same = probe.packB == (c.packB == kSharedPackB ? "kmajor_nr" : c.packB);
        break;
      case kPackA:
        same = probe.packA == c.packA;
        break;
      case kThreads:
        same = probe.threads == c.threads;
        break;
      case kShareB:
        same = probe.packB == c.packB;
        break;
      case kNTail:
        same = (probe.nTail.columns != 0) == (c.nTail.columns != 0);
        break;
      }
      if (same) {
        point.push_back(v);
        break;
      }
    }
    if (point.size() != knob + 1)
      return std::nullopt;
  }
  return point;
}

uint64_t GemmSearchSpace::size() const {
  // Only nc, mc and pack_b depend on the register block.
  // share_b doubles the points with packed B and more than one thread.
  uint64_t rest = options(kKc, {}).size() * 6 * 2 * 4 *
                  options(kBroadcast, {}).size() * 4 *
                  options(kPackA, {}).size() * options(kNTail, {}).size();
  uint64_t total = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    int64_t prefix[] = {int64_t(b)};
    // Packed B: one thread, or 2..threadLimit each shared or not.
    uint64_t packBPoints = 0;
    for (int64_t packB : options(kPackB, prefix))
      packBPoints += packB == 0 ? uint64_t(2 * threadLimit - 1)
                                : uint64_t(threadLimit);
    total += options(kNc, prefix).size() * options(kMc, prefix).size() *
             packBPoints;
  }
  return total * rest;
}

std::string mlir::tensorop::canonicalConfig(const SketchChoice &c) {
  std::string text =
      llvm::formatv("mc={0} nc={1} kc={2} mr={3} nr={4} loop={5} "
                    "micro={6} pack_a={7} pack_b={8} emitter={9} "
                    "k_unroll={10} broadcast={11} prefetch_b={12}",
                    c.mc, c.nc, c.kc, c.mr, c.nr, c.loopOrder, c.microOrder,
                    c.packA, c.packB, c.emitter, c.kUnroll, c.broadcast,
                    c.prefetchB)
          .str();
  // Like threads, the row prefetches only where set: earlier configs keep
  // their text and hash.
  if (c.prefetchBCols)
    text += " prefetch_b_cols=" + std::to_string(c.prefetchBCols);
  if (c.prefetchA)
    text += " prefetch_a=" + std::to_string(c.prefetchA);
  if (c.threads != 1)
    text += " threads=" + std::to_string(c.threads);
  if (c.nTail.columns)
    text += llvm::formatv(" n_tail={0} block={1}x{2} k_unroll={3} "
                          "prefetch_a={4} threads={5}",
                          c.nTail.columns, c.nTail.mr, c.nTail.nr,
                          c.nTail.kUnroll, c.nTail.prefetchA, c.nTail.threads)
                .str();
  return text;
}

std::string mlir::tensorop::configHash(const SketchChoice &c) {
  std::string text = canonicalConfig(c);
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true)
      .substr(0, 16);
}

std::optional<std::string>
mlir::tensorop::configHashOfText(MLIRContext *ctx, llvm::StringRef config) {
  // A parse error of a damaged row is reported by the caller, not here.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  Attribute parsed = parseAttribute(config, ctx);
  if (auto attr = llvm::dyn_cast_or_null<SketchAttr>(parsed))
    return configHash(SketchChoice::fromAttr(attr));
  // CPU convolutions' rows (the same database, keyed by convSignature).
  if (auto attr = llvm::dyn_cast_or_null<ConvSketchAttr>(parsed))
    return convConfigHash(ConvSketchChoice::fromAttr(attr));
  return std::nullopt;
}

std::string GemmSearchSpace::valueLabel(unsigned knob,
                                        llvm::ArrayRef<int64_t> prefix,
                                        int64_t value) const {
  switch (knob) {
  case kRegisterBlock:
    return value >= 0 && size_t(value) < blocks.size()
               ? llvm::formatv("{0}x{1}", blocks[value].mr, blocks[value].nr)
                     .str()
               : "?";
  case kLoopOrder:
    return value >= 0 && value < 6 ? kOrders[value].str() : "?";
  case kMicroOrder:
    return value >= 0 && value < 2 ? kMicroOrders[value].str() : "?";
  case kBroadcast:
    return value >= 0 && value < 2 ? kBroadcasts[value].str() : "?";
  case kPackB:
    return value >= 0 && value < 3 ? kPackBs[value].str() : "?";
  case kPackA:
    return value >= 0 && value < 2 ? kPackAs[value].str() : "?";
  default:
    return std::to_string(value);
  }
}
