//===- ConvSearchSpace.cpp - The sketch space of one CPU convolution ------===//

#include "tensorop/Tuner/ConvSearchSpace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <thread>

using namespace mlir::tensorop;

namespace {
constexpr llvm::StringLiteral kPackInputs[] = {"kmajor_mr", "none"};
constexpr llvm::StringLiteral kTapKinds[] = {"one", "row", "window"};
constexpr llvm::StringLiteral kPackFilters[] = {"kmajor_nr", "none"};
constexpr llvm::StringLiteral kOrders[] = {"pf", "fp", "fcp"};
constexpr llvm::StringLiteral kBroadcasts[] = {"explicit", "embedded"};
/// Register blocks the tree's first level offers (the best by the builtin's
/// score, and the builtin's own), as for GEMMs: a small budget then still
/// goes below the first level.
constexpr size_t kMaxBlocks = 12;

template <size_t N>
std::optional<int64_t> indexOf(const llvm::StringLiteral (&names)[N],
                               llvm::StringRef value) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == value)
      return int64_t(i);
  return std::nullopt;
}

template <size_t N>
std::string nameAt(const llvm::StringLiteral (&names)[N], int64_t i) {
  return i >= 0 && size_t(i) < N ? names[i].str() : "?";
}

/// Whether `point` starts with the first `n` values of `prefix`.
int comparePrefix(const ConvSearchSpace::Point &point,
                  llvm::ArrayRef<int64_t> prefix, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (point[i] != prefix[i])
      return point[i] < prefix[i] ? -1 : 1;
  return 0;
}
} // namespace

llvm::StringRef ConvSearchSpace::knobName(unsigned knob) {
  static constexpr llvm::StringLiteral names[] = {
      "register_block", "cb",       "pack_input", "taps",       "pack_filter",
      "loop_order",     "k_unroll", "broadcast",  "prefetch_b", "threads"};
  return knob < kNumKnobs ? names[knob] : "?";
}

std::optional<ConvSearchSpace::Point>
ConvSearchSpace::encode(const ConvSketchChoice &c) const {
  std::optional<int64_t> packInput = indexOf(kPackInputs, c.packInput),
                         taps = indexOf(kTapKinds, c.taps),
                         packFilter = indexOf(kPackFilters, c.packFilter),
                         order = indexOf(kOrders, c.loopOrder),
                         broadcast = indexOf(kBroadcasts, c.broadcast);
  if (!packInput || !taps || !packFilter || !order || !broadcast ||
      c.emitter != defaults.emitter || c.nr >= 1000)
    return std::nullopt;
  return Point{c.mr * 1000 + c.nr, c.cb,     *packInput, *taps,
               *packFilter,        *order,   c.kUnroll,  *broadcast,
               c.prefetchB,        c.threads};
}

ConvSearchSpace::ConvSearchSpace(const ConvProblem &problem,
                                 const TargetHints &target,
                                 const ConvSketchChoice &builtin)
    : p(problem), t(target), defaults(builtin) {
  // Candidates are timed on this machine: more threads than it runs at
  // once would only measure time slicing.
  unsigned hw = std::thread::hardware_concurrency();
  threadLimit = std::max<int64_t>(1, std::min<int64_t>(hw ? hw : 1, t.cores));
  std::vector<ConvSketchChoice> choices = convSearchSpace(p, t, 1);

  // The register blocks kept: best score first, narrow blocks first among
  // equals; the builtin's always.
  std::map<std::pair<int64_t, int64_t>, double> scores;
  for (const ConvSketchChoice &c : choices)
    scores.emplace(std::make_pair(c.mr, c.nr),
                   convRegisterBlockScore(p, t, c.mr, c.nr));
  std::vector<std::pair<std::pair<int64_t, int64_t>, double>> ranked(
      scores.begin(), scores.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto &a, const auto &b) {
    if (a.second != b.second)
      return a.second > b.second;
    return std::make_pair(a.first.second, a.first.first) <
           std::make_pair(b.first.second, b.first.first);
  });
  std::set<std::pair<int64_t, int64_t>> kept = {{defaults.mr, defaults.nr}};
  for (size_t i = 0; i < ranked.size() && kept.size() < kMaxBlocks; ++i)
    kept.insert(ranked[i].first);

  for (const ConvSketchChoice &c : choices) {
    if (!kept.count({c.mr, c.nr}))
      continue;
    std::optional<Point> point = encode(c);
    if (!point)
      continue;
    for (int64_t n = 1; n <= threadLimit; ++n) {
      (*point)[kThreads] = n;
      points.push_back(*point);
    }
  }
  // The builtin's choice is a point even where the enumeration lacks it
  // (a channel block fitted to L2 for loop order "fcp").
  ConvSketchChoice start = defaults;
  start.threads = std::clamp<int64_t>(start.threads, 1, threadLimit);
  if (std::optional<Point> point = encode(start)) {
    defaultPoint = *point;
    points.push_back(*point);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
}

