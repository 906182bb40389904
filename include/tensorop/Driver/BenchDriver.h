//===- BenchDriver.h - tensorop bench: ours against OpenBLAS ----*- C++ -*-===//

#ifndef TENSOROP_DRIVER_BENCHDRIVER_H
#define TENSOROP_DRIVER_BENCHDRIVER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tensorop {

struct BenchOptions {
  /// N or MxNxK (with `conv`: convolution requests); empty = the default set
  std::vector<std::string> shapes;
  bool conv = false;          ///< convolutions against oneDNN (ConvBench.cpp)
  std::string target = "host";
  std::string advisor = "builtin";
  int rounds = 7;             ///< timed rounds per side (>= 5)
  double roundSeconds = 0.15; ///< minimum length of one timed round
  unsigned seed = 42;
  std::string sketch;         ///< a #tensorop.sketch for every shape
  std::string tunedDb;        ///< also time this database's sketches
  unsigned threads = 1;
  /// Default shapes: the shape-class set (BenchShapes.h) instead of the
  /// square/irregular table.
  bool classes = false;
  /// The fp32 FMA peak of one core in GFLOP/s; 0 = measure it.
  double peakGflops = 0;
  std::string jsonOut, markdownOut; ///< result files ("" = none)
};

/// Runs `tensorop bench` through the target's Backend; returns the exit
/// status.
int benchmark(const BenchOptions &options);
/// CpuBackend::bench: our kernels against OpenBLAS (and oneDNN) sgemm, side
/// by side in this process.
int benchmarkOnCpu(const BenchOptions &options);

/// `tensorop bench --conv`: convolution layers (ResNet-50 at N=1 and N=8
/// and odd shapes by default) against oneDNN's convolution primitive.
int benchmarkConv(const BenchOptions &options);

/// The target bench times on: "host" resolved, checked to run on this
/// machine (bench JITs and runs kernels in its own process). Unknown
/// targets, NVIDIA targets and cross targets (RVV, NEON) are errors that
/// say so, before the FMA peak is measured.
llvm::Expected<std::string> resolveBenchTarget(llvm::StringRef target);

} // namespace tensorop

#endif // TENSOROP_DRIVER_BENCHDRIVER_H
