//===- GpuEpilogueRunner.cpp - The runner's fused-epilogue GEMMs ----------===//

#include "tensorop/GPU/GpuEpilogueRunner.h"
#include "tensorop/GPU/CublasLtBest.h"
#include "tensorop/GPU/GpuCheck.h"
#include "tensorop/GPU/NvmlSampler.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/Check.h"
#include "tensorop/Verify/Settle.h"
#include "tensorop/Verify/Timing.h"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>
#include <thread>

using namespace tensorop;
using json = nlohmann::ordered_json;

std::string tensorop::parseGpuEpilogueProblem(const json &launch,
                                              GpuEpilogueProblem &p) {
  try {
    p.m = launch.at("m");
    p.n = launch.at("n");
    p.k = launch.at("k");
    if (p.m < 1 || p.n < 1 || p.k < 1)
      return "m, n and k must be positive";
    if (!parseElementType(launch.at("a_dtype"), p.input) ||
        !parseElementType(launch.at("c_dtype"), p.output))
      return "unknown a_dtype or c_dtype";
    if (launch.value("accumulate", false))
      return "epilogue: the runner checks kernels that overwrite C "
             "(accumulate is false)";
    p.texts = launch.at("epilogue").get<std::vector<std::string>>();
    std::string why = parseEpilogueRefSteps(p.texts, p.steps);
    if (!why.empty())
      return "epilogue: " + why;
    for (const EpilogueRefStep &s : p.steps) {
      p.hasBias |= s.kind == EpilogueRefStep::BiasN ||
                   s.kind == EpilogueRefStep::BiasM;
      p.biasAlongM |= s.kind == EpilogueRefStep::BiasM;
      p.hasResidual |= s.kind == EpilogueRefStep::Residual;
    }
    bool biasParam = false, residualParam = false;
    for (const json &param : launch.at("params")) {
      if (param.value("kind", "") != "ptr")
        continue;
      biasParam |= param.value("name", "") == "bias";
      residualParam |= param.value("name", "") == "R";
    }
    if (biasParam != p.hasBias || residualParam != p.hasResidual)
      return "epilogue: the kernel's parameters (bias " +
             std::string(biasParam ? "yes" : "no") + ", R " +
             (residualParam ? "yes" : "no") +
             ") do not match its steps (bias " + (p.hasBias ? "yes" : "no") +
             ", residual " + (p.hasResidual ? "yes" : "no") + ")";
  } catch (const std::exception &e) {
    return std::string("epilogue launch description: ") + e.what();
  }
  return "";
}

namespace {

cudaDataType cudaType(ElementType t) {
  return t == ElementType::BF16  ? CUDA_R_16BF
         : t == ElementType::F16 ? CUDA_R_16F
                                 : CUDA_R_32F;
}

/// A device matrix with its host copy (storage bits) and the rounded values
/// the reference uses.
struct Operand {
  Operand(ElementType type, size_t count) : type(type), count(count) {}
  ElementType type;
  size_t count;
  CUdeviceptr device = 0;
  std::vector<uint16_t> bits;
  std::vector<float> f32;
  std::vector<double> value; ///< the stored values, exactly
  size_t bytes() const { return count * storageBytes(type); }
  void *host() {
    return storageBytes(type) == 2 ? static_cast<void *>(bits.data())
                                   : static_cast<void *>(f32.data());
  }
  /// Stores `values` rounded to the type.
  void set(const std::vector<float> &values) {
    value.resize(count);
    if (storageBytes(type) == 2)
      bits.resize(count);
    else
      f32.resize(count);
    for (size_t i = 0; i < count; ++i) {
      if (type == ElementType::BF16) {
        bits[i] = floatToBf16(values[i]);
        value[i] = bf16ToFloat(bits[i]);
      } else if (type == ElementType::F16) {
        bits[i] = floatToHalf(values[i]);
        value[i] = halfToFloat(bits[i]);
      } else {
        f32[i] = values[i];
        value[i] = values[i];
      }
    }
  }
};

std::vector<float> seeded(size_t n, uint64_t seed, float scale) {
  std::vector<float> v(n);
  fillRandom(v.data(), n, seed);
  if (scale > 0) // small integers (or quarters), exact in every type
    for (float &x : v)
      x = std::nearbyint(x * scale) / (scale > 4 ? 4.0f : 1.0f);
  return v;
}

/// Whether every step is exact on small integers (no approximation, no
/// rounding beyond C's): then the integer test compares exactly.
bool exactOnIntegers(const std::vector<EpilogueRefStep> &steps) {
  return std::all_of(steps.begin(), steps.end(), [](const EpilogueRefStep &s) {
    return s.kind == EpilogueRefStep::BiasN ||
           s.kind == EpilogueRefStep::BiasM ||
           s.kind == EpilogueRefStep::Residual ||
           s.kind == EpilogueRefStep::Relu;
  });
}

struct OutputCheck {
  Check check;
  int64_t exactMismatches = 0;
  json firstFailures = json::array();
};

class Session {
public:
  Session(const GpuEpilogueProblem &p, CUstream stream,
          const GpuEpilogueRunOptions &o, GpuRunnerFail fail)
      : p(p), stream(stream), opt(o), fail(fail) {}

