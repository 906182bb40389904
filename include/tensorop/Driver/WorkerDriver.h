//===- WorkerDriver.h - One tuning candidate, verified and timed -*- C++ -*-===//
//
// `tensorop worker` (internal): the process the CPU tuner measures each
// candidate in. It prints one JSON object on stdout.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_WORKERDRIVER_H
#define TENSOROP_DRIVER_WORKERDRIVER_H

#include <cstdint>
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
};

/// Verifies and times one candidate; the result is the JSON line on stdout.
int measureCandidate(const WorkerOptions &options);

} // namespace tensorop

#endif // TENSOROP_DRIVER_WORKERDRIVER_H
