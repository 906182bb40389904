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
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/FormatVariadic.h"

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

namespace {
/// The values the kernels' parameters name: memrefs (whole buffers; a
/// slice is passed by its address) or 64-bit addresses (workspace copies).
using OperandTable = llvm::StringMap<Value>;

/// A slice (a batch matmul's, at an offset) goes to a kernel as its
/// address (i64): the bare-pointer convention of gpu.func takes only
/// identity layouts.
bool sliced(Value v) {
  auto t = dyn_cast<MemRefType>(v.getType());
  return t && !t.getLayout().isIdentity();
}

/// The gpu.func of `emitted` (its PTX as one llvm.inline_asm) at the end
/// of `gpuModule`, whose `smem` global is the dynamic shared window.
FailureOr<gpu::GPUFuncOp> buildKernelFunction(
    Operation *op, OpBuilder &b, gpu::GPUModuleOp gpuModule,
    LLVM::GlobalOp smem, const GpuEmittedKernel &emitted,
    llvm::StringRef kernelName, llvm::StringRef emitter,
    const llvm::StringMap<Type> &operandTypes) {
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  b.setInsertionPointToEnd(gpuModule.getBody());
  SmallVector<Type> argTypes;
  for (const GpuKernelParam &param : emitted.params) {
    if (param.kind != "ptr") {
      argTypes.push_back(b.getI64Type());
      continue;
    }
    Type type = operandTypes.lookup(param.name);
    if (!type)
      return op->emitError() << "the " << emitter << " kernel takes a '"
                             << param.name
                             << "' operand this op does not have";
    argTypes.push_back(type);
  }
  auto gpuFunc = gpu::GPUFuncOp::create(b, loc, kernelName,
                                        FunctionType::get(ctx, argTypes, {}));
  gpuFunc->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  gpuFunc->setAttr("nvvm.maxntid",
                   b.getDenseI32ArrayAttr({int32_t(emitted.threads), 1, 1}));
  if (emitted.minCtas > 0)
    gpuFunc->setAttr("nvvm.minctasm", b.getI32IntegerAttr(emitted.minCtas));
  if (emitted.cluster[0] * emitted.cluster[1] * emitted.cluster[2] > 1)
    // .explicitcluster + .reqnctapercluster
    gpuFunc->setAttr("nvvm.cluster_dim",
                     b.getDenseI32ArrayAttr({int32_t(emitted.cluster[0]),
                                             int32_t(emitted.cluster[1]),
                                             int32_t(emitted.cluster[2])}));
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
      b, loc, TypeRange{}, asmOperands, emitted.asmText, emitted.constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  gpu::ReturnOp::create(b, loc);
  return gpuFunc;
}

/// At `b`'s insertion point (host code): the tensor maps of `emitted` and
/// its gpu.launch_func of `gpuFunc`.
gpu::LaunchFuncOp buildLaunch(OpBuilder &b, Location loc, ModuleOp module,
                              const GpuEmittedKernel &emitted,
                              gpu::GPUFuncOp gpuFunc,
                              const OperandTable &operands) {
  MLIRContext *ctx = b.getContext();
  Type i64 = b.getI64Type();
  auto cI64 = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  // The address of an operand's first element (aligned pointer + offset).
  auto addressOf = [&](Value v) -> Value {
    if (!isa<MemRefType>(v.getType()))
      return v; // already an address
    Value idx = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v);
    auto t = cast<MemRefType>(v.getType());
    if (sliced(v)) {
      auto meta = memref::ExtractStridedMetadataOp::create(b, loc, v);
      Value bytes =
          arith::MulIOp::create(b, loc, meta.getOffset(),
                                arith::ConstantIndexOp::create(
                                    b, loc, t.getElementTypeBitWidth() / 8));
      idx = arith::AddIOp::create(b, loc, idx, bytes);
    }
    return arith::IndexCastOp::create(b, loc, i64, idx);
  };
  auto pointerOf = [&](Value v) -> Value {
    return LLVM::IntToPtrOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                                    addressOf(v));
  };
  SmallVector<Value> hostArgs;
  for (const GpuKernelParam &param : emitted.params) {
    if (param.kind == "ptr") {
      Value operand = operands.lookup(param.name);
      bool memref = isa<MemRefType>(operand.getType()) && !sliced(operand);
      hostArgs.push_back(memref ? operand : addressOf(operand));
      continue;
    }
    // C's map: the wgmma kernel's TMA store (store = "smem_tma").
    Value base = pointerOf(operands.lookup(param.tensor));
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
  gpu::KernelDim3 grid{cIdx(emitted.grid[0]), cIdx(emitted.grid[1]),
                       cIdx(emitted.grid[2])};
  gpu::KernelDim3 block{cIdx(emitted.threads), cIdx(1), cIdx(1)};
  Value smemBytes = arith::ConstantOp::create(
      b, loc, b.getI32IntegerAttr(int32_t(emitted.sharedBytes)));
  std::optional<gpu::KernelDim3> cluster;
  if (emitted.cluster[0] * emitted.cluster[1] * emitted.cluster[2] > 1)
    cluster = gpu::KernelDim3{cIdx(emitted.cluster[0]),
                              cIdx(emitted.cluster[1]),
                              cIdx(emitted.cluster[2])};
  return gpu::LaunchFuncOp::create(b, loc, gpuFunc, grid, block, smemBytes,
                                   hostArgs,
                                   /*asyncTokenType=*/nullptr,
                                   /*asyncDependencies=*/{}, cluster);
}

