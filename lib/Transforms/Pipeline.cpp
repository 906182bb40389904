//===- Pipeline.cpp - --tensorop-pipeline and registration ----------------===//

#include "tensorop/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <utility>
#include <vector>

using namespace mlir;
using namespace mlir::tensorop;

namespace {
struct TargetPipelineRegistry {
  std::mutex mutex;
  std::vector<std::pair<std::string, TargetPipelineBuilder>> builders;
};
TargetPipelineRegistry &targetPipelines() {
  static TargetPipelineRegistry registry;
  return registry;
}

TargetPipelineBuilder findTargetPipeline(StringRef target) {
  TargetPipelineRegistry &r = targetPipelines();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &[prefix, builder] : r.builders)
    if (target.starts_with(prefix))
      return builder;
  return nullptr;
}
} // namespace

void mlir::tensorop::registerTargetPipeline(StringRef targetPrefix,
                                            TargetPipelineBuilder builder) {
  TargetPipelineRegistry &r = targetPipelines();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto &entry : r.builders)
    if (entry.first == targetPrefix) {
      entry.second = std::move(builder);
      return;
    }
  r.builders.emplace_back(targetPrefix.str(), std::move(builder));
}

void mlir::tensorop::registerPipelineDependencies() {
  // What the pipeline text below names; registering twice is a no-op.
  static std::once_flag once;
  std::call_once(once, [] {
    registerTensorOpPasses();
    bufferization::registerBufferizationPasses();
    registerConversionPasses(); // convert-*-to-*, lower-affine, ...
    registerTransformsPasses(); // canonicalize, cse
    registerLinalgPasses();     // convert-linalg-to-loops
    memref::registerMemRefPasses(); // expand-strided-metadata
    registerSCFPasses();        // scf-forall-to-parallel
  });
}

void mlir::tensorop::buildTensorOpPipeline(OpPassManager &pm,
                                           const PipelineOptions &options) {
  registerPipelineDependencies();
  // Other target families (NVIDIA: lib/GPU) bring their own pipeline.
  StringRef targetName = options.target.getValue();
  if (TargetPipelineBuilder builder = findTargetPipeline(targetName)) {
    std::string error;
    if (failed(builder(pm, options, error)))
      llvm::report_fatal_error(llvm::Twine("tensorop-pipeline: ") + error);
    return;
  }
  if (targetName.starts_with("nvidia"))
    llvm::report_fatal_error(
        llvm::Twine("tensorop-pipeline: target=") + targetName +
        " is not available: this build/consumer did not link TensorOp::NVIDIA "
        "(or did not call mlir::tensorop::registerAllPasses())");
  // Our own passes get their options as values, never pasted into pipeline
  // text, so any value reaches the pass's own diagnostic.
  TensorOpAnnotateSketchOptions annotate;
  annotate.target = options.target;
  annotate.advisor = options.advisor;
  annotate.db = options.db;
  annotate.threads = options.threads;
  pm.addPass(createTensorOpAnnotateSketch(annotate));
  std::string funcConv =
      options.barePtrAbi
          ? "convert-func-to-llvm{use-bare-ptr-memref-call-conv=1}"
          : "convert-func-to-llvm";
  // Everything after apply-sketch is the upstream lowering to LLVM, as in
  // mlir/test/lib/Dialect/LLVM/TestLowerToLLVM.cpp.
  std::string text =
      "one-shot-bufferize{bufferize-function-boundaries "
      "function-boundary-type-conversion=identity-layout-map}"
      ",tensorop-deallocate-buffers"
      ",tensorop-apply-sketch"
      ",canonicalize,cse"
      ",tensorop-lower-ukernel"
      ",func.func(convert-vector-to-scf{full-unroll=true},"
      "convert-linalg-to-loops)"
      // Threaded sketches leave scf.forall loops: OpenMP runs them.
      ",scf-forall-to-parallel,convert-scf-to-openmp,tensorop-omp-team-size"
      // convert-scf-to-openmp wraps each body in a memref.alloca_scope, which
      // must hold a single block; with no alloca inside, canonicalize inlines
      // it before convert-scf-to-cf splits the body into blocks.
      ",canonicalize"
      ",lower-affine,convert-scf-to-cf"
      ",expand-strided-metadata,lower-affine"
      ",convert-vector-to-llvm{vector-transpose-lowering=shuffle1d},"
      "convert-math-to-llvm,convert-math-to-libm"
      ",finalize-memref-to-llvm," +
      funcConv +
      ",convert-cf-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,"
      "convert-ub-to-llvm"
      // Last: this pass also converts func, arith, memref and cf ops with
      // default options, which would undo the bare-pointer call convention.
      ",convert-openmp-to-llvm"
      ",reconcile-unrealized-casts";
  std::string error;
  llvm::raw_string_ostream os(error);
  // Fixed text of registered upstream passes: failing here is a build bug.
  if (failed(parsePassPipeline(text, pm, os)))
    llvm::report_fatal_error(llvm::Twine("tensorop-pipeline: ") + error);
}

void mlir::tensorop::registerTensorOpPipeline() {
  PassPipelineRegistration<PipelineOptions>(
      "tensorop-pipeline",
      "The TensorOp CPU pipeline: annotate each fp32 linalg.matmul with an "
      "advisor's sketch, bufferize, tile and pack it, splice emitted "
      "microkernels as inline asm, and lower the module to the LLVM dialect "
      "(runnable with mlir-runner)",
      [](OpPassManager &pm, const PipelineOptions &options) {
        buildTensorOpPipeline(pm, options);
      });
}

void mlir::tensorop::registerAllTensorOpPasses() {
  registerTensorOpPasses();
  registerTensorOpPipeline();
}

void mlir::tensorop::registerTensorOpDialect(DialectRegistry &registry) {
  registry.insert<TensorOpDialect>();
}
