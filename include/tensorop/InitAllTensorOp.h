//===- InitAllTensorOp.h - Everything a downstream tool needs ---*- C++ -*-===//
//
// For an out-of-tree MLIR tool (an mlir-opt of its own, a compiler):
//
//   mlir::DialectRegistry registry;
//   mlir::tensorop::registerAllDialects(registry);
//   mlir::tensorop::registerAllPasses();
//   return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "...", registry));
//
// is enough for --tensorop-pipeline (no mlir::registerAllPasses needed).
// The optional libraries register what they add when the tool links them:
// the CMake targets TensorOp::NVIDIA, TensorOp::LLM, TensorOp::Tuner (and
// TensorOp::NVIDIALLM) define TENSOROP_HAVE_<NAME> for their users, and the
// functions below are inline so that they see those definitions.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_INITALLTENSOROP_H
#define TENSOROP_INITALLTENSOROP_H

#include "tensorop/Support/DataDir.h"
#include "tensorop/Transforms/Passes.h"

#ifdef TENSOROP_HAVE_NVIDIA
#include "tensorop/GPU/Passes.h"
#endif
#ifdef TENSOROP_HAVE_LLM
#include "tensorop/LLM/LLMAdvisor.h"
#endif
#ifdef TENSOROP_HAVE_TUNER
#include "tensorop/Tuner/TuningDB.h"
#endif
#ifdef TENSOROP_HAVE_NVIDIA_LLM
#include "tensorop/GPU/GpuLLMAdvisor.h"
#endif

namespace mlir {
class DialectRegistry;
namespace tensorop {

/// The tensorop dialect and every dialect, interface and extension the
/// pipelines accept as input or produce (func, arith, math, linalg, tensor,
/// memref, scf, bufferization, vector, llvm, gpu, nvvm, ...), plus the LLVM IR
/// translations and the NVVM target when TensorOp::NVIDIA is linked.
inline void registerAllDialects(DialectRegistry &registry) {
  registerPipelineDialects(registry);
#ifdef TENSOROP_HAVE_NVIDIA
  registerTensorOpGpuTranslations(registry);
#endif
}

/// TensorOp's passes and --tensorop-pipeline (which creates the upstream
/// passes it uses itself, with typed options, so they need no registration),
/// and what the linked optional libraries add: nvidia-* targets (NVIDIA),
/// advisor=llm / replay:DIR (LLM), db= (Tuner).
inline void registerAllPasses() {
#ifdef TENSOROP_PACKAGE_DATA_DIR
  // Set by find_package(TensorOp): the installed package's data, wherever
  // this tool lives.
  setPackageDataDir(TENSOROP_PACKAGE_DATA_DIR);
#endif
  registerAllTensorOpPasses();
#ifdef TENSOROP_HAVE_NVIDIA
  registerTensorOpGpuPasses();
  registerTensorOpGpuPipelineExtension();
#endif
#ifdef TENSOROP_HAVE_LLM
  registerLLMAdvisors();
#endif
#ifdef TENSOROP_HAVE_TUNER
  registerTuningDatabaseProvider();
#endif
#ifdef TENSOROP_HAVE_NVIDIA_LLM
  registerGpuLLMAdvisor();
#endif
}

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_INITALLTENSOROP_H
