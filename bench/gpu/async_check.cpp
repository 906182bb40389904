//===- async_check.cpp - NAME_async vs NAME vs cuBLAS, on one stream ------===//
//
// A consumer of a `tensorop gen ... for nvidia-sm90` kernel in a program that
// also uses the CUDA runtime and cuBLAS, as an application would:
//   1. correctness: C NaN-poisoned on the stream, NAME_async(A, B, C, stream)
//      (must return 0), cublasGemmEx on the same stream, one
//      cudaStreamSynchronize; then NAME (synchronous) into a second poisoned
//      buffer. Every element must be finite, NAME and NAME_async must agree
//      bit for bit, and 4096 sampled elements (corners and last row/column
//      included) of ours and of cuBLAS must meet the fp64 bound
//      |C - R| <= 2 K u_in |A||B| + u_out |R| (shared/MEASURE.md);
//   2. timing after warm-up until the clocks settle (tensorop::SettleRule),
//      in rounds: NAME_async x reps and cublasGemmEx x reps back to back on
//      the stream (CUDA events; which goes first alternates), then NAME x
//      reps (host clock; it waits each call) and cublasGemmEx +
//      cudaStreamSynchronize x reps (host clock); the SM clock, power and
//      temperature from NVML once per round, and the host time of each
//      enqueue loop (CPU cost per call);
//   3. the output the timed NAME_async calls wrote is checked again (bitwise
//      equal to step 1's);
//   4. returns from main without tearing anything down: the CUDA runtime's
//      exit handlers run before the object's destructor, which must print
//      nothing.
// Build (bench/gpu/build-async.sh): -DNAME=... -DM= -DN= -DK= -DAT=bf16|f16
// -DCT=bf16|f16|f32, the gen directory on the include path.
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/NvmlSampler.h"
#include "tensorop/Verify/Settle.h"
#include "tensorop/Verify/Timing.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#define STR2(x) #x
#define STR(x) STR2(x)
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#include STR(NAME.h)
#define NAME_ASYNC CAT(NAME, _async)

