//===- Pipeline.cpp - --tensorop-pipeline and registration ----------------===//
//
// The pipeline is built from typed pass options (each pass's own options
// struct), never from pipeline text pasted together: a user's value cannot
// change the pipeline's shape, and every option error is reported by
// checkPipelineOptions() through the pass registry's error handler (a
// diagnostic, a non-zero exit), never an abort.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Transforms/Passes.h"
#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Targets/TargetHints.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

std::string mlir::tensorop::knownTargetList() {
  std::string list = "host";
  for (llvm::StringRef t : supportedCpuTargets())
    list += ", " + t.str();
  for (llvm::StringRef t : supportedGpuTargets())
    list += ", " + t.str();
  return list;
}

LogicalResult mlir::tensorop::checkPipelineOptions(
    const PipelineOptions &options, std::string &error) {
  llvm::StringRef target = options.target.getValue();
  // The NVIDIA pipeline checks its own target and advisor
  // (buildTensorOpGpuPipeline); what it does not take is said here.
  if (llvm::is_contained(supportedGpuTargets(), target)) {
    if (options.threads != 1) {
      error = "option 'threads' does not apply to target '" + target.str() +
              "' (a GPU kernel's threads are in its #tensorop.gpu_sketch)";
      return failure();
    }
    return success();
  }
  if (target != "host" && !isCpuPipelineTarget(target)) {
    error = "unknown target '" + target.str() +
            "' (known: " + knownTargetList() + ")";
    return failure();
  }
  if (options.threads < 1) {
    error = "option 'threads' must be at least 1";
    return failure();
  }
  if (llvm::Error e = checkAdvisorName(options.advisor.getValue())) {
    error = llvm::toString(std::move(e));
    return failure();
  }
  return success();
}

TensorOpAnnotateSketchOptions
mlir::tensorop::annotateSketchOptions(const PipelineOptions &options) {
  TensorOpAnnotateSketchOptions annotate;
  annotate.target = options.target;
  annotate.advisor = options.advisor;
  annotate.db = options.db;
  annotate.threads = options.threads;
  annotate.minFlopsPerThread = options.minFlopsPerThread;
  annotate.acceptUnverifiedEmitters = options.acceptUnverifiedEmitters;
  annotate.hintsDir = options.hintsDir;
  return annotate;
}

/// Everything after apply-sketch is the upstream lowering to LLVM, as in
/// mlir/test/lib/Dialect/LLVM/TestLowerToLLVM.cpp.
namespace {
/// Puts the target's triple on the module and its ISA features on every
/// function it defines, so that the LLVM IR carries them: the inline-asm
/// microkernels use the target's registers and the code around them (masked
/// loads of whole vectors, the packing) its vector width. Compiled without
/// them (`mlir-translate | clang -O2 -c`, no -march), LLVM lowered that code
/// for baseline x86-64 and a GEMM's N edge came out wrong (measured: an NCHW
/// 1x1 convolution, 896 wrong elements; right with -march=native or -O0).
/// No target-cpu: the hints' model (znver4 for x86-avx512) implies features
/// beyond the target's ISA that another CPU of that ISA may lack. Attributes
/// already set are kept.
struct SetTargetAttributesPass
    : public PassWrapper<SetTargetAttributesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(SetTargetAttributesPass)
  SetTargetAttributesPass(std::string triple, std::string features)
      : triple(std::move(triple)), features(std::move(features)) {}
  StringRef getArgument() const final { return "tensorop-set-target-attributes"; }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    StringRef tripleName = LLVM::LLVMDialect::getTargetTripleAttrName();
    if (!triple.empty() && !module->hasAttr(tripleName))
      module->setAttr(tripleName, StringAttr::get(ctx, triple));
    module.walk([&](LLVM::LLVMFuncOp fn) {
      if (fn.isExternal())
        return;
      if (!features.empty() && !fn.getTargetFeaturesAttr())
        fn.setTargetFeaturesAttr(LLVM::TargetFeaturesAttr::get(ctx, features));
    });
  }
  std::string triple, features;
};
} // namespace

static void addCpuLowering(OpPassManager &pm, bool barePtrAbi,
                           const TargetHints *hints = nullptr) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createTensorOpLowerUKernel());
  // Functions that return tensors get bufferization.clone (and dealloc)
  // ops from the deallocation pipeline: they become memref ops here.
  pm.addPass(createConvertBufferizationToMemRefPass());
  // A copy into a strided view (an unfolded tensor.pad) would call the C
  // runner utilities' memrefCopy, which a shipped object cannot resolve.
  pm.addPass(createTensorOpStridedCopyToLinalg());
  OpPassManager &funcs = pm.nest<func::FuncOp>();
  funcs.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll()));
  funcs.addPass(createConvertLinalgToLoopsPass());
  // Threaded sketches leave scf.forall loops: OpenMP runs them.
  pm.addPass(createForallToParallelLoopPass());
  pm.addPass(createConvertSCFToOpenMPPass());
  pm.addPass(createTensorOpOmpTeamSize());
  // convert-scf-to-openmp wraps each body in a memref.alloca_scope, which
  // must hold a single block; with no alloca inside, canonicalize inlines it
  // before convert-scf-to-cf splits the body into blocks.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // f32 tanh/exp/erf/... as arithmetic, so loops of unfused elementwise ops
  // vectorize rather than call libm per element.
  pm.addPass(createTensorOpApproximateMath());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorTransposeLowering =
      vector::VectorTransposeLowering::Shuffle1D;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  ConvertFuncToLLVMPassOptions funcToLLVM;
  funcToLLVM.useBarePtrCallConv = barePtrAbi;
  pm.addPass(createConvertFuncToLLVMPass(funcToLLVM));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  // Last: this pass also converts func, arith, memref and cf ops with
  // default options, which would undo the bare-pointer call convention.
  pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createTensorOpKeepUKernelLoops());
  if (hints)
    pm.addPass(std::make_unique<SetTargetAttributesPass>(hints->triple,
                                                         hints->features));
}

