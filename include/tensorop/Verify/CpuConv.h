//===- CpuConv.h - Verify and time an fp32 convolution on this CPU -*- C++ -*-===//
//
// The CPU side of shared/MEASURE.md for conv2d (NHWC input, HWCF filter,
// NHWC output, zero padding inside the kernel): the fp64 reference of the
// same rounded inputs (im2col of one image at a time + OpenBLAS dgemm, for
// the values R and the magnitudes M = sum |x||w|), the bound over the
// contraction of length R*S*C, and the whole protocol of one kernel against
// oneDNN's convolution primitive (source and destination NHWC, weights in
// oneDNN's preferred layout, reordered once outside the timing). Used by
// `tensorop gen` and `tensorop bench --conv`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_CPUCONV_H
#define TENSOROP_VERIFY_CPUCONV_H

#include "tensorop/Advisor/ConvShape.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/Check.h"

#include <cstdint>
#include <string>

namespace tensorop {

/// The fp64 reference of one convolution with MEASURE.md's bound (c = 2,
/// fp32 accumulation and output, K = R*S*C). `ok()` is false when the
/// memory for it is not there.
struct ConvReference {
  ContractionReference values;
  BoundSpec bound;
  bool ok() const { return values.ok(); }
};
ConvReference computeConvReference(const float *input, const float *filter,
                                   const Conv2DShape &shape);

/// Host bytes compareConvWithOneDNN needs at most, saturating; and the
/// up-front refusal of a shape over TENSOROP_MAX_BUFFER_MB.
uint64_t convVerificationBytes(const Conv2DShape &shape);
std::string checkConvBufferBudget(const Conv2DShape &shape);

/// Whether the small-integer test is exact for this shape: every partial
/// sum of R*S*C products of integers in [-4, 4] fits fp32's 24 bits.
bool convExactTestApplies(const Conv2DShape &shape);

using ConvFn = void (*)(const float *input, const float *filter,
                        float *output);

/// A convolution's entries with the filter packed once (gen's
/// NAME_packed_filter_size, NAME_pack_filter, NAME_prepacked): what a
/// framework calls when it loads a model, and per inference.
struct ConvPrepackedEntries {
  size_t (*packedSize)() = nullptr;
  void (*pack)(const float *filter, float *packed) = nullptr;
  void (*run)(const float *input, const float *packed, float *output) =
      nullptr;
  bool complete() const { return packedSize && pack && run; }
};

/// Everything MEASURE.md asks of one convolution against oneDNN.
struct ConvComparison {
  std::string error;  ///< why nothing could be checked
  Check before;       ///< ours, random inputs, before timing
  Check after;        ///< ours, on the buffer the timed runs wrote
  /// Small-integer inputs: elements != exact (-1 when the test does not
  /// apply, see convExactTestApplies).
  int64_t exactMismatches = -1;
  /// Canaries before the output intact and no write past its end (a
  /// PROT_NONE page follows it, so such a write faults).
  bool guardsIntact = true;
  bool timed = false;
  double oursMedian = 0, oursBest = 0; ///< GFLOP/s
  /// oneDNN's convolution primitive, verified and timed in the same rounds.
  bool haveOneDNN = false;
  std::string onednnImplementation; ///< e.g. "brgconv:avx512_core"
  Check onednn;
  double onednnMedian = 0, onednnBest = 0;
  /// A second kernel of ours (single-threaded next to a threaded one).
  bool haveSecond = false;
  Check second;
  double secondMedian = 0, secondBest = 0;
  /// The prepacked entry: the filter packed (outside any timing) into a
  /// NaN-prefilled buffer, then NAME_prepacked on its own guarded,
  /// NaN-filled output; checked like `fn` (exact test included), timed in
  /// the same rounds, checked again after.
  bool havePrepacked = false;
  Check prepackedBefore, prepackedAfter;
  int64_t prepackedExactMismatches = -1;
  bool prepackedGuardsIntact = true;
  double prepackedMedian = 0, prepackedBest = 0;
  /// Median seconds of one NAME_pack_filter call (timed after the rounds).
  double packSeconds = 0;
  size_t packedBytes = 0;
  bool prepackedVerified() const {
    return havePrepacked && prepackedBefore.ok() &&
           prepackedExactMismatches <= 0 && prepackedGuardsIntact &&
           (!timed || prepackedAfter.ok());
  }
  bool fasterThanPeak = false;
  bool verified() const {
    return error.empty() && before.ok() && exactMismatches <= 0 &&
           guardsIntact && (!timed || after.ok()) &&
           (!haveSecond || second.ok()) &&
           (!havePrepacked || prepackedVerified());
  }
};

/// Verifies `fn` (guarded NaN-filled output, fp64 reference, small-integer
/// exact test) and, if `time` and it verified, times it round robin with
/// oneDNN's convolution (and `second`), then verifies again. `peak`
/// (GFLOP/s of the threads used, 0 = unknown) rejects impossible timings;
/// `settleSeconds` as in timeRoundRobin. `prepacked` (if given) is
/// checked and timed beside `fn` (ConvComparison::havePrepacked). Without
/// `withOneDNN` ours (and `second`) are timed alone (the tuner's workers: the baseline would
/// double each candidate's time and is the same for all of them).
ConvComparison compareConvWithOneDNN(ConvFn fn, const Conv2DShape &shape,
                                     uint64_t seed, bool time, int rounds,
                                     double roundSeconds, double peak,
                                     ConvFn second = nullptr,
                                     double settleSeconds = 0,
                                     bool withOneDNN = true,
                                     const ConvPrepackedEntries *prepacked =
                                         nullptr);

/// The bound as reports print it, with this shape's K.
std::string describeConvBound(const Conv2DShape &shape);

} // namespace tensorop

#endif // TENSOROP_VERIFY_CPUCONV_H
