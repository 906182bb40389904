//===- GpuConvRunner.cpp - tensorop-gpu-runner's convolution protocol -----===//

#include "tensorop/GPU/GpuConvRunner.h"
#include "tensorop/GPU/CudnnConv.h"
#include "tensorop/GPU/GpuCheck.h"
#include "tensorop/GPU/NvmlSampler.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/ConvDirect.h"
#include "tensorop/Verify/Settle.h"
#include "tensorop/Verify/Timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

using namespace tensorop;
using json = nlohmann::ordered_json;

std::string tensorop::parseGpuConvProblem(const json &launch,
                                          GpuConvProblem &p) {
  try {
    const json &c = launch.at("conv");
    Conv2DShape &s = p.shape;
    s.n = c.at("n");
    s.h = c.at("h");
    s.w = c.at("w");
    s.c = c.at("c");
    s.f = c.at("f");
    s.r = c.at("r");
    s.s = c.at("s");
    s.strideH = c.value("stride_h", 1);
    s.strideW = c.value("stride_w", 1);
    s.dilationH = c.value("dilation_h", 1);
    s.dilationW = c.value("dilation_w", 1);
    s.padTop = c.value("pad_top", 0);
    s.padBottom = c.value("pad_bottom", 0);
    s.padLeft = c.value("pad_left", 0);
    s.padRight = c.value("pad_right", 0);
    if (s.n < 1 || s.h < 1 || s.w < 1 || s.c < 1 || s.f < 1 || s.r < 1 ||
        s.s < 1 || s.strideH < 1 || s.strideW < 1 || s.dilationH < 1 ||
        s.dilationW < 1 || s.padTop < 0 || s.padBottom < 0 || s.padLeft < 0 ||
        s.padRight < 0)
      return "conv: sizes, strides and dilations must be positive, padding "
             "not negative";
    if (s.outH() < 1 || s.outW() < 1)
      return "conv: the filter does not fit the padded input";
    if (c.contains("out_h") &&
        (c.at("out_h") != s.outH() || c.at("out_w") != s.outW()))
      return "conv: out_h/out_w disagree with the geometry (" +
             std::to_string(s.outH()) + "x" + std::to_string(s.outW()) + ")";
    // The implicit GEMM the kernel was built for must be this convolution.
    if (launch.value("m", int64_t(0)) != s.n * s.outH() * s.outW() ||
        launch.value("n", int64_t(0)) != s.f ||
        launch.value("k", int64_t(0)) != s.contractionLength())
      return "conv: m, n, k are not N*OH*OW, F, R*S*C";
    if (launch.value("accumulate", false))
      return "conv: accumulating convolutions are not supported";
    if (!parseElementType(launch.at("a_dtype"), p.input) ||
        !parseElementType(launch.at("c_dtype"), p.output))
      return "conv: unknown a_dtype or c_dtype";
    if (p.input != ElementType::BF16 && p.input != ElementType::F16 &&
        p.input != ElementType::TF32)
      return std::string("conv: input type must be bf16, f16 or tf32 (got ") +
             elementTypeName(p.input) + ")";
    if (p.input == ElementType::TF32 && p.output != ElementType::F32)
      return "conv: tf32 convolutions have an f32 output";
  } catch (const std::exception &e) {
    return std::string("conv: ") + e.what();
  }
  return "";
}

namespace {

/// A device tensor and its host copy in the storage type.
struct Tensor {
  Tensor(ElementType type, size_t count) : type(type), count(count) {}
  ElementType type;
  size_t count;
  CUdeviceptr device = 0;
  std::vector<uint16_t> bits; ///< 16-bit storage
  std::vector<float> f32;     ///< fp32 storage

  size_t bytes() const { return count * storageBytes(type); }
  void *host() {
    return storageBytes(type) == 2 ? static_cast<void *>(bits.data())
                                   : static_cast<void *>(f32.data());
  }
};

class Session {
public:
  Session(const GpuConvProblem &p, CUstream stream,
          const GpuConvRunOptions &o, GpuRunnerFail fail)
      : p(p), s(p.shape), stream(stream), opt(o), fail(fail) {}

  const GpuConvProblem &p;
  const Conv2DShape &s;
  CUstream stream;
  const GpuConvRunOptions &opt;
  GpuRunnerFail fail;

