//===- Timing.cpp - Interleaved timing and machine facts ------------------===//

#include "tensorop/Verify/Timing.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

using namespace tensorop;

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
  // The order rotates per round, so that no side always runs right after
  // the same other one: a side that frees memory to the kernel leaves work
  // that the next side's timing absorbs (on the 2-core VM, 2694^3 timed
  // right after libxsmm in every round: 153-163 GFLOP/s; rotated: 182-187;
  // docs/benchmarks/cpu-gemm-classes.md, "Zen 5: the side after libxsmm").
  std::vector<std::vector<double>> samples(fns.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t k = 0; k < fns.size(); ++k) {
      size_t i = (k + size_t(r)) % fns.size();
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

bool tensorop::fasterThanRemeasuredPeak(double bestGflops, double &peak,
                                        unsigned threads) {
  // The 2% margin matches the first check's (CpuGemm, CpuConv).
  if (peak <= 0 || bestGflops <= 1.02 * peak)
    return false;
  for (int i = 0; i < 3; ++i)
    peak = std::max(peak, measureFmaPeakGflops() * threads);
  return bestGflops > 1.02 * peak;
}