std::vector<int64_t>
ConvSearchSpace::options(unsigned knob, llvm::ArrayRef<int64_t> prefix) const {
  std::vector<int64_t> out;
  if (knob >= kNumKnobs || prefix.size() < knob)
    return out;
  auto lo =
      std::partition_point(points.begin(), points.end(), [&](const Point &pt) {
        return comparePrefix(pt, prefix, knob) < 0;
      });
  auto hi = std::partition_point(lo, points.end(), [&](const Point &pt) {
    return comparePrefix(pt, prefix, knob) == 0;
  });
  // Points in [lo, hi) are sorted by this knob next: one value per run.
  for (auto it = lo; it != hi;) {
    int64_t v = (*it)[knob];
    out.push_back(v);
    it = std::partition_point(it, hi,
                              [&](const Point &pt) { return pt[knob] == v; });
  }
  return out;
}

std::optional<int64_t>
ConvSearchSpace::defaultValue(unsigned knob,
                              llvm::ArrayRef<int64_t> prefix) const {
  if (knob >= kNumKnobs)
    return std::nullopt;
  int64_t want = defaultPoint[knob];
  if (llvm::is_contained(options(knob, prefix), want))
    return want;
  return std::nullopt;
}

double ConvSearchSpace::prior(unsigned knob, llvm::ArrayRef<int64_t> prefix,
                              int64_t value) const {
  if (knob == kRegisterBlock) {
    // The builtin's block first, so the first point of a search is exactly
    // the builtin sketch.
    if (value == defaultPoint[kRegisterBlock])
      return 2.0;
    return convRegisterBlockScore(p, t, value / 1000, value % 1000);
  }
  std::optional<int64_t> def = defaultValue(knob, prefix);
  if (!def)
    return 0.5;
  if (value == *def)
    return 1.0;
  switch (knob) {
  case kChannelBlock:
  case kKUnroll:
  case kPrefetch:
  case kThreads: {
    // Numeric knobs: nearer the default first.
    double a = std::abs(double(value)), b = std::abs(double(*def));
    return 0.9 / (1.0 + std::abs(std::log2((a + 1) / (b + 1))));
  }
  default:
    return 0.5;
  }
}

std::string ConvSearchSpace::valueLabel(unsigned knob, llvm::ArrayRef<int64_t>,
                                        int64_t value) const {
  switch (knob) {
  case kRegisterBlock:
    return llvm::formatv("{0}x{1}", value / 1000, value % 1000).str();
  case kPackInput:
    return nameAt(kPackInputs, value);
  case kTaps:
    return nameAt(kTapKinds, value);
  case kPackFilter:
    return nameAt(kPackFilters, value);
  case kLoopOrder:
    return nameAt(kOrders, value);
  case kBroadcast:
    return nameAt(kBroadcasts, value);
  default:
    return std::to_string(value);
  }
}

ConvSketchChoice ConvSearchSpace::toChoice(llvm::ArrayRef<int64_t> v) const {
  ConvSketchChoice c = defaults;
  c.mr = v[kRegisterBlock] / 1000;
  c.nr = v[kRegisterBlock] % 1000;
  c.cb = v[kChannelBlock];
  c.packInput = nameAt(kPackInputs, v[kPackInput]);
  c.taps = nameAt(kTapKinds, v[kTaps]);
  c.packFilter = nameAt(kPackFilters, v[kPackFilter]);
  c.loopOrder = nameAt(kOrders, v[kLoopOrder]);
  c.kUnroll = v[kKUnroll];
  c.broadcast = nameAt(kBroadcasts, v[kBroadcast]);
  c.prefetchB = v[kPrefetch];
  c.threads = v[kThreads];
  c.source = "tuner";
  return c;
}

std::optional<std::vector<int64_t>>
ConvSearchSpace::toPoint(const ConvSketchChoice &c) const {
  std::optional<Point> point = encode(c);
  if (!point || !std::binary_search(points.begin(), points.end(), *point))
    return std::nullopt;
  return std::vector<int64_t>(point->begin(), point->end());
}

std::string mlir::tensorop::canonicalConvConfig(const ConvSketchChoice &c) {
  return llvm::formatv("conv mr={0} nr={1} cb={2} taps={3} loop={4} "
                       "pack_input={5} pack_filter={6} emitter={7} "
                       "k_unroll={8} broadcast={9} prefetch_b={10} "
                       "threads={11}",
                       c.mr, c.nr, c.cb, c.taps, c.loopOrder, c.packInput,
                       c.packFilter, c.emitter, c.kUnroll, c.broadcast,
                       c.prefetchB, c.threads)
      .str();
}

std::string mlir::tensorop::convConfigHash(const ConvSketchChoice &c) {
  std::string text = canonicalConvConfig(c);
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(text)),
                     /*LowerCase=*/true)
      .substr(0, 16);
}
