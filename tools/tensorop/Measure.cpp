//===- Measure.cpp - Verification and timing per shared/MEASURE.md --------===//

#include "Measure.h"

#include <cblas.h>
#ifdef TENSOROP_HAVE_DNNL
#include <dnnl.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <thread>

using namespace tensorop;

AlignedBuffer::AlignedBuffer(size_t n) : size(n) {
  size_t bytes = ((n * sizeof(float) + 63) / 64) * 64;
  data = static_cast<float *>(std::aligned_alloc(64, bytes ? bytes : 64));
}
AlignedBuffer::~AlignedBuffer() { std::free(data); }

void tensorop::fillRandom(float *x, size_t n, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (size_t i = 0; i < n; ++i) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    x[i] = static_cast<float>((s >> 40) * (1.0 / (1ull << 24)) * 2.0 - 1.0);
  }
}

Reference tensorop::computeReference(const float *a, const float *b,
                                     int64_t m, int64_t n, int64_t k) {
  std::vector<double> ad(a, a + m * k), bd(b, b + k * n);
  Reference ref;
  ref.r.assign(m * n, 0.0);
  ref.bound.assign(m * n, 0.0);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0,
              ad.data(), k, bd.data(), n, 0.0, ref.r.data(), n);
  for (double &v : ad)
    v = std::fabs(v);
  for (double &v : bd)
    v = std::fabs(v);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0,
              ad.data(), k, bd.data(), n, 0.0, ref.bound.data(), n);
  const double u = 6e-8, c = 2.0;
  for (size_t i = 0; i < ref.bound.size(); ++i)
    ref.bound[i] = c * k * u * ref.bound[i] + u * std::fabs(ref.r[i]);
  return ref;
}

Check tensorop::checkResult(const float *c, const Reference &ref) {
  Check check;
  for (size_t i = 0; i < ref.r.size(); ++i) {
    double err = std::fabs(double(c[i]) - ref.r[i]);
    double bound = std::max(ref.bound[i], 1e-30);
    if (!(err <= bound)) {
      ++check.failures;
      check.maxRatio = std::isnan(err)
                           ? std::numeric_limits<double>::infinity()
                           : std::max(check.maxRatio, err / bound);
    } else {
      check.maxRatio = std::max(check.maxRatio, err / bound);
    }
  }
  return check;
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) static void fmaChainsZmm(long iters) {
  asm volatile("vxorps %%zmm0, %%zmm0, %%zmm0\n\t"
               "vmovaps %%zmm0, %%zmm1\n\t"
               "1:\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm2\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm3\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm4\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm5\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm6\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm7\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm8\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm9\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm10\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm11\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm12\n\t"
               "vfmadd231ps %%zmm1, %%zmm1, %%zmm13\n\t"
               "dec %0\n\t"
               "jnz 1b\n\t"
               "vzeroupper"
               : "+r"(iters)
               :
               : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
                 "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                 "cc");
}
__attribute__((target("avx2,fma"))) static void fmaChainsYmm(long iters) {
  asm volatile("vxorps %%ymm0, %%ymm0, %%ymm0\n\t"
               "vmovaps %%ymm0, %%ymm1\n\t"
               "1:\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm2\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm3\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm4\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm5\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm6\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm7\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm8\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm9\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm10\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm11\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm12\n\t"
               "vfmadd231ps %%ymm1, %%ymm1, %%ymm13\n\t"
               "dec %0\n\t"
               "jnz 1b\n\t"
               "vzeroupper"
               : "+r"(iters)
               :
               : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",
                 "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13",
                 "cc");
}
#endif

double tensorop::measureFmaPeakGflops() {
#if defined(__x86_64__)
  bool zmm = __builtin_cpu_supports("avx512f");
  if (!zmm && !__builtin_cpu_supports("fma"))
    return 0;
  const long iters = 20'000'000;
  double best = 0;
  for (int trial = 0; trial < 3; ++trial) {
    auto t0 = std::chrono::steady_clock::now();
    zmm ? fmaChainsZmm(iters) : fmaChainsYmm(iters);
    double s = std::chrono::duration<double>(
                   std::chrono::steady_clock::now() - t0)
                   .count();
    double flops = double(iters) * 12 * (zmm ? 16 : 8) * 2;
    best = std::max(best, flops / s / 1e9);
  }
  return best;
#else
  return 0;
#endif
}

std::vector<std::vector<double>>
tensorop::timeRoundRobin(const std::vector<std::function<void()>> &fns,
                         int rounds, double minRoundSeconds,
                         double settleSeconds) {
  using clock = std::chrono::steady_clock;
  auto once = [](const std::function<void()> &f) {
    auto t0 = clock::now();
    f();
    return std::chrono::duration<double>(clock::now() - t0).count();
  };
  // Warm up each and size its round to last at least minRoundSeconds.
  std::vector<int> reps;
  for (const auto &f : fns) {
    double t = std::min(once(f), once(f));
    reps.push_back(std::max(1, int(minRoundSeconds / std::max(t, 1e-9))));
  }
  std::vector<std::vector<double>> samples(fns.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < fns.size(); ++i) {
      if (settleSeconds > 0)
        std::this_thread::sleep_for(
            std::chrono::duration<double>(settleSeconds));
      auto t0 = clock::now();
      for (int j = 0; j < reps[i]; ++j)
        fns[i]();
      double s = std::chrono::duration<double>(clock::now() - t0).count();
      samples[i].push_back(s / reps[i]);
    }
  return samples;
}

TimingSamples tensorop::timeAlternating(const std::function<void()> &fa,
                                        const std::function<void()> &fb,
                                        int rounds, double minRoundSeconds) {
  std::vector<std::vector<double>> s =
      timeRoundRobin({fa, fb}, rounds, minRoundSeconds);
  return {s[0], s[1]};
}

double tensorop::median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double tensorop::minimum(const std::vector<double> &v) {
  return *std::min_element(v.begin(), v.end());
}

static std::string cpuinfoField(const std::string &key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(colon + 2);
    }
  return "unknown";
}

