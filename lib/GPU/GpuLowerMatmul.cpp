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

#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/GPU/GpuEmitter.h"
#include "tensorop/GPU/Passes.h"
#include "tensorop/Transforms/GpuMatmulSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
#include "GpuPasses.h.inc"
#define GEN_PASS_REGISTRATION
#include "GpuPasses.h.inc"
} // namespace mlir::tensorop

using namespace mlir;
using namespace mlir::tensorop;

static constexpr llvm::StringLiteral kLaunchAttr = "tensorop.launch";
static constexpr llvm::StringLiteral kTensorMapFn = "tensoropGpuTensorMap2D";
static constexpr llvm::StringLiteral kSmemGlobal = "tensorop_smem";


/// A contiguous row-major static memref (what the kernels index).
static MemRefType denseMemRef(Value v) {
  auto t = dyn_cast<MemRefType>(v.getType());
  if (!t || !t.hasStaticShape() || t.getRank() != 2 ||
      !t.getLayout().isIdentity())
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
    if (matmuls.empty())
      return;
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    for (linalg::MatmulOp op : matmuls)
      if (failed(lower(op)))
        return signalPassFailure();
  }

  LogicalResult lower(linalg::MatmulOp op);
  /// The hints of the sketch's target, read once per target.
  FailureOr<const GpuTarget *> targetOf(linalg::MatmulOp op,
                                        GpuSketchAttr sketch);
  func::FuncOp tensorMapFunction(ModuleOp module);
  llvm::StringMap<GpuTarget> targets;
  unsigned counter = 0;
};

/// tensorop-gpu-annotate-sketch, then tensorop-gpu-apply-sketch: the two
/// halves with one set of options, for a module whose matmuls may carry no
/// sketch yet.
struct GpuLowerMatmulPass
    : public tensorop::impl::TensorOpGpuLowerMatmulBase<GpuLowerMatmulPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerTensorOpGpuTranslations(registry);
  }

  /// Refuses a bad target or advisor name where the options were written,
  /// before any input is read (the pipeline checks the same names).
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    if (llvm::Error e =
            checkGpuPassOptions("tensorop-gpu-lower-matmul", target, advisor))
      return errorHandler(llvm::toString(std::move(e)));
    return success();
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

