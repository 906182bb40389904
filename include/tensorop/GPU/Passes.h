//===- Passes.h - TensorOp's NVIDIA GPU passes and pipeline -----*- C++ -*-===//
//
// The NVIDIA path of TensorOp: `tensorop-gpu-lower-matmul` turns sketched
// GEMMs into gpu.launch_func of emitted PTX kernels, and the GPU pipeline
// lowers the rest to the LLVM dialect with the cubin embedded
// (gpu-module-to-binary, ptxas from the CUDA toolkit).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_PASSES_H
#define TENSOROP_GPU_PASSES_H

#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlir {
class DialectRegistry;
namespace tensorop {

/// Options of the NVIDIA pipeline (`tensorop-pipeline` with an nvidia target).
struct GpuPipelineOptions {
  std::string target = "nvidia-sm90";
  std::string advisor = "builtin";
  std::string hintsDir, emitterDir;
  /// Tuning database to take sketches from ("" = the advisor decides).
  std::string db;
  /// Host functions take bare pointers (the C ABI of `tensorop gen`).
  bool barePtrAbi = false;
  /// gpu-module-to-binary format: "bin" (cubin, needs ptxas), "fatbin"
  /// (cubin + PTX), "isa" (PTX, JIT-compiled by the driver at load), or "" to
  /// pick: without ptxas (CUDA_ROOT, /usr/local/cuda, PATH) isa, else fatbin
  /// for nvidia-sm80 (so newer GPUs can JIT it) and bin for nvidia-sm90.
  std::string binaryFormat;
  /// Stop before gpu-module-to-binary (the module keeps its gpu.module).
  bool stopBeforeBinary = false;
  /// Run only the front half: bufferization and tensorop-gpu-lower-matmul.
  bool kernelsOnly = false;
  /// Run only the back half (after kernelsOnly).
  bool loweringOnly = false;
  /// Do not print the lowering's remarks (the tuner compiles many kernels).
  bool quietRemarks = false;
  /// Fuse elementwise consumers of each matmul into its kernel's store
  /// (tensorop-fuse-epilogues); off: they stay separate ops (which the
  /// NVIDIA path does not lower).
  bool fuseEpilogues = true;
};

/// Checks that `advisor` names an advisor the NVIDIA path has.
llvm::Error checkGpuAdvisorName(llvm::StringRef advisor);
/// The target and advisor options of an NVIDIA pass, checked where the
/// options were written (Pass::initializeOptions), before any input is read.
llvm::Error checkGpuPassOptions(llvm::StringRef pass, llvm::StringRef target,
                                llvm::StringRef advisor);

/// Adds the NVIDIA pipeline to `pm` from typed pass options; fails with a
/// message for bad options (nothing is added then).
LogicalResult buildTensorOpGpuPipeline(OpPassManager &pm,
                                       const GpuPipelineOptions &options,
                                       std::string &error);

/// The CUDA toolkit directory gpu-module-to-binary should use ("" if none).
std::string findCudaToolkit();

/// Registers tensorop-gpu-lower-matmul.
void registerTensorOpGpuPasses();

/// Hands --tensorop-pipeline's nvidia-* targets to buildTensorOpGpuPipeline
/// (registerTargetPipeline in tensorop/Transforms/Passes.h).
void registerTensorOpGpuPipelineExtension();

/// Registers the translations an NVIDIA module needs on its way to an
/// object file (LLVM, NVVM, GPU binary/offloading) and the NVVM target.
void registerTensorOpGpuTranslations(DialectRegistry &registry);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_GPU_PASSES_H
