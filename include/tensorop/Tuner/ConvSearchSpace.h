//===- ConvSearchSpace.h - The sketch space of one CPU convolution -*- C++
//-*-===//
//
// Every knob of a #tensorop.conv_sketch as a sequence of decisions for the
// tuner's tree: register block (mr x nr), channel block, whether the input
// is packed, taps per microkernel call, whether the filter is packed, loop
// order, and the microkernel variants (k unroll, broadcast, B prefetch
// distance), last the number of threads. The points are exactly
// convSearchSpace's choices (lib/Advisor/ConvAdvisor.cpp, which keeps each
// knob's options to what the target and the convolution allow) on 1 up to
// the cores, the builtin choice added where the enumeration lacks it (its
// L2-fitted channel block), so the options of a knob depend on the knobs
// before it (taps "row" only with the input read in place, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TUNER_CONVSEARCHSPACE_H
#define TENSOROP_TUNER_CONVSEARCHSPACE_H

#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Tuner/SearchSpace.h"

#include <array>

namespace mlir::tensorop {

class ConvSearchSpace : public SearchSpace {
public:
  enum Knob : unsigned {
    kRegisterBlock, ///< mr * 1000 + nr
    kChannelBlock,  ///< cb
    kPackInput,     ///< 0 "kmajor_mr", 1 "none"
    kTaps,          ///< 0 "one", 1 "row", 2 "window"
    kPackFilter,    ///< 0 "kmajor_nr", 1 "none"
    kLoopOrder,     ///< 0 "pf", 1 "fp", 2 "fcp"
    kKUnroll,
    kBroadcast, ///< 0 "explicit", 1 "embedded"
    kPrefetch,  ///< prefetch_b
    kThreads,
    kNumKnobs
  };
  using Point = std::array<int64_t, kNumKnobs>;

  /// `defaults` is the builtin choice (its threads the starting count).
  ConvSearchSpace(const ConvProblem &problem, const TargetHints &target,
                  const ConvSketchChoice &defaults);

  static llvm::StringRef knobName(unsigned knob);
  unsigned numKnobs() const override { return kNumKnobs; }
  std::vector<int64_t> options(unsigned knob,
                               llvm::ArrayRef<int64_t> prefix) const override;
  /// The builtin advisor's block score for register blocks, nearness to
  /// the builtin choice for the rest.
  double prior(unsigned knob, llvm::ArrayRef<int64_t> prefix,
               int64_t value) const override;
  std::optional<int64_t>
  defaultValue(unsigned knob, llvm::ArrayRef<int64_t> prefix) const override;
  std::string knobLabel(unsigned knob) const override {
    return knobName(knob).str();
  }
  std::string valueLabel(unsigned knob, llvm::ArrayRef<int64_t> prefix,
                         int64_t value) const override;

  /// The sketch of a complete point.
  ConvSketchChoice toChoice(llvm::ArrayRef<int64_t> point) const;
  /// The point of a choice (nullopt if the choice is outside the space).
  std::optional<std::vector<int64_t>> toPoint(const ConvSketchChoice &c) const;
  uint64_t size() const { return points.size(); }
  /// Largest thread count offered: this machine's hardware threads, capped
  /// at the target's cores.
  int64_t maxThreads() const { return threadLimit; }

private:
  /// The encoded point of `c` (every string knob one of its known values).
  std::optional<Point> encode(const ConvSketchChoice &c) const;

  ConvProblem p;
  TargetHints t;
  ConvSketchChoice defaults;
  Point defaultPoint{};
  /// Every point, sorted and unique: a knob's options after a prefix are
  /// the distinct values in the range of points that start with it.
  std::vector<Point> points;
  int64_t threadLimit = 1;
};

/// Canonical text of a convolution sketch's knobs (no provenance) and its
/// hash: the identity of a candidate in the tuning database. Starts with
/// "conv " so that it never equals a GEMM sketch's text.
std::string canonicalConvConfig(const ConvSketchChoice &c);
std::string convConfigHash(const ConvSketchChoice &c);

} // namespace mlir::tensorop

#endif
