//===- GpuPipeline.cpp - The NVIDIA lowering pipeline ---------------------===//
//
// bufferize -> tensorop-gpu-annotate-sketch -> tensorop-gpu-apply-sketch ->
// (device) convert-gpu-to-nvvm with bare-pointer kernel arguments -> (host)
// func/memref/arith/cf to LLVM -> gpu-to-llvm -> gpu-module-to-binary (ptxas of the CUDA toolkit). The result
// is LLVM dialect plus a gpu.binary; its translation to LLVM IR embeds the
// cubin and loads it at program start through the mgpu* runtime functions
// (libtensorop_cuda_runtime).
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

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

LogicalResult mlir::tensorop::buildTensorOpGpuPipeline(
    OpPassManager &pm, const GpuPipelineOptions &options, std::string &error) {
  auto hasSpace = [](llvm::StringRef s) {
    return s.find_first_of(" {}\"") != llvm::StringRef::npos;
  };
  if (hasSpace(options.hintsDir) || hasSpace(options.emitterDir) ||
      hasSpace(options.db)) {
    error = "hints-dir, emitter-dir and db must not contain spaces, braces "
            "or quotes";
    return failure();
  }
  // Annotate (a sketch on each matmul), then apply (the emitted kernel and
  // its launch), as the CPU pipeline does.
  std::string lower = "tensorop-gpu-annotate-sketch{target=" + options.target +
                      " advisor=" + options.advisor;
  if (!options.hintsDir.empty())
    lower += " hints-dir=" + options.hintsDir;
  if (!options.db.empty())
    lower += " db=" + options.db;
  lower += "},tensorop-gpu-apply-sketch";
  std::string apply;
  if (!options.hintsDir.empty())
    apply += " hints-dir=" + options.hintsDir;
  if (!options.emitterDir.empty())
    apply += " emitter-dir=" + options.emitterDir;
  if (!apply.empty())
    lower += "{" + apply + "}";
  std::string kernels = "one-shot-bufferize{bufferize-function-boundaries "
                        "function-boundary-type-conversion=identity-layout-map}"
                        "," +
                        lower + ",canonicalize,cse";
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
  std::string lowering =
      "gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},"
      "canonicalize,cse,reconcile-unrealized-casts)"
      ",lower-affine,convert-scf-to-cf,expand-strided-metadata,lower-affine"
      ",convert-func-to-llvm{use-bare-ptr-memref-call-conv=" +
      std::string(options.barePtrAbi ? "1" : "0") +
      "}"
      ",finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm"
      ",convert-cf-to-llvm,convert-ub-to-llvm"
      ",gpu-to-llvm{use-bare-pointers-for-kernels=1}"
      ",reconcile-unrealized-casts";
  if (!options.stopBeforeBinary)
    lowering += ",gpu-module-to-binary{format=" + format +
                (toolkit.empty() ? "" : " toolkit=" + toolkit) + "}";
  std::string text = options.kernelsOnly    ? kernels
                     : options.loweringOnly ? lowering
                                            : kernels + "," + lowering;
  llvm::raw_string_ostream os(error);
  return parsePassPipeline(text, pm, os);
}

void mlir::tensorop::registerTensorOpGpuTranslations(
    DialectRegistry &registry) {
  registerAllToLLVMIRTranslations(registry);
  registerAllGPUToLLVMIRTranslations(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
}
