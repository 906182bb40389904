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
};

/// Verifies and times one candidate; the result is the JSON line on stdout.
int measureCandidate(const WorkerOptions &options);

} // namespace tensorop

#endif // TENSOROP_DRIVER_WORKERDRIVER_H