/// The runtime's workspace function `name` (i64 -> ptr, or ptr -> ()),
/// declared once in `module`.
func::FuncOp workspaceFunction(ModuleOp module, llvm::StringRef name,
                               bool acquire) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b(module.getBodyRegion());
  MLIRContext *ctx = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  auto type = acquire ? FunctionType::get(ctx, {i64}, {ptr})
                      : FunctionType::get(ctx, {ptr}, {});
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

/// The runtime's tensoropGpuWorkspaceAcquireZeroed (bytes, zero offset,
/// zero bytes -> ptr), declared once in `module`.
func::FuncOp zeroedWorkspaceFunction(ModuleOp module) {
  llvm::StringRef name = "tensoropGpuWorkspaceAcquireZeroed";
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b(module.getBodyRegion());
  MLIRContext *ctx = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                 FunctionType::get(ctx, {i64, i64, i64}, {ptr}));
  fn.setPrivate();
  return fn;
}

/// One pad copy: the nvidia_pad.py kernel that copies `src` (rows x cols,
/// row stride cols) into `dst` with row stride `ld`.
struct PadCopy {
  std::string src, dst;
  int64_t rows, cols, ld;
  GpuEmittedKernel kernel;
  std::string symbol;
};
} // namespace

LogicalResult mlir::tensorop::emitGpuKernelLaunch(
    Operation *op, const GpuSketchChoice &sketch, GpuSketchAttr sketchAttr,
    const GpuGemmProblem &p, const GpuTarget &t, Value a, Value bv, Value c,
    const GpuEpilogueOperands &epilogue, llvm::StringRef kernelName,
    llvm::StringRef emitterDir, unsigned emitterTimeout) {
  MLIRContext *ctx = op->getContext();
  Location loc = op->getLoc();
  llvm::json::Object spec = emitterSpec(sketch, p, t, kernelName);
  if (!epilogue.steps.empty()) {
    llvm::json::Array steps;
    for (const std::string &s : epilogue.steps)
      steps.push_back(s);
    spec["epilogue"] = std::move(steps);
  }
  OperandTable operands;
  operands["A"] = a;
  operands["B"] = bv;
  operands["C"] = c;
  if (epilogue.bias)
    operands["bias"] = epilogue.bias;
  if (epilogue.residual)
    operands["R"] = epilogue.residual;
  llvm::Expected<GpuEmittedKernel> emitted =
      runGpuEmitter(sketch.emitter(), spec, emitterDir, emitterTimeout);
  if (!emitted)
    return op->emitError() << llvm::toString(emitted.takeError());

  // Rows TMA cannot describe (the wgmma kernel of a bf16/f16 GEMM): padded
  // copies of A and/or B in a workspace, made by nvidia_pad.py's kernels
  // launched first; the GEMM's tensor maps read the copies.
  GpuWgmmaPadding pad;
  if (sketch.kernel == "wgmma")
    pad = wgmmaPadding(p);
  SmallVector<PadCopy, 2> copies;
  if (pad.padA)
    copies.push_back({"A", "A_pad", p.m, p.k, pad.lda, {}, ""});
  if (pad.padB)
    copies.push_back({"B", "B_pad", p.k, p.n, pad.ldb, {}, ""});
  llvm::json::Array before;
  for (PadCopy &copy : copies) {
    copy.symbol = kernelName.str() + "_pad_" + llvm::StringRef(copy.src).lower();
    llvm::json::Object padSpec{{"name", copy.symbol}, {"rows", copy.rows},
                               {"cols", copy.cols},   {"dst_ld", copy.ld},
                               {"dtype", p.aType},    {"src", copy.src},
                               {"dst", copy.dst},     {"sm", t.sm},
                               {"sms", t.sms}};
    llvm::Expected<GpuEmittedKernel> padKernel =
        runGpuEmitter("nvidia_pad", padSpec, emitterDir, emitterTimeout);
    if (!padKernel)
      return op->emitError() << llvm::toString(padKernel.takeError());
    copy.kernel = std::move(*padKernel);
    before.push_back(llvm::json::Object(copy.kernel.answer));
    // The GEMM's tensor map of this operand reads the copy.
    for (GpuKernelParam &param : emitted->params)
      if (param.kind == "tensormap" && param.tensor == copy.src)
        param.tensor = copy.dst;
  }
  if (!copies.empty()) {
    if (llvm::json::Array *params = emitted->answer.getArray("params"))
      for (llvm::json::Value &v : *params)
        if (llvm::json::Object *o = v.getAsObject())
          if (o->getString("kind") == "tensormap")
            for (const PadCopy &copy : copies)
              if (o->getString("tensor") == copy.src)
                (*o)["tensor"] = copy.dst;
    emitted->answer["before"] = std::move(before);
    llvm::json::Object workspace{{"bytes", pad.workspaceBytes}};
    if (pad.padA)
      workspace["A_pad"] = int64_t(0);
    if (pad.padB)
      workspace["B_pad"] = pad.offsetB;
    emitted->answer["workspace"] = std::move(workspace);
  }

  // The kernel's own workspace (the narrow tiles' split-K reduced through
  // global memory, nvidia_gemm_wgmma.py split_reduce "workspace"): SK_ws at
  // offset 0, its arrival counters ("zero": [offset, bytes]) zeroed when
  // it is acquired; each launch leaves them zero.
  int64_t kernelWsBytes = 0, zeroOffset = 0, zeroBytes = 0;
  if (copies.empty())
    if (const llvm::json::Object *ws = emitted->answer.getObject("workspace")) {
      const llvm::json::Array *zero = ws->getArray("zero");
      if (!ws->getInteger("bytes") || !zero || zero->size() != 2 ||
          !(*zero)[0].getAsInteger() || !(*zero)[1].getAsInteger())
        return op->emitError()
               << "the " << sketch.emitter()
               << " kernel's workspace needs \"bytes\" and \"zero\"";
      kernelWsBytes = *ws->getInteger("bytes");
      zeroOffset = *(*zero)[0].getAsInteger();
      zeroBytes = *(*zero)[1].getAsInteger();
    }

  // ---- device side: gpu.module { smem global; gpu.funcs { inline PTX } } ----
  ModuleOp module = op->getParentOfType<ModuleOp>();
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module.getBody());
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
  // Kernel arguments: whole buffers as memrefs, slices and the workspace
  // copies as addresses (i64).
  Type i64 = b.getI64Type();
  llvm::StringMap<Type> operandTypes;
  for (const auto &entry : operands) {
    Value v = entry.getValue();
    operandTypes[entry.getKey()] =
        isa<MemRefType>(v.getType()) && !sliced(v) ? v.getType() : i64;
  }
  for (const PadCopy &copy : copies)
    operandTypes[copy.dst] = i64;
  if (kernelWsBytes)
    operandTypes["SK_ws"] = i64;
  SmallVector<gpu::GPUFuncOp> padFuncs;
  for (const PadCopy &copy : copies) {
    FailureOr<gpu::GPUFuncOp> fn =
        buildKernelFunction(op, b, gpuModule, smem, copy.kernel, copy.symbol,
                            "nvidia_pad", operandTypes);
    if (failed(fn))
      return failure();
    padFuncs.push_back(*fn);
  }
  FailureOr<gpu::GPUFuncOp> gemmFunc =
      buildKernelFunction(op, b, gpuModule, smem, *emitted, kernelName,
                          sketch.emitter(), operandTypes);
  if (failed(gemmFunc))
    return failure();
  padFuncs.push_back(*gemmFunc);
  gpu::GPUFuncOp gpuFunc = padFuncs.pop_back_val();
  gpuFunc->setAttr(kGpuSketchAttrName, sketchAttr);
  {
    std::string launch;
    llvm::raw_string_ostream os(launch);
    os << llvm::json::Value(llvm::json::Object(emitted->answer));
    gpuFunc->setAttr(kLaunchAttr, b.getStringAttr(launch));
  }

  // ---- host side: [workspace, pad copies,] tensor maps, the launch ----
  b.setInsertionPoint(op);
  if (kernelWsBytes) {
    func::FuncOp acquire = zeroedWorkspaceFunction(module);
    func::FuncOp release =
        workspaceFunction(module, "tensoropGpuWorkspaceRelease", false);
    auto cI64 = [&](int64_t v) -> Value {
      return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
    };
    Value ws = func::CallOp::create(
                   b, loc, acquire,
                   ValueRange{cI64(kernelWsBytes), cI64(zeroOffset),
                              cI64(zeroBytes)})
                   .getResult(0);
    Value wsAddr = LLVM::PtrToIntOp::create(b, loc, i64, ws);
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, wsAddr,
                                     cI64(0));
    auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    operands["SK_ws"] = wsAddr;
    gpu::LaunchFuncOp launch =
        buildLaunch(b, loc, module, *emitted, gpuFunc, operands);
    launch->setAttr(kGpuSketchAttrName, sketchAttr);
    func::CallOp::create(b, loc, release, ValueRange{ws});
    return success();
  }
  if (copies.empty()) {
    gpu::LaunchFuncOp launch =
        buildLaunch(b, loc, module, *emitted, gpuFunc, operands);
    launch->setAttr(kGpuSketchAttrName, sketchAttr);
    return success();
  }
  // The workspace from the runtime's pool; nothing is launched when it
  // cannot be had (the runtime reports the CUresult).
  func::FuncOp acquire =
      workspaceFunction(module, "tensoropGpuWorkspaceAcquire", true);
  func::FuncOp release =
      workspaceFunction(module, "tensoropGpuWorkspaceRelease", false);
  Value bytes =
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(pad.workspaceBytes));
  Value ws = func::CallOp::create(b, loc, acquire, ValueRange{bytes})
                 .getResult(0);
  Value wsAddr = LLVM::PtrToIntOp::create(b, loc, i64, ws);
  Value zero = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, wsAddr,
                                   zero);
  auto ifOp = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  for (const PadCopy &copy : copies) {
    int64_t offset = copy.dst == "A_pad" ? 0 : pad.offsetB;
    operands[copy.dst] =
        offset == 0 ? wsAddr
                    : Value(arith::AddIOp::create(
                          b, loc, wsAddr,
                          arith::ConstantOp::create(
                              b, loc, b.getI64IntegerAttr(offset))));
  }
  for (auto [copy, fn] : llvm::zip(copies, padFuncs))
    buildLaunch(b, loc, module, copy.kernel, fn, operands);
  gpu::LaunchFuncOp launch =
      buildLaunch(b, loc, module, *emitted, gpuFunc, operands);
  launch->setAttr(kGpuSketchAttrName, sketchAttr);
  func::CallOp::create(b, loc, release, ValueRange{ws});
  op->emitRemark() << "tensorop: wgmma on padded copies ("
                   << (pad.padA ? llvm::formatv("A {0}x{1} to row stride "
                                                "{2}",
                                                p.m, p.k, pad.lda)
                                      .str()
                                : std::string())
                   << (pad.padA && pad.padB ? ", " : "")
                   << (pad.padB ? llvm::formatv("B {0}x{1} to row stride "
                                                "{2}",
                                                p.k, p.n, pad.ldb)
                                      .str()
                                : std::string())
                   << ") in a workspace of " << pad.workspaceBytes
                   << " bytes from the runtime's stream-ordered pool, "
                   << copies.size() << " pad kernel(s) before the GEMM";
  return success();
}