namespace {
enum Type { BF16, F16, F32 };
#define TYPE_bf16 BF16
#define TYPE_f16 F16
#define TYPE_f32 F32
constexpr Type kIn = CAT(TYPE_, AT), kOut = CAT(TYPE_, CT);
using ctype_bf16 = tensorop_bf16;
using ctype_f16 = tensorop_f16;
using ctype_f32 = float;
using InT = CAT(ctype_, AT);
using OutT = CAT(ctype_, CT);
constexpr int64_t kM = M, kN = N, kK = K;

size_t bytesOf(Type t) { return t == F32 ? 4 : 2; }
double unitRoundoff(Type t) {
  return t == BF16 ? std::ldexp(1.0, -8) : t == F16 ? std::ldexp(1.0, -11)
                                                    : std::ldexp(1.0, -24);
}
cudaDataType blasType(Type t) {
  return t == BF16 ? CUDA_R_16BF : t == F16 ? CUDA_R_16F : CUDA_R_32F;
}
uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}
float fromBits(Type t, const void *p, size_t i) {
  if (t == F32)
    return static_cast<const float *>(p)[i];
  uint16_t h = static_cast<const uint16_t *>(p)[i];
  if (t == BF16) {
    uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  _Float16 x;
  std::memcpy(&x, &h, 2);
  return float(x);
}
/// Stores f rounded to t; returns the stored value.
float store(Type t, void *p, size_t i, float f) {
  if (t == F32)
    static_cast<float *>(p)[i] = f;
  else if (t == BF16)
    static_cast<uint16_t *>(p)[i] = toBf16(f);
  else {
    _Float16 x = _Float16(f);
    std::memcpy(static_cast<uint16_t *>(p) + i, &x, 2);
  }
  return fromBits(t, p, i);
}

#define CUDA(call)                                                             \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_));             \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)
#define BLAS(call)                                                             \
  do {                                                                         \
    cublasStatus_t s_ = (call);                                                \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                         \
      std::printf("FAIL %s: cuBLAS status %d\n", #call, int(s_));              \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

cublasHandle_t blas;
cudaStream_t stream;
void *dA, *dB;

/// Row-major C = A*B as cuBLAS's column-major C^T = B^T A^T.
void cublasGemm(void *c) {
  float one = 1, zero = 0;
  BLAS(cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, int(kN), int(kM), int(kK),
                    &one, dB, blasType(kIn), int(kN), dA, blasType(kIn),
                    int(kK), &zero, c, blasType(kOut), int(kN),
                    CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       since)
      .count();
}
} // namespace

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 15;
  double sampleMs = argc > 2 ? std::atof(argv[2]) : 20;
  CUDA(cudaSetDevice(0));
  CUDA(cudaFree(nullptr)); // the runtime's primary context, now current
  CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  BLAS(cublasCreate(&blas));
  BLAS(cublasSetStream(blas, stream));
  cudaDeviceProp prop;
  CUDA(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0, blasVersion = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cublasGetVersion(blas, &blasVersion);
  char bus[64] = {0};
  cudaDeviceGetPCIBusId(bus, sizeof(bus), 0);
  std::printf("%s %lldx%lldx%lld %s->%s on %s (driver %d, runtime %d, cuBLAS "
              "%d)\n",
              STR(NAME), (long long)kM, (long long)kN, (long long)kK, STR(AT),
              STR(CT), prop.name, driver, runtime, blasVersion);

  // Inputs: uniform [-1, 1) rounded to the input type.
  size_t na = size_t(kM) * kK, nb = size_t(kK) * kN, nc = size_t(kM) * kN;
  std::vector<char> ha(na * bytesOf(kIn)), hb(nb * bytesOf(kIn));
  std::vector<float> fa(na), fb(nb);
  std::mt19937_64 rng(20261130);
  std::uniform_real_distribution<float> uni(-1, 1);
  for (size_t i = 0; i < na; ++i)
    fa[i] = store(kIn, ha.data(), i, uni(rng));
  for (size_t i = 0; i < nb; ++i)
    fb[i] = store(kIn, hb.data(), i, uni(rng));
  size_t cBytes = nc * bytesOf(kOut);
  void *dC, *dC2, *dR;
  CUDA(cudaMalloc(&dA, ha.size()));
  CUDA(cudaMalloc(&dB, hb.size()));
  CUDA(cudaMalloc(&dC, cBytes));
  CUDA(cudaMalloc(&dC2, cBytes));
  CUDA(cudaMalloc(&dR, cBytes));
  CUDA(cudaMemcpy(dA, ha.data(), ha.size(), cudaMemcpyHostToDevice));
  CUDA(cudaMemcpy(dB, hb.data(), hb.size(), cudaMemcpyHostToDevice));

  // 1. correctness, on NaN-poisoned outputs (0xff bytes: NaN in every type).
  CUDA(cudaMemsetAsync(dC, 0xff, cBytes, stream));
  CUDA(cudaMemsetAsync(dC2, 0xff, cBytes, stream));
  CUDA(cudaMemsetAsync(dR, 0xff, cBytes, stream));
  const InT *A = static_cast<const InT *>(dA), *B = static_cast<const InT *>(dB);
  int rc = NAME_ASYNC(A, B, static_cast<OutT *>(dC), stream);
  if (rc != 0) {
    std::printf("FAIL %s returned %d\n", STR(NAME_ASYNC), rc);
    return 1;
  }
  cublasGemm(dR);
  CUDA(cudaStreamSynchronize(stream));
  NAME(A, B, static_cast<OutT *>(dC2));
  CUDA(cudaDeviceSynchronize());
  std::vector<char> hc(cBytes), hc2(cBytes), hr(cBytes);
  CUDA(cudaMemcpy(hc.data(), dC, cBytes, cudaMemcpyDeviceToHost));
  CUDA(cudaMemcpy(hc2.data(), dC2, cBytes, cudaMemcpyDeviceToHost));
  CUDA(cudaMemcpy(hr.data(), dR, cBytes, cudaMemcpyDeviceToHost));
  size_t nonFinite = 0, nonFiniteBlas = 0;
  double diff2 = 0, ref2 = 0;
  for (size_t i = 0; i < nc; ++i) {
    float c = fromBits(kOut, hc.data(), i), r = fromBits(kOut, hr.data(), i);
    nonFinite += !std::isfinite(c);
    nonFiniteBlas += !std::isfinite(r);
    diff2 += double(c - r) * (c - r);
    ref2 += double(r) * r;
  }
  bool syncSame = std::memcmp(hc.data(), hc2.data(), cBytes) == 0;
  // fp64 reference on sampled elements: corners, last row/column, random.
  std::vector<std::pair<int64_t, int64_t>> at = {
      {0, 0}, {0, kN - 1}, {kM - 1, 0}, {kM - 1, kN - 1}};
  for (int64_t j = 0; j < kN; j += std::max<int64_t>(1, kN / 64))
    at.push_back({kM - 1, j});
  for (int64_t i = 0; i < kM; i += std::max<int64_t>(1, kM / 64))
    at.push_back({i, kN - 1});
  std::uniform_int_distribution<int64_t> row(0, kM - 1), col(0, kN - 1);
  while (at.size() < 4096)
    at.push_back({row(rng), col(rng)});
  double worst = 0, worstBlas = 0;
  for (auto [i, j] : at) {
    double r = 0, rabs = 0;
    for (int64_t l = 0; l < kK; ++l) {
      double p = double(fa[size_t(i) * kK + l]) * fb[size_t(l) * kN + j];
      r += p;
      rabs += std::fabs(p);
    }
    double bound = 2.0 * kK * unitRoundoff(kIn) * rabs +
                   unitRoundoff(kOut) * std::fabs(r);
    size_t idx = size_t(i) * kN + j;
    double e = std::fabs(fromBits(kOut, hc.data(), idx) - r) / bound;
    double eb = std::fabs(fromBits(kOut, hr.data(), idx) - r) / bound;
    worst = std::isnan(e) ? INFINITY : std::max(worst, e);
    worstBlas = std::isnan(eb) ? INFINITY : std::max(worstBlas, eb);
  }
  double relFrob = std::sqrt(diff2 / std::max(ref2, 1e-300));
  bool ok = nonFinite == 0 && nonFiniteBlas == 0 && syncSame && worst <= 1 &&
            worstBlas <= 1;
  std::printf("correctness: %s returned 0; non-finite %zu (cuBLAS %zu); %s "
              "and %s bitwise %s; sampled %zu elements vs fp64: worst "
              "error/bound %.3g (cuBLAS %.3g); ||C-R||/||R|| vs cuBLAS %.3g "
              "-> %s\n",
              STR(NAME_ASYNC), nonFinite, nonFiniteBlas, STR(NAME),
              STR(NAME_ASYNC), syncSame ? "equal" : "DIFFER", at.size(), worst,
              worstBlas, relFrob, ok ? "OK" : "FAIL");
  if (!ok)
    return 1;

  // 2. timing.
  double flops = 2.0 * kM * kN * kK;
  cudaEvent_t e0, e1, e2;
  CUDA(cudaEventCreate(&e0));
  CUDA(cudaEventCreate(&e1));
  CUDA(cudaEventCreate(&e2));
  auto hostTime = [&](auto &&body, int reps) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i)
      body();
    return seconds(t0) / reps;
  };
  auto async = [&] {
    if (NAME_ASYNC(A, B, static_cast<OutT *>(dC), stream) != 0) {
      std::printf("FAIL %s returned non-zero while timed\n", STR(NAME_ASYNC));
      std::exit(1);
    }
  };
  auto sync = [&] { NAME(A, B, static_cast<OutT *>(dC2)); };
  auto gemm = [&] { cublasGemm(dR); };
  auto gemmSync = [&] {
    cublasGemm(dR);
    CUDA(cudaStreamSynchronize(stream));
  };
  CUDA(cudaEventRecord(e0, stream));
  for (int i = 0; i < 3; ++i)
    async();
  CUDA(cudaEventRecord(e1, stream));
  CUDA(cudaEventSynchronize(e1));
  float firstMs = 0;
  CUDA(cudaEventElapsedTime(&firstMs, e0, e1));
  double one = firstMs * 1e-3 / 3;
  int reps = std::max(1, std::min(1000, int(sampleMs * 1e-3 / one)));
  tensorop::NvmlSampler nvml(bus);
  std::printf("nvml: %s\n", nvml.available()
                                ? ("driver " + nvml.driverVersion()).c_str()
                                : nvml.unavailableReason().c_str());
  // One round, like tensorop-gpu-runner's: `reps` NAME_async and `reps`
  // cublasGemmEx back to back on the stream (the order alternating between
  // rounds, so neither always starts on an idle stream), CUDA events between
  // them, NVML read halfway through the NAME_async sample, the host time of
  // each enqueue loop (the per-call CPU cost); then NAME and
  // cublasGemmEx + cudaStreamSynchronize, each `reps` times, on the host
  // clock.
  struct Round {
    double async = 0, blas = 0, asyncEnqueue = 0, blasEnqueue = 0;
    double sync = 0, blasSync = 0;
    std::optional<tensorop::GpuSample> state;
  };
  auto runRound = [&](bool asyncFirst, bool withHostTimed) {
    Round r;
    CUDA(cudaEventRecord(e0, stream));
    auto t0 = std::chrono::steady_clock::now();
    if (asyncFirst)
      r.asyncEnqueue = hostTime(async, reps);
    else
      r.blasEnqueue = hostTime(gemm, reps);
    CUDA(cudaEventRecord(e1, stream));
    if (asyncFirst)
      r.blasEnqueue = hostTime(gemm, reps);
    else
      r.asyncEnqueue = hostTime(async, reps);
    CUDA(cudaEventRecord(e2, stream));
    // halfway through the NAME_async sample
    double mid = asyncFirst ? 0.5 * one * reps : 1.5 * one * reps;
    double waited = seconds(t0);
    if (mid > waited)
      std::this_thread::sleep_for(std::chrono::duration<double>(mid - waited));
    r.state = nvml.read();
    CUDA(cudaEventSynchronize(e2));
    float first = 0, second = 0;
    CUDA(cudaEventElapsedTime(&first, e0, e1));
    CUDA(cudaEventElapsedTime(&second, e1, e2));
    r.async = (asyncFirst ? first : second) * 1e-3 / reps;
    r.blas = (asyncFirst ? second : first) * 1e-3 / reps;
    if (withHostTimed) {
      r.sync = hostTime(sync, reps);
      r.blasSync = hostTime(gemmSync, reps);
    }
    return r;
  };
  tensorop::SettleRule rule;
  std::vector<double> warmClocks, warmTimes;
  auto warmStart = std::chrono::steady_clock::now();
  bool settled = false;
  int warmRounds = 0;
  while (!settled && seconds(warmStart) < rule.maxSeconds) {
    Round r = runRound(warmRounds % 2 == 0, false);
    warmTimes.push_back(r.async);
    if (r.state)
      warmClocks.push_back(r.state->smClockMHz);
    ++warmRounds;
    settled = rule.settled(warmClocks, warmTimes, seconds(warmStart));
  }
  std::printf("warm-up: %d rounds, %.1f s, %s (%s)\n", warmRounds,
              seconds(warmStart), settled ? "settled" : "NOT settled",
              rule.describe().c_str());
  CUDA(cudaMemsetAsync(dC, 0xff, cBytes, stream)); // the timed runs must write
  std::vector<double> tAsync, tBlas, tSync, tBlasSync, enqAsync, enqBlas,
      clocks, power, temp;
  for (int r = 0; r < rounds; ++r) {
    Round round = runRound(r % 2 == 0, true);
    tAsync.push_back(round.async);
    tBlas.push_back(round.blas);
    tSync.push_back(round.sync);
    tBlasSync.push_back(round.blasSync);
    enqAsync.push_back(round.asyncEnqueue);
    enqBlas.push_back(round.blasEnqueue);
    if (round.state) {
      clocks.push_back(round.state->smClockMHz);
      power.push_back(round.state->powerWatts);
      temp.push_back(round.state->temperatureC);
      std::printf("  round %2d (%s first): SM %u MHz, mem %u MHz, %.0f W, "
                  "%u C, reasons 0x%llx\n",
                  r, r % 2 == 0 ? "NAME_async" : "cuBLAS",
                  round.state->smClockMHz, round.state->memClockMHz,
                  round.state->powerWatts, round.state->temperatureC,
                  (unsigned long long)round.state->clockEventReasons);
    }
  }
  CUDA(cudaStreamSynchronize(stream));
  // 3. what the timed calls wrote.
  std::vector<char> after(cBytes);
  CUDA(cudaMemcpy(after.data(), dC, cBytes, cudaMemcpyDeviceToHost));
  bool afterSame = std::memcmp(after.data(), hc.data(), cBytes) == 0;
  std::printf("after timing: NAME_async output %s the verified one\n",
              afterSame ? "bitwise equals" : "DIFFERS FROM");
  auto report = [&](const char *what, const std::vector<double> &t) {
    tensorop::Spread s = tensorop::spreadOf(t);
    std::printf("  %-34s median %9.1f us  (min %9.1f, max %9.1f, spread "
                "%5.1f%%)  %7.1f TFLOP/s  vs cuBLAS %.3fx\n",
                what, s.median * 1e6, s.min * 1e6, s.max * 1e6,
                100 * s.relative, flops / s.median / 1e12,
                tensorop::median(tBlas) / s.median);
  };
  std::printf("timing: %d rounds x %d calls per sample, each round: "
              "NAME_async and cublasGemmEx back to back on the stream "
              "(events; order alternating), then NAME (host clock), "
              "cublasGemmEx+cudaStreamSynchronize (host clock)\n",
              rounds, reps);
  report("NAME_async (stream, events)", tAsync);
  report("cublasGemmEx (stream, events)", tBlas);
  report("NAME (synchronous, host clock)", tSync);
  report("cublasGemmEx + sync (host clock)", tBlasSync);
  tensorop::Spread ea = tensorop::spreadOf(enqAsync),
                   eb = tensorop::spreadOf(enqBlas);
  std::printf("  host time per enqueue (median, min-max): NAME_async %.2f us "
              "(%.2f-%.2f), cublasGemmEx %.2f us (%.2f-%.2f)\n",
              ea.median * 1e6, ea.min * 1e6, ea.max * 1e6, eb.median * 1e6,
              eb.min * 1e6, eb.max * 1e6);
  if (!clocks.empty()) {
    tensorop::Spread c = tensorop::spreadOf(clocks), p = tensorop::spreadOf(power),
                     t = tensorop::spreadOf(temp);
    std::printf("  NVML during NAME_async samples: SM clock %.0f/%.0f/%.0f "
                "MHz (min/median/max), power %.0f/%.0f/%.0f W, temperature "
                "%.0f-%.0f C\n",
                c.min, c.median, c.max, p.min, p.median, p.max, t.min, t.max);
  }
  // 4. no teardown: the exit handlers of the CUDA runtime and then the
  // object's destructor run after main returns.
  return afterSame ? 0 : 1;
}