std::string tensorop::cpuModelName() { return cpuinfoField("model name"); }
std::string tensorop::cpuFamilyModel() {
  return "family " + cpuinfoField("cpu family") + " model " +
         cpuinfoField("model\t");
}

// oneDNN here runs on OpenMP (GNU libgomp, which the tool links through
// libdnnl; threaded kernels of ours use LLVM's libomp, loaded later, so this
// call reaches oneDNN's runtime only).
extern "C" void omp_set_num_threads(int) __attribute__((weak));

void tensorop::setBaselineThreads(int threads) {
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

GemmComparison tensorop::compareWithOpenBLAS(GemmFn fn, int64_t m, int64_t n,
                                             int64_t k, uint64_t seed,
                                             bool time, int rounds,
                                             double roundSeconds,
                                             double peak, GemmFn second,
                                             double settleSeconds) {
  GemmComparison r;
  AlignedBuffer a(m * k), b(k * n), cOurs(m * n), cBlas(m * n);
  auto nanFill = [](AlignedBuffer &buf) {
    std::fill(buf.data, buf.data + buf.size,
              std::numeric_limits<float>::quiet_NaN());
  };
  auto runBlas = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f,
                a.data, k, b.data, n, 0.0f, cBlas.data, n);
  };

  // Small integers in [-4, 4]: every product and partial sum is exact.
  for (size_t i = 0; i < a.size; ++i)
    a.data[i] = float(int((i * 7 + seed) % 9) - 4);
  for (size_t i = 0; i < b.size; ++i)
    b.data[i] = float(int((i * 5 + seed * 3) % 9) - 4);
  Reference exact = computeReference(a.data, b.data, m, n, k);
  nanFill(cOurs);
  fn(a.data, b.data, cOurs.data);
  r.exactMismatches = 0;
  for (size_t i = 0; i < exact.r.size(); ++i)
    if (!(double(cOurs.data[i]) == exact.r[i]))
      ++r.exactMismatches;

  fillRandom(a.data, a.size, seed);
  fillRandom(b.data, b.size, seed + 1);
  Reference ref = computeReference(a.data, b.data, m, n, k);
  nanFill(cOurs);
  nanFill(cBlas);
  fn(a.data, b.data, cOurs.data);
  runBlas();
  r.before = checkResult(cOurs.data, ref);
  r.blas = checkResult(cBlas.data, ref);
  AlignedBuffer cSecond(second ? m * n : 1);
  if (second) {
    nanFill(cSecond);
    second(a.data, b.data, cSecond.data);
    r.haveSecond = true;
    r.second = checkResult(cSecond.data, ref);
  }
  if (!time || !r.verified())
    return r;

  nanFill(cOurs);
  std::vector<std::function<void()>> fns = {
      [&] { fn(a.data, b.data, cOurs.data); }, runBlas};
#ifdef TENSOROP_HAVE_DNNL
  // oneDNN's row-major sgemm, same inputs, its own output buffer, verified
  // like the others.
  AlignedBuffer cDnnl(m * n);
  auto runDnnl = [&] {
    dnnl_sgemm('N', 'N', m, n, k, 1.0f, a.data, k, b.data, n, 0.0f,
               cDnnl.data, n);
  };
  nanFill(cDnnl);
  runDnnl();
  r.haveOneDNN = true;
  r.onednn = checkResult(cDnnl.data, ref);
  fns.push_back(runDnnl);
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
