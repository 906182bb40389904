//===- GpuGemmRunner.cpp - tensorop-gpu-runner's GEMM protocol ------------===//
//
// The measurement protocol of a plain GEMM's launch description
// (GpuGemmRunner.h): moved here from tools/tensorop-gpu-runner, which now
// parses its options, loads the kernel and prints the JSON this fills.
// Plain C++ on the CUDA driver API, cuBLAS and cuBLASLt (no LLVM): linked
// into the runner, which runs on the GPU machine.
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/GpuGemmRunner.h"
#include "tensorop/GPU/CublasLtBest.h"
#include "tensorop/GPU/GpuCheck.h"
#include "tensorop/GPU/NvmlSampler.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/Check.h"
#include "tensorop/Verify/Numerics.h"
#include "tensorop/Verify/Settle.h"
#include "tensorop/Verify/Timing.h"

#include <cublas_v2.h>
#include <cublasLt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

using json = nlohmann::ordered_json;

namespace {

// The runner's error report (it prints the message and exits); set by
// runGpuGemmLaunch and parseGpuGemmProblem.
tensorop::GpuRunnerFail gFail = nullptr;

[[noreturn]] void die(int code, const std::string &msg) {
  if (gFail)
    gFail(code, msg);
  std::fprintf(stderr, "%s\n", msg.c_str());
  std::abort();
}

void cuCheck(CUresult r, const char *what) {
  tensorop::checkGpuCall(r, what, die);
}
#define CUC(x) cuCheck((x), #x)

void blasCheck(cublasStatus_t s, const char *what) {
  tensorop::checkBlasCall(int(s), what, die);
}
#define BLAS(x) blasCheck((x), #x)

CUstream gStream = nullptr;
cublasHandle_t gBlas = nullptr;

// ---- element types ----------------------------------------------------------

using tensorop::bf16ToFloat;
using tensorop::floatToBf16;
using tensorop::floatToHalf;
using tensorop::halfToFloat;

struct DType {
  std::string name;
  size_t bytes;
  double u; ///< unit roundoff of the type (MEASURE.md)
  tensorop::ElementType type;
};
DType dtypeOf(const std::string &n) {
  tensorop::ElementType t;
  if (!tensorop::parseElementType(n, t))
    die(2, "unknown element type '" + n + "'");
  return {tensorop::elementTypeName(t), tensorop::storageBytes(t),
          tensorop::unitRoundoff(t), t};
}

/// Host copy of a device matrix in its storage type.
struct HostMatrix {
  explicit HostMatrix(DType t) : t(t) {}
  DType t;
  size_t count = 0;
  std::vector<uint16_t> h16;
  std::vector<float> f32;
  void resize(size_t n) {
    count = n;
    if (t.bytes == 2)
      h16.assign(n, 0);
    else
      f32.assign(n, 0.f);
  }
  void *data() {
    return t.bytes == 2 ? (void *)h16.data() : (void *)f32.data();
  }
  size_t bytes() const { return count * t.bytes; }
  /// Stores x rounded to the type; returns the value actually stored.
  double set(size_t i, float x) {
    if (t.name == "bf16") {
      h16[i] = floatToBf16(x);
      return bf16ToFloat(h16[i]);
    }
    if (t.name == "f16") {
      h16[i] = floatToHalf(x);
      return halfToFloat(h16[i]);
    }
    f32[i] = x;
    return x;
  }
  double get(size_t i) const {
    if (t.name == "bf16")
      return bf16ToFloat(h16[i]);
    if (t.name == "f16")
      return halfToFloat(h16[i]);
    return f32[i];
  }
  /// Round-to-nearest of an exact value into this type.
  double roundTo(double x) const { return tensorop::roundToStorage(t.type, x); }
};

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 1) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float uniform() {
    return float(int64_t(next() >> 40) - (1 << 23)) / float(1 << 23);
  }
  int smallInt() { return int(next() % 9) - 4; }
};

// ---- the problem
// -------------------------------------------------------------

struct Problem {
  int64_t m = 0, n = 0, k = 0;
  DType a, c;
  bool accumulate = false;
};

struct DeviceBuffers {
  CUdeviceptr a = 0, b = 0, c = 0, cBlas = 0, cLt = 0, c0 = 0;
  CUdeviceptr bias = 0, r = 0; ///< a fused epilogue's operands
};

/// Fills A, B (and C0 when accumulating) on the host, uploads them, and
/// computes the fp64 reference R = C0 + A*B and Rabs = |C0| + |A||B| with
/// cuBLAS dgemm on the same rounded values.
struct Reference {
  std::vector<double> r, rabs;
  std::vector<double> c0; ///< initial C (accumulate)
};


