//===- GpuLowerMatmul.cpp - Sketched linalg.matmul -> PTX kernel launch ---===//
//
// tensorop-gpu-apply-sketch: for each memref linalg.matmul carrying a
// #tensorop.gpu_sketch, a gpu.module holding one gpu.func whose body is the
// PTX an NVIDIA emitter printed (one llvm.inline_asm taking the kernel
// arguments), and a gpu.launch_func in place of the matmul. The sketch says
// which emitter and which tile; the emitter answers with the launch shape.
// tensorop-gpu-lower-matmul runs tensorop-gpu-annotate-sketch and then this
// pass, for a module whose matmuls may carry no sketch yet.
//
//===----------------------------------------------------------------------===//

#include "CheckedGpuPassOptions.h"
#include "GpuKernelLaunch.h"

#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/GPU/GpuEmitter.h"
#include "tensorop/GPU/Passes.h"
#include "tensorop/Transforms/EpilogueSupport.h"
#include "tensorop/Transforms/GpuMatmulSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::tensorop {
#define GEN_PASS_DECL_TENSOROPGPUANNOTATESKETCH
#define GEN_PASS_DECL_TENSOROPGPUAPPLYSKETCH
#define GEN_PASS_DEF_TENSOROPGPUAPPLYSKETCH
#define GEN_PASS_DECL_TENSOROPGPULOWERMATMUL
#define GEN_PASS_DEF_TENSOROPGPULOWERMATMUL
#define GEN_PASS_DECL_TENSOROPGPULOWERCONV
#include "GpuPasses.h.inc"
#define GEN_PASS_REGISTRATION
#include "GpuPasses.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;



/// A contiguous row-major static memref (what the kernels index).
static MemRefType denseMemRef(Value v) {
  auto t = dyn_cast<MemRefType>(v.getType());
  if (!t || !isRowContiguousMemRef(t))
    return {};
  return t;
}

/// The zero linalg.fill of `c` right before `op`, if any.
static linalg::FillOp zeroFillBefore(linalg::MatmulOp op, Value c) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || fill.getOutputs().size() != 1 || fill.getOutputs()[0] != c)
    return {};
  Value value = fill.getInputs()[0];
  auto cst = value.getDefiningOp<arith::ConstantOp>();
  if (!cst)
    return {};
  auto f = dyn_cast<FloatAttr>(cst.getValue());
  if (!f || !f.getValue().isZero())
    return {};
  return fill;
}

/// The consumers tensorop-fuse-epilogues marked for `op` (in place on `c`,
/// together computing the sketch's `steps`) and the operands the kernel
/// takes from them; failure (with an error) when there are none such or the
/// kernel cannot read their operands.
static FailureOr<FusedChain> fusedEpilogueOf(linalg::MatmulOp op, Value c,
                                             EpilogueAttr steps,
                                             GpuEpilogueOperands &operands) {
  std::optional<FusedChain> chain = findFusedChain(op, c, steps);
  if (!chain) {
    op.emitError() << "the sketch's epilogue " << steps
                   << " has no fused consumers writing C in place after the "
                      "matmul that compute it";
    return failure();
  }
  for (Attribute a : steps.getSteps())
    operands.steps.push_back(cast<StringAttr>(a).getValue().str());
  auto contiguous = [](Value v, int64_t rank) {
    auto t = dyn_cast<MemRefType>(v.getType());
    return t && t.hasStaticShape() && t.getRank() == rank &&
           t.getLayout().isIdentity();
  };
  operands.bias = chain->bias;
  operands.residual = chain->residual;
  if (operands.bias && !contiguous(operands.bias, 1)) {
    op.emitError() << "the fused epilogue's bias must be a static, "
                      "contiguous 1-D memref, got "
                   << operands.bias.getType();
    return failure();
  }
  if (operands.residual && !contiguous(operands.residual, 2)) {
    op.emitError() << "the fused epilogue's residual must be a static, "
                      "contiguous row-major memref, got "
                   << operands.residual.getType();
    return failure();
  }
  return *chain;
}

