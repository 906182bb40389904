//===- ConvDirect.h - A convolution's fp64 reference by its definition -*- C++ -*-===//
//
// The fp64 reference of a 2-D convolution (NHWC input, HWCF filter, NHWF
// output) computed element by element from the definition, with the
// magnitudes the MEASURE.md bound scales with, and the check of an output
// against it that names the first bad elements by (n, y, x, f). The
// per-element sum is tools/tensorop/harness/conv_reference.h's, the one
// shared fp64 convolution reference of the C harnesses; this file runs it
// on several threads. Needs no BLAS (unlike CpuConv.h's im2col + dgemm
// reference), so tensorop-gpu-runner links it on the GPU machine.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_CONVDIRECT_H
#define TENSOROP_VERIFY_CONVDIRECT_H

#include "tensorop/Advisor/ConvShape.h"
#include "tensorop/Verify/Check.h"

#include <cstdint>
#include <vector>

namespace tensorop {

/// R = sum x*w and M = sum |x*w| of every output element (NHWF order) of
/// `input` (NHWC) and `filter` (HWCF), on up to `threads` threads. Not ok()
/// when the memory is not there.
ContractionReference computeConvReferenceDirect(const float *input,
                                                const float *filter,
                                                const Conv2DShape &shape,
                                                unsigned threads);

/// One bad output element.
struct ConvFailure {
  int64_t n = 0, y = 0, x = 0, f = 0;
  double got = 0, want = 0;
};

/// An output checked against the reference: under the bound (`check`), or
/// for the small-integer test equal to the reference rounded to the output
/// type (`exactMismatches`; NaN counts); the first failures by coordinate.
struct ConvOutputCheck {
  Check check;
  int64_t exactMismatches = 0;
  double relativeFrobenius = 0; ///< ||out - R|| / ||R|| (bound test only)
  std::vector<ConvFailure> firstFailures;
  bool ok(bool exact) const {
    return exact ? exactMismatches == 0 && check.nans == 0 : check.ok();
  }
};

/// Checks the NHWF output `out` (values widened to float) against `ref`:
/// every element under `bound`, or (`exact`) equal to the reference rounded
/// to `output`. Keeps at most `keepFailures` failures.
ConvOutputCheck checkConvOutput(const float *out,
                                const ContractionReference &ref,
                                const BoundSpec &bound,
                                const Conv2DShape &shape, bool exact,
                                ElementType output, size_t keepFailures = 8);

} // namespace tensorop

#endif // TENSOROP_VERIFY_CONVDIRECT_H
