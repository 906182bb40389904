//===- GpuKernelLaunch.cpp - An emitted kernel and its launch -------------===//
//
// The device side (gpu.module > gpu.func whose body is the emitter's PTX as
// one llvm.inline_asm) and the host side (tensor maps through the runtime,
// gpu.launch_func) of one sketched GEMM or implicit-GEMM convolution.
//
//===----------------------------------------------------------------------===//

#include "GpuKernelLaunch.h"

#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/GPU/GpuEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::tensorop;

static constexpr llvm::StringLiteral kLaunchAttr = "tensorop.launch";
static constexpr llvm::StringLiteral kTensorMapFn = "tensoropGpuTensorMap2D";
static constexpr llvm::StringLiteral kIm2colMapFn =
    "tensoropGpuTensorMapIm2colNHWC";
static constexpr llvm::StringLiteral kSmemGlobal = "tensorop_smem";

/// The runtime's tensor-map function `name` taking `i64Args` 64-bit
/// integers after the base pointer, declared once in `module`.
static func::FuncOp tensorMapFunction(ModuleOp module, llvm::StringRef name,
                                      unsigned i64Args) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b(module.getBodyRegion());
  MLIRContext *ctx = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  SmallVector<Type> args(i64Args + 1, i64);
  args[0] = ptr;
  auto type = FunctionType::get(ctx, args, {ptr});
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

LogicalResult mlir::tensorop::emitGpuKernelLaunch(
    Operation *op, const GpuSketchChoice &sketch, GpuSketchAttr sketchAttr,
    const GpuGemmProblem &p, const GpuTarget &t, Value a, Value bv, Value c,
    const GpuEpilogueOperands &epilogue, llvm::StringRef kernelName,
    llvm::StringRef emitterDir, unsigned emitterTimeout) {
  MLIRContext *ctx = op->getContext();
  llvm::json::Object spec = emitterSpec(sketch, p, t, kernelName);
  if (!epilogue.steps.empty()) {
    llvm::json::Array steps;
    for (const std::string &s : epilogue.steps)
      steps.push_back(s);
    spec["epilogue"] = std::move(steps);
  }
  // The memref a "ptr" parameter names; null if the op has none such.
  auto pointerOperand = [&](llvm::StringRef name) -> Value {
    if (name == "A")
      return a;
    if (name == "B")
      return bv;
    if (name == "C")
      return c;
    if (name == "bias")
      return epilogue.bias;
    if (name == "R")
      return epilogue.residual;
    return {};
  };
  llvm::Expected<GpuEmittedKernel> emitted =
      runGpuEmitter(sketch.emitter(), spec, emitterDir, emitterTimeout);
  if (!emitted)
    return op->emitError() << llvm::toString(emitted.takeError());

  // ---- device side: gpu.module { smem global; gpu.func { inline PTX } } ----
  ModuleOp module = op->getParentOfType<ModuleOp>();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
  Location loc = op->getLoc();
  std::string moduleName = (kernelName + "_module").str();
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
  // An operand that is a slice (a batch matmul's, at an offset) goes to the
  // kernel as its address (i64): the bare-pointer convention of gpu.func
  // takes only identity layouts. Whole buffers keep their memref argument.
  auto sliced = [](MemRefType t) { return !t.getLayout().isIdentity(); };
  SmallVector<Type> argTypes;
  SmallVector<Value> hostArgs;
  for (const GpuKernelParam &param : emitted->params) {
    if (param.kind != "ptr") {
      argTypes.push_back(b.getI64Type());
      continue;
    }
    Value operand = pointerOperand(param.name);
    if (!operand)
      return op->emitError() << "the " << sketch.emitter()
                             << " kernel takes a '" << param.name
                             << "' operand this op does not have";
    auto type = cast<MemRefType>(operand.getType());
    argTypes.push_back(sliced(type) ? Type(b.getI64Type()) : Type(type));
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
  // The address of a memref's first element (aligned pointer + offset).
  auto addressOf = [&](Value memref) -> Value {
    Value idx = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    auto t = cast<MemRefType>(memref.getType());
    if (sliced(t)) {
      auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
      Value bytes =
          arith::MulIOp::create(b, loc, meta.getOffset(),
                                arith::ConstantIndexOp::create(
                                    b, loc, t.getElementTypeBitWidth() / 8));
      idx = arith::AddIOp::create(b, loc, idx, bytes);
    }
    return arith::IndexCastOp::create(b, loc, i64, idx);
  };
  auto pointerOf = [&](Value memref) -> Value {
    return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                                    addressOf(memref));
  };
  for (const GpuKernelParam &param : emitted->params) {
    if (param.kind == "ptr") {
      Value operand = pointerOperand(param.name);
      hostArgs.push_back(sliced(cast<MemRefType>(operand.getType()))
                             ? addressOf(operand)
                             : operand);
      continue;
    }
    // C's map: the wgmma kernel's TMA store (store = "smem_tma").
    Value base = pointerOf(param.tensor == "A"   ? a
                           : param.tensor == "B" ? bv
                                                 : c);
    if (param.kind == "tensormap_im2col") {
      // A convolution's NHWC input, walked in im2col order by TMA.
      func::FuncOp mapFn = tensorMapFunction(module, kIm2colMapFn, 14);
      SmallVector<Value> callArgs = {base,
                                     cI64(param.dtype),
                                     cI64(param.nhwcDims[3]),
                                     cI64(param.nhwcDims[2]),
                                     cI64(param.nhwcDims[1]),
                                     cI64(param.nhwcDims[0]),
                                     cI64(param.lower[0]),
                                     cI64(param.lower[1]),
                                     cI64(param.upper[0]),
                                     cI64(param.upper[1]),
                                     cI64(param.traversal[0]),
                                     cI64(param.traversal[1]),
                                     cI64(param.channels),
                                     cI64(param.pixels),
                                     cI64(param.swizzle)};
      Value map = func::CallOp::create(b, loc, mapFn, callArgs).getResult(0);
      hostArgs.push_back(LLVM::PtrToIntOp::create(b, loc, i64, map));
      continue;
    }
    func::FuncOp mapFn = tensorMapFunction(module, kTensorMapFn, 7);
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
  return success();
}