namespace {
struct GpuApplySketchPass
    : public tensorop::impl::TensorOpGpuApplySketchBase<GpuApplySketchPass> {
  using Base::Base;

  /// gpu-module-to-binary later in the pipeline translates the gpu.module
  /// to LLVM IR: make sure the context can, whichever tool runs us.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerTensorOpGpuTranslations(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::MatmulOp> matmuls;
    module.walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    if (!matmuls.empty())
      module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      UnitAttr::get(&getContext()));
    for (linalg::MatmulOp op : matmuls)
      if (failed(lower(op)))
        return signalPassFailure();
    // Host code holds device pointers: any other linalg op left beside the
    // kernels would run on the host on device memory (and nothing later
    // lowers it), so it is an error here rather than at translation.
    WalkResult left = module.walk([&](linalg::LinalgOp op) {
      if (op->getParentOfType<gpu::GPUModuleOp>())
        return WalkResult::advance();
      op->emitError() << "NVIDIA targets run linalg.matmul (and "
                         "linalg.conv_2d_nhwc_hwcf) as kernels on device "
                         "memory; this "
                      << op->getName()
                      << " would run on the host on device memory and is "
                         "not supported here (run it in a separate module "
                         "or kernel)";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult lower(linalg::MatmulOp op);
  /// The hints of the sketch's target, read once per target.
  FailureOr<const GpuTarget *> targetOf(linalg::MatmulOp op,
                                        GpuSketchAttr sketch);
  llvm::StringMap<GpuTarget> targets;
  unsigned counter = 0;
};

/// tensorop-gpu-annotate-sketch, then tensorop-gpu-apply-sketch: the two
/// halves with one set of options, for a module whose matmuls may carry no
/// sketch yet.
struct GpuLowerMatmulPass
    : public CheckedGpuPassOptions<
          tensorop::impl::TensorOpGpuLowerMatmulBase<GpuLowerMatmulPass>> {
  using CheckedGpuPassOptions::CheckedGpuPassOptions;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerTensorOpGpuTranslations(registry);
  }

  void runOnOperation() override {
    TensorOpGpuAnnotateSketchOptions annotate;
    annotate.target = target;
    annotate.advisor = advisor;
    annotate.hintsDir = hintsDir;
    annotate.db = db;
    TensorOpGpuApplySketchOptions apply;
    apply.hintsDir = hintsDir;
    apply.emitterDir = emitterDir;
    apply.emitterTimeout = emitterTimeout;
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createTensorOpGpuAnnotateSketch(annotate));
    pm.addPass(createTensorOpGpuApplySketch(apply));
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};
} // namespace

FailureOr<const GpuTarget *>
GpuApplySketchPass::targetOf(linalg::MatmulOp op, GpuSketchAttr sketch) {
  StringRef name = sketch.getTarget().getName();
  auto it = targets.find(name);
  if (it != targets.end())
    return &it->second;
  llvm::Expected<GpuTarget> loaded = loadGpuTarget(name, hintsDir);
  if (!loaded) {
    op.emitError() << llvm::toString(loaded.takeError());
    return failure();
  }
  return &targets.try_emplace(name, std::move(*loaded)).first->second;
}

LogicalResult GpuApplySketchPass::lower(linalg::MatmulOp op) {
  MLIRContext *ctx = op.getContext();
  Value a = op.getDpsInputOperand(0)->get();
  Value bv = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  MemRefType at = denseMemRef(a), bt = denseMemRef(bv), ct = denseMemRef(c);
  if (!at || !bt || !ct)
    return op.emitError("NVIDIA targets take linalg.matmul on static, "
                        "contiguous row-major memrefs (device memory); "
                        "bufferize tensors first and pass whole buffers");
  std::string reason;
  FailureOr<GpuGemmProblem> matched = matchGpuMatmul(op, reason);
  if (failed(matched))
    return op.emitError(reason);
  GpuGemmProblem p = *matched;
  linalg::FillOp fill = zeroFillBefore(op, c);
  p.accumulate = !fill;

  // The sketch: its own rules were checked by the attribute's verifier,
  // the problem's and the target's are checked here.
  auto attr = op->getAttrOfType<GpuSketchAttr>(kGpuSketchAttrName);
  if (!attr)
    return op.emitError() << "linalg.matmul carries no #tensorop.gpu_sketch "
                             "(run tensorop-gpu-annotate-sketch first, or "
                             "tensorop-gpu-lower-matmul)";
  FailureOr<const GpuTarget *> target = targetOf(op, attr);
  if (failed(target))
    return failure();
  const GpuTarget &t = **target;
  GpuSketchChoice sketch = GpuSketchChoice::fromAttr(attr);
  if (llvm::Error e = checkGpuSketch(sketch, p, t))
    return op.emitError() << "illegal sketch for " << t.hints.name << ": "
                          << llvm::toString(std::move(e));
  GpuSketchAttr sketchAttr = sketch.toAttr(ctx, t);
  // A fused epilogue: its steps stay on the sketch, its consumer goes once
  // the kernel applies it.
  GpuEpilogueOperands epilogue;
  SmallVector<linalg::GenericOp> consumers;
  if (EpilogueAttr steps = attr.getEpilogue()) {
    FailureOr<FusedChain> found = fusedEpilogueOf(op, c, steps, epilogue);
    if (failed(found))
      return failure();
    consumers = found->ops;
    sketchAttr = sketchAttr.withEpilogue(steps);
  }

  auto func = op->getParentOfType<FunctionOpInterface>();
  std::string base = func ? func.getName().str() : "tensorop";
  unsigned index = counter++;
  std::string kernelName =
      index == 0 ? base + "_kernel"
                 : llvm::formatv("{0}_kernel{1}", base, index).str();
  if (failed(emitGpuKernelLaunch(op, sketch, sketchAttr, p, t, a, bv, c,
                                 epilogue,
                                 kernelName, emitterDir, emitterTimeout)))
    return failure();
  if (fill)
    fill.erase();
  for (linalg::GenericOp consumer : consumers)
    consumer.erase();
  op.erase();
  return success();
}

void mlir::tensorop::registerTensorOpGpuPasses() {
  static bool once = [] {
    registerTensorOpGpuAnnotateSketch();
    registerTensorOpGpuApplySketch();
    registerTensorOpGpuLowerMatmul();
    registerTensorOpGpuLowerConv();
    return true;
  }();
  (void)once;
}
