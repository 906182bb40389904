//===- Timing.h - Interleaved timing and machine facts ----------*- C++ -*-===//
//
// shared/MEASURE.md: ours and the baselines run alternately in one process
// (A B A B ...), at least five rounds after warm-up; report the median and
// the best; reject a timing faster than the machine's peak.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_TIMING_H
#define TENSOROP_VERIFY_TIMING_H

#include <functional>
#include <string>
#include <vector>

namespace tensorop {

/// Measured fp32 FMA peak of one core in GFLOP/s (12 independent zmm FMA
/// chains, or ymm without AVX-512); 0 where unknown.
double measureFmaPeakGflops();

/// Whether a best rate of `bestGflops` is still faster than the FMA peak of
/// `threads` cores after measuring that peak three more times. `peak` (the
/// one measured before timing, already times `threads`) is raised to the
/// highest reading. On this shared machine a peak measured while other
/// work ran read 100 GFLOP/s where the core does about 270, which made a
/// correct kernel look impossible; a rate above a re-measured peak is a
/// timing bug, not a record (MEASURE.md), and stays a rejection.
bool fasterThanRemeasuredPeak(double bestGflops, double &peak,
                              unsigned threads);

/// Seconds per call of `fn`, one sample per round, alternating two
/// functions A B A B ... so both see the same machine state.
struct TimingSamples {
  std::vector<double> a, b;
};
TimingSamples timeAlternating(const std::function<void()> &fa,
                              const std::function<void()> &fb, int rounds,
                              double minRoundSeconds);

/// Seconds per call of each function, one sample per round, in turn, the
/// order rotated by one each round (f0 f1 f2, f1 f2 f0, f2 f0 f1, ...).
/// With `settleSeconds` > 0, sleeps that long (untimed) before each
/// function's batch: multithreaded libraries keep their workers spinning
/// for a while after returning (libomp 200 ms, OpenBLAS about 0.1 s),
/// which would otherwise steal cores from the next side.
std::vector<std::vector<double>>
timeRoundRobin(const std::vector<std::function<void()>> &fns, int rounds,
               double minRoundSeconds, double settleSeconds = 0);

double median(std::vector<double> v);
double minimum(const std::vector<double> &v);

/// Facts about this machine for benchmark records.
std::string cpuModelName();
std::string cpuFamilyModel();

} // namespace tensorop

#endif // TENSOROP_VERIFY_TIMING_H
