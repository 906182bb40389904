//===- GpuGen.h - Compiling NVIDIA GEMM kernels -----------------*- C++ -*-===//
//
// The pieces `tensorop gen` and `tensorop tune` compile NVIDIA kernels with
// (the driver itself is lib/Driver/NvidiaBackend.cpp): the MLIR input, the
// context, the two halves of the pipeline, the GPU binary and the host
// object.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUGEN_H
#define TENSOROP_GPU_GPUGEN_H

#include "tensorop/Advisor/ConvShape.h"
#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/GPU/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace mlir {
class MLIRContext;
namespace tensorop {

/// The MLIR input `tensorop gen` builds for an NVIDIA GEMM: C = A * B
/// (C zero-filled, then linalg.matmul), memrefs in device memory.
std::string gpuGemmModuleSource(llvm::StringRef name, int64_t m, int64_t n,
                                int64_t k, llvm::StringRef aType,
                                llvm::StringRef cType,
                                llvm::StringRef precision,
                                llvm::StringRef sketch = "");

/// The MLIR input `tensorop gen` builds for an NVIDIA convolution: output
/// = conv2d(input, filter), NHWC / HWCF / NHWF memrefs in device memory, in
/// the tensor form tensorop-gpu-lower-conv takes (the padding a zero
/// tensor.pad of the input); `inType` bf16, f16 or f32, `outType`
/// f32/bf16/f16; `precision` "tf32" marks an f32 convolution for the TF32
/// tensor-core kernel (tensorop.precision).
std::string gpuConvModuleSource(llvm::StringRef name,
                                const ::tensorop::Conv2DShape &shape,
                                llvm::StringRef inType,
                                llvm::StringRef outType,
                                llvm::StringRef sketch = "",
                                llvm::StringRef precision = "");

/// The convolution of an implicit GEMM's geometry, as requests describe it.
::tensorop::Conv2DShape gpuConvShape(const GpuConvGeometry &g);

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

/// Runs `options`' half of the NVIDIA pipeline on `module`; the error holds
/// the diagnostics.
llvm::Error runGpuPipeline(MLIRContext &ctx, ModuleOp module,
                           const GpuPipelineOptions &options);

/// The object of the module's (single) gpu.binary, as bytes.
std::string gpuBinaryObject(ModuleOp module);

/// Adds `NAME_async(args..., ptr stream) -> i32` beside the lowered
/// (LLVM dialect) entry point `NAME`: the same launches on the caller's
/// stream with no synchronization, returning 0 or the first failed CUresult.
llvm::Error addAsyncEntryPoint(ModuleOp module, llvm::StringRef name);

/// LLVM IR (`llPath`) and an x86-64 object (`objPath`) of the host side of
/// a lowered module, the GPU binary embedded.
llvm::Error emitGpuHostObject(ModuleOp module, llvm::StringRef objPath,
                              llvm::StringRef llPath);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_GPU_GPUGEN_H
