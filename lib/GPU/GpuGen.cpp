//===- GpuGen.cpp - tensorop gen for NVIDIA targets -----------------------===//

#include "tensorop/GPU/GpuGen.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/Support/TextFiles.h"
#include "tensorop/GPU/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <ctime>
#include <mutex>

using namespace mlir;
using namespace mlir::tensorop;
using llvm::json::Object;

static std::string mlirType(llvm::StringRef t) {
  return t == "f32" || t == "tf32" ? "f32" : t.str();
}

std::string mlir::tensorop::gpuGemmModuleSource(llvm::StringRef name, int64_t m,
                                                int64_t n, int64_t k,
                                                llvm::StringRef aType,
                                                llvm::StringRef cType,
                                                llvm::StringRef precision,
                                                llvm::StringRef sketch) {
  std::string at = mlirType(aType), ct = mlirType(cType);
  std::string attrs;
  if (precision == "tf32")
    attrs += "tensorop.precision = \"tf32\"";
  if (!sketch.empty())
    attrs +=
        (attrs.empty() ? "" : ", ") + ("tensorop.gpu_sketch = " + sketch).str();
  if (!attrs.empty())
    attrs = " {" + attrs + "}";
  return llvm::formatv(R"mlir(
// C = A * B on an NVIDIA GPU: A, B and C are device memory, row-major.
func.func @{0}(%A: memref<{1}x{3}x{4}>, %B: memref<{3}x{2}x{4}>, %C: memref<{1}x{2}x{5}>) {
  %zero = arith.constant 0.0 : {5}
  linalg.fill ins(%zero : {5}) outs(%C : memref<{1}x{2}x{5}>)
  linalg.matmul ins(%A, %B : memref<{1}x{3}x{4}>, memref<{3}x{2}x{4}>)
                outs(%C : memref<{1}x{2}x{5}>){6}
  return
}
)mlir",
                       name, m, n, k, at, ct, attrs)
      .str();
}

std::string mlir::tensorop::gpuConvModuleSource(
    llvm::StringRef name, const ::tensorop::Conv2DShape &s,
    llvm::StringRef inType, llvm::StringRef outType, llvm::StringRef sketch,
    llvm::StringRef precision) {
  auto type = [](int64_t a, int64_t b, int64_t c, int64_t d,
                 llvm::StringRef t) {
    return llvm::formatv("{0}x{1}x{2}x{3}x{4}", a, b, c, d, t).str();
  };
  std::string in = type(s.n, s.h, s.w, s.c, inType),
              flt = type(s.r, s.s, s.c, s.f, inType),
              out = type(s.n, s.outH(), s.outW(), s.f, outType),
              padded = type(s.n, s.h + s.padTop + s.padBottom,
                            s.w + s.padLeft + s.padRight, s.c, inType);
  std::string attr =
      sketch.empty() ? "" : (", tensorop.gpu_sketch = " + sketch).str();
  if (precision == "tf32")
    attr += ", tensorop.precision = \"tf32\"";
  std::string text =
      llvm::formatv(R"mlir(
// output = conv2d(input, filter) on an NVIDIA GPU: NHWC input, HWCF filter,
// NHWF output, all device memory; the padding is a zero tensor.pad.
func.func @{0}(%in: memref<{1}>, %flt: memref<{2}>, %out: memref<{3}>) {{
  %zero_in = arith.constant 0.0 : {4}
  %zero_out = arith.constant 0.0 : {5}
  %i = bufferization.to_tensor %in restrict : memref<{1}> to tensor<{1}>
  %f = bufferization.to_tensor %flt restrict : memref<{2}> to tensor<{2}>
)mlir",
                    name, in, flt, out, inType, outType)
          .str();
  std::string source = "%i";
  if (s.padded()) {
    text += llvm::formatv(R"mlir(  %p = tensor.pad %i low[0, {0}, {1}, 0] high[0, {2}, {3}, 0] {{
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %zero_in : {6}
  } : tensor<{4}> to tensor<{5}>
)mlir",
                          s.padTop, s.padLeft, s.padBottom, s.padRight, in,
                          padded, inType)
                .str();
    source = "%p";
  }
  text += llvm::formatv(R"mlir(  %e = tensor.empty() : tensor<{0}>
  %z = linalg.fill ins(%zero_out : {9}) outs(%e : tensor<{0}>) -> tensor<{0}>
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<[{1}, {2}]> : tensor<2xi64>, strides = dense<[{3}, {4}]> : tensor<2xi64>{8}}
         ins({5}, %f : tensor<{6}>, tensor<{7}>) outs(%z : tensor<{0}>) -> tensor<{0}>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<{0}>, memref<{0}>) -> ()
  return
}
)mlir",
                        out, s.dilationH, s.dilationW, s.strideH, s.strideW,
                        source, s.padded() ? padded : in, flt, attr, outType)
              .str();
  return text;
}

