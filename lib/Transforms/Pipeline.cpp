//===- Pipeline.cpp - --tensorop-pipeline and registration ----------------===//

#include "tensorop/Transforms/Passes.h"
#include "tensorop/GPU/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tensorop;

void mlir::tensorop::buildTensorOpPipeline(OpPassManager &pm,
                                           const PipelineOptions &options) {
  // NVIDIA targets have their own pipeline (lib/GPU).
  if (StringRef(options.target.getValue()).starts_with("nvidia")) {
    GpuPipelineOptions gpu;
    gpu.target = options.target.getValue();
    gpu.advisor = options.advisor.getValue();
    gpu.barePtrAbi = options.barePtrAbi;
    gpu.db = options.db.getValue();
    std::string error;
    if (options.threads != 1)
      error = "threads= is a CPU option (a GPU kernel's threads are in its "
              "#tensorop.gpu_sketch)";
    if (!error.empty() || failed(buildTensorOpGpuPipeline(pm, gpu, error)))
      llvm::report_fatal_error(llvm::Twine("tensorop-pipeline: ") + error);
    return;
  }
  // Our own passes get their options as values, never pasted into pipeline
  // text, so any value reaches the pass's own diagnostic.
  TensorOpAnnotateSketchOptions annotate;
  annotate.target = options.target;
  annotate.advisor = options.advisor;
  annotate.db = options.db;
  annotate.threads = options.threads;
  annotate.acceptUnverifiedEmitters = options.acceptUnverifiedEmitters;
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
  registerTensorOpGpuPasses();
}

void mlir::tensorop::registerTensorOpDialect(DialectRegistry &registry) {
  registry.insert<TensorOpDialect>();
  // What gpu-module-to-binary needs for NVIDIA targets (LLVM IR
  // translations, the NVVM target).
  registerTensorOpGpuTranslations(registry);
}