/// Polls `query` (cuStreamQuery / cuEventQuery of one object) every
/// `pollUs` microseconds until it reports completion; a CUDA error or more
/// than `seconds` ends the run with a located message.
template <typename Query>
void pollUntilDone(Query query, double seconds, int pollUs, const char *what) {
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    CUresult r = query();
    if (r == CUDA_SUCCESS)
      return;
    if (r != CUDA_ERROR_NOT_READY)
      cuCheck(r, what);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count() > seconds)
      die(3, std::string(what) + ": the kernel did not finish within " +
                 std::to_string(int(seconds)) + " s (hang?)");
    std::this_thread::sleep_for(std::chrono::microseconds(pollUs));
  }
}

void syncWithTimeout(double seconds, const char *what) {
  pollUntilDone([] { return cuStreamQuery(gStream); }, seconds, 50, what);
}

/// Waits (polling, like syncWithTimeout) until `event` has completed.
void waitEvent(CUevent event, double seconds, const char *what) {
  pollUntilDone([event] { return cuEventQuery(event); }, seconds, 20, what);
}

/// The device's PCI bus id, as NVML's lookup wants it.
std::string pciBusId(CUdevice dev) {
  char id[64] = {0};
  if (cuDeviceGetPCIBusId(id, sizeof(id), dev) != CUDA_SUCCESS)
    return "";
  return id;
}

/// A few lines for people on stderr (stdout carries the JSON for tools):
/// the timing's median and spread, the warm-up, the clocks.
void printTimingSummary(const json &out) {
  const json &t = out["timing"];
  auto line = [](const char *who, const json &s) {
    std::fprintf(stderr,
                 "  %-8s TFLOP/s min %.1f  median %.1f  max %.1f  spread "
                 "%.1f%%\n",
                 who, s.value("min", 0.0), s.value("median", 0.0),
                 s.value("max", 0.0), 100 * s.value("relative_spread", 0.0));
  };
  std::fprintf(stderr, "%s: %d rounds x %d reps, warm-up %d rounds %.1f s (%s)\n",
               out.value("kernel", "").c_str(), t.value("rounds", 0),
               t.value("reps_per_sample", 0), t["warmup"].value("rounds", 0),
               t["warmup"].value("seconds", 0.0),
               t["warmup"].value("settled", false) ? "settled"
                                                   : "NOT settled");
  line("tensorop", t["tensorop_spread"]);
  if (t.contains("cublas_spread")) {
    line("cuBLAS", t["cublas_spread"]);
    std::fprintf(stderr, "  ratio of medians %.3f\n",
                 t.value("ratio_median", 0.0));
  }
  if (t.contains("cublaslt_spread")) {
    line("cuBLASLt", t["cublaslt_spread"]);
    std::fprintf(stderr,
                 "  ratio of medians to cuBLASLt %.3f; to the faster library "
                 "(%s) %.3f\n",
                 t.value("ratio_cublaslt_median", 0.0),
                 t.value("best_library", "").c_str(),
                 t.value("ratio_best_library_median", 0.0));
  }
  const json &n = t["nvml"];
  if (n.value("available", false))
    std::fprintf(stderr,
                 "  SM clock %.0f-%.0f MHz (median %.0f), power %.0f-%.0f W, "
                 "temperature %.0f-%.0f C\n",
                 n["sm_mhz"].value("min", 0.0), n["sm_mhz"].value("max", 0.0),
                 n["sm_mhz"].value("median", 0.0),
                 n["power_w"].value("min", 0.0), n["power_w"].value("max", 0.0),
                 n["temp_c"].value("min", 0.0), n["temp_c"].value("max", 0.0));
  else
    std::fprintf(stderr, "  NVML unavailable: %s\n",
                 n.value("reason", "").c_str());
}

