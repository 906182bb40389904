//===- GenDriver.h - tensorop gen: a verified kernel from one line -*- C++ -*-===//
//
// The library behind `tensorop gen`: the tool fills GenOptions from its
// command line and calls generateKernel.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_GENDRIVER_H
#define TENSOROP_DRIVER_GENDRIVER_H

#include "tensorop/Advisor/ThreadCount.h"

#include <string>

namespace tensorop {

struct GenOptions {
  std::string request;              ///< the one-line request
  std::string outDir;               ///< -o DIR
  std::string advisor = "builtin";  ///< builtin, llm, replay:DIR
  std::string target;               ///< overrides the request's ("" = keep)
  std::string name;                 ///< kernel name ("" = the default)
  std::string db;                   ///< tuning database ("" = none)
  bool noBench = false;             ///< verify but do not time
  /// fp32 FMA peak of one core in GFLOP/s (0: measured at start). A best
  /// sample above the peak is a warning for a shipped emitter's kernel
  /// (the peak measurement was slowed) and a failure for a model-written one.
  double peakGflops = 0;
  bool parseOnly = false;           ///< print the parsed request and stop
  bool allowUnsandboxed = false;    ///< run model-written emitters unsandboxed
  unsigned seed = 42;               ///< seed of the verification inputs
  unsigned threads = 1;             ///< threads of the CPU kernel
  /// Fewer threads for GEMMs whose share per thread is below this (0: off).
  /// -1: the target's (kTargetMinFlopsPerThread).
  int64_t minFlopsPerThread = mlir::tensorop::kTargetMinFlopsPerThread;
};

/// Runs `tensorop gen`: progress on stdout, errors on stderr; returns the
/// exit status (0 verified or not runnable here, 1 failed verification, 2
/// a user error).
int generateKernel(const GenOptions &options);

} // namespace tensorop

#endif // TENSOROP_DRIVER_GENDRIVER_H