::tensorop::Conv2DShape
mlir::tensorop::gpuConvShape(const GpuConvGeometry &g) {
  ::tensorop::Conv2DShape s;
  s.n = g.n;
  s.h = g.h;
  s.w = g.w;
  s.c = g.c;
  s.f = g.f;
  s.r = g.r;
  s.s = g.s;
  s.strideH = g.strideH;
  s.strideW = g.strideW;
  s.dilationH = g.dilationH;
  s.dilationW = g.dilationW;
  s.padTop = g.padTop;
  s.padBottom = g.padBottom;
  s.padLeft = g.padLeft;
  s.padRight = g.padRight;
  return s;
}

namespace {
/// Runs `options`' half of the pipeline on `module`; diagnostics in the error.
llvm::Error runPipeline(MLIRContext &ctx, ModuleOp module,
                        const GpuPipelineOptions &options) {
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag.getLocation() << ": " << diag << "\n";
    } else if (diag.getSeverity() == DiagnosticSeverity::Remark &&
               options.kernelsOnly && !options.quietRemarks) {
      // Where the sketch came from (a tuning database, the advisor), what
      // was fused: located at the op of the module gen wrote (FILE:L:C),
      // as a compiler's remarks are.
      llvm::errs() << "  ";
      if (auto at = diag.getLocation()->findInstanceOf<FileLineColLoc>())
        llvm::errs() << at.getFilename().getValue() << ":" << at.getLine()
                     << ":" << at.getColumn() << ": ";
      llvm::errs() << "remark: " << diag << "\n";
    }
    return success();
  });
  PassManager pm(&ctx);
  std::string error;
  if (failed(buildTensorOpGpuPipeline(pm, options, error)))
    return llvm::createStringError("bad pipeline: " + error);
  if (failed(pm.run(module)))
    return llvm::createStringError("the NVIDIA pipeline failed:\n" +
                                   diagnostics);
  return llvm::Error::success();
}

/// The object of the (single) gpu.binary, as bytes.
std::string binaryObject(ModuleOp module) {
  std::string out;
  module.walk([&](gpu::BinaryOp bin) {
    for (Attribute a : bin.getObjectsAttr())
      if (auto obj = dyn_cast<gpu::ObjectAttr>(a))
        out = obj.getObject().getValue().str();
  });
  return out;
}

/// The gpu.binary translation loads the binary in a global constructor
/// (before main, in whatever context is current then) and unloads it in a
/// destructor, which fails loudly when the CUDA runtime destroyed the context
/// first. Generated objects call the runtime's lazy module functions instead:
/// same signatures, loaded once at the first call in the caller's context,
/// a quiet unload. A translation that no longer calls these names is an
/// error rather than an object with the old behaviour.
llvm::Error useLazyModuleLoading(llvm::Module &m) {
  static const std::pair<llvm::StringRef, llvm::StringRef> renames[] = {
      {"mgpuModuleLoad", "tensoropGpuModuleRegister"},
      {"mgpuModuleLoadJIT", "tensoropGpuModuleRegisterJIT"},
      {"mgpuModuleGetFunction", "tensoropGpuModuleFunction"},
      {"mgpuModuleUnload", "tensoropGpuModuleRelease"}};
  bool load = false, get = false, unload = false;
  for (auto [from, to] : renames) {
    llvm::Function *f = m.getFunction(from);
    if (!f)
      continue;
    if (!f->isDeclaration())
      return llvm::createStringError("the host module defines " + from);
    f->setName(to);
    load |= from.starts_with("mgpuModuleLoad");
    get |= from == "mgpuModuleGetFunction";
    unload |= from == "mgpuModuleUnload";
  }
  if (!load || !get || !unload)
    return llvm::createStringError(
        "the gpu.binary translation no longer calls mgpuModuleLoad[JIT], "
        "mgpuModuleGetFunction and mgpuModuleUnload; update "
        "useLazyModuleLoading");
  return llvm::Error::success();
}

/// LLVM IR and an x86-64 object of the host side (the cubin embedded).
llvm::Error emitHostObject(ModuleOp module, llvm::StringRef objPath,
                           llvm::StringRef llPath) {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  llvm::Triple triple("x86_64-unknown-linux-gnu");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError("no x86-64 target: " + error);
  llvm::TargetOptions topts;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, "x86-64", "", topts, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::Default));
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "tensorop");
  if (!llvmModule)
    return llvm::createStringError(
        "cannot translate the host module to LLVM IR");
  if (llvm::Error e = useLazyModuleLoading(*llvmModule))
    return e;
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(tm->createDataLayout());
  auto optimize = makeOptimizingTransformer(2, 0, tm.get());
  if (llvm::Error e = optimize(llvmModule.get()))
    return e;
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(llPath, ec);
    if (ec)
      return llvm::createStringError("cannot write " + llPath);
    llvmModule->print(os, nullptr);
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(objPath, ec, llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot write " + objPath);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr,
                              llvm::CodeGenFileType::ObjectFile))
    return llvm::createStringError("cannot emit an x86-64 object");
  pm.run(*llvmModule);
  return llvm::Error::success();
}

} // namespace

