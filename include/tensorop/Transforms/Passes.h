//===- Passes.h - TensorOp passes and the pipeline --------------*- C++ -*-===//

#ifndef TENSOROP_TRANSFORMS_PASSES_H
#define TENSOROP_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "tensorop/Advisor/ThreadCount.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include <functional>
#include <string>

namespace mlir {
class RewriterBase;
namespace tensorop {
class PassHints;

#define GEN_PASS_DECL
#include "tensorop/Transforms/Passes.h.inc"

/// Unit attribute on an op inside an scf.forall whose iterations are the
/// threads asked for (tensorop-depthwise-conv's row chunks):
/// tensorop-omp-team-size sizes the OpenMP team of that forall to its trip
/// count, as it does for threaded sketches.
constexpr llvm::StringLiteral kOmpTeamAttrName = "tensorop.omp_team";

/// Unit attribute tensorop-lower-ukernel puts on each llvm.inline_asm that
/// carries an emitted microkernel: tensorop-keep-ukernel-loops keeps LLVM
/// from unrolling the loops around them.
constexpr llvm::StringLiteral kMicrokernelAttrName = "tensorop.microkernel";

#define GEN_PASS_REGISTRATION
#include "tensorop/Transforms/Passes.h.inc"

/// Options of `--tensorop-pipeline`.
struct PipelineOptions : public PassPipelineOptions<PipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Target: host (this CPU), x86-avx512, x86-avx2, "
                     "riscv-rvv, arm-neon, nvidia-sm80, nvidia-sm90"),
      llvm::cl::init("host")};
  PassOptions::Option<std::string> advisor{
      *this, "advisor",
      llvm::cl::desc("Advisor: builtin, llm (TENSOROP_LLM_URL/_MODEL), "
                     "replay:DIR (CPU targets only)"),
      llvm::cl::init("builtin")};
  PassOptions::Option<std::string> db{
      *this, "db",
      llvm::cl::desc("Tuning database (see tensorop tune): each op takes "
                     "its best record on this machine, confirmed ones first"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads of each GEMM the advisor sketches (sketches "
                     "from the db or the input keep their own) and of each "
                     "depthwise convolution; CPU targets only"),
      llvm::cl::init(1)};
  PassOptions::Option<int64_t> minFlopsPerThread{
      *this, "min-flops-per-thread",
      llvm::cl::desc("With threads > 1: a static GEMM whose 2*M*N*K flops "
                     "give a thread less than this runs on fewer threads "
                     "(a remark says why), its share being shorter than "
                     "an OpenMP team's fork and join; 0: always the "
                     "threads asked; -1 (the default): the target's "
                     "threads.team_cost_us times its core's peak (640000 "
                     "where the hints give none; depthwise convolutions: "
                     "640000), doubled for a GEMM whose K is below 64"),
      llvm::cl::init(kTargetMinFlopsPerThread)};
  PassOptions::Option<bool> acceptUnverifiedEmitters{
      *this, "accept-unverified-emitters",
      llvm::cl::desc("advisor=llm/replay: accept emitter scripts the model "
                     "wrote although nothing here runs their kernels to "
                     "verify them (the sketch's source says 'unverified'); "
                     "off: such answers are refused"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> fuseEpilogues{
      *this, "fuse-epilogues",
      llvm::cl::desc("Fuse elementwise consumers of each sketched GEMM (bias, "
                     "residual, scale, clamp, ReLU, GELU, SiLU, ...) into its "
                     "microkernel's store (x86, RVV, NEON and the NVIDIA "
                     "tensor-core kernels); off: they run as separate ops"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> hintsDir{
      *this, "hints-dir",
      llvm::cl::desc("Directory of target hints, for every pass of the "
                     "pipeline that reads them (default: "
                     "$TENSOROP_HINTS_DIR or the source tree's hints/)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> barePtrAbi{
      *this, "bare-ptr-abi",
      llvm::cl::desc("Lower static memref function arguments to bare "
                     "pointers (the C header ABI of tensorop gen)"),
      llvm::cl::init(false)};
};

/// Checks the pipeline's options against each other and the target's
/// family; `error` says what is wrong (for the user).
LogicalResult checkPipelineOptions(const PipelineOptions &options,
                                   std::string &error);

/// Adds the whole TensorOp pipeline: annotate, bufferize, apply the sketch,
/// splice microkernels, and lower everything to the LLVM dialect (NVIDIA
/// targets: buildTensorOpGpuPipeline). Fails with `error` set if the options
/// do not hold (see checkPipelineOptions); nothing is added then.
LogicalResult buildTensorOpPipeline(OpPassManager &pm,
                                    const PipelineOptions &options,
                                    std::string &error);

/// The options of the pipeline's tensorop-annotate-sketch (CPU targets).
TensorOpAnnotateSketchOptions
annotateSketchOptions(const PipelineOptions &options);

/// Every target the pipeline takes, comma-separated (for help and errors).
std::string knownTargetList();

/// Registers `tensorop-pipeline`.
void registerTensorOpPipeline();

/// Registers the dialect, the passes and the pipeline (for tools, the plugin
/// and tests).
/// Builds the pipeline of a target family that a library adds (NVIDIA:
/// registerTensorOpGpuPipelineExtension() in tensorop/GPU/Passes.h); `error`
/// says why the options do not apply.
using TargetPipelineBuilder = std::function<LogicalResult(
    OpPassManager &pm, const PipelineOptions &options, std::string &error)>;

/// Makes --tensorop-pipeline hand targets starting with `targetPrefix` (e.g.
/// "nvidia-") to `builder`, so that the CPU pipeline does not link them.
void registerTargetPipeline(StringRef targetPrefix,
                            TargetPipelineBuilder builder);

/// The CPU passes and the pipeline (registerAllPasses() in
/// tensorop/InitAllTensorOp.h adds those of the optional libraries).
void registerAllTensorOpPasses();
/// The tensorop dialect (registerAllDialects() in tensorop/InitAllTensorOp.h
/// adds every dialect and extension the pipeline needs).
void registerTensorOpDialect(DialectRegistry &registry);
/// The tensorop dialect and every dialect, interface and extension the CPU
/// and NVIDIA pipelines read or produce (not the NVIDIA LLVM IR
/// translations: registerTensorOpGpuTranslations).
void registerPipelineDialects(DialectRegistry &registry);

/// The core of `tensorop-apply-sketch` for one memref linalg.matmul carrying
/// a sketch: tile, pack and replace the inner block by microkernels.
/// `hints` answers which hints the sketch's target is applied with: those
/// it was planned with (PassHints::forSketch; for target=host, this
/// machine's overlay where the sketch's target is the one host resolves to).
LogicalResult applySketch(RewriterBase &rewriter, linalg::MatmulOp op,
                          SketchAttr sketch, StringRef emitterDir,
                          unsigned emitterTimeout, PassHints &hints);

/// The same for one memref linalg.conv_2d_nhwc_hwcf carrying a
/// #tensorop.conv_sketch: pack the filter, fold a bufferized zero pad and
/// replace the convolution by loops of microkernel calls over its taps.
LogicalResult applyConvSketch(RewriterBase &rewriter,
                              linalg::Conv2DNhwcHwcfOp op,
                              ConvSketchAttr sketch, StringRef emitterDir,
                              unsigned emitterTimeout, PassHints &hints);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_TRANSFORMS_PASSES_H
