//===- GpuPipeline.cpp - The NVIDIA lowering pipeline ---------------------===//
//
// bufferize -> tensorop-gpu-lower-matmul -> (device) convert-gpu-to-nvvm with
// bare-pointer kernel arguments -> (host) func/memref/arith/cf to LLVM ->
// gpu-to-llvm -> gpu-module-to-binary (ptxas of the CUDA toolkit). The result
// is LLVM dialect plus a gpu.binary; its translation to LLVM IR embeds the
// cubin and loads it at program start through the mgpu* runtime functions
// (libtensorop_cuda_runtime).
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/Passes.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <mutex>

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
  // The upstream passes the text below names (gpu-module-to-binary and the
  // GPU conversions too), for tools that did not register them all.
  registerPipelineDependencies();
  static std::once_flag once;
  std::call_once(once, [] {
    registerGPUPasses();
    registerTensorOpGpuPasses();
  });
  auto hasSpace = [](llvm::StringRef s) {
    return s.find_first_of(" {}\"") != llvm::StringRef::npos;
  };
  if (hasSpace(options.hintsDir) || hasSpace(options.emitterDir) ||
      hasSpace(options.db)) {
    error = "hints-dir, emitter-dir and db must not contain spaces, braces "
            "or quotes";
    return failure();
  }
  std::string lower = "tensorop-gpu-lower-matmul{target=" + options.target +
                      " advisor=" + options.advisor;
  if (!options.hintsDir.empty())
    lower += " hints-dir=" + options.hintsDir;
  if (!options.emitterDir.empty())
    lower += " emitter-dir=" + options.emitterDir;
  if (!options.db.empty())
    lower += " db=" + options.db;
  lower += "}";
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

void mlir::tensorop::registerTensorOpGpuPipelineExtension() {
  registerTargetPipeline(
      "nvidia", [](OpPassManager &pm, const PipelineOptions &options,
                   std::string &error) -> LogicalResult {
        if (options.threads != 1) {
          error = "threads= is a CPU option (a GPU kernel's threads are in "
                  "its #tensorop.gpu_sketch)";
          return failure();
        }
        GpuPipelineOptions gpu;
        gpu.target = options.target.getValue();
        gpu.advisor = options.advisor.getValue();
        gpu.barePtrAbi = options.barePtrAbi;
        gpu.db = options.db.getValue();
        return buildTensorOpGpuPipeline(pm, gpu, error);
      });
}
