//===- CpuGemm.cpp - Verify and time an fp32 GEMM on this CPU -------------===//

#include "tensorop/Verify/CpuGemm.h"

#include <cblas.h>
#ifdef TENSOROP_HAVE_DNNL
#include <dnnl.h>
#endif
#ifdef TENSOROP_HAVE_LIBXSMM
#include <libxsmm.h>
#endif

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <vector>

using namespace tensorop;

GemmReference tensorop::computeReference(const float *a, const float *b,
                                         int64_t m, int64_t n, int64_t k) {
  GemmReference ref;
  ref.bound = BoundSpec::forTypes(k, ElementType::F32, ElementType::F32);
  DoubleArray ad, bd;
  if (!ad.assignZeros(size_t(m) * k) || !bd.assignZeros(size_t(k) * n) ||
      !ref.values.value.assignZeros(size_t(m) * n) ||
      !ref.values.magnitude.assignZeros(size_t(m) * n)) {
    ref.values = ContractionReference();
    return ref;
  }
  std::copy(a, a + ad.size(), ad.data());
  std::copy(b, b + bd.size(), bd.data());
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0,
              ad.data(), k, bd.data(), n, 0.0, ref.values.value.data(), n);
  for (size_t i = 0; i < ad.size(); ++i)
    ad[i] = std::fabs(ad[i]);
  for (size_t i = 0; i < bd.size(); ++i)
    bd[i] = std::fabs(bd[i]);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0,
              ad.data(), k, bd.data(), n, 0.0, ref.values.magnitude.data(), n);
  return ref;
}

uint64_t tensorop::gemmVerificationBytes(int64_t m, int64_t n, int64_t k) {
  uint64_t mk = saturatingMul(m, k), kn = saturatingMul(k, n),
           mn = saturatingMul(m, n);
  // fp32 A and B plus their fp64 copies while the reference is computed;
  // five fp32 outputs (ours, OpenBLAS, oneDNN, libxsmm, a second kernel);
  // the reference's R and M in fp64.
  uint64_t inputs = saturatingMul(saturatingAdd(mk, kn), 4 + 8);
  uint64_t outputs = saturatingMul(mn, 4 * 5 + 2 * 8);
  return saturatingAdd(inputs, outputs);
}

// oneDNN here runs on OpenMP (GNU libgomp, which the tool links through
// libdnnl; threaded kernels of ours use LLVM's libomp, loaded later, so this
// call reaches oneDNN's runtime only).
extern "C" void omp_set_num_threads(int) __attribute__((weak));

// libxsmm's kernels run on the calling thread: it is a baseline at one
// thread only, and only where asked for (bench; gen and tune time against
// OpenBLAS and oneDNN as before).
static int baselineThreads = 1;
static bool libxsmmBaseline = false;

void tensorop::setLibxsmmBaseline(bool on) { libxsmmBaseline = on; }

void tensorop::setBaselineThreads(int threads) {
  baselineThreads = threads;
  openblas_set_num_threads(threads);
  if (omp_set_num_threads)
    omp_set_num_threads(threads);
}

void tensorop::singleThreadedBaselines() { setBaselineThreads(1); }

bool tensorop::haveOneDNN() {
#ifdef TENSOROP_HAVE_DNNL
  return true;
#else
  return false;
#endif
}

std::string tensorop::oneDNNVersion() {
#ifdef TENSOROP_HAVE_DNNL
  const dnnl_version_t *v = dnnl_version();
  return "oneDNN " + std::to_string(v->major) + "." +
         std::to_string(v->minor) + "." + std::to_string(v->patch) +
         " (cpu runtime " +
         (v->cpu_runtime == DNNL_RUNTIME_OMP ? "OpenMP" : "other") + ")";
#else
  return "";
#endif
}

bool tensorop::haveLibxsmm() {
#ifdef TENSOROP_HAVE_LIBXSMM
  return true;
#else
  return false;
#endif
}

std::string tensorop::libxsmmVersion() {
#ifdef TENSOROP_HAVE_LIBXSMM
  return std::string("libxsmm ") + LIBXSMM_VERSION + " (JIT target " +
         libxsmm_get_target_arch() + ")";
#else
  return "";
#endif
}

void tensorop::blasSgemm(const float *a, const float *b, float *c, int64_t m,
                         int64_t n, int64_t k) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k,
              b, n, 0.0f, c, n);
}