func::FuncOp GpuApplySketchPass::tensorMapFunction(ModuleOp module) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(kTensorMapFn))
    return fn;
  OpBuilder b(module.getBodyRegion());
  MLIRContext *ctx = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  auto type =
      FunctionType::get(ctx, {ptr, i64, i64, i64, i64, i64, i64, i64}, {ptr});
  auto fn = func::FuncOp::create(b, module.getLoc(), kTensorMapFn, type);
  fn.setPrivate();
  return fn;
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

  auto func = op->getParentOfType<FunctionOpInterface>();
  std::string base = func ? func.getName().str() : "tensorop";
  unsigned index = counter++;
  std::string kernelName =
      index == 0 ? base + "_kernel"
                 : llvm::formatv("{0}_kernel{1}", base, index).str();
  llvm::json::Object spec = emitterSpec(sketch, p, t, kernelName);
  llvm::Expected<GpuEmittedKernel> emitted =
      runGpuEmitter(sketch.emitter(), spec, emitterDir, emitterTimeout);
  if (!emitted)
    return op.emitError() << llvm::toString(emitted.takeError());

  // ---- device side: gpu.module { smem global; gpu.func { inline PTX } } ----
  ModuleOp module = op->getParentOfType<ModuleOp>();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = op.getLoc();
  std::string moduleName = kernelName + "_module";
  auto nvvmTarget = NVVM::NVVMTargetAttr::get(
      ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda", emitted->chip,
      "+ptx" + std::to_string(emitted->ptxVersion));
  auto gpuModule = gpu::GPUModuleOp::create(b, loc, moduleName,
                                            b.getArrayAttr({nvvmTarget}));
  b.setInsertionPointToStart(gpuModule.getBody());
  auto smemType = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0);
  auto smem = LLVM::GlobalOp::create(b, loc, smemType, /*isConstant=*/false,
                                     LLVM::Linkage::External, kSmemGlobal,
                                     Attribute(), /*alignment=*/1024,
                                     /*addrSpace=*/3);
  SmallVector<Type> argTypes;
  SmallVector<Value> hostArgs;
  for (const GpuKernelParam &param : emitted->params) {
    if (param.kind == "ptr")
      argTypes.push_back(param.name == "A"   ? Type(at)
                         : param.name == "B" ? Type(bt)
                                             : Type(ct));
    else
      argTypes.push_back(b.getI64Type());
  }
  auto gpuFunc = gpu::GPUFuncOp::create(b, loc, kernelName,
                                        FunctionType::get(ctx, argTypes, {}));
  gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  gpuFunc->setAttr("nvvm.maxntid",
                   b.getDenseI32ArrayAttr({int32_t(emitted->threads), 1, 1}));
  if (emitted->minCtas > 0)
    gpuFunc->setAttr("nvvm.minctasm", b.getI32IntegerAttr(emitted->minCtas));
  bool clustered =
      emitted->cluster[0] * emitted->cluster[1] * emitted->cluster[2] > 1;
  if (clustered) // .explicitcluster + .reqnctapercluster
    gpuFunc->setAttr("nvvm.cluster_dim",
                     b.getDenseI32ArrayAttr({int32_t(emitted->cluster[0]),
                                             int32_t(emitted->cluster[1]),
                                             int32_t(emitted->cluster[2])}));
  gpuFunc->setAttr(kGpuSketchAttrName, sketchAttr);
  {
    std::string launch;
    llvm::raw_string_ostream os(launch);
    os << llvm::json::Value(llvm::json::Object(emitted->answer));
    gpuFunc->setAttr(kLaunchAttr, b.getStringAttr(launch));
  }
  b.setInsertionPointToStart(&gpuFunc.getBody().front());
  SmallVector<Value> asmOperands;
  for (BlockArgument arg : gpuFunc.getArguments()) {
    if (isa<MemRefType>(arg.getType())) {
      Value idx = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, arg);
      asmOperands.push_back(
          arith::IndexCastOp::create(b, loc, b.getI64Type(), idx));
    } else {
      asmOperands.push_back(arg);
    }
  }
  Value smemPtr = LLVM::AddressOfOp::create(b, loc, smem);
  asmOperands.push_back(
      LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), smemPtr));
  LLVM::InlineAsmOp::create(
      b, loc, TypeRange{}, asmOperands, emitted->asmText, emitted->constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  gpu::ReturnOp::create(b, loc);

  // ---- host side: tensor maps, then the launch ----
  b.setInsertionPoint(op);
  Type i64 = b.getI64Type();
  auto cI64 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  auto pointerOf = [&](Value memref) -> Value {
    Value idx = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    Value asInt = arith::IndexCastOp::create(b, loc, i64, idx);
    return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                                    asInt);
  };
  for (const GpuKernelParam &param : emitted->params) {
    if (param.kind == "ptr") {
      hostArgs.push_back(param.name == "A" ? a : param.name == "B" ? bv : c);
      continue;
    }
    func::FuncOp mapFn = tensorMapFunction(module);
    Value base = pointerOf(param.tensor == "A" ? a : bv);
    SmallVector<Value> callArgs = {base,
                                   cI64(param.dtype),
                                   cI64(param.dims[0]),
                                   cI64(param.dims[1]),
                                   cI64(param.strideBytes),
                                   cI64(param.box[0]),
                                   cI64(param.box[1]),
                                   cI64(param.swizzle)};
    Value map = func::CallOp::create(b, loc, mapFn, callArgs).getResult(0);
    hostArgs.push_back(LLVM::PtrToIntOp::create(b, loc, i64, map));
  }
  auto cIdx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  gpu::KernelDim3 grid{cIdx(emitted->grid[0]), cIdx(emitted->grid[1]),
                       cIdx(emitted->grid[2])};
  gpu::KernelDim3 block{cIdx(emitted->threads), cIdx(1), cIdx(1)};
  Value smemBytes = arith::ConstantOp::create(
      b, loc, b.getI32IntegerAttr(int32_t(emitted->sharedBytes)));
  std::optional<gpu::KernelDim3> cluster;
  if (clustered)
    cluster = gpu::KernelDim3{cIdx(emitted->cluster[0]),
                              cIdx(emitted->cluster[1]),
                              cIdx(emitted->cluster[2])};
  auto launch = gpu::LaunchFuncOp::create(b, loc, gpuFunc, grid, block,
                                          smemBytes, hostArgs,
                                          /*asyncTokenType=*/nullptr,
                                          /*asyncDependencies=*/{}, cluster);
  launch->setAttr(kGpuSketchAttrName, sketchAttr);
  if (fill)
    fill.erase();
  op.erase();
  return success();
}

void mlir::tensorop::registerTensorOpGpuPasses() {
  static bool once = [] {
    registerTensorOpGpuAnnotateSketch();
    registerTensorOpGpuApplySketch();
    registerTensorOpGpuLowerMatmul();
    return true;
  }();
  (void)once;
}
