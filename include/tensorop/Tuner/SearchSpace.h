//===- SearchSpace.h - The sketch space of one GEMM on one target -*- C++ -*-===//
//
// Every knob of a CPU GEMM sketch (register block, kc, nc, mc, the two loop
// orders, and the microkernel variants its emitter offers: k unroll, how A is
// broadcast, B prefetch distance, whether B and A are packed, and last the
// number of threads) as a
// sequence of decisions; the options of
// a knob may depend on earlier ones (nc is a multiple of nr). Illegal points
// never appear: options are drawn from what the target allows and every
// complete point passes the SketchAttr verifier.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TUNER_SEARCHSPACE_H
#define TENSOROP_TUNER_SEARCHSPACE_H

#include "tensorop/Advisor/Advisor.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::tensorop {

/// What the tree search needs of a space: a fixed sequence of knobs whose
/// options may depend on the values of the knobs before them, the advisor's
/// preference among options, and its default for each knob.
class SearchSpace {
public:
  virtual ~SearchSpace();
  virtual unsigned numKnobs() const = 0;
  /// Options of `knob` once the knobs before it are fixed to `prefix`.
  virtual std::vector<int64_t> options(unsigned knob,
                                       llvm::ArrayRef<int64_t> prefix) const = 0;
  /// The advisor's preference for an option (higher first).
  virtual double prior(unsigned knob, llvm::ArrayRef<int64_t> prefix,
                       int64_t value) const = 0;
  /// The default's value of `knob`, if it is among the options.
  virtual std::optional<int64_t>
  defaultValue(unsigned knob, llvm::ArrayRef<int64_t> prefix) const = 0;
  /// The knob's name as users write it (a transform.tune.knob's name).
  virtual std::string knobLabel(unsigned knob) const = 0;
  /// An option as users write it ("128", "mkn", "6x64").
  virtual std::string valueLabel(unsigned knob, llvm::ArrayRef<int64_t> prefix,
                                 int64_t value) const = 0;
};

class GemmSearchSpace : public SearchSpace {
public:
  enum Knob : unsigned {
    kRegisterBlock,
    kKc,
    kNc,
    kMc,
    kLoopOrder,
    kMicroOrder,
    kKUnroll,
    kBroadcast,
    kPrefetch,
    /// "kmajor_nr" or "none" (B read in place), where the target, the
    /// emitter and the GEMM allow it. Configs keep their hashes: the
    /// canonical text always had pack_b.
    kPackB,
    /// "kmajor_mr" or "none" (A read in place), where the target, the
    /// emitter and the GEMM allow it. After pack_b, so that pack_b keeps its
    /// position; configs keep their hashes (the canonical text always had
    /// pack_a).
    kPackA,
    /// Last, so that points and configs of single-threaded sketches keep
    /// their meaning (and database hashes) from before the knob existed.
    kThreads,
    /// With threads > 1 and pack_b "kmajor_nr": 1 shares each packed B
    /// block among the threads (pack_b "kmajor_nr_shared"). After threads,
    /// which it depends on; unshared configs keep their text and hashes.
    kShareB,
    /// Where the builtin gave the GEMM an N tail vectorized along K
    /// (#tensorop.n_tail): 1 keeps it, 0 leaves N's remainder to the
    /// broadcast kernel; elsewhere only 0. Last: configs without a tail
    /// keep their text and hashes.
    kNTail,
    kNumKnobs
  };

  GemmSearchSpace(const GemmProblem &problem, const TargetHints &target,
                  const SketchChoice &defaults);

  static llvm::StringRef knobName(unsigned knob);
  unsigned numKnobs() const override { return kNumKnobs; }
  std::vector<int64_t> options(unsigned knob,
                               llvm::ArrayRef<int64_t> prefix) const override;
  /// The analytical model for register blocks, closeness to the default for
  /// the rest.
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
  SketchChoice toChoice(llvm::ArrayRef<int64_t> point) const;
  /// The point of a choice (nullopt if the choice is outside the space).
  std::optional<std::vector<int64_t>> toPoint(const SketchChoice &c) const;
  /// Number of complete points (an upper bound when options depend on
  /// earlier knobs is not needed: it is exact, computed by enumeration).
  uint64_t size() const;

  /// Largest thread count offered: this machine's hardware threads, capped
  /// at the target's core count (hints `cores`).
  int64_t maxThreads() const { return threadLimit; }

  const GemmProblem &problem() const { return p; }
  const TargetHints &target() const { return t; }

private:
  struct Block {
    int64_t mr, nr;
    double score;
  };
  GemmProblem p;
  TargetHints t;
  SketchChoice defaults;
  std::vector<Block> blocks;
  int64_t threadLimit = 1;
};

/// Canonical text of the knobs of a choice (no provenance) and its hash:
/// the identity of a candidate in the tuning database. `threads` appears
/// only when it is not 1, so single-threaded candidates keep the hashes
/// they had before the knob existed.
std::string canonicalConfig(const SketchChoice &c);
std::string configHash(const SketchChoice &c);
/// Recomputes the config hash of a tuning-database row holding a
/// #tensorop.sketch or a #tensorop.conv_sketch (convConfigHash) (for
/// TuningDB::setConfigHasher).
std::optional<std::string> configHashOfText(MLIRContext *ctx,
                                            llvm::StringRef config);

} // namespace mlir::tensorop

#endif