GemmComparison tensorop::compareWithOpenBLAS(GemmFn fn, int64_t m, int64_t n,
                                             int64_t k, uint64_t seed,
                                             bool time, int rounds,
                                             double roundSeconds,
                                             double peak, GemmFn second,
                                             double settleSeconds) {
  GemmComparison r;
  r.error = checkGemmBufferBudget(m, n, k);
  if (!r.error.empty())
    return r;
  AlignedBuffer a(m * k), b(k * n), cOurs(m * n), cBlas(m * n),
      cSecond(second ? m * n : 1);
  if (!a.ok() || !b.ok() || !cOurs.ok() || !cBlas.ok() || !cSecond.ok()) {
    r.error = "cannot allocate the buffers to verify the GEMM";
    return r;
  }
  auto runBlas = [&] { blasSgemm(a.data, b.data, cBlas.data, m, n, k); };

  {
    // Small integers in [-4, 4]: every product and partial sum is exact.
    fillSmallIntegers(a.data, a.size, 7, seed);
    fillSmallIntegers(b.data, b.size, 5, seed * 3);
    GemmReference exact = computeReference(a.data, b.data, m, n, k);
    if (!exact.ok()) {
      r.error = "cannot allocate the fp64 reference";
      return r;
    }
    fillNaN(cOurs.data, cOurs.size);
    fn(a.data, b.data, cOurs.data);
    r.exactMismatches = countExactMismatches(cOurs.data, exact.values);
  }

  fillRandom(a.data, a.size, seed);
  fillRandom(b.data, b.size, seed + 1);
  GemmReference ref = computeReference(a.data, b.data, m, n, k);
  if (!ref.ok()) {
    r.error = "cannot allocate the fp64 reference";
    return r;
  }
  fillNaN(cOurs.data, cOurs.size);
  fillNaN(cBlas.data, cBlas.size);
  fn(a.data, b.data, cOurs.data);
  runBlas();
  r.before = checkResult(cOurs.data, ref);
  r.blas = checkResult(cBlas.data, ref);
  if (second) {
    fillNaN(cSecond.data, cSecond.size);
    second(a.data, b.data, cSecond.data);
    r.haveSecond = true;
    r.second = checkResult(cSecond.data, ref);
  }
  if (!time || !r.verified())
    return r;

  fillNaN(cOurs.data, cOurs.size);
  std::vector<std::function<void()>> fns = {
      [&] { fn(a.data, b.data, cOurs.data); }, runBlas};
#ifdef TENSOROP_HAVE_DNNL
  // oneDNN's row-major sgemm, same inputs, its own output buffer, verified
  // like the others.
  AlignedBuffer cDnnl(m * n);
  if (!cDnnl.ok()) {
    r.error = "cannot allocate oneDNN's output buffer";
    return r;
  }
  auto runDnnl = [&] {
    dnnl_sgemm('N', 'N', m, n, k, 1.0f, a.data, k, b.data, n, 0.0f,
               cDnnl.data, n);
  };
  fillNaN(cDnnl.data, cDnnl.size);
  runDnnl();
  r.haveOneDNN = true;
  r.onednn = checkResult(cDnnl.data, ref);
  fns.push_back(runDnnl);
#endif
#ifdef TENSOROP_HAVE_LIBXSMM
  // libxsmm's JIT kernel for this shape (column-major: C^T = B^T A^T, so
  // B comes first), when it makes one; single-threaded, so only at one
  // thread.
  AlignedBuffer cXsmm(m * n);
  libxsmm_smmfunction xsmm = nullptr;
  if (libxsmmBaseline && baselineThreads == 1 && cXsmm.ok() && m <= INT32_MAX && n <= INT32_MAX &&
      k <= INT32_MAX) {
    libxsmm_blasint xm = n, xn = m, xk = k;
    float alpha = 1, beta = 0;
    xsmm = libxsmm_smmdispatch(xm, xn, xk, &xm, &xk, &xm, &alpha, &beta,
                               nullptr, nullptr);
  }
  size_t xsmmIndex = fns.size();
  if (xsmm) {
    fillNaN(cXsmm.data, cXsmm.size);
    xsmm(b.data, a.data, cXsmm.data);
    r.haveLibxsmm = true;
    r.libxsmm = checkResult(cXsmm.data, ref);
    fns.push_back([&] { xsmm(b.data, a.data, cXsmm.data); });
  }
#endif
  size_t secondIndex = fns.size();
  if (second)
    fns.push_back([&] { second(a.data, b.data, cSecond.data); });
  std::vector<std::vector<double>> t =
      timeRoundRobin(fns, rounds, roundSeconds, settleSeconds);
  r.after = checkResult(cOurs.data, ref);
  if (second) {
    r.second = checkResult(cSecond.data, ref);
    r.secondMedian = 2.0 * m * n * k / median(t[secondIndex]) / 1e9;
    r.secondBest = 2.0 * m * n * k / minimum(t[secondIndex]) / 1e9;
  }
  double flops = 2.0 * m * n * k;
  r.timed = true;
  if (r.haveOneDNN) {
    r.onednnMedian = flops / median(t[2]) / 1e9;
    r.onednnBest = flops / minimum(t[2]) / 1e9;
  }
#ifdef TENSOROP_HAVE_LIBXSMM
  if (r.haveLibxsmm) {
    r.libxsmm = checkResult(cXsmm.data, ref);
    r.libxsmmMedian = flops / median(t[xsmmIndex]) / 1e9;
    r.libxsmmBest = flops / minimum(t[xsmmIndex]) / 1e9;
  }
#endif
  r.oursMedian = flops / median(t[0]) / 1e9;
  r.oursBest = flops / minimum(t[0]) / 1e9;
  r.blasMedian = flops / median(t[1]) / 1e9;
  r.blasBest = flops / minimum(t[1]) / 1e9;
  r.fasterThanPeak = peak > 0 && r.oursBest > 1.02 * peak;
  return r;
}

std::string tensorop::openblasCoreWarning() {
  const char *core = std::getenv("OPENBLAS_CORETYPE");
  if (!core || !*core)
    return "";
  return std::string("warning: OPENBLAS_CORETYPE=") + core +
         " pins OpenBLAS to that kernel family; the baseline may be weaker "
         "than OpenBLAS's best on this CPU (unset OPENBLAS_CORETYPE and "
         "OPENBLAS_L2_SIZE for this command to compare against its own "
         "choice)";
}