  void check(CUresult r, const char *what) {
    tensorop::checkGpuCall(r, what, fail);
  }

  CUdeviceptr alloc(size_t bytes) {
    CUdeviceptr ptr = 0;
    check(cuMemAlloc(&ptr, bytes), "cuMemAlloc");
    return ptr;
  }

  /// Polls until `event` (or, without one, the stream) completed; a kernel
  /// that does not finish is reported (exit 3) rather than waited on.
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
  void sync(const std::string &what) { wait(nullptr, opt.timeoutSeconds, what); }

  /// Output prefilled with NaN, so an element the kernel skips fails.
  void prefillNaN(const Tensor &t) {
    uint32_t nan = quietNaNBits(t.type);
    if (storageBytes(t.type) == 4)
      check(cuMemsetD32Async(t.device, nan, t.count, stream), "NaN prefill");
    else
      check(cuMemsetD16Async(t.device, uint16_t(nan), t.count, stream),
            "NaN prefill");
  }

  /// The output as floats (exact widening of bf16/f16).
  std::vector<float> download(Tensor &t) {
    sync("download");
    check(cuMemcpyDtoH(t.host(), t.device, t.bytes()), "cuMemcpyDtoH");
    std::vector<float> v(t.count);
    for (size_t i = 0; i < t.count; ++i)
      v[i] = t.type == ElementType::BF16  ? bf16ToFloat(t.bits[i])
             : t.type == ElementType::F16 ? halfToFloat(t.bits[i])
                                          : t.f32[i];
    return v;
  }
};

/// `x` rounded to nearest (even) with tf32's 10 explicit mantissa bits,
/// stored as fp32: the tensor cores, which drop the low 13 bits when they
/// read, then multiply exactly these values.
static float roundToTf32(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  if ((bits & 0x7f800000u) != 0x7f800000u) // finite
    bits = (bits + 0xfffu + ((bits >> 13) & 1u)) & ~0x1fffu;
  std::memcpy(&x, &bits, 4);
  return x;
}

/// Input values rounded to `type`, stored into `t`'s host copy; returns the
/// rounded values (what the reference multiplies). tf32 inputs are rounded
/// to tf32 here, so only the accumulation's error is left to the bound.
std::vector<float> roundInto(Tensor &t, const std::vector<float> &values) {
  std::vector<float> rounded(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (storageBytes(t.type) == 4) {
      t.f32[i] = t.type == ElementType::TF32 ? roundToTf32(values[i])
                                             : values[i];
      rounded[i] = t.f32[i];
    } else if (t.type == ElementType::BF16) {
      t.bits[i] = floatToBf16(values[i]);
      rounded[i] = bf16ToFloat(t.bits[i]);
    } else {
      t.bits[i] = floatToHalf(values[i]);
      rounded[i] = halfToFloat(t.bits[i]);
    }
  }
  return rounded;
}

std::vector<float> seeded(size_t n, uint64_t seed, bool integers) {
  std::vector<float> v(n);
  fillRandom(v.data(), n, seed);
  if (integers) // small integers in [-4, 4]: every partial sum exact in fp32
    for (float &x : v)
      x = std::nearbyint(x * 4.0f);
  return v;
}

json checkJson(const ConvOutputCheck &c, bool exact) {
  json j;
  if (exact) {
    j["mismatches"] = c.exactMismatches;
    j["nan"] = c.check.nans;
  } else {
    j["max_error_ratio"] = c.check.maxRatio;
    j["elements_over_bound"] = c.check.overBound;
    j["nan"] = c.check.nans;
    j["relative_frobenius_error"] = c.relativeFrobenius;
  }
  if (!c.firstFailures.empty()) {
    json f = json::array();
    for (const ConvFailure &e : c.firstFailures)
      f.push_back({{"n", e.n},
                   {"y", e.y},
                   {"x", e.x},
                   {"f", e.f},
                   {"got", std::isnan(e.got) ? json("nan") : json(e.got)},
                   {"want", e.want}});
    j["first_failures"] = f;
  }
  return j;
}

json spreadJson(const std::vector<double> &v) {
  Spread s = spreadOf(v);
  return {{"min", s.min},
          {"median", s.median},
          {"max", s.max},
          {"relative_spread", s.relative}};
}

json sampleJson(const std::optional<GpuSample> &g) {
  if (!g)
    return nullptr;
  json j = {{"sm_mhz", g->smClockMHz},
            {"mem_mhz", g->memClockMHz},
            {"power_w", std::round(g->powerWatts * 10) / 10},
            {"temp_c", g->temperatureC}};
  if (g->haveReasons)
    j["clock_event_reasons"] = g->clockEventReasons;
  return j;
}

std::string pciBusId(CUdevice dev) {
  char id[64] = {0};
  if (cuDeviceGetPCIBusId(id, sizeof(id), dev) != CUDA_SUCCESS)
    return "";
  return id;
}

/// Dense peak of the H200/H100 SXM (datasheet), TFLOP/s: bf16/f16 990, TF32
/// half of it. A timing above it is an error of measurement, not a result.
double peakTflops(ElementType input) {
  return input == ElementType::TF32 ? 495 : 990;
}

/// Captures `reps` calls of each side into a CUDA graph and times graph
/// replays, alternating the sides (and which goes first) over `rounds`.
/// `theirs` (empty: ours alone) returns "" or its error. Failures to capture
/// are reported in the result, not fatal.
json timeGraphs(Session &ses, const std::function<void()> &ours,
                const std::function<std::string()> &theirs, int reps,
                int rounds, double flops, CUevent e0, CUevent e1, CUevent e2) {
  json result = {{"performed", false}};
  std::string error;
  auto capture = [&](const std::function<std::string()> &body,
                     CUgraphExec &exec) {
    CUgraph graph = nullptr;
    if (cuStreamBeginCapture(ses.stream, CU_STREAM_CAPTURE_MODE_RELAXED) !=
        CUDA_SUCCESS)
      return std::string("cuStreamBeginCapture failed");
    std::string bodyError;
    for (int i = 0; i < reps && bodyError.empty(); ++i)
      bodyError = body();
    CUresult end = cuStreamEndCapture(ses.stream, &graph);
    if (!bodyError.empty() || end != CUDA_SUCCESS) {
      if (graph)
        cuGraphDestroy(graph);
      const char *name = nullptr;
      cuGetErrorName(end, &name);
      return bodyError.empty()
                 ? std::string("cuStreamEndCapture: ") + (name ? name : "?")
                 : bodyError;
    }
    CUresult inst = cuGraphInstantiate(&exec, graph, 0);
    cuGraphDestroy(graph);
    if (inst != CUDA_SUCCESS)
      return std::string("cuGraphInstantiate failed");
    return std::string();
  };
  CUgraphExec oursGraph = nullptr, theirsGraph = nullptr;
  error = capture(
      [&] {
        ours();
        return std::string();
      },
      oursGraph);
  if (!error.empty()) {
    result["reason"] = "ours: " + error;
    return result;
  }
  bool both = bool(theirs);
  if (both) {
    error = capture(theirs, theirsGraph);
    if (!error.empty()) {
      result["cudnn_reason"] = "cuDNN's calls could not be captured: " + error;
      both = false;
    }
  }
  std::vector<double> oursT, theirsT;
  const int warm = 3;
  for (int i = 0; i < warm + rounds; ++i) {
    bool oursFirst = !both || i % 2 == 0;
    CUgraphExec first = oursFirst ? oursGraph : theirsGraph;
    CUgraphExec second = oursFirst ? theirsGraph : oursGraph;
    ses.check(cuEventRecord(e0, ses.stream), "cuEventRecord");
    ses.check(cuGraphLaunch(first, ses.stream), "cuGraphLaunch");
    ses.check(cuEventRecord(e1, ses.stream), "cuEventRecord");
    if (both)
      ses.check(cuGraphLaunch(second, ses.stream), "cuGraphLaunch");
    ses.check(cuEventRecord(e2, ses.stream), "cuEventRecord");
    ses.sync("graph round");
    float t1 = 0, t2 = 0;
    ses.check(cuEventElapsedTime(&t1, e0, e1), "cuEventElapsedTime");
    if (both)
      ses.check(cuEventElapsedTime(&t2, e1, e2), "cuEventElapsedTime");
    if (i < warm)
      continue;
    double oursMs = oursFirst ? t1 : t2, theirsMs = oursFirst ? t2 : t1;
    oursT.push_back(flops / (oursMs * 1e-3 / reps) / 1e12);
    if (both)
      theirsT.push_back(flops / (theirsMs * 1e-3 / reps) / 1e12);
  }
  cuGraphExecDestroy(oursGraph);
  if (theirsGraph)
    cuGraphExecDestroy(theirsGraph);
  result["performed"] = true;
  result["method"] = "each side's `reps` calls captured once into a CUDA "
                     "graph (cuStreamBeginCapture) and replayed; the sides "
                     "alternate, the first side alternating between rounds";
  result["rounds"] = rounds;
  result["reps_per_sample"] = reps;
  result["tensorop_tflops_median"] = median(oursT);
  result["tensorop_tflops_best"] = *std::max_element(oursT.begin(), oursT.end());
  result["tensorop_spread"] = spreadJson(oursT);
  result["tensorop_samples"] = oursT;
  if (both) {
    result["cudnn_tflops_median"] = median(theirsT);
    result["cudnn_tflops_best"] =
        *std::max_element(theirsT.begin(), theirsT.end());
    result["cudnn_spread"] = spreadJson(theirsT);
    result["cudnn_samples"] = theirsT;
    result["ratio_median"] = median(oursT) / median(theirsT);
  }
  return result;
}

} // namespace

