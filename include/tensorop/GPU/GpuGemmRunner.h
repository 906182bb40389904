//===- GpuGemmRunner.h - tensorop-gpu-runner's GEMM protocol ------*- C++ -*-===//
//
// What tensorop-gpu-runner does with a plain GEMM's launch description
// (shared/MEASURE.md): A and B in device memory, seeded and rounded to the
// input type, C prefilled with NaN (or C0 with accumulation); every element
// of C against an fp64 reference of the same rounded inputs (cuBLAS dgemm)
// under the K-scaled bound; again with small integers (exact results); then
// timing with CUDA events after the clocks settled (tensorop::SettleRule),
// ours, cuBLAS (cublasGemmEx, same types) and cuBLASLt (its fastest of the
// top-8 heuristic algorithms, CublasLtBest.h) alternating in each round,
// NVML's SM clock, power and temperature per sample; the timed outputs
// verified again and checked bit for bit against the first launch. The
// result is the runner's JSON. Plain C++ on the CUDA driver API, cuBLAS and
// cuBLASLt (no LLVM), linked into the runner only.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUGEMMRUNNER_H
#define TENSOROP_GPU_GPUGEMMRUNNER_H

#include "tensorop/GPU/GpuConvRunner.h"
#include "tensorop/GPU/GpuEpilogueRunner.h"

#include <cuda.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace tensorop {

struct GpuGemmRunOptions {
  int rounds = 10;
  uint64_t seed = 42;
  bool time = true;
  bool baseline = true; ///< time cuBLAS and cuBLASLt too
  double timeoutSeconds = 60;
  double sampleMs = 10; ///< target duration of one side's sample
};

/// The GEMM a launch description names.
struct GpuGemmLaunchProblem {
  int64_t m = 0, n = 0, k = 0;
  std::string aType, cType; ///< "bf16", "f16", "tf32", "f32"
  bool accumulate = false;  ///< C += A B
};
/// "" or what is wrong with the description's shape and types, or why the
/// host buffers of its verification would not fit (Verify/Buffers.h).
std::string parseGpuGemmProblem(const nlohmann::ordered_json &launch,
                                GpuGemmLaunchProblem &problem);

/// Loads our kernel on these operands (a, b, c; no bias or residual),
/// describes its launch in `launchInfo` (the runner's "launch" object:
/// grid, cluster, threads, shared bytes, ...) and returns what launches it
/// (and any kernels it runs before) once on the runner's stream.
using GpuGemmLaunchLoader = std::function<std::function<void()>(
    const GpuGemmOperands &, nlohmann::ordered_json &launchInfo)>;

/// The whole protocol on `device` and `stream` (the caller's current
/// context); fills `out` (the runner's JSON object, `cubin` its kernel
/// file) and returns whether the kernel verified (before and after timing,
/// repeatable bits, not faster than the peak). A timing summary goes to
/// stderr.
bool runGpuGemmLaunch(const nlohmann::ordered_json &launch,
                      const GpuGemmLaunchProblem &problem,
                      const GpuGemmLaunchLoader &load, const std::string &cubin,
                      CUdevice device, CUstream stream,
                      const GpuGemmRunOptions &options, GpuRunnerFail fail,
                      nlohmann::ordered_json &out);

} // namespace tensorop

#endif // TENSOROP_GPU_GPUGEMMRUNNER_H
