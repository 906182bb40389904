//===- GpuEpilogueRunner.h - The runner's fused-epilogue GEMMs ---*- C++ -*-===//
//
// What tensorop-gpu-runner does with a GEMM whose launch description has an
// "epilogue" (the steps the NVIDIA kernel applies before it stores C; the
// kernel takes "bias" and "R" parameters of C's type): seeded A and B
// rounded to the input type, bias and R rounded to C's type, C prefilled
// with NaN; every element against the steps applied in fp64 to cuBLAS
// dgemm's product of the same rounded inputs, under MEASURE.md's bound (u
// of the fp32 accumulation) stretched by the steps' slope, plus the
// approximations' error and C's rounding; for steps that are exact on
// integers (bias, residual, ReLU) a small-integer test too. Then timing
// with CUDA events after the clocks settled, alternating in each round:
// ours, cuBLASLt with the matching epilogue (CUBLASLT_EPILOGUE_BIAS,
// RELU(_BIAS), GELU(_BIAS), a residual as beta = 1; fastest of its top
// heuristic algorithms), and, when given, our kernel without the epilogue
// and cuBLASLt without one (what the epilogue costs each side). Steps
// cuBLASLt cannot express (an erf GELU: its GELU is the tanh form; SiLU; a
// bias along M; a residual after the activation; ...) get "no baseline"
// with the reason. Plain C++ on the CUDA driver API, cuBLAS and cuBLASLt.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUEPILOGUERUNNER_H
#define TENSOROP_GPU_GPUEPILOGUERUNNER_H

#include "tensorop/GPU/GpuConvRunner.h"
#include "tensorop/Verify/EpilogueSteps.h"
#include "tensorop/Verify/Numerics.h"

#include <cuda.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tensorop {

/// The GEMM and steps of a launch description with an "epilogue".
struct GpuEpilogueProblem {
  int64_t m = 0, n = 0, k = 0;
  ElementType input = ElementType::BF16, output = ElementType::BF16;
  std::vector<std::string> texts;
  std::vector<EpilogueRefStep> steps;
  bool hasBias = false, biasAlongM = false, hasResidual = false;
};
/// "" or what is wrong with the description's shape, types, "epilogue" and
/// parameters (a "bias" parameter iff a bias step, "R" iff a residual).
std::string parseGpuEpilogueProblem(const nlohmann::ordered_json &launch,
                                    GpuEpilogueProblem &problem);

/// How cuBLASLt computes the same steps, if it can: its epilogue and
/// whether the residual goes in as C with beta = 1.
struct CublasLtEpilogueChoice {
  bool available = false;
  std::string reason;   ///< why not, when not available
  int epilogue = 1;     ///< a cublasLtEpilogue_t (1 = DEFAULT)
  bool residualAsC = false;
  std::string name;     ///< e.g. "CUBLASLT_EPILOGUE_GELU_BIAS"
};
CublasLtEpilogueChoice
chooseCublasLtEpilogue(const std::vector<EpilogueRefStep> &steps);

/// Device operands of one GEMM launch (0 where the kernel takes none).
struct GpuGemmOperands {
  CUdeviceptr a = 0, b = 0, c = 0, bias = 0, residual = 0;
};
/// Loads a kernel on these operands; returns what launches it once on the
/// runner's stream.
using GpuGemmKernelLoader =
    std::function<std::function<void()>(const GpuGemmOperands &)>;

struct GpuEpilogueRunOptions {
  int rounds = 10;
  uint64_t seed = 42;
  bool time = true;
  bool baseline = true;
  double timeoutSeconds = 60;
  double sampleMs = 10;
};

/// The whole protocol; `loadPlain` (may be empty) loads our kernel of the
/// same GEMM without the epilogue. Fills `out` and returns whether the
/// kernel verified, before and after timing.
bool runGpuEpilogueLaunch(const nlohmann::ordered_json &launch,
                          const GpuEpilogueProblem &problem,
                          const GpuGemmKernelLoader &load,
                          const GpuGemmKernelLoader &loadPlain,
                          CUdevice device, CUstream stream,
                          const GpuEpilogueRunOptions &options,
                          GpuRunnerFail fail, nlohmann::ordered_json &out);

} // namespace tensorop

#endif // TENSOROP_GPU_GPUEPILOGUERUNNER_H