  const GpuEpilogueProblem &p;
  CUstream stream;
  const GpuEpilogueRunOptions &opt;
  GpuRunnerFail fail;
  cublasHandle_t blas = nullptr;
  cublasLtHandle_t lt = nullptr;

  void check(CUresult r, const char *what) {
    tensorop::checkGpuCall(r, what, fail);
  }
  void checkBlas(cublasStatus_t s, const char *what) {
    tensorop::checkBlasCall(int(s), what, fail);
  }
  CUdeviceptr alloc(size_t bytes) {
    CUdeviceptr ptr = 0;
    check(cuMemAlloc(&ptr, std::max<size_t>(bytes, 16)), "cuMemAlloc");
    return ptr;
  }
  void upload(Operand &o) {
    if (!o.device)
      o.device = alloc(o.bytes());
    check(cuMemcpyHtoD(o.device, o.host(), o.bytes()), "cuMemcpyHtoD");
  }
  void wait(CUevent event, double seconds, const std::string &what) {
    auto start = std::chrono::steady_clock::now();
    for (;;) {
      CUresult r = event ? cuEventQuery(event) : cuStreamQuery(stream);
      if (r == CUDA_SUCCESS)
        return;
      if (r != CUDA_ERROR_NOT_READY)
        check(r, what.c_str());
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                        start)
              .count() > seconds)
        fail(3, what + ": the kernel did not finish within " +
                    std::to_string(int(seconds)) + " s (hang?)");
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }
  void sync(const std::string &what) {
    wait(nullptr, opt.timeoutSeconds, what);
  }
  void prefillNaN(CUdeviceptr c) {
    size_t count = size_t(p.m) * p.n;
    uint32_t nan = quietNaNBits(p.output);
    if (storageBytes(p.output) == 4)
      check(cuMemsetD32Async(c, nan, count, stream), "NaN prefill");
    else
      check(cuMemsetD16Async(c, uint16_t(nan), count, stream), "NaN prefill");
  }
  std::vector<double> download(CUdeviceptr c) {
    sync("download");
    Operand out(p.output, size_t(p.m) * p.n);
    if (storageBytes(p.output) == 2)
      out.bits.resize(out.count);
    else
      out.f32.resize(out.count);
    check(cuMemcpyDtoH(out.host(), c, out.bytes()), "cuMemcpyDtoH");
    std::vector<double> v(out.count);
    for (size_t i = 0; i < out.count; ++i)
      v[i] = p.output == ElementType::BF16  ? bf16ToFloat(out.bits[i])
             : p.output == ElementType::F16 ? halfToFloat(out.bits[i])
                                            : out.f32[i];
    return v;
  }

