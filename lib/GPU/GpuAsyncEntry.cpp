//===- GpuAsyncEntry.cpp - NAME_async beside a lowered GPU entry point ----===//
//
// `tensorop gen` for NVIDIA targets gives two entry points: NAME(A, B, C),
// which launches on a stream of the runtime and waits, and
// NAME_async(A, B, C, stream), which launches on the caller's stream and
// returns at once with 0 or the CUresult of the first CUDA call that failed.
//
// NAME_async is a copy of NAME made after the host lowering (gpu-to-llvm):
// upstream's lowering drops a launch_func's async object, while the
// gpu.binary translation honours it (the launch goes on that stream, with
// no stream created, synchronized or destroyed around it). So the copy's
// launches get the stream argument here, after the lowering, and its body
// is bracketed by the runtime's status calls (tensoropGpuCallBegin/End).
// Its workspace calls (tensoropGpuWorkspaceAcquire/Release, an unaligned
// GEMM's pad copies) become their stream-ordered forms on that stream.
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/GpuGen.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

/// The runtime function `name` of type `type`, declared once in `module`.
static LLVM::LLVMFuncOp declareRuntimeFunction(ModuleOp module,
                                               llvm::StringRef name,
                                               LLVM::LLVMFunctionType type) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder b(module.getBodyRegion());
  b.setInsertionPointToEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

llvm::Error mlir::tensorop::addAsyncEntryPoint(ModuleOp module,
                                               llvm::StringRef name) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError("cannot add " + name + "_async: " + why);
  };
  auto sync = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!sync || sync.isExternal())
    return fail("no lowered function @" + name + " (run the host lowering "
                                                  "first)");
  if (!isa<LLVM::LLVMVoidType>(sync.getFunctionType().getReturnType()))
    return fail("@" + name + " returns a value");
  std::string asyncName = (name + "_async").str();
  if (module.lookupSymbol(asyncName))
    return fail("the module already has @" + asyncName);
  size_t launches = 0, asyncLaunches = 0;
  sync.walk([&](gpu::LaunchFuncOp launch) {
    ++launches;
    if (launch.getAsyncObject() || !launch.getAsyncDependencies().empty())
      ++asyncLaunches;
  });
  if (launches == 0 || asyncLaunches != 0)
    return fail("@" + name + " must hold synchronous gpu.launch_func ops only");

  MLIRContext *ctx = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = IntegerType::get(ctx, 32);
  Type voidType = LLVM::LLVMVoidType::get(ctx);
  auto begin = declareRuntimeFunction(module, "tensoropGpuCallBegin",
                                      LLVM::LLVMFunctionType::get(voidType, {}));
  auto end = declareRuntimeFunction(module, "tensoropGpuCallEnd",
                                    LLVM::LLVMFunctionType::get(i32, {}));

  OpBuilder b(sync);
  b.setInsertionPointAfter(sync);
  auto async = cast<LLVM::LLVMFuncOp>(b.clone(*sync));
  async.setSymName(asyncName);
  llvm::SmallVector<Type> inputs(sync.getFunctionType().getParams());
  inputs.push_back(ptr);
  async.setFunctionType(LLVM::LLVMFunctionType::get(i32, inputs));
  Block &entry = async.getBody().front();
  Value stream = entry.addArgument(ptr, async.getLoc());

  b.setInsertionPointToStart(&entry);
  LLVM::CallOp::create(b, async.getLoc(), begin, ValueRange());
  async.walk([&](gpu::LaunchFuncOp launch) {
    launch.getAsyncObjectMutable().assign(stream);
  });
  // A workspace (the pad copies of an unaligned GEMM) comes from the
  // runtime's pool ordered on the same stream, and goes back to it there:
  // the synchronous forms would wait.
  llvm::SmallVector<LLVM::CallOp> workspaceCalls;
  async.walk([&](LLVM::CallOp call) {
    std::optional<llvm::StringRef> callee = call.getCallee();
    if (callee && (*callee == "tensoropGpuWorkspaceAcquire" ||
                   *callee == "tensoropGpuWorkspaceAcquireZeroed" ||
                   *callee == "tensoropGpuWorkspaceRelease"))
      workspaceCalls.push_back(call);
  });
  LLVM::LLVMFuncOp acquireOn, acquireZeroedOn, releaseOn;
  if (!workspaceCalls.empty()) {
    Type i64 = IntegerType::get(ctx, 64);
    acquireOn = declareRuntimeFunction(
        module, "tensoropGpuWorkspaceAcquireOn",
        LLVM::LLVMFunctionType::get(ptr, {i64, ptr}));
    releaseOn = declareRuntimeFunction(
        module, "tensoropGpuWorkspaceReleaseOn",
        LLVM::LLVMFunctionType::get(voidType, {ptr, ptr}));
    // a split-K workspace's counters, zeroed on the same stream
    acquireZeroedOn = declareRuntimeFunction(
        module, "tensoropGpuWorkspaceAcquireZeroedOn",
        LLVM::LLVMFunctionType::get(ptr, {i64, i64, i64, ptr}));
  }
  for (LLVM::CallOp call : workspaceCalls) {
    b.setInsertionPoint(call);
    llvm::SmallVector<Value> args(call.getArgOperands());
    args.push_back(stream);
    llvm::StringRef callee = *call.getCallee();
    LLVM::LLVMFuncOp target =
        callee == "tensoropGpuWorkspaceAcquire"         ? acquireOn
        : callee == "tensoropGpuWorkspaceAcquireZeroed" ? acquireZeroedOn
                                                        : releaseOn;
    auto onStream = LLVM::CallOp::create(b, call.getLoc(), target, args);
    call->replaceAllUsesWith(onStream->getResults());
    call.erase();
  }
  llvm::SmallVector<LLVM::ReturnOp> returns;
  async.walk([&](LLVM::ReturnOp ret) { returns.push_back(ret); });
  for (LLVM::ReturnOp ret : returns) {
    b.setInsertionPoint(ret);
    Value status =
        LLVM::CallOp::create(b, ret.getLoc(), end, ValueRange()).getResult();
    LLVM::ReturnOp::create(b, ret.getLoc(), status);
    ret.erase();
  }
  return llvm::Error::success();
}