Reference makeInputs(const Problem &p, bool integers, uint64_t seed,
                     DeviceBuffers &d) {
  Rng rng(seed);
  HostMatrix A{p.a}, B{p.a}, C0{p.c};
  A.resize(p.m * p.k);
  B.resize(p.k * p.n);
  std::vector<double> a64(p.m * p.k), b64(p.k * p.n);
  for (size_t i = 0; i < a64.size(); ++i)
    a64[i] = A.set(i, integers ? float(rng.smallInt()) : rng.uniform());
  for (size_t i = 0; i < b64.size(); ++i)
    b64[i] = B.set(i, integers ? float(rng.smallInt()) : rng.uniform());
  CUC(cuMemcpyHtoD(d.a, A.data(), A.bytes()));
  CUC(cuMemcpyHtoD(d.b, B.data(), B.bytes()));
  Reference ref;
  if (p.accumulate) {
    C0.resize(p.m * p.n);
    ref.c0.resize(p.m * p.n);
    for (size_t i = 0; i < ref.c0.size(); ++i)
      ref.c0[i] = C0.set(i, integers ? float(rng.smallInt()) : rng.uniform());
    CUC(cuMemcpyHtoD(d.c0, C0.data(), C0.bytes()));
  }
  // fp64 reference on the GPU: row-major C = A B is column-major C^T = B^T A^T.
  CUdeviceptr a64d, b64d, r64d;
  CUC(cuMemAlloc(&a64d, a64.size() * 8));
  CUC(cuMemAlloc(&b64d, b64.size() * 8));
  CUC(cuMemAlloc(&r64d, size_t(p.m) * p.n * 8));
  double one = 1.0, zero = 0.0;
  ref.r.resize(size_t(p.m) * p.n);
  ref.rabs.resize(size_t(p.m) * p.n);
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      for (double &x : a64)
        x = std::fabs(x);
      for (double &x : b64)
        x = std::fabs(x);
    }
    CUC(cuMemcpyHtoD(a64d, a64.data(), a64.size() * 8));
    CUC(cuMemcpyHtoD(b64d, b64.data(), b64.size() * 8));
    BLAS(cublasDgemm(gBlas, CUBLAS_OP_N, CUBLAS_OP_N, int(p.n), int(p.m),
                     int(p.k), &one, (double *)b64d, int(p.n), (double *)a64d,
                     int(p.k), &zero, (double *)r64d, int(p.n)));
    syncWithTimeout(120, "reference dgemm");
    CUC(cuMemcpyDtoH(pass == 0 ? ref.r.data() : ref.rabs.data(), r64d,
                     ref.r.size() * 8));
  }
  if (p.accumulate)
    for (size_t i = 0; i < ref.r.size(); ++i) {
      ref.r[i] += ref.c0[i];
      ref.rabs[i] += std::fabs(ref.c0[i]);
    }
  cuMemFree(a64d);
  cuMemFree(b64d);
  cuMemFree(r64d);
  return ref;
}

/// Output buffer before a run: NaN everywhere, or C0 when accumulating.
void prefill(const Problem &p, CUdeviceptr c, CUdeviceptr c0) {
  size_t count = size_t(p.m) * p.n;
  if (p.accumulate) {
    CUC(cuMemcpyDtoDAsync(c, c0, count * p.c.bytes, gStream));
  } else if (p.c.bytes == 4) {
    CUC(cuMemsetD32Async(c, tensorop::quietNaNBits(p.c.type), count,
                         gStream));
  } else {
    CUC(cuMemsetD16Async(c, uint16_t(tensorop::quietNaNBits(p.c.type)),
                         count, gStream));
  }
}

struct GemmCheck {
  double maxRatio = 0;     ///< max |C-R| / bound (MEASURE.md bound)
  double maxRatioFp32 = 0; ///< same with u = fp32's for the accumulation
  int64_t failures = 0;
  int64_t nans = 0;
  int64_t exactMismatches = 0;
  double relFrobenius = 0;
  json firstFailures = json::array();
  std::vector<int64_t> rowMod, colMod;
  json toJson(bool exact) const {
    json j;
    if (exact) {
      j["mismatches"] = exactMismatches;
      j["nan"] = nans;
    } else {
      j["max_error_ratio"] = maxRatio;
      j["max_error_ratio_fp32_accumulation_bound"] = maxRatioFp32;
      j["elements_over_bound"] = failures;
      j["nan"] = nans;
      j["relative_frobenius_error"] = relFrobenius;
    }
    if (!firstFailures.empty()) {
      j["first_failures"] = firstFailures;
      json rm = json::array(), cm = json::array();
      for (size_t i = 0; i < rowMod.size(); ++i)
        if (rowMod[i])
          rm.push_back({i, rowMod[i]});
      for (size_t i = 0; i < colMod.size(); ++i)
        if (colMod[i])
          cm.push_back({i, colMod[i]});
      j["failures_by_row_mod_64"] = rm;
      j["failures_by_col_mod_64"] = cm;
    }
    return j;
  }
  bool ok(bool exact) const {
    return exact ? exactMismatches == 0 && nans == 0
                 : failures == 0 && nans == 0;
  }
};

/// Compares rows [r0, r1) of C with the reference.
void compareRows(const Problem &p, const HostMatrix &C, const Reference &ref,
                 bool exact, int64_t r0, int64_t r1, GemmCheck &chk, double &num,
                 double &den) {
  chk.rowMod.assign(64, 0);
  chk.colMod.assign(64, 0);
  // The bound of MEASURE.md with u of the input type, and the same with
  // fp32's u (what an fp32 accumulation alone would allow), for the record.
  const tensorop::BoundSpec bound{2.0, p.k, p.a.u, p.c.u};
  const tensorop::BoundSpec bound32{
      2.0, p.k, tensorop::unitRoundoff(tensorop::ElementType::F32), p.c.u};
  for (int64_t i = r0; i < r1; ++i)
    for (int64_t j = 0; j < p.n; ++j) {
      size_t idx = size_t(i) * p.n + j;
      double v = C.get(idx), r = ref.r[idx];
      tensorop::ElementVerdict e =
          tensorop::judgeElement(v, r, bound(ref.rabs[idx], r));
      bool bad;
      if (e.nan) {
        ++chk.nans;
        bad = true;
      } else if (exact) {
        bad = v != C.roundTo(r);
        chk.exactMismatches += bad;
      } else {
        chk.maxRatio = std::max(chk.maxRatio, e.ratio);
        chk.maxRatioFp32 =
            std::max(chk.maxRatioFp32,
                     tensorop::judgeElement(v, r, bound32(ref.rabs[idx], r))
                         .ratio);
        num += (v - r) * (v - r);
        den += r * r;
        bad = e.overBound;
        chk.failures += bad;
      }
      if (bad) {
        ++chk.rowMod[i % 64];
        ++chk.colMod[j % 64];
        if (chk.firstFailures.size() < 8)
          chk.firstFailures.push_back(
              {{"row", i},
               {"col", j},
               {"got", std::isnan(v) ? std::string("nan") : std::to_string(v)},
               {"want", r}});
      }
    }
}

