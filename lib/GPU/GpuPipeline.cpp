//===- GpuPipeline.cpp - The NVIDIA lowering pipeline ---------------------===//
//
// Built from typed pass options, never from pipeline text (see
// lib/Transforms/Pipeline.cpp).
//
// bufferize -> tensorop-gpu-annotate-sketch -> tensorop-fuse-epilogues ->
// tensorop-gpu-apply-sketch ->
// (device) convert-gpu-to-nvvm with bare-pointer kernel arguments -> (host)
// func/memref/arith/cf to LLVM -> gpu-to-llvm -> gpu-module-to-binary (ptxas
// of the CUDA toolkit). The result
// is LLVM dialect plus a gpu.binary; its translation to LLVM IR embeds the
// cubin and loads it at program start through the mgpu* runtime functions
// (libtensorop_cuda_runtime).
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/Passes.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

namespace mlir::tensorop {
#define GEN_PASS_DECL_TENSOROPGPUANNOTATESKETCH
#define GEN_PASS_DECL_TENSOROPGPUAPPLYSKETCH
#define GEN_PASS_DECL_TENSOROPGPULOWERCONV
#include "GpuPasses.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

std::string mlir::tensorop::findCudaToolkit() {
  auto hasPtxas = [](llvm::StringRef dir) {
    llvm::SmallString<256> p(dir);
    llvm::sys::path::append(p, "bin", "ptxas");
    return llvm::sys::fs::can_execute(p);
  };
  for (const char *var : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *dir = std::getenv(var))
      if (hasPtxas(dir))
        return dir;
  if (hasPtxas("/usr/local/cuda"))
    return "/usr/local/cuda";
  if (llvm::ErrorOr<std::string> ptxas = llvm::sys::findProgramByName("ptxas"))
    return llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))
        .str();
  return "";
}

llvm::Error mlir::tensorop::checkGpuAdvisorName(llvm::StringRef advisor) {
  if (advisor == "builtin" || advisor == "llm")
    return llvm::Error::success();
  return llvm::createStringError(
      "advisor '" + advisor +
      "' is not available for NVIDIA targets (known: builtin, llm; or a "
      "#tensorop.gpu_sketch on the matmul)");
}

llvm::Error mlir::tensorop::checkGpuPassOptions(llvm::StringRef pass,
                                                llvm::StringRef target,
                                                llvm::StringRef advisor) {
  if (!llvm::is_contained(supportedGpuTargets(), target))
    return llvm::createStringError(pass + ": unknown target '" + target +
                                   "' (known: " +
                                   llvm::join(supportedGpuTargets(), ", ") +
                                   ")");
  if (llvm::Error e = checkGpuAdvisorName(advisor))
    return llvm::createStringError(pass + ": " + llvm::toString(std::move(e)));
  return llvm::Error::success();
}

LogicalResult mlir::tensorop::buildTensorOpGpuPipeline(
    OpPassManager &pm, const GpuPipelineOptions &options, std::string &error) {
  if (!llvm::is_contained(supportedGpuTargets(), options.target)) {
    error = "target '" + options.target + "' is not an NVIDIA target (known: ";
    llvm::ListSeparator sep;
    for (llvm::StringRef t : supportedGpuTargets())
      error += (llvm::Twine(sep) + t).str();
    error += ")";
    return failure();
  }
  if (llvm::Error e = checkGpuAdvisorName(options.advisor)) {
    error = llvm::toString(std::move(e));
    return failure();
  }
  std::string format = options.binaryFormat;
  std::string toolkit = findCudaToolkit();
  // sm_80 code is shipped as a fatbin (sm_80 cubin + compute_80 PTX) so that
  // newer GPUs (sm_90) JIT it; sm_90a code only runs on sm_90 anyway.
  if (format.empty())
    format = toolkit.empty()                   ? "isa"
             : options.target == "nvidia-sm80" ? "fatbin"
                                               : "bin";
  if (format != "bin" && format != "isa" && format != "fatbin") {
    error = "binary format must be bin, isa or fatbin, got '" + format + "'";
    return failure();
  }

  if (!options.loweringOnly) {
    // Convolutions first, in tensor form: their padding must stay TMA's
    // zero fill, not become a padded copy of the input.
    TensorOpGpuLowerConvOptions conv;
    conv.target = options.target;
    conv.advisor = options.advisor;
    conv.db = options.db;
    conv.hintsDir = options.hintsDir;
    conv.emitterDir = options.emitterDir;
    pm.addPass(createTensorOpGpuLowerConv(conv));
    bufferization::OneShotBufferizePassOptions bufferize;
    bufferize.bufferizeFunctionBoundaries = true;
    bufferize.functionBoundaryTypeConversion =
        bufferization::LayoutMapOption::IdentityLayoutMap;
    pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
    // A batch matmul: a loop over the batch of matmuls on slices, each
    // launched as its own kernel.
    pm.addPass(createTensorOpDecomposeBatchMatmul());
    // Annotate (a sketch on each matmul), then apply (the emitted kernel and
    // its launch), as the CPU pipeline does.
    TensorOpGpuAnnotateSketchOptions annotate;
    annotate.target = options.target;
    annotate.advisor = options.advisor;
    annotate.hintsDir = options.hintsDir;
    annotate.db = options.db;
    pm.addPass(createTensorOpGpuAnnotateSketch(annotate));
    // Elementwise consumers (bias, activation, residual) into the kernel's
    // store, as on CPUs (remarks say what was fused or why not).
    if (options.fuseEpilogues)
      pm.addPass(createTensorOpFuseEpilogues());
    TensorOpGpuApplySketchOptions apply;
    apply.hintsDir = options.hintsDir;
    apply.emitterDir = options.emitterDir;
    pm.addPass(createTensorOpGpuApplySketch(apply));
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  if (options.kernelsOnly)
    return success();

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = true;
  device.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  ConvertFuncToLLVMPassOptions funcToLLVM;
  funcToLLVM.useBarePtrCallConv = options.barePtrAbi;
  pm.addPass(createConvertFuncToLLVMPass(funcToLLVM));
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  GpuToLLVMConversionPassOptions gpuToLLVM;
  gpuToLLVM.kernelBarePtrCallConv = true;
  pm.addPass(createGpuToLLVMConversionPass(gpuToLLVM));
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (!options.stopBeforeBinary) {
    GpuModuleToBinaryPassOptions toBinary;
    toBinary.compilationTarget = format;
    toBinary.toolkitPath = toolkit;
    pm.addPass(createGpuModuleToBinaryPass(toBinary));
  }
  return success();
}

void mlir::tensorop::registerTensorOpGpuTranslations(
    DialectRegistry &registry) {
  registerAllToLLVMIRTranslations(registry);
  registerAllGPUToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}

void mlir::tensorop::registerTensorOpGpuPipelineExtension() {
  // checkPipelineOptions (lib/Transforms) has refused what NVIDIA targets do
  // not take before this runs.
  for (llvm::StringRef target : supportedGpuTargets())
    registerTargetPipeline(
        target, [](OpPassManager &pm, const PipelineOptions &options,
                   std::string &error) -> LogicalResult {
          GpuPipelineOptions gpu;
          gpu.target = options.target.getValue();
          gpu.advisor = options.advisor.getValue();
          gpu.barePtrAbi = options.barePtrAbi;
          gpu.db = options.db.getValue();
          gpu.hintsDir = options.hintsDir.getValue();
          gpu.fuseEpilogues = options.fuseEpilogues;
          return buildTensorOpGpuPipeline(pm, gpu, error);
        });
}
