//===- TuneKnobs.h - Search spaces constrained by transform.tune.knob -*- C++ -*-===//
//
// Users say which values the tuner may try in upstream MLIR's own syntax for
// tunables: `transform.tune.knob` ops (the Transform dialect's tune
// extension) named after the space's knobs, e.g.
//
//   %kc = transform.tune.knob<"kc"> options = [128, 256] -> !transform.param<i64>
//   %o  = transform.tune.knob<"loop_order"> = "nmk" from options = ["nmk", "mkn"]
//             -> !transform.any_param
//
// A knob's `options` restrict the tree to those values; a `selected` value
// fixes the knob. The tuner can also print its space in this form (with the
// builtin advisor's values selected) as a starting point.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TUNER_TUNEKNOBS_H
#define TENSOROP_TUNER_TUNEKNOBS_H

#include "tensorop/Tuner/SearchSpace.h"

#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace mlir::tensorop {

/// One transform.tune.knob: the values allowed (a selected value allows
/// only itself), as the space writes them (valueLabel).
struct KnobConstraint {
  std::string name;
  std::set<std::string> allowed;
  std::string where; ///< "file:line:col" of the op, for messages
};

/// Reads every transform.tune.knob in an MLIR file.
llvm::Expected<std::vector<KnobConstraint>> readTuneKnobs(llvm::StringRef path);

/// One knob fixed to one value, written "NAME=VALUE" (tune's --fix):
/// the constraint a `selected` value in a knobs file makes. Fails on text
/// without a name or a value.
llvm::Expected<KnobConstraint> parseFixedKnob(llvm::StringRef text);

/// A space whose options are those of `inner` that the constraints allow.
class ConstrainedSpace : public SearchSpace {
public:
  /// Fails if a constraint names no knob of `inner`; no constraints: the
  /// space as it is.
  static llvm::Expected<std::unique_ptr<ConstrainedSpace>>
  create(const SearchSpace &inner, const std::vector<KnobConstraint> &knobs);

  unsigned numKnobs() const override { return inner.numKnobs(); }
  std::vector<int64_t> options(unsigned knob,
                               llvm::ArrayRef<int64_t> prefix) const override;
  double prior(unsigned knob, llvm::ArrayRef<int64_t> prefix,
               int64_t value) const override {
    return inner.prior(knob, prefix, value);
  }
  std::optional<int64_t>
  defaultValue(unsigned knob, llvm::ArrayRef<int64_t> prefix) const override;
  std::string knobLabel(unsigned knob) const override {
    return inner.knobLabel(knob);
  }
  std::string valueLabel(unsigned knob, llvm::ArrayRef<int64_t> prefix,
                         int64_t value) const override {
    return inner.valueLabel(knob, prefix, value);
  }

private:
  explicit ConstrainedSpace(const SearchSpace &inner) : inner(inner) {}
  const SearchSpace &inner;
  std::map<unsigned, std::set<std::string>> allowed;
};

/// The space as transform.tune.knob ops inside a transform.named_sequence,
/// each with the options it has after the knobs before it take `point`'s
/// values, and `point`'s value selected.
std::string printTuneKnobs(const SearchSpace &space,
                           llvm::ArrayRef<int64_t> point,
                           llvm::StringRef title);

} // namespace mlir::tensorop

#endif