  /// sum a*b (or |a||b|) in fp64 by cuBLAS dgemm: row-major C = A B is
  /// column-major C^T = B^T A^T.
  std::vector<double> dgemm(const std::vector<double> &a,
                            const std::vector<double> &b, bool magnitude) {
    CUdeviceptr a64 = alloc(a.size() * 8), b64 = alloc(b.size() * 8),
                c64 = alloc(size_t(p.m) * p.n * 8);
    std::vector<double> ha = a, hb = b;
    if (magnitude) {
      for (double &x : ha)
        x = std::fabs(x);
      for (double &x : hb)
        x = std::fabs(x);
    }
    check(cuMemcpyHtoD(a64, ha.data(), ha.size() * 8), "cuMemcpyHtoD");
    check(cuMemcpyHtoD(b64, hb.data(), hb.size() * 8), "cuMemcpyHtoD");
    double one = 1, zero = 0;
    checkBlas(cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, int(p.n), int(p.m),
                          int(p.k), &one, (const double *)b64, int(p.n),
                          (const double *)a64, int(p.k), &zero, (double *)c64,
                          int(p.n)),
              "cublasDgemm (reference)");
    sync("reference dgemm");
    std::vector<double> c(size_t(p.m) * p.n);
    check(cuMemcpyDtoH(c.data(), c64, c.size() * 8), "cuMemcpyDtoH");
    cuMemFree(a64);
    cuMemFree(b64);
    cuMemFree(c64);
    return c;
  }

  /// The operands of one verification or timing run and its reference.
  struct Inputs {
    Operand a, b, bias, r;
    std::vector<double> acc, mag;
    Inputs(const GpuEpilogueProblem &p)
        : a(p.input, size_t(p.m) * p.k), b(p.input, size_t(p.k) * p.n),
          bias(p.output, size_t(p.biasAlongM ? p.m : p.n)),
          r(p.output, size_t(p.m) * p.n) {}
  };

  void makeInputs(Inputs &in, uint64_t seed, bool integers) {
    in.a.set(seeded(in.a.count, seed, integers ? 4 : 0));
    in.b.set(seeded(in.b.count, seed + 1, integers ? 4 : 0));
    // bias and R in quarter steps for the integer test: exact in bf16/f16
    in.bias.set(seeded(in.bias.count, seed + 2, integers ? 32 : 0));
    in.r.set(seeded(in.r.count, seed + 3, integers ? 32 : 0));
    for (Operand *o : {&in.a, &in.b, &in.bias, &in.r})
      upload(*o);
    in.acc = dgemm(in.a.value, in.b.value, false);
    in.mag = integers ? std::vector<double>() : dgemm(in.a.value, in.b.value, true);
  }

  /// Every element of `got` against the steps applied to the reference.
  OutputCheck compare(const std::vector<double> &got, const Inputs &in,
                      bool exact, bool withSteps = true) {
    const double u32 = unitRoundoff(ElementType::F32);
    const double uOut = unitRoundoff(p.output);
    static const std::vector<EpilogueRefStep> none;
    const std::vector<EpilogueRefStep> &steps = withSteps ? p.steps : none;
    const double slope = epilogueRefSlope(steps);
    unsigned threads = std::max(
        1u, std::min(16u, std::thread::hardware_concurrency()));
    std::vector<OutputCheck> parts(threads);
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        OutputCheck &part = parts[t];
        int64_t r0 = p.m * t / threads, r1 = p.m * (t + 1) / threads;
        for (int64_t i = r0; i < r1; ++i)
          for (int64_t j = 0; j < p.n; ++j) {
            size_t at = size_t(i) * p.n + j;
            double x = in.acc[at];
            double want = applyEpilogueRef(
                steps, x, in.bias.value[p.biasAlongM ? i : j],
                in.r.value[at]);
            ElementVerdict v;
            if (exact) {
              double rounded = roundToStorage(p.output, want);
              v.nan = got[at] != got[at];
              v.overBound = !v.nan && got[at] != rounded;
              v.ratio = v.nan ? INFINITY : v.overBound ? INFINITY : 0;
              part.exactMismatches += v.overBound;
            } else {
              // MEASURE.md's bound with fp32's u, stretched by the steps'
              // slope; the fp32 tanh/erf approximations and the steps' own
              // roundings; then C's rounding.
              double fp32 = slope * (2.0 * double(p.k) * u32 * in.mag[at] +
                                     u32 * std::fabs(x)) +
                            2e-6 * (1 + std::fabs(x) + std::fabs(want));
              double bound = fp32 + uOut * (std::fabs(want) + fp32);
              v = judgeElement(got[at], want, bound);
            }
            part.check.add(v);
            if (!v.ok() && part.firstFailures.size() < 8)
              part.firstFailures.push_back(
                  {{"row", i},
                   {"col", j},
                   {"got", std::isnan(got[at]) ? json("nan") : json(got[at])},
                   {"want", want},
                   {"accumulator", x}});
          }
      });
    for (std::thread &w : workers)
      w.join();
    OutputCheck all;
    for (const OutputCheck &part : parts) {
      all.check.merge(part.check);
      all.exactMismatches += part.exactMismatches;
      for (const json &f : part.firstFailures)
        if (all.firstFailures.size() < 8)
          all.firstFailures.push_back(f);
    }
    return all;
  }
};

