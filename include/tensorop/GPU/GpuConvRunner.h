//===- GpuConvRunner.h - tensorop-gpu-runner's convolution protocol -*- C++ -*-===//
//
// What tensorop-gpu-runner does with a convolution's launch description
// (the "conv" object `tensorop gen` writes): NHWC input, HWCF filter and
// NHWF output in device memory; seeded inputs rounded to the input type;
// the output prefilled with NaN; every element against the fp64 reference
// of the same rounded inputs (Verify/ConvDirect.h) under MEASURE.md's bound
// with K = R*S*C and u of the fp32 accumulation; small integers with exact results; then timing with CUDA
// events, alternating with cuDNN's legacy convolution (CudnnConv.h) in each
// round after the clocks settled, eagerly (host cost included) and from
// CUDA graphs (kernel against kernel); the outputs of both timed sides checked
// again. The result is the runner's JSON. Plain C++ on the CUDA driver API
// (no LLVM), linked into the runner only.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUCONVRUNNER_H
#define TENSOROP_GPU_GPUCONVRUNNER_H

#include "tensorop/Advisor/ConvShape.h"
#include "tensorop/Verify/Numerics.h"

#include <cuda.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace tensorop {

struct GpuConvRunOptions {
  int rounds = 10;
  uint64_t seed = 42;
  bool time = true;
  bool baseline = true; ///< time cuDNN too
  double timeoutSeconds = 60;
  double sampleMs = 10; ///< target duration of one side's sample
  /// Judge with u of the input type instead of the accumulation's (fp32),
  /// as the GEMM path does: a much looser bound (2*K*u > 1 for K > 128 in
  /// bf16), for comparison only. Both ratios are reported either way.
  bool inputTypeBound = false;
  /// Also time both sides replayed from CUDA graphs (timing.graph).
  bool graphs = true;
};

/// The convolution a launch description names, checked against its
/// implicit GEMM (m = N*OH*OW, n = F, k = R*S*C) and types.
struct GpuConvProblem {
  Conv2DShape shape;
  ElementType input = ElementType::BF16, output = ElementType::BF16;
};
/// "" or what is wrong with the description's "conv", a_dtype and c_dtype.
std::string parseGpuConvProblem(const nlohmann::ordered_json &launch,
                                GpuConvProblem &problem);

/// Reports a setup error (exit code, message) and does not return.
using GpuRunnerFail = void (*)(int code, const std::string &message);
/// Loads our kernel on these device buffers (input, filter, output) and
/// returns what launches it once on the runner's stream.
using GpuConvKernelLoader = std::function<std::function<void()>(
    CUdeviceptr input, CUdeviceptr filter, CUdeviceptr output)>;

/// The whole protocol; fills `out` (the runner's JSON object) and returns
/// whether the kernel verified (before and after timing).
bool runGpuConvLaunch(const nlohmann::ordered_json &launch,
                      const GpuConvProblem &problem,
                      const GpuConvKernelLoader &load, CUdevice device,
                      CUstream stream, const GpuConvRunOptions &options,
                      GpuRunnerFail fail, nlohmann::ordered_json &out);

} // namespace tensorop

#endif // TENSOROP_GPU_GPUCONVRUNNER_H