GemmCheck compare(const Problem &p, CUdeviceptr c, const Reference &ref,
              bool exact) {
  HostMatrix C{p.c};
  C.resize(size_t(p.m) * p.n);
  CUC(cuMemcpyDtoH(C.data(), c, C.bytes()));
  unsigned nthreads =
      std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  nthreads = unsigned(std::min<int64_t>(nthreads, p.m));
  std::vector<GemmCheck> parts(nthreads);
  std::vector<double> nums(nthreads, 0), dens(nthreads, 0);
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < nthreads; ++t) {
    int64_t r0 = p.m * t / nthreads, r1 = p.m * (t + 1) / nthreads;
    workers.emplace_back([&, t, r0, r1] {
      compareRows(p, C, ref, exact, r0, r1, parts[t], nums[t], dens[t]);
    });
  }
  for (std::thread &w : workers)
    w.join();
  GemmCheck chk;
  chk.rowMod.assign(64, 0);
  chk.colMod.assign(64, 0);
  double num = 0, den = 0;
  for (unsigned t = 0; t < nthreads; ++t) {
    const GemmCheck &q = parts[t];
    chk.maxRatio = std::max(chk.maxRatio, q.maxRatio);
    chk.maxRatioFp32 = std::max(chk.maxRatioFp32, q.maxRatioFp32);
    chk.failures += q.failures;
    chk.nans += q.nans;
    chk.exactMismatches += q.exactMismatches;
    for (int i = 0; i < 64; ++i) {
      chk.rowMod[i] += q.rowMod[i];
      chk.colMod[i] += q.colMod[i];
    }
    for (const json &f : q.firstFailures)
      if (chk.firstFailures.size() < 8)
        chk.firstFailures.push_back(f);
    num += nums[t];
    den += dens[t];
  }
  if (chk.nans)
    chk.maxRatio = INFINITY;
  chk.relFrobenius = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  return chk;
}

// ---- cuBLAS baseline
// -----------------------------------------------------------

cudaDataType blasType(const DType &t) {
  if (t.name == "bf16")
    return CUDA_R_16BF;
  if (t.name == "f16")
    return CUDA_R_16F;
  return CUDA_R_32F;
}

DeviceBuffers *gBuffers = nullptr;
void cublasRun(const Problem &p, CUdeviceptr c) {
  float one = 1.0f, beta = p.accumulate ? 1.0f : 0.0f;
  cublasComputeType_t compute =
      p.a.name == "tf32" ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  BLAS(cublasGemmEx(gBlas, CUBLAS_OP_N, CUBLAS_OP_N, int(p.n), int(p.m),
                    int(p.k), &one, (void *)gBuffers->b, blasType(p.a),
                    int(p.n), (void *)gBuffers->a, blasType(p.a), int(p.k),
                    &beta, (void *)c, blasType(p.c), int(p.n), compute,
                    CUBLAS_GEMM_DEFAULT));
}

using tensorop::median;

/// Dense peak of the H200/H100 SXM by input type (datasheet), TFLOP/s.
double peakTflops(const std::string &t) {
  if (t == "bf16" || t == "f16")
    return 990;
  if (t == "tf32")
    return 495;
  return 67;
}

std::string deviceName(CUdevice dev) {
  char name[256] = {0};
  cuDeviceGetName(name, sizeof(name), dev);
  return name;
}

} // namespace