LogicalResult mlir::tensorop::buildTensorOpPipeline(
    OpPassManager &pm, const PipelineOptions &options, std::string &error) {
  if (failed(checkPipelineOptions(options, error)))
    return failure();
  // NVIDIA targets have their own pipeline, which lib/GPU registers
  // (registerTensorOpGpuPipelineExtension), so this library does not link it.
  StringRef target = options.target.getValue();
  if (llvm::is_contained(supportedGpuTargets(), target)) {
    if (TargetPipelineBuilder builder = findTargetPipeline(target))
      return builder(pm, options, error);
    error = "target=" + target.str() +
            " is not available: this build/consumer did not link "
            "TensorOp::NVIDIA (or did not call "
            "mlir::tensorop::registerAllPasses())";
    return failure();
  }
  pm.addPass(createTensorOpDecomposeBatchMatmul());
  pm.addPass(createTensorOpConvToNhwc());
  TensorOpDepthwiseConvOptions depthwise;
  depthwise.threads = options.threads;
  // (Depthwise convolutions keep their own default: the target's team cost
  // was measured on GEMMs.)
  if (options.minFlopsPerThread >= 0)
    depthwise.minFlopsPerThread = options.minFlopsPerThread;
  pm.addPass(createTensorOpDepthwiseConv(depthwise));
  pm.addPass(createTensorOpAnnotateSketch(annotateSketchOptions(options)));
  if (options.fuseEpilogues) {
    TensorOpFuseEpiloguesOptions fuse;
    fuse.target = options.target;
    fuse.hintsDir = options.hintsDir;
    pm.addPass(createTensorOpFuseEpilogues(fuse));
  }
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A result written into a function argument (materialize_in_destination,
  // the form gen builds) is computed there, not in a buffer copied over.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createTensorOpDeallocateBuffers());
  TensorOpApplySketchOptions apply;
  apply.target = options.target;
  apply.hintsDir = options.hintsDir;
  pm.addPass(createTensorOpApplySketch(apply));
  // gen's _ws entry points: their buffers become views of the workspace.
  pm.addPass(createTensorOpBindWorkspace());
  // Every other function's temporaries: one static area reused by the
  // calls (no malloc/free, no page faults per call).
  pm.addPass(createTensorOpStaticScratch());
  // The target's ISA features go on the LLVM functions (the name was
  // checked by checkPipelineOptions; hints that do not load leave them off,
  // and the annotate pass reports the error).
  llvm::Expected<std::string> resolved = resolveTargetName(target);
  std::optional<TargetHints> hints;
  if (resolved) {
    llvm::Expected<TargetHints> loaded =
        loadTargetHints(*resolved, options.hintsDir);
    if (loaded)
      hints = std::move(*loaded);
    else
      llvm::consumeError(loaded.takeError());
  } else {
    llvm::consumeError(resolved.takeError());
  }
  addCpuLowering(pm, options.barePtrAbi, hints ? &*hints : nullptr);
  return success();
}

void mlir::tensorop::registerTensorOpPipeline() {
  registerPassPipeline(
      "tensorop-pipeline",
      "The TensorOp pipeline: annotate each supported linalg.matmul with an "
      "advisor's sketch, bufferize, tile and pack it, splice emitted "
      "microkernels (inline asm on CPUs, PTX on NVIDIA), and lower the module "
      "to the LLVM dialect (runnable with mlir-runner; a GPU module carries "
      "its binary)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        // Option syntax errors (unknown option, bad value) come back from
        // the parser as text; the handler places them in the pipeline.
        PipelineOptions options;
        std::string parseErrors;
        llvm::raw_string_ostream os(parseErrors);
        if (failed(options.parseFromString(text, os))) {
          // A bad value's message goes straight to stderr (llvm::cl prints
          // it itself); an unknown option's comes back here.
          StringRef why = StringRef(parseErrors).trim();
          return errorHandler("tensorop-pipeline: invalid options '" + text +
                              "': " +
                              (why.empty() ? "see the message above" : why));
        }
        std::string error;
        if (failed(buildTensorOpPipeline(pm, options, error)))
          return errorHandler("tensorop-pipeline: " + error);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(PipelineOptions());
      });
}

void mlir::tensorop::registerAllTensorOpPasses() {
  registerTensorOpPasses();
  registerTensorOpPipeline();
}

void mlir::tensorop::registerTensorOpDialect(DialectRegistry &registry) {
  registry.insert<TensorOpDialect>();
}