std::unique_ptr<MLIRContext> mlir::tensorop::makeGpuCompilerContext() {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::registerAllPasses();
    registerTensorOpGpuPasses();
  });
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<TensorOpDialect>();
  registerTensorOpGpuTranslations(registry);
  auto ctx = std::make_unique<MLIRContext>(registry);
  ctx->loadAllAvailableDialects();
  return ctx;
}

llvm::Expected<GpuCompiledKernel> mlir::tensorop::compileGpuKernel(
    MLIRContext &ctx, const GpuGemmProblem &p, llvm::StringRef target,
    llvm::StringRef sketchText, llvm::StringRef dir, llvm::StringRef name) {
  // A convolution compiles from the form `tensorop gen` writes for it.
  std::string source =
      p.conv ? gpuConvModuleSource(name, gpuConvShape(*p.conv), p.aType,
                                   p.cType, sketchText, p.precision)
             : gpuGemmModuleSource(name, p.m, p.n, p.k, p.aType, p.cType,
                                   p.precision, sketchText);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  if (!module)
    return llvm::createStringError("cannot parse the kernel module of " +
                                   sketchText);
  GpuPipelineOptions options;
  options.target = target.str();
  options.barePtrAbi = true;
  options.kernelsOnly = true;
  options.quietRemarks = true;
  if (llvm::Error e = runPipeline(ctx, *module, options))
    return std::move(e);
  GpuCompiledKernel out;
  std::string launchText;
  // The GEMM's kernel carries the launch description (with the pad
  // kernels that run before it, if any: their launches are in its
  // "before" list and they live in the same binary).
  module->walk([&](gpu::GPUFuncOp fn) {
    auto s = fn->getAttrOfType<StringAttr>("tensorop.launch");
    if (!s)
      return;
    launchText = s.getValue().str();
    if (Attribute s = fn->getAttr("tensorop.gpu_sketch")) {
      llvm::raw_string_ostream os(out.sketchText);
      os << s;
    }
    out.kernelName = fn.getName().str();
  });
  if (launchText.empty())
    return llvm::createStringError("the pipeline produced no kernel");
  options.kernelsOnly = false;
  options.loweringOnly = true;
  if (llvm::Error e = runPipeline(ctx, *module, options))
    return std::move(e);
  std::string toolkit = findCudaToolkit();
  llvm::StringRef ext = toolkit.empty()          ? ".ptx"
                        : target == "nvidia-sm80" ? ".fatbin"
                                                  : ".cubin";
  auto path = [&](llvm::StringRef file) {
    llvm::SmallString<256> s(dir);
    llvm::sys::path::append(s, file);
    return std::string(s);
  };
  out.binaryPath = path((name + ext).str());
  if (llvm::Error e = ::tensorop::writeTextFile(out.binaryPath, binaryObject(*module)))
    return std::move(e);
  llvm::Expected<llvm::json::Value> doc = llvm::json::parse(launchText);
  if (!doc || !doc->getAsObject()) {
    if (!doc)
      llvm::consumeError(doc.takeError());
    return llvm::createStringError("bad launch description from the emitter");
  }
  Object launch = std::move(*doc->getAsObject());
  launch["cubin"] = (name + ext).str();
  launch["kernel_symbol"] = out.kernelName;
  launch["target"] = target.str();
  launch["sketch"] = out.sketchText;
  out.launchPath = path((name + ".launch.json").str());
  if (llvm::Error e = ::tensorop::writeTextFile(
          out.launchPath,
          llvm::formatv("{0:2}\n", llvm::json::Value(std::move(launch))).str()))
    return std::move(e);
  return out;
}

llvm::Error mlir::tensorop::runGpuPipeline(MLIRContext &ctx, ModuleOp module,
                                           const GpuPipelineOptions &options) {
  return runPipeline(ctx, module, options);
}

std::string mlir::tensorop::gpuBinaryObject(ModuleOp module) {
  return binaryObject(module);
}

llvm::Error mlir::tensorop::emitGpuHostObject(ModuleOp module,
                                              llvm::StringRef objPath,
                                              llvm::StringRef llPath) {
  return emitHostObject(module, objPath, llPath);
}
