//===- WorkerDriver.h - One tuning candidate, verified and timed -*- C++ -*-===//
//
// `tensorop worker` (internal): the process the CPU tuner measures each
// candidate in. It prints one JSON object on stdout.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_WORKERDRIVER_H
#define TENSOROP_DRIVER_WORKERDRIVER_H

#include "tensorop/Advisor/ConvShape.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tensorop {

struct WorkerOptions {
  std::string object, symbol; ///< the candidate's object file and kernel
  int64_t m = 0, n = 0, k = 0;
  unsigned seed = 42;
  int rounds = 5;
  double roundSeconds = 0.05;
  /// Started inside the sandbox (KernelSandbox.h): its parent is the
  /// sandbox's init, which dies with the caller.
  bool sandboxed = false;
  /// gen's protocol instead of the tuner's: compareWithOpenBLAS (timed
  /// against OpenBLAS when `time`), its whole result as JSON.
  bool compare = false;
  bool time = false;
  double peak = 0;
  unsigned threads = 1;
  double settleSeconds = 0;
  /// A convolution candidate (`void(const float *input, const float
  /// *filter, float *output)`) of this shape instead of a GEMM: verified
  /// by the convolution checks (lib/Verify/CpuConv.h), timed alone, or
  /// round robin with oneDNN's convolution when `convBaseline`.
  std::optional<Conv2DShape> conv;
  bool convBaseline = false;
};

/// The worker's --conv value of a shape: N,H,W,C,F,R,S, strides (H, W),
/// dilations (H, W), padding (top, bottom, left, right), comma-separated;
/// and back (nullopt: malformed).
std::string convShapeArgument(const Conv2DShape &shape);
std::optional<Conv2DShape> parseConvShapeArgument(const std::string &text);

/// Verifies and times one candidate; the result is the JSON line on stdout.
int measureCandidate(const WorkerOptions &options);

} // namespace tensorop

#endif // TENSOROP_DRIVER_WORKERDRIVER_H
