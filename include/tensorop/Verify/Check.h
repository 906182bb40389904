//===- Check.h - Output against an fp64 reference under the bound -*- C++ -*-===//
//
// Every operator TensorOp generates is a contraction: each output element is
// a sum of K products (GEMM: K; convolution: R*S*C). Verification is the
// same for all of them (shared/MEASURE.md): an fp64 reference R of the same
// rounded inputs, the magnitude M = sum |a||b| of the same products, and per
// element
//
//   |C - R| <= c * K * u_acc * M + u_out * |R|
//
// An operator supplies R and M (ContractionReference); the bound, the
// ratio error/bound, NaN handling and the exact test are this file's, and
// every verifier (gen, tune's worker, bench, tensorop-gpu-runner) uses them.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_CHECK_H
#define TENSOROP_VERIFY_CHECK_H

#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/Numerics.h"

#include <cstdint>
#include <string>

namespace tensorop {

/// The per-element tolerance of MEASURE.md for one contraction.
struct BoundSpec {
  double c = 2.0;              ///< the small documented constant
  int64_t contractionLength = 0; ///< K: products summed per output element
  double uAccumulate = 6e-8;   ///< unit roundoff of the accumulation
  double uOutput = 6e-8;       ///< unit roundoff of the output type

  static BoundSpec forTypes(int64_t contractionLength, ElementType accumulate,
                            ElementType output, double c = 2.0) {
    return {c, contractionLength, unitRoundoff(accumulate),
            unitRoundoff(output)};
  }
  /// The bound for an element with reference `reference` and magnitude
  /// `magnitude` (sum of |a||b| over its products).
  double operator()(double magnitude, double reference) const {
    return c * double(contractionLength) * uAccumulate * magnitude +
           uOutput * (reference < 0 ? -reference : reference);
  }
  /// The formula with its numbers, for reports: "|C - R| <= 2*K*6e-08*..."
  std::string describe() const;
};

/// The fp64 reference of a contraction, per output element (row-major, one
/// entry per element of C).
struct ContractionReference {
  DoubleArray value;     ///< R = sum a*b
  DoubleArray magnitude; ///< M = sum |a||b|
  bool ok() const { return value.ok() && magnitude.ok(); }
  size_t size() const { return value.size(); }
};

/// How one element compares: error / bound (infinite for a non-zero error
/// under a zero bound), and whether it is NaN or over the bound.
struct ElementVerdict {
  double ratio = 0;
  bool nan = false;
  bool overBound = false;
  bool ok() const { return !nan && !overBound; }
};

inline ElementVerdict judgeElement(double got, double reference,
                                   double bound) {
  ElementVerdict v;
  if (got != got) { // NaN: the kernel skipped the element or made one
    v.nan = true;
    v.ratio = __builtin_inf();
    return v;
  }
  double err = got > reference ? got - reference : reference - got;
  v.ratio = bound > 0 ? err / bound : (err > 0 ? __builtin_inf() : 0.0);
  v.overBound = !(v.ratio <= 1);
  return v;
}

/// The outcome of checking an output (or part of one; merge the parts).
struct Check {
  double maxRatio = 0; ///< max error/bound; infinite with any NaN
  int64_t overBound = 0; ///< non-NaN elements over the bound
  int64_t nans = 0;
  int64_t failures() const { return overBound + nans; }
  bool ok() const { return failures() == 0; }
  void add(const ElementVerdict &v) {
    if (v.nan)
      ++nans;
    else if (v.overBound)
      ++overBound;
    if (!(v.ratio <= maxRatio))
      maxRatio = v.ratio;
  }
  void merge(const Check &other) {
    overBound += other.overBound;
    nans += other.nans;
    if (!(other.maxRatio <= maxRatio))
      maxRatio = other.maxRatio;
  }
};

/// Checks `count` = ref.size() fp32 outputs against the reference.
Check checkOutput(const float *c, const ContractionReference &ref,
                  const BoundSpec &bound);

/// The small-integer exact test: elements whose value differs from the
/// reference rounded to `output` (NaN counts as different).
int64_t countExactMismatches(const float *c, const ContractionReference &ref,
                             ElementType output = ElementType::F32);

} // namespace tensorop

#endif // TENSOROP_VERIFY_CHECK_H
