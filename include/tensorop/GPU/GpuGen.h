//===- GpuGen.h - tensorop gen for NVIDIA targets ---------------*- C++ -*-===//
//
// `tensorop gen "4096x4096x4096 bf16 GEMM for nvidia-sm90" -o DIR` writes
// DIR/<name>.mlir (the input), <name>.lowered.mlir (LLVM dialect with the
// gpu.binary), <name>.ptx, <name>.cubin, <name>.o (host code with the cubin
// embedded, calling libtensorop_cuda_runtime), <name>.h, <name>.launch.json
// (the description tensorop-gpu-runner loads) and report.json / report.md.
// The build machine has no GPU: verification and timing are done by
// tensorop-gpu-runner on the GPU machine, and the report says so.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUGEN_H
#define TENSOROP_GPU_GPUGEN_H

#include "tensorop/GPU/GpuAdvisor.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlir {
class MLIRContext;
namespace tensorop {

struct GpuGenRequest {
  std::string text;   ///< the request as given
  std::string target; ///< nvidia-sm80 | nvidia-sm90
  std::string dtype;  ///< bf16, f16, tf32, f32
  std::string cType;  ///< output type; "" = default for dtype
  int64_t m = 0, n = 0, k = 0;
  std::string name, outDir, advisor = "builtin";
  std::string sketch; ///< an explicit #tensorop.gpu_sketch (optional)
  std::string db;     ///< a tuning database to take the sketch from
};

/// The MLIR input `tensorop gen` builds for an NVIDIA GEMM: C = A * B
/// (C zero-filled, then linalg.matmul), memrefs in device memory.
std::string gpuGemmModuleSource(llvm::StringRef name, int64_t m, int64_t n,
                                int64_t k, llvm::StringRef aType,
                                llvm::StringRef cType,
                                llvm::StringRef precision,
                                llvm::StringRef sketch = "");

/// A context with every dialect, pass and translation the NVIDIA path uses.
std::unique_ptr<MLIRContext> makeGpuCompilerContext();

/// One kernel for the tuner: DIR/NAME.{cubin|fatbin|ptx} and
/// DIR/NAME.launch.json (what tensorop-gpu-runner loads) for C = A*B with
/// the given sketch. No host object, no report.
struct GpuCompiledKernel {
  std::string launchPath, binaryPath, kernelName, sketchText;
};
llvm::Expected<GpuCompiledKernel>
compileGpuKernel(MLIRContext &ctx, const GpuGemmProblem &problem,
                 llvm::StringRef target, llvm::StringRef sketchText,
                 llvm::StringRef dir, llvm::StringRef name);

/// Runs the whole NVIDIA gen; progress to `out`, returns the exit status.
int runGpuGen(const GpuGenRequest &request, llvm::raw_ostream &out,
              llvm::raw_ostream &err);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_GPU_GPUGEN_H
