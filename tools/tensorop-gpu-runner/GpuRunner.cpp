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
// shared memory) and hands it to the protocol of its kind in
// lib/GPU/Runtime: a plain GEMM to GpuGemmRunner.cpp, which
// runs it on fresh seeded inputs with a NaN-filled output,
// compares every element with an fp64 reference of the same rounded inputs
// (cuBLAS dgemm) under the K-scaled bound, repeats with small integers
// (exact results), then times it, cuBLAS (cublasGemmEx, same types and
// layout) and cuBLASLt (the fastest of its top-8 heuristic algorithms,
// lib/GPU/Runtime/CublasLtBest.cpp) alternately with CUDA events and
// verifies the timed outputs again. A launch description with a "before"
// list (the pad copies of a GEMM whose rows TMA cannot describe, into a
// "workspace" the runner allocates once) launches those kernels before
// ours every time: they are verified and timed together. A split-K
// reduced through a global workspace ("SK_ws", its counters zeroed once
// here) gets its workspace the same way.
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
#include "tensorop/GPU/GpuCheck.h"
#include "tensorop/GPU/GpuConvRunner.h"
#include "tensorop/GPU/GpuEpilogueRunner.h"
#include "tensorop/GPU/GpuGemmRunner.h"
#include "tensorop/GPU/NvmlSampler.h"
#include "tensorop/Verify/Buffers.h"
#include "tensorop/Verify/Check.h"
#include "tensorop/Verify/Numerics.h"
#include "tensorop/Verify/Settle.h"
#include "tensorop/Verify/Timing.h"

// Only for the version string: the runner links no LLVM on purpose (it runs
// on the GPU machine, which has none).
#include "llvm/Config/llvm-config.h"

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
  tensorop::checkGpuCall(r, what, die);
}
#define CUC(x) cuCheck((x), #x)


// ---- the operands our kernel takes
// -----------------------------------------------------------

struct DeviceBuffers {
  CUdeviceptr a = 0, b = 0, c = 0;
  CUdeviceptr bias = 0, r = 0; ///< a fused epilogue's operands
};

CUstream gStream = nullptr;

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
    // A split-K workspace's arrival counters ("zero": [offset, bytes]) must
    // be zero before the first launch; every launch leaves them zero (the
    // last arrival of a tile resets its counter), so once is enough.
    if (ws.contains("zero"))
      CUC(cuMemsetD8(workspace + ws.at("zero")[0].get<CUdeviceptr>(), 0,
                     ws.at("zero")[1].get<size_t>()));
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
    if ((t == "A_pad" || t == "B_pad" || t == "SK_ws") && workspace &&
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

  tensorop::GpuGemmLaunchProblem problem;
  std::string error = tensorop::parseGpuGemmProblem(launchDesc, problem);
  if (!error.empty())
    die(2, launchPath + ": " + error);
  CUC(cuInit(0));
  CUdevice dev;
  CUC(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CUC(cuDevicePrimaryCtxRetain(&ctx, dev));
  CUC(cuCtxSetCurrent(ctx));
  CUC(cuStreamCreate(&gStream, CU_STREAM_NON_BLOCKING));
  static Kernel kern;
  auto load = [&](const tensorop::GpuGemmOperands &ops, json &info) {
    DeviceBuffers d;
    d.a = ops.a;
    d.b = ops.b;
    d.c = ops.c;
    kern = loadKernel(launchDesc, cubin, d);
    info = {{"grid", launchDesc.at("grid")},
            {"cluster", kern.cluster},
            {"threads", kern.threads},
            {"shared_bytes", kern.smem}};
    if (int64_t resident = maxActiveClusters(kern))
      info["max_active_clusters"] = resident;
    if (launchDesc.contains("before")) {
      // Timed and verified together with the GEMM: every launch runs them.
      json names = json::array();
      for (const json &pre : launchDesc.at("before"))
        names.push_back(pre.at("name"));
      info["before"] = names;
      info["workspace_bytes"] = launchDesc.at("workspace").at("bytes");
    }
    return std::function<void()>([] { launch(kern); });
  };
  json out;
  bool verified = tensorop::runGpuGemmLaunch(
      launchDesc, problem, load, cubin, dev, gStream,
      {rounds, seed, doTime, doBlas, timeout, targetMs}, die, out);
  std::string text = out.dump(1);
  std::printf("%s\n", text.c_str());
  if (!outPath.empty()) {
    std::ofstream f(outPath);
    f << text << "\n";
  }
  return verified ? 0 : 1;
}
