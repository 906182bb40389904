//===- GpuRunner.cpp - Verify and time a generated kernel -----------------===//
//
//   tensorop-gpu-runner LAUNCH.json [--rounds N] [--seed S] [--no-time]
//                       [--no-cublas|--no-cudnn] [--out FILE]
//                       [--timeout SECONDS] [--sample-ms MS]
//                       [--input-type-bound] [--unfused PLAIN.json]
//   tensorop-gpu-runner --device-info
//
// The measurement process for GPU kernels (shared/MEASURE.md): loads the
// cubin named by a launch description (what `tensorop gen` and the NVIDIA
// emitters write: kernel name, shape, types, parameters, grid, threads,
// shared memory), runs it on fresh seeded inputs with a NaN-filled output,
// compares every element with an fp64 reference of the same rounded inputs
// (cuBLAS dgemm) under the K-scaled bound, repeats with small integers
// (exact results), then times it, cuBLAS (cublasGemmEx, same types and
// layout) and cuBLASLt (the fastest of its top-8 heuristic algorithms,
// lib/GPU/Runtime/CublasLtBest.cpp) alternately with CUDA events and
// verifies the timed outputs again. A launch description with a "before"
// list (the pad copies of a GEMM whose rows TMA cannot describe, into a
// "workspace" the runner allocates once) launches those kernels before
// ours every time: they are verified and timed together.
// Timing starts once the clocks have settled (tensorop::SettleRule); each
// sample carries the SM clock, power and temperature read through NVML
// (dlopen'ed; its absence is reported, not fatal), and the timing reports
// min / median / max and the relative spread (also as text on stderr).
// A convolution's launch description (a "conv" object) goes through
// lib/GPU/Runtime/GpuConvRunner.cpp instead (fp64 host reference, cuDNN's
// legacy API as the baseline); this file only loads its kernel. A GEMM with a
// fused epilogue (an "epilogue" list, bias and R parameters) goes through
// lib/GPU/Runtime/GpuEpilogueRunner.cpp (the steps in fp64, cuBLASLt with
// the same epilogue; --unfused names our kernel of the same GEMM without
// one, timed alongside).
// One JSON object goes to stdout (and --out). Exit status: 0 verified, 1 not
// verified, 2 setup error, 3 the kernel did not finish (hang).
//
// It uses only the CUDA driver API (through libtensorop_cuda_runtime, the
// same mgpu* functions generated host code calls) and cuBLAS, so a binary
// built with -static-libstdc++ on the build machine runs on the GPU machine.
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/CublasLtBest.h"
#include "tensorop/GPU/CudaRuntime.h"
#include "tensorop/GPU/GpuConvRunner.h"
#include "tensorop/GPU/GpuEpilogueRunner.h"
#include "tensorop/GPU/NvmlSampler.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/Check.h"
#include "tensorop/Verify/Numerics.h"
#include "tensorop/Verify/Settle.h"
#include "tensorop/Verify/Timing.h"

// Only for the version string: the runner links no LLVM on purpose (it runs
// on the GPU machine, which has none).
#include "llvm/Config/llvm-config.h"

#include <cublas_v2.h>
#include <cublasLt.h>
#include <cuda.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using json = nlohmann::ordered_json;

