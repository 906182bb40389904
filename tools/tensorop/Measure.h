//===- Measure.h - Verification and timing per shared/MEASURE.md -*- C++ -*-===//

#ifndef TENSOROP_TOOLS_MEASURE_H
#define TENSOROP_TOOLS_MEASURE_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tensorop {

/// 64-byte aligned float buffer.
struct AlignedBuffer {
  explicit AlignedBuffer(size_t n);
  ~AlignedBuffer();
  AlignedBuffer(const AlignedBuffer &) = delete;
  float *data = nullptr;
  size_t size = 0;
};

/// Fills with seeded pseudo-random values in [-1, 1) (negative included).
void fillRandom(float *x, size_t n, uint64_t seed);

/// The fp64 reference of row-major C = A*B from the same fp32 inputs, and
/// the per-element bound 2*K*u*(|A||B|) + u*|R| of MEASURE.md.
struct Reference {
  std::vector<double> r, bound;
};
Reference computeReference(const float *a, const float *b, int64_t m,
                           int64_t n, int64_t k);

struct Check {
  double maxRatio = 0; ///< max |C - R| / bound; NaN counts as infinite.
  int64_t failures = 0;
  bool ok() const { return failures == 0; }
};
Check checkResult(const float *c, const Reference &ref);

/// Measured fp32 FMA peak of one core in GFLOP/s (12 independent zmm FMA
/// chains, or ymm without AVX-512).
double measureFmaPeakGflops();

/// Seconds per call of `fn`, one sample per round, alternating two
/// functions A B A B ... so both see the same machine state.
struct TimingSamples {
  std::vector<double> a, b;
};
TimingSamples timeAlternating(const std::function<void()> &fa,
                              const std::function<void()> &fb, int rounds,
                              double minRoundSeconds);

/// Seconds per call of each function, one sample per round, in turn
/// (f0 f1 f2 f0 f1 f2 ...). With `settleSeconds` > 0, sleeps that long
/// (untimed) before each function's batch: multithreaded libraries keep
/// their workers spinning for a while after returning (libomp 200 ms,
/// OpenBLAS about 0.1 s), which would otherwise steal cores from the next
/// side.
std::vector<std::vector<double>>
timeRoundRobin(const std::vector<std::function<void()>> &fns, int rounds,
               double minRoundSeconds, double settleSeconds = 0);

double median(std::vector<double> v);
double minimum(const std::vector<double> &v);

/// A warning when OPENBLAS_CORETYPE pins OpenBLAS to a kernel family (so
/// the baseline may be weaker than OpenBLAS's best here); "" otherwise.
std::string openblasCoreWarning();

/// Facts about this machine for benchmark records.
std::string cpuModelName();
std::string cpuFamilyModel();

} // namespace tensorop

namespace tensorop {
using GemmFn = void (*)(const float *A, const float *B, float *C);

/// Everything MEASURE.md asks of one kernel against OpenBLAS sgemm.
struct GemmComparison {
  Check before;      ///< Ours, random inputs, before timing.
  Check after;       ///< Ours, on the buffers the timed runs wrote.
  Check blas;        ///< OpenBLAS, same inputs, same bound.
  int64_t exactMismatches = -1; ///< Small-integer inputs: elements != exact.
  bool timed = false;
  double oursMedian = 0, oursBest = 0, blasMedian = 0, blasBest = 0; ///< GFLOP/s
  /// oneDNN dnnl_sgemm, timed in the same rounds when built with oneDNN.
  bool haveOneDNN = false;
  Check onednn;
  double onednnMedian = 0, onednnBest = 0;
  /// A second kernel of ours (the single-threaded one next to a threaded
  /// `fn`), verified and timed in the same rounds.
  bool haveSecond = false;
  Check second;
  double secondMedian = 0, secondBest = 0;
  bool fasterThanPeak = false;
  bool verified() const {
    return before.ok() && exactMismatches == 0 && (!timed || after.ok()) &&
           (!haveSecond || second.ok());
  }
};

/// `threads` threads for OpenBLAS and oneDNN (OpenMP).
void setBaselineThreads(int threads);
/// One thread for OpenBLAS and oneDNN.
void singleThreadedBaselines();

/// Whether this build links oneDNN (the strongest CPU library here, per
/// shared/MEASURE.md), and its version.
bool haveOneDNN();
std::string oneDNNVersion();

/// Verifies `fn` (NaN-filled output, fp64 reference, small-integer exact
/// test) and, if `time` and it verified, times it alternately with
/// cblas_sgemm and verifies again. `peak` (GFLOP/s of all the threads used,
/// 0 = unknown) rejects impossible timings. A non-null `second` is verified
/// and timed in the same rounds; `settleSeconds` as in timeRoundRobin.
GemmComparison compareWithOpenBLAS(GemmFn fn, int64_t m, int64_t n, int64_t k,
                                   uint64_t seed, bool time, int rounds,
                                   double roundSeconds, double peak,
                                   GemmFn second = nullptr,
                                   double settleSeconds = 0);
} // namespace tensorop
#endif