std::string tensorop::parseGpuGemmProblem(const json &launchDesc,
                                          GpuGemmLaunchProblem &problem) {
  std::string aType, cType;
  try {
    problem.m = launchDesc.at("m");
    problem.n = launchDesc.at("n");
    problem.k = launchDesc.at("k");
    aType = launchDesc.at("a_dtype");
    cType = launchDesc.at("c_dtype");
    problem.accumulate = launchDesc.value("accumulate", false);
  } catch (const std::exception &e) {
    return e.what();
  }
  ElementType t;
  for (const std::string &name : {aType, cType})
    if (!parseElementType(name, t))
      return "unknown element type '" + name + "'";
  problem.aType = aType;
  problem.cType = cType;
  if (problem.m <= 0 || problem.n <= 0 || problem.k <= 0)
    return "m, n and k must be positive";
  // Host side: A and B with their fp64 copies, two references (random and
  // small-integer inputs, R and |A||B| each), C0 and a copy of C.
  uint64_t mk = saturatingMul(problem.m, problem.k),
           kn = saturatingMul(problem.k, problem.n),
           mn = saturatingMul(problem.m, problem.n);
  uint64_t bytes = saturatingAdd(saturatingMul(saturatingAdd(mk, kn), 12),
                                 saturatingMul(mn, 48));
  return checkBufferBudget(bytes, "verifying a " + std::to_string(problem.m) +
                                      "x" + std::to_string(problem.n) + "x" +
                                      std::to_string(problem.k) + " GEMM");
}

