//===- CpuGemm.h - Verify and time an fp32 GEMM on this CPU -----*- C++ -*-===//
//
// The CPU side of shared/MEASURE.md for GEMM: the fp64 reference through
// OpenBLAS dgemm, the whole protocol of one kernel against OpenBLAS sgemm
// (and oneDNN when built with it), and the baseline libraries' settings.
// Used by `tensorop gen`, `tune` (its worker), and `bench`.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_CPUGEMM_H
#define TENSOROP_VERIFY_CPUGEMM_H

#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/Check.h"
#include "tensorop/Verify/Timing.h"

#include <cstdint>
#include <string>

namespace tensorop {

/// The fp64 reference of row-major C = A*B (M x K times K x N) from the same
/// fp32 inputs, with the bound of MEASURE.md (c = 2, u = fp32's for both the
/// accumulation and the output). `values.ok()` is false when the memory for
/// it is not there.
struct GemmReference {
  ContractionReference values;
  BoundSpec bound;
  bool ok() const { return values.ok(); }
};
GemmReference computeReference(const float *a, const float *b, int64_t m,
                               int64_t n, int64_t k);

inline Check checkResult(const float *c, const GemmReference &ref) {
  return checkOutput(c, ref.values, ref.bound);
}

/// Host bytes compareWithOpenBLAS needs for one M x N x K problem at most
/// (inputs, five outputs, the reference and its fp64 input copies),
/// saturating; and the up-front refusal of a request over the limit.
uint64_t gemmVerificationBytes(int64_t m, int64_t n, int64_t k);
inline std::string checkGemmBufferBudget(int64_t m, int64_t n, int64_t k) {
  return checkBufferBudget(gemmVerificationBytes(m, n, k),
                           "verifying a " + std::to_string(m) + "x" +
                               std::to_string(n) + "x" + std::to_string(k) +
                               " fp32 GEMM");
}

using GemmFn = void (*)(const float *A, const float *B, float *C);

/// Everything MEASURE.md asks of one kernel against OpenBLAS sgemm.
struct GemmComparison {
  /// Why nothing could be checked (e.g. a buffer could not be allocated).
  std::string error;
  Check before; ///< Ours, random inputs, before timing.
  Check after;  ///< Ours, on the buffers the timed runs wrote.
  Check blas;   ///< OpenBLAS, same inputs, same bound.
  int64_t exactMismatches = -1; ///< Small-integer inputs: elements != exact.
  bool timed = false;
  double oursMedian = 0, oursBest = 0, blasMedian = 0, blasBest = 0; ///< GFLOP/s
  /// oneDNN dnnl_sgemm, timed in the same rounds when built with oneDNN.
  bool haveOneDNN = false;
  Check onednn;
  double onednnMedian = 0, onednnBest = 0;
  /// libxsmm's JIT kernel (libxsmm_smmdispatch), timed in the same rounds
  /// when built with libxsmm and asked for (setLibxsmmBaseline), at one
  /// thread, for shapes it makes a kernel for.
  bool haveLibxsmm = false;
  Check libxsmm;
  double libxsmmMedian = 0, libxsmmBest = 0;
  /// A second kernel of ours (the single-threaded one next to a threaded
  /// `fn`), verified and timed in the same rounds.
  bool haveSecond = false;
  Check second;
  double secondMedian = 0, secondBest = 0;
  bool fasterThanPeak = false;
  bool verified() const {
    return error.empty() && before.ok() && exactMismatches == 0 &&
           (!timed || after.ok()) && (!haveSecond || second.ok());
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

/// Whether this build links libxsmm (small-GEMM JIT baseline), and its
/// version.
bool haveLibxsmm();
std::string libxsmmVersion();
/// Whether compareWithOpenBLAS times libxsmm too (off by default; bench
/// turns it on).
void setLibxsmmBaseline(bool on);

/// A warning when OPENBLAS_CORETYPE pins OpenBLAS to a kernel family (so
/// the baseline may be weaker than OpenBLAS's best here); "" otherwise.
std::string openblasCoreWarning();

/// OpenBLAS's row-major sgemm C = A*B, the CPU baseline.
void blasSgemm(const float *a, const float *b, float *c, int64_t m, int64_t n,
               int64_t k);

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

#endif // TENSOROP_VERIFY_CPUGEMM_H