json checkJson(const OutputCheck &c, bool exact) {
  json j;
  if (exact) {
    j["mismatches"] = c.exactMismatches;
    j["nan"] = c.check.nans;
  } else {
    j["max_error_ratio"] = c.check.maxRatio;
    j["elements_over_bound"] = c.check.overBound;
    j["nan"] = c.check.nans;
  }
  if (!c.firstFailures.empty())
    j["first_failures"] = c.firstFailures;
  return j;
}

} // namespace

bool tensorop::runGpuEpilogueLaunch(const json &launch,
                                    const GpuEpilogueProblem &p,
                                    const GpuGemmKernelLoader &load,
                                    const GpuGemmKernelLoader &loadPlain,
                                    CUdevice device, CUstream stream,
                                    const GpuEpilogueRunOptions &o,
                                    GpuRunnerFail fail, json &out) {
  Session s(p, stream, o, fail);
  s.checkBlas(cublasCreate(&s.blas), "cublasCreate");
  s.checkBlas(cublasSetStream(s.blas, (cudaStream_t)stream), "cublasSetStream");
  const size_t mn = size_t(p.m) * p.n;
  const size_t cBytes = mn * storageBytes(p.output);
  const double flops = 2.0 * double(p.m) * double(p.n) * double(p.k);

  out["tool"] = "tensorop-gpu-runner";
  out["kernel"] = launch.value("name", "");
  out["family"] = launch.value("family", "");
  out["shape"] = {{"m", p.m}, {"n", p.n}, {"k", p.k}};
  out["types"] = {{"a", elementTypeName(p.input)},
                  {"b", elementTypeName(p.input)},
                  {"c", elementTypeName(p.output)},
                  {"bias_and_r", elementTypeName(p.output)},
                  {"accumulate", "f32"}};
  out["epilogue"] = {
      {"steps", p.texts},
      {"bias", !p.hasBias      ? "none"
               : p.biasAlongM ? "along M (one per row)"
                              : "along N (one per column)"},
      {"residual", p.hasResidual}};
  if (launch.contains("tile"))
    out["tile"] = launch["tile"];
  char name[256] = {0};
  cuDeviceGetName(name, sizeof(name), device);
  int driver = 0, blasVersion = 0;
  cuDriverGetVersion(&driver);
  cublasGetVersion(s.blas, &blasVersion);
  out["device"] = {{"name", name},
                   {"driver", driver},
                   {"cublas", blasVersion},
                   {"cublaslt", int64_t(cublasLtGetVersion())},
                   {"cuda_headers", CUDA_VERSION}};

  Session::Inputs in(p);
  CUdeviceptr c = s.alloc(cBytes);
  auto operands = [&](CUdeviceptr target) {
    GpuGemmOperands ops;
    ops.a = in.a.device;
    ops.b = in.b.device;
    ops.c = target;
    ops.bias = p.hasBias ? in.bias.device : 0;
    ops.residual = p.hasResidual ? in.r.device : 0;
    return ops;
  };

  // 1. random inputs, NaN-prefilled C.
  s.makeInputs(in, o.seed, false);
  std::function<void()> ours = load(operands(c));
  s.prefillNaN(c);
  ours();
  s.sync("kernel (random inputs)");
  OutputCheck random = s.compare(s.download(c), in, false);
  out["verification"] = {
      {"seed", o.seed},
      {"inputs", std::string("A, B uniform [-1, 1) rounded to ") +
                     elementTypeName(p.input) + "; bias, R uniform [-1, 1) "
                     "rounded to " + elementTypeName(p.output)},
      {"reference", "the steps in fp64 on cuBLAS dgemm's product of the same "
                    "rounded inputs"},
      {"bound", "|C - E(X)| <= F + u_out*(|E(X)| + F), F = L*(2*K*u*(|A||B|) "
                "+ u*|X|) + 2e-6*(1 + |X| + |E(X)|), u = 6e-8 (fp32 "
                "accumulation), L = 1.2 (times |s| of scale steps), E = the "
                "steps, X = A*B"},
      {"output_prefill", "NaN"},
      {"random", checkJson(random, false)}};
  bool verified = random.check.ok();

  // 2. small integers, when every step is exact on them.
  if (exactOnIntegers(p.steps)) {
    Session::Inputs ints(p);
    s.makeInputs(ints, o.seed + 1, true);
    // The kernel reads the operands it was loaded with (its tensor maps
    // hold A's and B's addresses): load it again on the integer ones.
    GpuGemmOperands iops;
    iops.a = ints.a.device;
    iops.b = ints.b.device;
    iops.c = c;
    iops.bias = p.hasBias ? ints.bias.device : 0;
    iops.residual = p.hasResidual ? ints.r.device : 0;
    std::function<void()> oursInt = load(iops);
    s.prefillNaN(c);
    oursInt();
    s.sync("kernel (integer inputs)");
    OutputCheck exact = s.compare(s.download(c), ints, true);
    out["verification"]["small_integers"] = checkJson(exact, true);
    verified = verified && exact.check.ok();
    for (Operand *op : {&ints.a, &ints.b, &ints.bias, &ints.r})
      cuMemFree(op->device);
    ours = load(operands(c));
  } else {
    out["verification"]["small_integers"] = {
        {"performed", false},
        {"reason", "the steps are not exact on integers (approximated "
                   "functions or scaling)"}};
  }

  // The baseline: cuBLASLt with the matching epilogue, if there is one.
  CublasLtEpilogueChoice choice = chooseCublasLtEpilogue(p.steps);
  json baseline = {{"library", "cuBLASLt"}, {"available", choice.available}};
  if (choice.available)
    baseline["epilogue"] = choice.name;
  else
    baseline["reason"] = "no baseline: " + choice.reason;
  if (!o.baseline) {
    choice.available = false;
    baseline["available"] = false;
    baseline["reason"] = "--no-cublas";
  }

  if (!o.time || !verified) {
    out["baseline"] = baseline;
    out["timing"] = {{"performed", false},
                     {"reason", verified ? "--no-time" : "not verified"}};
    out["verified"] = verified;
    return verified;
  }

  // 3. timing on fresh random inputs.
  s.makeInputs(in, o.seed + 2, false);
  ours = load(operands(c));
  s.checkBlas(cublasLtCreate(&s.lt), "cublasLtCreate");
  CUevent e0, e1;
  s.check(cuEventCreate(&e0, CU_EVENT_DEFAULT), "cuEventCreate");
  s.check(cuEventCreate(&e1, CU_EVENT_DEFAULT), "cuEventCreate");
  auto timeOnce = [&](const std::function<void()> &fn, int reps) {
    s.check(cuEventRecord(e0, stream), "cuEventRecord");
    for (int i = 0; i < reps; ++i)
      fn();
    s.check(cuEventRecord(e1, stream), "cuEventRecord");
    s.wait(e1, o.timeoutSeconds + reps * 2.0, "timed sample");
    float ms = 0;
    s.check(cuEventElapsedTime(&ms, e0, e1), "cuEventElapsedTime");
    return double(ms) / reps;
  };

  // cuBLASLt: the fastest of its top-8 heuristic algorithms (timed warm).
  GpuTimeFn time = [&](const std::function<void()> &fn, int reps) {
    return timeOnce(fn, reps);
  };
  auto alloc = [&](size_t bytes) { return s.alloc(bytes); };
  auto makeLt = [&](cublasLtEpilogue_t epilogue, bool withBias,
                    bool residualAsC, CUdeviceptr d, CublasLtBest &g) {
    CublasLtGemmSpec spec;
    spec.m = p.m;
    spec.n = p.n;
    spec.k = p.k;
    spec.inType = cudaType(p.input);
    spec.outType = cudaType(p.output);
    spec.epilogue = epilogue;
    spec.bias = withBias ? in.bias.device : 0;
    spec.a = in.a.device;
    spec.b = in.b.device;
    spec.beta = residualAsC ? 1.0f : 0.0f;
    spec.c = residualAsC ? in.r.device : d;
    spec.d = d;
    return g.choose(s.lt, spec, stream, alloc, time);
  };
  auto ltLauncher = [&](CublasLtBest &g) {
    return std::function<void()>([&s, &g] {
      std::string error;
      if (!g.run(error))
        s.fail(2, error);
    });
  };

  struct Side {
    std::string name;
    std::function<void()> run;
    std::vector<double> tflops;
  };
  std::vector<Side> sides;
  sides.push_back({"tensorop_fused", ours, {}});
  CublasLtBest ltFused, ltPlain;
  CUdeviceptr cLt = 0, cLtPlain = 0, cPlain = 0;
  if (choice.available) {
    cLt = s.alloc(cBytes);
    s.prefillNaN(cLt);
    std::string why =
        makeLt(cublasLtEpilogue_t(choice.epilogue),
               p.hasBias && !p.biasAlongM, choice.residualAsC, cLt, ltFused);
    if (!why.empty()) {
      baseline["available"] = false;
      baseline["reason"] = "no baseline: " + why;
    } else {
      baseline["algorithm"] = ltFused.info();
      sides.push_back({"cublaslt_fused", ltLauncher(ltFused), {}});
    }
  }
  json plain = {{"ours", bool(loadPlain)}};
  if (loadPlain) {
    cPlain = s.alloc(cBytes);
    GpuGemmOperands ops = operands(cPlain);
    ops.bias = ops.residual = 0;
    sides.push_back({"tensorop_plain", loadPlain(ops), {}});
  }
  if (o.baseline) {
    cLtPlain = s.alloc(cBytes);
    std::string why =
        makeLt(CUBLASLT_EPILOGUE_DEFAULT, false, false, cLtPlain, ltPlain);
    if (why.empty()) {
      sides.push_back({"cublaslt_plain", ltLauncher(ltPlain), {}});
      plain["cublaslt_algorithm"] = ltPlain.info();
    } else {
      plain["cublaslt_reason"] = why;
    }
  }

  // Repetitions per sample from one launch of ours; warm up until the
  // clocks settle (tensorop::SettleRule), then `rounds` rounds A B C D.
  ours();
  double oneMs = timeOnce(ours, 1);
  int reps = std::max(1, std::min(1000, int(o.sampleMs / std::max(oneMs, 1e-3))));
  std::string bus;
  {
    char id[64] = {0};
    if (cuDeviceGetPCIBusId(id, sizeof(id), device) == CUDA_SUCCESS)
      bus = id;
  }
  NvmlSampler nvml(bus);
  SettleRule rule;
  std::vector<double> warmClocks, warmTimes;
  auto warmStart = std::chrono::steady_clock::now();
  double warmSeconds = 0;
  bool settled = false;
  int warmRounds = 0;
  while (!settled && warmSeconds < rule.maxSeconds) {
    for (Side &side : sides) {
      double ms = timeOnce(side.run, reps);
      if (&side == &sides[0])
        warmTimes.push_back(ms);
    }
    if (std::optional<GpuSample> g = nvml.read())
      warmClocks.push_back(g->smClockMHz);
    ++warmRounds;
    warmSeconds = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - warmStart)
                      .count();
    settled = rule.settled(warmClocks, warmTimes, warmSeconds);
  }
  std::vector<double> clocks, powers, temps;
  for (int r = 0; r < o.rounds; ++r) {
    for (Side &side : sides)
      side.tflops.push_back(flops / (timeOnce(side.run, reps) * 1e-3) / 1e12);
    if (std::optional<GpuSample> g = nvml.read()) {
      clocks.push_back(g->smClockMHz);
      powers.push_back(g->powerWatts);
      temps.push_back(g->temperatureC);
    }
  }
  auto spreadJson = [](const std::vector<double> &v) {
    Spread sp = spreadOf(v);
    return json{{"min", sp.min},
                {"median", sp.median},
                {"max", sp.max},
                {"relative_spread", sp.relative}};
  };
  json timing = {{"performed", true},
                 {"method", "CUDA events around `reps` back-to-back launches; "
                            "the sides alternate in each round"},
                 {"caches", "warm (same buffers every repetition)"},
                 {"warmup",
                  {{"rule", rule.describe()},
                   {"settled", settled},
                   {"rounds", warmRounds},
                   {"seconds", warmSeconds}}},
                 {"rounds", o.rounds},
                 {"reps_per_sample", reps}};
  std::map<std::string, double> medians;
  for (Side &side : sides) {
    medians[side.name] = median(side.tflops);
    timing[side.name] = spreadJson(side.tflops);
    timing[side.name]["ms_median"] = flops / (medians[side.name] * 1e12) * 1e3;
    timing[side.name]["samples"] = side.tflops;
  }
  auto ratio = [&](const char *a, const char *b, const char *key) {
    if (medians.count(a) && medians.count(b))
      timing[key] = medians[a] / medians[b];
  };
  ratio("tensorop_fused", "cublaslt_fused", "ratio_fused_vs_cublaslt_fused");
  ratio("tensorop_fused", "tensorop_plain", "ratio_fused_vs_our_plain");
  ratio("cublaslt_fused", "cublaslt_plain",
        "ratio_cublaslt_fused_vs_cublaslt_plain");
  ratio("tensorop_plain", "cublaslt_plain", "ratio_our_plain_vs_cublaslt_plain");
  json nvmlJson = {{"available", nvml.available()}};
  if (nvml.available()) {
    nvmlJson["sm_mhz"] = spreadJson(clocks);
    nvmlJson["power_w"] = spreadJson(powers);
    nvmlJson["temp_c"] = spreadJson(temps);
  } else {
    nvmlJson["reason"] = nvml.unavailableReason();
  }
  timing["nvml"] = nvmlJson;
  const double best = *std::max_element(sides[0].tflops.begin(),
                                        sides[0].tflops.end());
  const bool tooFast = best > 1.02 * (p.input == ElementType::F32 ? 67 : 990);
  timing["faster_than_peak"] = tooFast;

  // 4. the buffers the timed runs wrote, ours and the baseline's.
  OutputCheck after = s.compare(s.download(c), in, false);
  out["verification"]["after_timing"] = checkJson(after, false);
  if (cLt && baseline.value("available", false))
    baseline["verification"] = checkJson(s.compare(s.download(cLt), in, false),
                                         false);
  // The GEMMs without an epilogue: C = A*B under the same bound.
  if (cPlain) {
    OutputCheck c0 = s.compare(s.download(cPlain), in, false, false);
    plain["ours_verification"] = checkJson(c0, false);
    plain["ours_verified"] = c0.check.ok();
  }
  if (cLtPlain && medians.count("cublaslt_plain"))
    plain["cublaslt_verification"] =
        checkJson(s.compare(s.download(cLtPlain), in, false, false), false);
  out["baseline"] = baseline;
  out["unfused"] = plain;
  out["timing"] = timing;
  verified = verified && after.check.ok() && !tooFast;
  out["verified"] = verified;
  std::fprintf(stderr, "%s: epilogue [", out.value("kernel", "").c_str());
  for (size_t i = 0; i < p.texts.size(); ++i)
    std::fprintf(stderr, "%s%s", i ? ", " : "", p.texts[i].c_str());
  std::fprintf(stderr, "], %d rounds x %d reps, warm-up %s\n", o.rounds, reps,
               settled ? "settled" : "NOT settled");
  for (const Side &side : sides)
    std::fprintf(stderr, "  %-16s TFLOP/s median %.1f\n", side.name.c_str(),
                 medians[side.name]);
  for (CUdeviceptr ptr : {c, cLt, cLtPlain, cPlain})
    if (ptr)
      cuMemFree(ptr);
  return verified;
}