namespace {

[[noreturn]] void die(int code, const std::string &msg) {
  json j = {{"error", msg}};
  std::printf("%s\n", j.dump(1).c_str());
  std::fflush(stdout);
  std::_Exit(code);
}

void cuCheck(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return;
  const char *name = nullptr;
  cuGetErrorName(r, &name);
  die(2, std::string(what) + " failed: " + (name ? name : "?"));
}
#define CUC(x) cuCheck((x), #x)

void blasCheck(cublasStatus_t s, const char *what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    die(2, std::string(what) + " failed: cuBLAS status " + std::to_string(s));
}
#define BLAS(x) blasCheck((x), #x)

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

CUstream gStream = nullptr;
cublasHandle_t gBlas = nullptr;

void syncWithTimeout(double seconds, const char *what) {
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    CUresult r = cuStreamQuery(gStream);
    if (r == CUDA_SUCCESS)
      return;
    if (r != CUDA_ERROR_NOT_READY)
      cuCheck(r, what);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count() > seconds)
      die(3, std::string(what) + ": the kernel did not finish within " +
                 std::to_string(int(seconds)) + " s (hang?)");
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

/// Waits (polling, like syncWithTimeout) until `event` has completed.
void waitEvent(CUevent event, double seconds, const char *what) {
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    CUresult r = cuEventQuery(event);
    if (r == CUDA_SUCCESS)
      return;
    if (r != CUDA_ERROR_NOT_READY)
      cuCheck(r, what);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count() > seconds)
      die(3, std::string(what) + ": the kernel did not finish within " +
                 std::to_string(int(seconds)) + " s (hang?)");
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
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

struct Check {
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
                 bool exact, int64_t r0, int64_t r1, Check &chk, double &num,
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

Check compare(const Problem &p, CUdeviceptr c, const Reference &ref,
              bool exact) {
  HostMatrix C{p.c};
  C.resize(size_t(p.m) * p.n);
  CUC(cuMemcpyDtoH(C.data(), c, C.bytes()));
  unsigned nthreads =
      std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  nthreads = unsigned(std::min<int64_t>(nthreads, p.m));
  std::vector<Check> parts(nthreads);
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
  Check chk;
  chk.rowMod.assign(64, 0);
  chk.colMod.assign(64, 0);
  double num = 0, den = 0;
  for (unsigned t = 0; t < nthreads; ++t) {
    const Check &q = parts[t];
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

// ---- our kernel
// ------------------------------------------------------------------

struct Kernel {
  void *module = nullptr;
  void *function = nullptr;
  std::vector<uint64_t> values; ///< one 64-bit value per parameter
  std::vector<void *> params;
  int64_t grid[3] = {1, 1, 1};
  int64_t cluster[3] = {1, 1, 1}; ///< thread-block cluster shape (CTAs)
  int64_t threads = 0;
  int32_t smem = 0;
  /// Kernels launched before this one, in order (the pad copies of an
  /// unaligned GEMM's A and B: the launch description's "before" list).
  std::vector<Kernel> before;
};

std::vector<char> readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    die(2, "cannot read " + path);
  return std::vector<char>((std::istreambuf_iterator<char>(f)),
                           std::istreambuf_iterator<char>());
}

/// The parameters, grid and block of `launch` (a launch description or one
/// of its "before" entries) for `kern.function`; `buffer` resolves the
/// tensors its parameters name.
template <typename Buffer>
void setupLaunch(Kernel &kern, const json &launch, Buffer buffer) {
  for (const json &param : launch.at("params")) {
    std::string kind = param.at("kind");
    std::string pname = param.at("name");
    if (kind == "ptr") {
      kern.values.push_back(buffer(pname));
    } else if (kind == "tensormap") {
      auto dims = param.at("dims");
      auto box = param.at("box");
      void *map = tensoropGpuTensorMap2D(
          reinterpret_cast<void *>(buffer(param.at("tensor"))),
          param.at("dtype").get<int64_t>(), dims[0].get<int64_t>(),
          dims[1].get<int64_t>(), param.at("strides_bytes")[0].get<int64_t>(),
          box[0].get<int64_t>(), box[1].get<int64_t>(),
          param.value("swizzle", 0));
      if (!map)
        die(2, "cannot encode tensor map '" + pname +
                   "': " + tensoropGpuTakeLastError());
      kern.values.push_back(reinterpret_cast<uint64_t>(map));
    } else if (kind == "tensormap_im2col") {
      // A convolution's NHWC input walked in im2col order (dims are
      // {C, W, H, N}; element_strides {1, W, H, 1} the traversal strides).
      auto dims = param.at("dims");
      void *map = tensoropGpuTensorMapIm2colNHWC(
          reinterpret_cast<void *>(buffer(param.at("tensor"))),
          param.at("dtype").get<int64_t>(), dims[3].get<int64_t>(),
          dims[2].get<int64_t>(), dims[1].get<int64_t>(),
          dims[0].get<int64_t>(), param.at("lower")[0].get<int64_t>(),
          param.at("lower")[1].get<int64_t>(),
          param.at("upper")[0].get<int64_t>(),
          param.at("upper")[1].get<int64_t>(),
          param.at("element_strides")[1].get<int64_t>(),
          param.at("element_strides")[2].get<int64_t>(),
          param.at("channels").get<int64_t>(),
          param.at("pixels").get<int64_t>(), param.value("swizzle", 0));
      if (!map)
        die(2, "cannot encode im2col tensor map '" + pname +
                   "': " + tensoropGpuTakeLastError());
      kern.values.push_back(reinterpret_cast<uint64_t>(map));
    } else {
      die(2, "unknown parameter kind '" + kind + "'");
    }
  }
  for (uint64_t &v : kern.values)
    kern.params.push_back(&v);
  for (int i = 0; i < 3; ++i)
    kern.grid[i] = launch.at("grid")[i];
  if (launch.contains("cluster")) {
    // A kernel built for clusters (.explicitcluster) must be launched as
    // clusters of exactly that shape, and the grid must hold whole clusters.
    for (int i = 0; i < 3; ++i) {
      kern.cluster[i] = launch.at("cluster").at(i);
      if (kern.cluster[i] < 1 || kern.cluster[i] > 8 ||
          kern.grid[i] % kern.cluster[i])
        die(2, "launch 'cluster' must divide 'grid', at most 8 CTAs a side");
    }
  }
  kern.threads = launch.at("threads");
  kern.smem = launch.at("shared_bytes");
}

Kernel loadKernel(const json &launch, const std::string &cubinPath,
                  const DeviceBuffers &d) {
  Kernel kern;
  static std::vector<char> image; // the module keeps no copy; keep ours
  image = readFile(cubinPath);
  image.push_back(0); // PTX text must be NUL-terminated
  kern.module = mgpuModuleLoad(image.data(), image.size());
  if (!kern.module)
    die(2, "cannot load " + cubinPath + ": " + tensoropGpuTakeLastError());
  // The workspace of the pad copies (A_pad, B_pad at their offsets), once:
  // the generated entry point takes it from the runtime's pool at each
  // call; what is timed here are the kernels.
  CUdeviceptr workspace = 0;
  if (launch.contains("workspace")) {
    const json &ws = launch.at("workspace");
    CUC(cuMemAlloc(&workspace, ws.at("bytes").get<size_t>()));
  }
  auto buffer = [&](const std::string &t) -> CUdeviceptr {
    if (t == "A")
      return d.a;
    if (t == "B")
      return d.b;
    if (t == "C")
      return d.c;
    if (t == "bias" && d.bias)
      return d.bias;
    if (t == "R" && d.r)
      return d.r;
    if ((t == "A_pad" || t == "B_pad") && workspace &&
        launch.at("workspace").contains(t))
      return workspace + launch.at("workspace").at(t).get<CUdeviceptr>();
    die(2, "parameter names unknown tensor '" + t + "'");
  };
  auto function = [&](const json &desc) {
    std::string name = desc.at("name");
    void *f = mgpuModuleGetFunction(kern.module, name.c_str());
    if (!f)
      die(2, "no kernel '" + name + "' in " + cubinPath);
    return f;
  };
  if (launch.contains("before"))
    for (const json &desc : launch.at("before")) {
      Kernel pre;
      pre.module = kern.module;
      pre.function = function(desc);
      setupLaunch(pre, desc, buffer);
      kern.before.push_back(std::move(pre));
    }
  kern.function = function(launch);
  setupLaunch(kern, launch, buffer);
  return kern;
}

/// How many clusters of the kernel's shape can be resident at once (0 when
/// the kernel uses no clusters).
int64_t maxActiveClusters(const Kernel &kern) {
  if (kern.cluster[0] * kern.cluster[1] * kern.cluster[2] <= 1)
    return 0;
  int32_t clusters = tensoropGpuMaxActiveClusters(
      kern.function, kern.cluster[0], kern.cluster[1], kern.cluster[2],
      kern.grid[0], kern.grid[1], kern.grid[2], kern.threads, 1, 1, kern.smem);
  if (clusters < 0)
    die(2, std::string("cluster occupancy: ") + tensoropGpuTakeLastError());
  return clusters;
}

void launch(const Kernel &kern) {
  for (const Kernel &pre : kern.before)
    launch(pre);
  if (kern.cluster[0] * kern.cluster[1] * kern.cluster[2] > 1)
    mgpuLaunchClusterKernel(
        kern.function, kern.cluster[0], kern.cluster[1], kern.cluster[2],
        kern.grid[0], kern.grid[1], kern.grid[2], kern.threads, 1, 1,
        kern.smem, gStream, const_cast<void **>(kern.params.data()), nullptr,
        kern.params.size());
  else
    mgpuLaunchKernel(kern.function, kern.grid[0], kern.grid[1], kern.grid[2],
                     kern.threads, 1, 1, kern.smem, gStream,
                     const_cast<void **>(kern.params.data()), nullptr,
                     kern.params.size());
  const char *err = tensoropGpuTakeLastError();
  if (*err)
    die(2, std::string("launch: ") + err);
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

/// A convolution's launch description: the protocol is
/// lib/GPU/Runtime/GpuConvRunner.cpp's; this loads our kernel for it.
int runConvolution(const json &launchDesc, const std::string &launchPath,
                   const std::string &cubin,
                   const tensorop::GpuConvRunOptions &options,
                   const std::string &outPath) {
  tensorop::GpuConvProblem problem;
  std::string error = tensorop::parseGpuConvProblem(launchDesc, problem);
  if (!error.empty())
    die(2, launchPath + ": " + error);
  CUC(cuInit(0));
  CUdevice dev;
  CUC(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CUC(cuDevicePrimaryCtxRetain(&ctx, dev));
  CUC(cuCtxSetCurrent(ctx));
  CUC(cuStreamCreate(&gStream, CU_STREAM_NON_BLOCKING));
  static DeviceBuffers d;
  static Kernel kern;
  auto load = [&](CUdeviceptr input, CUdeviceptr filter, CUdeviceptr output) {
    d.a = input;
    d.b = filter;
    d.c = output;
    kern = loadKernel(launchDesc, cubin, d);
    return std::function<void()>([] { launch(kern); });
  };
  json out;
  bool verified = tensorop::runGpuConvLaunch(launchDesc, problem, load, dev,
                                             gStream, options, die, out);
  out["cubin"] = cubin;
  out["launch"] = {{"grid", launchDesc.at("grid")},
                   {"threads", kern.threads},
                   {"shared_bytes", kern.smem}};
  if (out["timing"].value("performed", false)) {
    const json &t = out["timing"];
    std::fprintf(stderr, "%s: %d rounds x %d reps, warm-up %s\n",
                 out.value("kernel", "").c_str(), t.value("rounds", 0),
                 t.value("reps_per_sample", 0),
                 t["warmup"].value("settled", false) ? "settled"
                                                     : "NOT settled");
    for (const char *side : {"tensorop", "cudnn"})
      if (t.contains(std::string(side) + "_spread")) {
        const json &sp = t[std::string(side) + "_spread"];
        std::fprintf(stderr,
                     "  %-8s TFLOP/s min %.1f  median %.1f  max %.1f  spread "
                     "%.1f%%\n",
                     side, sp.value("min", 0.0), sp.value("median", 0.0),
                     sp.value("max", 0.0),
                     100 * sp.value("relative_spread", 0.0));
      }
    if (t.contains("ratio_median"))
      std::fprintf(stderr, "  ratio of medians %.3f (cuDNN legacy, %s)\n",
                   t.value("ratio_median", 0.0),
                   out["baseline"].value("algorithm", "").c_str());
    if (t.contains("graph") && t["graph"].value("performed", false))
      std::fprintf(stderr,
                   "  CUDA graphs: tensorop %.1f, cuDNN %.1f TFLOP/s "
                   "(medians), ratio %.3f\n",
                   t["graph"].value("tensorop_tflops_median", 0.0),
                   t["graph"].value("cudnn_tflops_median", 0.0),
                   t["graph"].value("ratio_median", 0.0));
  }
  std::string text = out.dump(1);
  std::printf("%s\n", text.c_str());
  if (!outPath.empty()) {
    std::ofstream f(outPath);
    f << text << "\n";
  }
  return verified ? 0 : 1;
}

/// A GEMM with a fused epilogue: the protocol is
/// lib/GPU/Runtime/GpuEpilogueRunner.cpp's; this loads our kernels for it
/// (and, with --unfused, the same GEMM's kernel without the epilogue).
int runEpilogueGemm(const json &launchDesc, const std::string &launchPath,
                    const std::string &cubin, const std::string &plainPath,
                    const tensorop::GpuEpilogueRunOptions &options,
                    const std::string &outPath) {
  tensorop::GpuEpilogueProblem problem;
  std::string error = tensorop::parseGpuEpilogueProblem(launchDesc, problem);
  if (!error.empty())
    die(2, launchPath + ": " + error);
  json plainDesc;
  std::string plainCubin;
  if (!plainPath.empty()) {
    std::ifstream f(plainPath);
    if (!f)
      die(2, "cannot read " + plainPath);
    try {
      plainDesc = json::parse(f);
    } catch (const std::exception &e) {
      die(2, plainPath + ": " + e.what());
    }
    if (plainDesc.contains("epilogue") || plainDesc.value("m", 0) != problem.m ||
        plainDesc.value("n", 0) != problem.n ||
        plainDesc.value("k", 0) != problem.k ||
        plainDesc.value("a_dtype", "") != launchDesc.value("a_dtype", "") ||
        plainDesc.value("c_dtype", "") != launchDesc.value("c_dtype", ""))
      die(2, plainPath + ": --unfused needs the same GEMM (shape, types) "
                         "without an epilogue");
    plainCubin = plainDesc.value("cubin", "");
    if (!plainCubin.empty() && plainCubin[0] != '/' &&
        plainPath.find('/') != std::string::npos)
      plainCubin = plainPath.substr(0, plainPath.rfind('/')) + "/" + plainCubin;
  }
  CUC(cuInit(0));
  CUdevice dev;
  CUC(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CUC(cuDevicePrimaryCtxRetain(&ctx, dev));
  CUC(cuCtxSetCurrent(ctx));
  CUC(cuStreamCreate(&gStream, CU_STREAM_NON_BLOCKING));
  // Each load keeps its kernel (parameters point into it) for the run.
  static std::vector<std::unique_ptr<Kernel>> kernels;
  auto loader = [&](const json &desc, const std::string &file) {
    return tensorop::GpuGemmKernelLoader(
        [&desc, file](const tensorop::GpuGemmOperands &ops) {
          DeviceBuffers d;
          d.a = ops.a;
          d.b = ops.b;
          d.c = ops.c;
          d.bias = ops.bias;
          d.r = ops.residual;
          kernels.push_back(std::make_unique<Kernel>(loadKernel(desc, file, d)));
          Kernel *kern = kernels.back().get();
          return std::function<void()>([kern] { launch(*kern); });
        });
  };
  json out;
  bool verified = tensorop::runGpuEpilogueLaunch(
      launchDesc, problem, loader(launchDesc, cubin),
      plainPath.empty() ? tensorop::GpuGemmKernelLoader()
                        : loader(plainDesc, plainCubin),
      dev, gStream, options, die, out);
  out["cubin"] = cubin;
  if (!plainPath.empty())
    out["unfused"]["launch"] = plainPath;
  std::string text = out.dump(1);
  std::printf("%s\n", text.c_str());
  if (!outPath.empty()) {
    std::ofstream f(outPath);
    f << text << "\n";
  }
  return verified ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  std::string launchPath, outPath, cubinOverride, unfusedPath;
  int rounds = 10;
  uint64_t seed = 42;
  bool doTime = true, doBlas = true, deviceInfo = false, inputTypeBound = false;
  double timeout = 60, targetMs = 10;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        die(2, "option " + a + " needs a value");
      return argv[++i];
    };
    if (a == "--rounds")
      rounds = std::max(1, std::atoi(value().c_str()));
    else if (a == "--seed")
      seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (a == "--no-time")
      doTime = false;
    else if (a == "--no-cublas" || a == "--no-cudnn")
      doBlas = false;
    else if (a == "--input-type-bound")
      inputTypeBound = true;
    else if (a == "--device-info")
      deviceInfo = true;
    else if (a == "--out")
      outPath = value();
    else if (a == "--cubin")
      cubinOverride = value();
    else if (a == "--unfused")
      unfusedPath = value();
    else if (a == "--timeout")
      timeout = std::atof(value().c_str());
    else if (a == "--sample-ms")
      targetMs = std::atof(value().c_str());
    else if (a == "--version") {
      std::printf("tensorop-gpu-runner (TensorOp) " TENSOROP_VERSION "\n"
                  "  built with CUDA %d.%d; its kernels come from LLVM and "
                  "MLIR " LLVM_VERSION_STRING " (the runner links no LLVM)\n",
                  CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
      return 0;
    } else if (a == "-h" || a == "--help") {
      std::printf(
          "usage: tensorop-gpu-runner LAUNCH.json [--rounds N] [--seed S] "
          "[--no-time] [--no-cublas|--no-cudnn] [--cubin FILE] [--out FILE] "
          "[--timeout S] [--sample-ms MS] [--input-type-bound (convolutions)] "
          "[--unfused PLAIN.launch.json (fused epilogues)]\n"
          "       tensorop-gpu-runner --device-info   (the GPU, as JSON; "
          "exit 2 if there is none)\n"
          "       tensorop-gpu-runner --version\n");
      return 0;
    } else if (!a.empty() && a[0] == '-')
      die(2, "unknown option " + a);
    else
      launchPath = a;
  }
  if (deviceInfo) {
    // What the tuner checks before it starts, and records with results.
    CUC(cuInit(0));
    CUdevice dev;
    CUC(cuDeviceGet(&dev, 0));
    int driver = 0, sms = 0, major = 0, minor = 0;
    cuDriverGetVersion(&driver);
    cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                         dev);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                         dev);
    json j = {{"name", deviceName(dev)},
              {"compute_capability",
               std::to_string(major) + "." + std::to_string(minor)},
              {"sms", sms},
              {"driver", driver}};
    std::printf("%s\n", j.dump().c_str());
    return 0;
  }
  if (launchPath.empty())
    die(2, "usage: tensorop-gpu-runner LAUNCH.json [options] (--help)");
  json launchDesc;
  try {
    std::ifstream f(launchPath);
    if (!f)
      die(2, "cannot read " + launchPath);
    launchDesc = json::parse(f);
  } catch (const std::exception &e) {
    die(2, launchPath + ": " + e.what());
  }
  std::string dir = launchPath.find('/') == std::string::npos
                        ? "."
                        : launchPath.substr(0, launchPath.rfind('/'));
  std::string cubin = cubinOverride;
  if (cubin.empty()) {
    cubin = launchDesc.value("cubin", "");
    if (cubin.empty())
      die(2, launchPath + " names no cubin");
    if (cubin[0] != '/')
      cubin = dir + "/" + cubin;
  }
  if (launchDesc.contains("epilogue"))
    return runEpilogueGemm(launchDesc, launchPath, cubin, unfusedPath,
                           {rounds, seed, doTime, doBlas, timeout, targetMs},
                           outPath);
  if (!unfusedPath.empty())
    die(2, "--unfused applies to kernels with a fused epilogue");
  if (launchDesc.contains("conv"))
    return runConvolution(launchDesc, launchPath, cubin,
                          {rounds, seed, doTime, doBlas, timeout, targetMs,
                           inputTypeBound},
                          outPath);

  Problem p;
  try {
    p.m = launchDesc.at("m");
    p.n = launchDesc.at("n");
    p.k = launchDesc.at("k");
    p.a = dtypeOf(launchDesc.at("a_dtype"));
    p.c = dtypeOf(launchDesc.at("c_dtype"));
    p.accumulate = launchDesc.value("accumulate", false);
  } catch (const std::exception &e) {
    die(2, launchPath + ": " + e.what());
  }
  if (p.m <= 0 || p.n <= 0 || p.k <= 0)
    die(2, launchPath + ": m, n and k must be positive");
  {
    // Host side: A and B with their fp64 copies, two references (random and
    // small-integer inputs, R and |A||B| each), C0 and a copy of C.
    using tensorop::saturatingAdd;
    using tensorop::saturatingMul;
    uint64_t mk = saturatingMul(p.m, p.k), kn = saturatingMul(p.k, p.n),
             mn = saturatingMul(p.m, p.n);
    uint64_t bytes = saturatingAdd(saturatingMul(saturatingAdd(mk, kn), 12),
                                   saturatingMul(mn, 48));
    std::string tooBig = tensorop::checkBufferBudget(
        bytes, "verifying a " + std::to_string(p.m) + "x" +
                   std::to_string(p.n) + "x" + std::to_string(p.k) + " GEMM");
    if (!tooBig.empty())
      die(2, launchPath + ": " + tooBig);
  }

  CUC(cuInit(0));
  CUdevice dev;
  CUC(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CUC(cuDevicePrimaryCtxRetain(&ctx, dev));
  CUC(cuCtxSetCurrent(ctx));
  CUC(cuStreamCreate(&gStream, CU_STREAM_NON_BLOCKING));
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

  Kernel kern = loadKernel(launchDesc, cubin, d);
  double flops = 2.0 * double(p.m) * double(p.n) * double(p.k);

  json out;
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
  out["launch"] = {{"grid", launchDesc.at("grid")},
                   {"cluster", kern.cluster},
                   {"threads", kern.threads},
                   {"shared_bytes", kern.smem}};
  if (int64_t resident = maxActiveClusters(kern))
    out["launch"]["max_active_clusters"] = resident;
  if (launchDesc.contains("before")) {
    // Timed and verified together with the GEMM: every launch runs them.
    json names = json::array();
    for (const json &pre : launchDesc.at("before"))
      names.push_back(pre.at("name"));
    out["launch"]["before"] = names;
    out["launch"]["workspace_bytes"] = launchDesc.at("workspace").at("bytes");
  }
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
  launch(kern);
  syncWithTimeout(timeout, "kernel (random inputs)");
  Check before = compare(p, d.c, ref, false);
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
  launch(kern);
  syncWithTimeout(timeout, "kernel (integer inputs)");
  Check exact = compare(p, d.c, exactRef, true);
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
      launch(kern);
      syncWithTimeout(timeout, "kernel (bitwise repeatability)");
      firstBits.resize(cBytes);
      CUC(cuMemcpyDtoH(firstBits.data(), d.c, cBytes));
    }
    tensorop::NvmlSampler nvml(pciBusId(dev));
    // calibrate the repetitions of one sample (~targetMs each)
    for (int w = 0; w < 3; ++w) {
      launch(kern);
      if (doBlas)
        cublasRun(p, d.cBlas);
      if (doLt)
        ltRun();
    }
    syncWithTimeout(timeout, "warm-up");
    CUC(cuEventRecord(e0, gStream));
    launch(kern);
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
        launch(kern);
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
    auto warmStart = std::chrono::steady_clock::now();
    double warmSeconds = 0;
    bool settled = false;
    int warmRounds = 0;
    while (!settled && warmSeconds < rule.maxSeconds) {
      Round r = runRound();
      ++warmRounds;
      warmTimes.push_back(r.oursSeconds);
      if (r.oursState)
        warmClocks.push_back(r.oursState->smClockMHz);
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
                     {"seconds", warmSeconds}}},
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
      Check blasCheck = compare(p, d.cBlas, ref, false);
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
    Check after = compare(p, d.c, ref, false);
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
  std::string text = out.dump(1);
  std::printf("%s\n", text.c_str());
  if (!outPath.empty()) {
    std::ofstream f(outPath);
    f << text << "\n";
  }
  return verified ? 0 : 1;
}