bool tensorop::runGpuConvLaunch(const json &launch, const GpuConvProblem &p,
                                const GpuConvKernelLoader &load,
                                CUdevice device, CUstream stream,
                                const GpuConvRunOptions &opt,
                                GpuRunnerFail fail, json &out) {
  Session ses(p, stream, opt, fail);
  const Conv2DShape &s = p.shape;
  const unsigned threads =
      std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
  {
    // Host side: inputs as floats and in storage, the reference (R and M),
    // two outputs as floats and in storage.
    uint64_t in = saturatingAdd(s.inputElements(), s.filterElements());
    uint64_t bytes = saturatingAdd(saturatingMul(in, 4 + 4 + 2),
                                   saturatingMul(s.outputElements(), 16 + 12));
    std::string tooBig = checkBufferBudget(
        bytes, "verifying a convolution of a " + std::to_string(s.n) + "x" +
                   std::to_string(s.h) + "x" + std::to_string(s.w) + "x" +
                   std::to_string(s.c) + " input with " + std::to_string(s.f) +
                   " " + std::to_string(s.r) + "x" + std::to_string(s.s) +
                   " filters");
    if (!tooBig.empty())
      fail(2, tooBig);
  }

  Tensor input{p.input, size_t(s.inputElements())};
  Tensor filter{p.input, size_t(s.filterElements())};
  Tensor filterKRSC{p.input, filter.count};
  Tensor ours{p.output, size_t(s.outputElements())};
  Tensor theirs{p.output, ours.count};
  for (Tensor *t : {&input, &filter, &filterKRSC, &ours, &theirs}) {
    if (storageBytes(t->type) == 2)
      t->bits.assign(t->count, 0);
    else
      t->f32.assign(t->count, 0.f);
    t->device = ses.alloc(t->bytes());
  }
  std::function<void()> launchOurs =
      load(input.device, filter.device, ours.device);

  /// Seeded inputs rounded to the input type and uploaded (filter in HWCF
  /// for us, KRSC for cuDNN); returns the rounded values.
  struct Inputs {
    std::vector<float> x, w;
  };
  auto upload = [&](uint64_t seed, bool integers) {
    Inputs in;
    in.x = roundInto(input, seeded(input.count, seed, integers));
    in.w = roundInto(filter, seeded(filter.count, seed + 7919, integers));
    // HWCF -> KRSC: element (r, s, c, f) moves to (f, r, s, c).
    const size_t rsc = size_t(s.r * s.s * s.c);
    for (size_t i = 0; i < rsc; ++i)
      for (size_t f = 0; f < size_t(s.f); ++f) {
        if (storageBytes(filter.type) == 4)
          filterKRSC.f32[f * rsc + i] = filter.f32[i * s.f + f];
        else
          filterKRSC.bits[f * rsc + i] = filter.bits[i * s.f + f];
      }
    ses.check(cuMemcpyHtoD(input.device, input.host(), input.bytes()),
              "upload input");
    ses.check(cuMemcpyHtoD(filter.device, filter.host(), filter.bytes()),
              "upload filter");
    ses.check(cuMemcpyHtoD(filterKRSC.device, filterKRSC.host(),
                           filterKRSC.bytes()),
              "upload filter (KRSC)");
    return in;
  };
  /// Their fp64 reference.
  auto reference = [&](const Inputs &in) {
    ContractionReference ref =
        computeConvReferenceDirect(in.x.data(), in.w.data(), s, threads);
    if (!ref.ok())
      fail(2, "cannot allocate the fp64 reference");
    return ref;
  };
  // MEASURE.md: u of the accumulation type (fp32 here) and of the output.
  // The input type's u (what the GEMM path and bench/gpu/conv_vs_torch.py
  // use) is reported beside it: with it 2*K*u exceeds 1 for K > 128 in
  // bf16, so it would pass a kernel that ignores the padding.
  const BoundSpec accumulationBound{2.0, s.contractionLength(),
                                    unitRoundoff(ElementType::F32),
                                    unitRoundoff(p.output)};
  const BoundSpec inputBound{2.0, s.contractionLength(), unitRoundoff(p.input),
                             unitRoundoff(p.output)};
  const BoundSpec &bound =
      opt.inputTypeBound ? inputBound : accumulationBound;
  const BoundSpec &otherBound =
      opt.inputTypeBound ? accumulationBound : inputBound;
  struct Compared {
    ConvOutputCheck check;
    double otherRatio = 0;
  };
  auto compare = [&](Tensor &t, const ContractionReference &ref, bool exact) {
    std::vector<float> got = ses.download(t);
    Compared c;
    c.check = checkConvOutput(got.data(), ref, bound, s, exact, p.output);
    if (!exact)
      c.otherRatio = checkConvOutput(got.data(), ref, otherBound, s, false,
                                     p.output, 0)
                         .check.maxRatio;
    return c;
  };
  auto resultJson = [&](const Compared &c, bool exact) {
    json j = checkJson(c.check, exact);
    if (!exact)
      j[opt.inputTypeBound ? "max_error_ratio_accumulation_bound"
                           : "max_error_ratio_input_type_bound"] =
          c.otherRatio;
    return j;
  };
  auto runOurs = [&](const char *what) {
    ses.prefillNaN(ours);
    launchOurs();
    ses.sync(what);
  };

  const double flops = s.flops();
  out["tool"] = "tensorop-gpu-runner";
  out["op"] = "conv2d";
  out["kernel"] = launch.value("name", "");
  out["family"] = launch.value("family", "");
  out["shape"] = {{"n", s.n},
                  {"h", s.h},
                  {"w", s.w},
                  {"c", s.c},
                  {"f", s.f},
                  {"r", s.r},
                  {"s", s.s},
                  {"stride", {s.strideH, s.strideW}},
                  {"dilation", {s.dilationH, s.dilationW}},
                  {"pad_top_bottom_left_right",
                   {s.padTop, s.padBottom, s.padLeft, s.padRight}},
                  {"out_h", s.outH()},
                  {"out_w", s.outW()},
                  {"implicit_gemm",
                   {{"m", s.n * s.outH() * s.outW()},
                    {"n", s.f},
                    {"k", s.contractionLength()}}},
                  {"flops", flops}};
  out["layouts"] = {{"input", "NHWC"}, {"filter", "HWCF"}, {"output", "NHWF"}};
  out["types"] = {{"input", elementTypeName(p.input)},
                  {"filter", elementTypeName(p.input)},
                  {"output", elementTypeName(p.output)},
                  {"accumulate", "f32"}};
  if (launch.contains("tile"))
    out["tile"] = launch["tile"];
  if (launch.contains("sketch"))
    out["sketch"] = launch["sketch"];
  {
    char name[256] = {0};
    cuDeviceGetName(name, sizeof(name), device);
    int driver = 0, sms = 0, major = 0, minor = 0;
    cuDriverGetVersion(&driver);
    cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                         device);
    cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                         device);
    cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                         device);
    out["device"] = {{"name", name},
                     {"compute_capability",
                      std::to_string(major) + "." + std::to_string(minor)},
                     {"sms", sms},
                     {"driver", driver},
                     {"cuda_headers", CUDA_VERSION}};
  }

  // 1. random inputs, NaN-filled output.
  ContractionReference ref = reference(upload(opt.seed, false));
  runOurs("kernel (random inputs)");
  Compared before = compare(ours, ref, false);
  out["verification"] = {
      {"seed", opt.seed},
      {"inputs", std::string("uniform [-1, 1) rounded to ") +
                     elementTypeName(p.input)},
      {"reference",
       "fp64 convolution of the same rounded inputs on the host "
       "(tools/tensorop/harness/conv_reference.h, Verify/ConvDirect.h)"},
      {"bound", bound.describe() + " (K = R*S*C; u of the " +
                    (opt.inputTypeBound ? "input type" : "fp32 accumulation") +
                    ", u_out of the output type)"},
      {"output_prefill", "NaN"},
      {"random", resultJson(before, false)}};

  // 2. small integers: exact results.
  {
    ContractionReference exactRef = reference(upload(opt.seed + 1, true));
    runOurs("kernel (integer inputs)");
    Compared exact = compare(ours, exactRef, true);
    out["verification"]["small_integers"] = resultJson(exact, true);
    out["verified"] = before.check.ok(false) && exact.check.ok(true);
  }
  bool verified = out["verified"];

  // cuDNN's legacy path on the same buffers (its filter in KRSC).
  std::optional<CudnnLegacyConv> cudnn;
  json baseline = {{"name", "cuDNN legacy API"},
                   {"calls",
                    "cudnnFindConvolutionForwardAlgorithmEx, then the "
                    "fastest of its algorithms that run, each timed again "
                    "warm (10 calls), + cudnnConvolutionForward; NHWC "
                    "input/output, KRSC filter, fp32 compute, the math type "
                    "Find gave the algorithm (tensor ops allowed first)"},
                   {"note",
                    "not cuDNN's fastest path: its graph/backend engines "
                    "(e.g. as PyTorch's cudnn.benchmark drives them) are "
                    "faster on Hopper"},
                   {"cudnn_headers", CudnnLegacyConv::headerVersion()}};
  bool haveBaseline = false;
  if (opt.time && verified && opt.baseline) {
    // The random inputs again (same seed, same values, so `ref` holds): the
    // timed runs use them, and both outputs are checked against it after.
    upload(opt.seed, false);
    ses.prefillNaN(theirs);
    ses.sync("prefill");
    cudnn.emplace(s, p.input, p.output, input.device, filterKRSC.device,
                  theirs.device, stream);
    ses.sync("cudnnFind");
    baseline["cudnn_library"] = cudnn->libraryVersion();
    if (cudnn->available()) {
      haveBaseline = true;
      baseline["available"] = true;
      baseline["algorithm"] = cudnn->algorithm();
      baseline["algorithm_tensor_ops"] = cudnn->algorithmUsesTensorOps();
      baseline["workspace_bytes"] = cudnn->workspaceBytes();
      json trials = json::array();
      for (const CudnnAlgorithmTrial &t : cudnn->trials())
        trials.push_back({{"algorithm", t.name},
                          {"status", t.status},
                          {"find_ms", t.ms},
                          {"warm_ms", t.warmMs},
                          {"workspace_bytes", t.workspaceBytes},
                          {"tensor_ops", t.tensorOps}});
      baseline["find_results"] = trials;
    } else {
      baseline["available"] = false;
      baseline["reason"] = cudnn->reason();
    }
  } else if (opt.time && verified) {
    upload(opt.seed, false);
    baseline["available"] = false;
    baseline["reason"] = "--no-cublas/--no-cudnn";
  }
  auto runTheirs = [&]() {
    std::string err = cudnn->run();
    if (!err.empty())
      fail(2, err);
  };

  // 3. timing, alternating with cuDNN, then the outputs checked again.
  if (opt.time && verified) {
    ses.prefillNaN(ours);
    CUevent e0, e1, e2;
    ses.check(cuEventCreate(&e0, CU_EVENT_DEFAULT), "cuEventCreate");
    ses.check(cuEventCreate(&e1, CU_EVENT_DEFAULT), "cuEventCreate");
    ses.check(cuEventCreate(&e2, CU_EVENT_DEFAULT), "cuEventCreate");
    NvmlSampler nvml(pciBusId(device));
    for (int w = 0; w < 3; ++w) {
      launchOurs();
      if (haveBaseline)
        runTheirs();
    }
    ses.sync("warm-up");
    // Repetitions of one sample: about opt.sampleMs of the slower side.
    auto timeOnce = [&](const std::function<void()> &fn) {
      ses.check(cuEventRecord(e0, stream), "cuEventRecord");
      fn();
      ses.check(cuEventRecord(e1, stream), "cuEventRecord");
      ses.sync("calibration");
      float ms = 0;
      ses.check(cuEventElapsedTime(&ms, e0, e1), "cuEventElapsedTime");
      return std::max(ms, 1e-3f);
    };
    float ms = timeOnce(launchOurs);
    if (haveBaseline)
      ms = std::max(ms, timeOnce(runTheirs));
    int reps = std::max(1, std::min(1000, int(opt.sampleMs / ms)));
    struct Round {
      double ours = 0, theirs = 0; ///< seconds per call
      std::optional<GpuSample> oursState, theirsState;
    };
    // One round: `reps` of ours, then `reps` of cuDNN's, back to back; the
    // side that goes first alternates between rounds, NVML is read halfway
    // through each side's sample.
    int roundIndex = 0;
    auto runRound = [&]() {
      Round r;
      bool oursFirst = !haveBaseline || roundIndex++ % 2 == 0;
      auto side = [&](bool isOurs) {
        for (int i = 0; i < reps; ++i)
          isOurs ? launchOurs() : runTheirs();
      };
      ses.check(cuEventRecord(e0, stream), "cuEventRecord");
      side(oursFirst);
      ses.check(cuEventRecord(e1, stream), "cuEventRecord");
      if (haveBaseline)
        side(!oursFirst);
      ses.check(cuEventRecord(e2, stream), "cuEventRecord");
      double half = ms * reps * 0.5e-3;
      double limit = opt.timeoutSeconds + reps * 2.0;
      ses.wait(e0, limit, "timed round");
      std::this_thread::sleep_for(std::chrono::duration<double>(half));
      std::optional<GpuSample> first = nvml.read(), second;
      if (haveBaseline) {
        ses.wait(e1, limit, "timed round");
        std::this_thread::sleep_for(std::chrono::duration<double>(half));
        second = nvml.read();
      }
      ses.wait(e2, limit, "timed round");
      float t1 = 0, t2 = 0;
      ses.check(cuEventElapsedTime(&t1, e0, e1), "cuEventElapsedTime");
      if (haveBaseline)
        ses.check(cuEventElapsedTime(&t2, e1, e2), "cuEventElapsedTime");
      r.ours = (oursFirst ? t1 : t2) * 1e-3 / reps;
      r.theirs = (oursFirst ? t2 : t1) * 1e-3 / reps;
      r.oursState = oursFirst ? first : second;
      r.theirsState = oursFirst ? second : first;
      return r;
    };
    SettleRule rule;
    std::vector<double> warmClocks, warmTimes;
    auto warmStart = std::chrono::steady_clock::now();
    double warmSeconds = 0;
    bool settled = false;
    int warmRounds = 0;
    while (!settled && warmSeconds < rule.maxSeconds) {
      Round r = runRound();
      ++warmRounds;
      warmTimes.push_back(r.ours);
      if (r.oursState)
        warmClocks.push_back(r.oursState->smClockMHz);
      warmSeconds = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - warmStart)
                        .count();
      settled = rule.settled(warmClocks, warmTimes, warmSeconds);
    }
    std::vector<double> oursT, theirsT, clocks, powers, temps;
    json samples = json::array();
    for (int i = 0; i < opt.rounds; ++i) {
      Round r = runRound();
      oursT.push_back(flops / r.ours / 1e12);
      json sample = {{"round", i},
                     {"tensorop_tflops", oursT.back()},
                     {"tensorop_state", sampleJson(r.oursState)}};
      if (haveBaseline) {
        theirsT.push_back(flops / r.theirs / 1e12);
        sample["cudnn_tflops"] = theirsT.back();
        sample["cudnn_state"] = sampleJson(r.theirsState);
      }
      for (const auto &g : {r.oursState, r.theirsState})
        if (g) {
          clocks.push_back(g->smClockMHz);
          powers.push_back(g->powerWatts);
          temps.push_back(g->temperatureC);
        }
      samples.push_back(std::move(sample));
    }
    double oursMed = median(oursT);
    double oursBest = *std::max_element(oursT.begin(), oursT.end());
    json nvmlJson = {{"available", nvml.available()}};
    if (nvml.available()) {
      nvmlJson["driver"] = nvml.driverVersion();
      nvmlJson["sm_mhz"] = spreadJson(clocks);
      nvmlJson["power_w"] = spreadJson(powers);
      nvmlJson["temp_c"] = spreadJson(temps);
    } else {
      nvmlJson["reason"] = nvml.unavailableReason();
    }
    json timing = {
        {"performed", true},
        {"method", "CUDA events around `reps` back-to-back launches; ours and "
                   "cuDNN's alternate in each round, the first side "
                   "alternating between rounds; NVML read halfway through "
                   "each sample"},
        {"caches", "warm (same buffers every repetition)"},
        {"warmup",
         {{"rule", rule.describe()},
          {"settled", settled},
          {"rounds", warmRounds},
          {"seconds", warmSeconds}}},
        {"rounds", opt.rounds},
        {"reps_per_sample", reps},
        {"tensorop_tflops_median", oursMed},
        {"tensorop_tflops_best", oursBest},
        {"tensorop_ms_median", flops / (oursMed * 1e12) * 1e3},
        {"tensorop_spread", spreadJson(oursT)},
        {"tensorop_samples", oursT},
        {"nvml", nvmlJson},
        {"gpu_samples", samples}};
    bool tooFast = oursBest > 1.02 * peakTflops(p.input);
    timing["faster_than_peak"] = tooFast;
    // Graph mode (the kernel comparison): each side's `reps` calls captured
    // once into a CUDA graph and replayed, so neither side's per-call host
    // cost (cuDNN's legacy API has much more than a kernel launch) starves
    // the GPU. Eager rounds above include that cost.
    if (opt.graphs) {
      json graph = timeGraphs(ses, launchOurs,
                              haveBaseline ? std::function<std::string()>(
                                                 [&] { return cudnn->run(); })
                                           : std::function<std::string()>(),
                              reps, opt.rounds, flops, e0, e1, e2);
      if (graph.value("tensorop_tflops_best", 0.0) > 1.02 * peakTflops(p.input)) {
        tooFast = true;
        timing["faster_than_peak"] = true;
      }
      timing["graph"] = graph;
    }
    if (haveBaseline) {
      double theirsMed = median(theirsT);
      timing["cudnn_tflops_median"] = theirsMed;
      timing["cudnn_tflops_best"] =
          *std::max_element(theirsT.begin(), theirsT.end());
      timing["cudnn_ms_median"] = flops / (theirsMed * 1e12) * 1e3;
      timing["cudnn_spread"] = spreadJson(theirsT);
      timing["cudnn_samples"] = theirsT;
      timing["ratio_median"] = oursMed / theirsMed;
      // cuDNN's output must be right too, or its time means nothing.
      Compared theirsCheck = compare(theirs, ref, false);
      baseline["verification"] = resultJson(theirsCheck, false);
      baseline["verified"] = theirsCheck.check.ok(false);
    }
    // 4. the buffer the timed runs wrote, checked again.
    Compared after = compare(ours, ref, false);
    out["verification"]["after_timing"] = resultJson(after, false);
    verified = verified && after.check.ok(false) && !tooFast;
    out["timing"] = timing;
    cuEventDestroy(e0);
    cuEventDestroy(e1);
    cuEventDestroy(e2);
  } else {
    out["timing"] = {{"performed", false},
                     {"reason", verified ? "--no-time" : "not verified"}};
  }
  if (!baseline.contains("available")) {
    baseline["available"] = false;
    baseline["reason"] = verified ? "--no-time" : "our kernel did not verify";
  }
  out["baseline"] = baseline;
  out["verified"] = verified;
  cudnn.reset();
  for (Tensor *t : {&input, &filter, &filterKRSC, &ours, &theirs})
    cuMemFree(t->device);
  return verified;
}