bool tensorop::runGpuGemmLaunch(const json &launchDesc,
                                const GpuGemmLaunchProblem &problem,
                                const GpuGemmLaunchLoader &load,
                                const std::string &cubin, CUdevice dev,
                                CUstream stream,
                                const GpuGemmRunOptions &options,
                                GpuRunnerFail fail, json &out) {
  gFail = fail;
  gStream = stream;
  Problem p;
  p.m = problem.m;
  p.n = problem.n;
  p.k = problem.k;
  p.a = dtypeOf(problem.aType);
  p.c = dtypeOf(problem.cType);
  p.accumulate = problem.accumulate;
  const int rounds = options.rounds;
  const uint64_t seed = options.seed;
  const bool doTime = options.time, doBlas = options.baseline;
  const double timeout = options.timeoutSeconds, targetMs = options.sampleMs;
  BLAS(cublasCreate(&gBlas));
  BLAS(cublasSetStream(gBlas, (cudaStream_t)gStream));
  BLAS(cublasSetMathMode(gBlas, CUBLAS_DEFAULT_MATH));
  int driver = 0, blasVersion = 0, sms = 0, ccMajor = 0, ccMinor = 0;
  cuDriverGetVersion(&driver);
  cublasGetVersion(gBlas, &blasVersion);
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  cuDeviceGetAttribute(&ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                       dev);
  cuDeviceGetAttribute(&ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                       dev);

  DeviceBuffers d;
  size_t aBytes = size_t(p.m) * p.k * p.a.bytes,
         bBytes = size_t(p.k) * p.n * p.a.bytes,
         cBytes = size_t(p.m) * p.n * p.c.bytes;
  CUC(cuMemAlloc(&d.a, aBytes));
  CUC(cuMemAlloc(&d.b, bBytes));
  CUC(cuMemAlloc(&d.c, cBytes));
  CUC(cuMemAlloc(&d.cBlas, cBytes));
  if (doBlas)
    CUC(cuMemAlloc(&d.cLt, cBytes));
  if (p.accumulate)
    CUC(cuMemAlloc(&d.c0, cBytes));
  gBuffers = &d;

  json launchInfo;
  std::function<void()> launch = load({d.a, d.b, d.c, 0, 0}, launchInfo);
  double flops = 2.0 * double(p.m) * double(p.n) * double(p.k);

  out["tool"] = "tensorop-gpu-runner";
  out["kernel"] = launchDesc.at("name");
  out["family"] = launchDesc.value("family", "");
  out["cubin"] = cubin;
  out["shape"] = {{"m", p.m}, {"n", p.n}, {"k", p.k}};
  out["types"] = {{"a", p.a.name},
                  {"b", p.a.name},
                  {"c", p.c.name},
                  {"accumulate", "f32"},
                  {"beta", p.accumulate ? 1 : 0}};
  out["launch"] = launchInfo;
  if (launchDesc.contains("tile"))
    out["tile"] = launchDesc["tile"];
  out["device"] = {{"name", deviceName(dev)},
                   {"compute_capability",
                    std::to_string(ccMajor) + "." + std::to_string(ccMinor)},
                   {"sms", sms},
                   {"driver", driver},
                   {"cublas", blasVersion},
                   {"cuda_headers", CUDA_VERSION}};

  // 1. random inputs, NaN-filled output.
  Reference ref = makeInputs(p, /*integers=*/false, seed, d);
  prefill(p, d.c, d.c0);
  launch();
  syncWithTimeout(timeout, "kernel (random inputs)");
  GemmCheck before = compare(p, d.c, ref, false);
  out["verification"] = {
      {"seed", seed},
      {"inputs", "uniform [-1, 1) rounded to " + p.a.name},
      {"reference", "cuBLAS dgemm (fp64) of the same rounded inputs"},
      {"bound", "|C-R| <= 2*K*u_in*(|A||B|) + u_out*|R|, u_in=" +
                    std::to_string(p.a.u) + " u_out=" + std::to_string(p.c.u)},
      {"output_prefill", p.accumulate ? "C0 (random, beta=1)" : "NaN"},
      {"random", before.toJson(false)}};

  // 2. small integers: exact results.
  Reference exactRef = makeInputs(p, /*integers=*/true, seed + 1, d);
  prefill(p, d.c, d.c0);
  launch();
  syncWithTimeout(timeout, "kernel (integer inputs)");
  GemmCheck exact = compare(p, d.c, exactRef, true);
  out["verification"]["small_integers"] = exact.toJson(true);
  bool verified = before.ok(false) && exact.ok(true);

  // 3. timing, alternating with cuBLAS, on fresh random inputs.
  if (doTime && verified) {
    ref = makeInputs(p, false, seed + 2, d);
    prefill(p, d.c, d.c0);
    prefill(p, d.cBlas, d.c0);
    CUevent e0, e1, e2, e3;
    CUC(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CUC(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    CUC(cuEventCreate(&e2, CU_EVENT_DEFAULT));
    CUC(cuEventCreate(&e3, CU_EVENT_DEFAULT));
    // The second baseline: cuBLASLt's fastest of its top-8 heuristic
    // algorithms for this problem (cublasGemmEx takes cuBLAS's first choice).
    cublasLtHandle_t ltHandle = nullptr;
    tensorop::CublasLtBest lt;
    bool doLt = false;
    json ltInfo;
    if (doBlas) {
      BLAS(cublasLtCreate(&ltHandle));
      prefill(p, d.cLt, d.c0);
      tensorop::CublasLtGemmSpec spec;
      spec.m = p.m;
      spec.n = p.n;
      spec.k = p.k;
      spec.inType = blasType(p.a);
      spec.outType = blasType(p.c);
      spec.compute = p.a.name == "tf32" ? CUBLAS_COMPUTE_32F_FAST_TF32
                                        : CUBLAS_COMPUTE_32F;
      spec.beta = p.accumulate ? 1.0f : 0.0f;
      spec.a = d.a;
      spec.b = d.b;
      spec.c = spec.d = d.cLt;
      auto alloc = [](size_t bytes) {
        CUdeviceptr ptr = 0;
        CUC(cuMemAlloc(&ptr, bytes));
        return ptr;
      };
      auto timeTrial = [&](const std::function<void()> &fn, int reps) {
        CUC(cuEventRecord(e0, gStream));
        for (int i = 0; i < reps; ++i)
          fn();
        CUC(cuEventRecord(e1, gStream));
        syncWithTimeout(timeout + reps * 2.0, "cuBLASLt trial");
        float trial = 0;
        CUC(cuEventElapsedTime(&trial, e0, e1));
        return double(trial) / reps;
      };
      std::string why = lt.choose(ltHandle, spec, gStream, alloc, timeTrial);
      doLt = why.empty();
      ltInfo = doLt ? json(lt.info()) : json{{"reason", why}};
    }
    auto ltRun = [&] {
      std::string error;
      if (!lt.run(error))
        die(2, error);
    };
    // The bits of one launch on the timing inputs: every timed launch must
    // reproduce them (a kernel whose reduction order depended on timing,
    // e.g. split-K partials added as they arrive, would not). Not with
    // accumulation: each launch adds to C.
    std::vector<unsigned char> firstBits;
    if (!p.accumulate) {
      launch();
      syncWithTimeout(timeout, "kernel (bitwise repeatability)");
      firstBits.resize(cBytes);
      CUC(cuMemcpyDtoH(firstBits.data(), d.c, cBytes));
    }
    tensorop::NvmlSampler nvml(pciBusId(dev));
    // calibrate the repetitions of one sample (~targetMs each)
    for (int w = 0; w < 3; ++w) {
      launch();
      if (doBlas)
        cublasRun(p, d.cBlas);
      if (doLt)
        ltRun();
    }
    syncWithTimeout(timeout, "warm-up");
    CUC(cuEventRecord(e0, gStream));
    launch();
    CUC(cuEventRecord(e1, gStream));
    syncWithTimeout(timeout, "calibration");
    float ms = 0;
    CUC(cuEventElapsedTime(&ms, e0, e1));
    int reps = std::max(1, std::min(1000, int(targetMs / std::max(ms, 1e-3f))));
    // One round: `reps` of ours, then `reps` of cuBLAS, back to back on the
    // stream; NVML is read halfway through each side's sample.
    struct Round {
      double oursSeconds = 0, blasSeconds = 0, ltSeconds = 0;
      std::optional<tensorop::GpuSample> oursState, blasState, ltState;
    };
    auto runRound = [&]() {
      Round r;
      CUC(cuEventRecord(e0, gStream));
      for (int i = 0; i < reps; ++i)
        launch();
      CUC(cuEventRecord(e1, gStream));
      if (doBlas)
        for (int i = 0; i < reps; ++i)
          cublasRun(p, d.cBlas);
      CUC(cuEventRecord(e2, gStream));
      if (doLt)
        for (int i = 0; i < reps; ++i)
          ltRun();
      CUC(cuEventRecord(e3, gStream));
      double half = ms * reps * 0.5e-3;
      waitEvent(e0, timeout, "timed round");
      std::this_thread::sleep_for(std::chrono::duration<double>(half));
      r.oursState = nvml.read();
      if (doBlas) {
        waitEvent(e1, timeout + reps * 2.0, "timed round");
        std::this_thread::sleep_for(std::chrono::duration<double>(half));
        r.blasState = nvml.read();
      }
      if (doLt) {
        waitEvent(e2, timeout + reps * 4.0, "timed round");
        std::this_thread::sleep_for(std::chrono::duration<double>(half));
        r.ltState = nvml.read();
      }
      syncWithTimeout(timeout + reps * 6.0, "timed round");
      float t1 = 0, t2 = 0;
      CUC(cuEventElapsedTime(&t1, e0, e1));
      r.oursSeconds = t1 * 1e-3 / reps;
      if (doBlas) {
        CUC(cuEventElapsedTime(&t2, e1, e2));
        r.blasSeconds = t2 * 1e-3 / reps;
      }
      if (doLt) {
        float t3 = 0;
        CUC(cuEventElapsedTime(&t3, e2, e3));
        r.ltSeconds = t3 * 1e-3 / reps;
      }
      return r;
    };
    // Warm up until the clocks settle (tensorop::SettleRule).
    tensorop::SettleRule rule;
    std::vector<double> warmClocks, warmTimes;
    // Every warm-up sample's rate, SM clock and power, in the JSON: what a
    // timing that starts on a cold GPU would have read (the tuner's search
    // used to, docs/benchmarks/gpu-tuning.md).
    json warmTflops = json::array(), warmMhz = json::array(),
         warmWatts = json::array();
    auto warmStart = std::chrono::steady_clock::now();
    double warmSeconds = 0;
    bool settled = false;
    int warmRounds = 0;
    while (!settled && warmSeconds < rule.maxSeconds) {
      Round r = runRound();
      ++warmRounds;
      warmTimes.push_back(r.oursSeconds);
      warmTflops.push_back(std::round(flops / r.oursSeconds / 1e9) / 1e3);
      if (r.oursState) {
        warmClocks.push_back(r.oursState->smClockMHz);
        warmMhz.push_back(r.oursState->smClockMHz);
        warmWatts.push_back(std::round(r.oursState->powerWatts));
      }
      warmSeconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - warmStart)
                        .count();
      settled = rule.settled(warmClocks, warmTimes, warmSeconds);
    }
    std::vector<double> ours, blas, lts;
    json gpuSamples = json::array();
    auto stateJson = [](const std::optional<tensorop::GpuSample> &g) {
      if (!g)
        return json(nullptr);
      json j = {{"sm_mhz", g->smClockMHz},
                {"mem_mhz", g->memClockMHz},
                {"power_w", std::round(g->powerWatts * 10) / 10},
                {"temp_c", g->temperatureC}};
      if (g->haveReasons)
        j["clock_event_reasons"] = g->clockEventReasons;
      return j;
    };
    std::vector<double> clocks, powers, temps;
    for (int r = 0; r < rounds; ++r) {
      Round round = runRound();
      ours.push_back(flops / round.oursSeconds / 1e12);
      json sample = {{"round", r},
                     {"tensorop_tflops", ours.back()},
                     {"tensorop_state", stateJson(round.oursState)}};
      if (doBlas) {
        blas.push_back(flops / round.blasSeconds / 1e12);
        sample["cublas_tflops"] = blas.back();
        sample["cublas_state"] = stateJson(round.blasState);
      }
      if (doLt) {
        lts.push_back(flops / round.ltSeconds / 1e12);
        sample["cublaslt_tflops"] = lts.back();
        sample["cublaslt_state"] = stateJson(round.ltState);
      }
      for (const auto &g : {round.oursState, round.blasState, round.ltState})
        if (g) {
          clocks.push_back(g->smClockMHz);
          powers.push_back(g->powerWatts);
          temps.push_back(g->temperatureC);
        }
      gpuSamples.push_back(std::move(sample));
    }
    auto spreadJson = [](const std::vector<double> &v) {
      tensorop::Spread s = tensorop::spreadOf(v);
      return json{{"min", s.min},
                  {"median", s.median},
                  {"max", s.max},
                  {"relative_spread", s.relative}};
    };
    double oursMed = median(ours);
    double oursBest = *std::max_element(ours.begin(), ours.end());
    json nvmlJson = {{"available", nvml.available()}};
    if (nvml.available()) {
      nvmlJson["driver"] = nvml.driverVersion();
      nvmlJson["sm_mhz"] = spreadJson(clocks);
      nvmlJson["power_w"] = spreadJson(powers);
      nvmlJson["temp_c"] = spreadJson(temps);
    } else {
      nvmlJson["reason"] = nvml.unavailableReason();
    }
    json timing = {{"performed", true},
                   {"method",
                    "CUDA events around `reps` back-to-back launches; "
                    "ours, cuBLAS and cuBLASLt alternate in each round (A B "
                    "C A B C); "
                    "NVML read halfway through each sample"},
                   {"caches", "warm (same buffers every repetition)"},
                   {"warmup",
                    {{"rule", rule.describe()},
                     {"settled", settled},
                     {"rounds", warmRounds},
                     {"seconds", warmSeconds},
                     {"tensorop_tflops", std::move(warmTflops)},
                     {"sm_mhz", std::move(warmMhz)},
                     {"power_w", std::move(warmWatts)}}},
                   {"rounds", rounds},
                   {"reps_per_sample", reps},
                   {"tensorop_tflops_median", oursMed},
                   {"tensorop_tflops_best", oursBest},
                   {"tensorop_ms_median", flops / (oursMed * 1e12) * 1e3},
                   {"tensorop_spread", spreadJson(ours)},
                   {"tensorop_samples", ours},
                   {"nvml", nvmlJson},
                   {"gpu_samples", gpuSamples}};
    bool tooFast = oursBest > 1.02 * peakTflops(p.a.name);
    timing["faster_than_peak"] = tooFast;
    if (doBlas) {
      double blasMed = median(blas);
      timing["cublas_tflops_median"] = blasMed;
      timing["cublas_tflops_best"] =
          *std::max_element(blas.begin(), blas.end());
      timing["cublas_spread"] = spreadJson(blas);
      timing["cublas_samples"] = blas;
      timing["cublas_call"] =
          std::string("cublasGemmEx(N, N, n, m, k; A,B ") + p.a.name + ", C " +
          p.c.name + ", compute " +
          (p.a.name == "tf32" ? "32F_FAST_TF32" : "32F") +
          ", CUBLAS_GEMM_DEFAULT), row-major via C^T = B^T A^T";
      timing["ratio_median"] = oursMed / blasMed;
      GemmCheck blasCheck = compare(p, d.cBlas, ref, false);
      timing["cublas_verification"] = blasCheck.toJson(false);
      timing["cublaslt_algorithm"] = ltInfo;
      if (doLt) {
        double ltMed = median(lts);
        timing["cublaslt_tflops_median"] = ltMed;
        timing["cublaslt_tflops_best"] =
            *std::max_element(lts.begin(), lts.end());
        timing["cublaslt_spread"] = spreadJson(lts);
        timing["cublaslt_samples"] = lts;
        timing["cublaslt_call"] =
            std::string("cublasLtMatmul(N, N, n, m, k; A,B ") + p.a.name +
            ", C " + p.c.name + "), the algorithm as cublaslt_algorithm says";
        timing["ratio_cublaslt_median"] = oursMed / ltMed;
        bool ltFaster = ltMed > blasMed;
        timing["best_library"] = ltFaster ? "cuBLASLt" : "cuBLAS";
        timing["ratio_best_library_median"] =
            oursMed / (ltFaster ? ltMed : blasMed);
        // cuBLASLt's output, from one fresh call (the timed calls
        // accumulate when beta is 1).
        prefill(p, d.cLt, d.c0);
        ltRun();
        syncWithTimeout(timeout, "cuBLASLt check");
        timing["cublaslt_verification"] =
            compare(p, d.cLt, ref, false).toJson(false);
      }
    }
    // 4. verify the buffers the timed runs wrote, and that the last timed
    // launch wrote the same bits as the first launch on these inputs.
    GemmCheck after = compare(p, d.c, ref, false);
    out["verification"]["after_timing"] = after.toJson(false);
    bool repeatable = true;
    if (!firstBits.empty()) {
      std::vector<unsigned char> lastBits(cBytes);
      CUC(cuMemcpyDtoH(lastBits.data(), d.c, cBytes));
      size_t differ = 0, eb = p.c.bytes;
      for (size_t i = 0; i < cBytes; i += eb)
        differ += std::memcmp(&firstBits[i], &lastBits[i], eb) != 0;
      repeatable = differ == 0;
      out["verification"]["repeatable_bits"] = {
          {"checked", true},
          {"identical", repeatable},
          {"differing_elements", differ},
          {"how", "C of the first launch on the timing inputs against C "
                  "after every timed launch"}};
    } else {
      out["verification"]["repeatable_bits"] = {
          {"checked", false}, {"why", "accumulation: each launch adds to C"}};
    }
    verified = verified && after.ok(false) && !tooFast && repeatable;
    out["timing"] = timing;
  } else {
    out["timing"] = {{"performed", false},
                     {"reason", verified ? "--no-time" : "not verified"}};
  }
  out["verified"] = verified;
  if (out["timing"].value("performed", false))
    printTimingSummary(out);
  return verified;
}

