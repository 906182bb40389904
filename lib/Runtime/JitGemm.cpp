//===- JitGemm.cpp - Build and JIT-compile one GEMM through the pipeline --===//

#include "tensorop/Runtime/JitGemm.h"
#include "tensorop/Runtime/OpenMPRuntime.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tensorop;

JitGemm::JitGemm() = default;
JitGemm::~JitGemm() = default;
JitGemm::JitGemm(JitGemm &&) = default;

std::string mlir::tensorop::gemmModuleSource(llvm::StringRef name, int64_t m,
                                             int64_t n, int64_t k,
                                             llvm::StringRef sketch) {
  std::string attr =
      sketch.empty() ? "" : (" {tensorop.sketch = " + sketch + "}").str();
  return llvm::formatv(R"mlir(
func.func @{0}(%A: memref<{1}x{3}xf32>, %B: memref<{3}x{2}xf32>, %C: memref<{1}x{2}xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<{1}x{2}xf32>)
  linalg.matmul ins(%A, %B : memref<{1}x{3}xf32>, memref<{3}x{2}xf32>)
                outs(%C : memref<{1}x{2}xf32>){4}
  return
}
)mlir",
                       name, m, n, k, attr)
      .str();
}

std::string mlir::tensorop::gemmModuleSource(llvm::StringRef name, int64_t m,
                                             int64_t n, int64_t k,
                                             llvm::StringRef inputType,
                                             llvm::StringRef sketch) {
  if (inputType == "f32")
    return gemmModuleSource(name, m, n, k, sketch);
  std::string attr =
      sketch.empty() ? "" : (" {tensorop.sketch = " + sketch + "}").str();
  return llvm::formatv(R"mlir(
func.func @{0}(%A: memref<{1}x{3}x{5}>, %B: memref<{3}x{2}x{5}>, %C: memref<{1}x{2}xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<{1}x{2}xf32>)
  linalg.matmul ins(%A, %B : memref<{1}x{3}x{5}>, memref<{3}x{2}x{5}>)
                outs(%C : memref<{1}x{2}xf32>){4}
  return
}
)mlir",
                       name, m, n, k, attr, inputType)
      .str();
}

void mlir::tensorop::registerJitDialects(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  // Threaded sketches reach LLVM IR as omp.parallel / omp.wsloop.
  registerOpenMPDialectTranslation(registry);
}

llvm::Expected<LoweredModule>
mlir::tensorop::lowerWithPipeline(MLIRContext &ctx, llvm::StringRef source,
                                  llvm::StringRef pipelineOptions,
                                  bool barePtrAbi) {
  // Collect diagnostics so the caller gets them as an error message.
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error) {
      llvm::raw_string_ostream os(diagnostics);
      os << diag.getLocation() << ": " << diag << "\n";
    }
    return success();
  });

  LoweredModule result;
  result.module = parseSourceString<ModuleOp>(source, &ctx);
  if (!result.module)
    return llvm::createStringError("cannot parse the module:\n" +
                                   diagnostics);
  // The options as typed values, never pasted into pipeline text.
  PipelineOptions options;
  std::string parseErrors;
  llvm::raw_string_ostream parseOs(parseErrors);
  if (failed(options.parseFromString(pipelineOptions, parseOs)))
    return llvm::createStringError("bad options '" + pipelineOptions +
                                   "': " + parseErrors);
  options.barePtrAbi = barePtrAbi;

  // The sketch is gone once lowered: record it from an annotated copy.
  PassManager annotate(&ctx);
  OwningOpRef<ModuleOp> copy = result.module->clone();
  annotate.addPass(createTensorOpAnnotateSketch(annotateSketchOptions(options)));
  // The epilogue the kernel really applies is part of its sketch.
  if (options.fuseEpilogues) {
    TensorOpFuseEpiloguesOptions fuse;
    fuse.target = options.target;
    annotate.addPass(createTensorOpFuseEpilogues(fuse));
  }
  if (failed(annotate.run(*copy)))
    return llvm::createStringError("choosing a sketch failed:\n" +
                                   diagnostics);
  // The first sketch: gen's NAME comes first in a module of entry points.
  copy->walk([&](Operation *op) {
    if (Attribute a = op->getAttr(kSketchAttrName); a && result.sketch.empty()) {
      llvm::raw_string_ostream os(result.sketch);
      os << a;
    }
  });

  PassManager pm(&ctx);
  std::string error;
  if (failed(buildTensorOpPipeline(pm, options, error)))
    return llvm::createStringError("bad options '" + pipelineOptions +
                                   "': " + error);
  if (failed(pm.run(*result.module)))
    return llvm::createStringError("the TensorOp pipeline failed:\n" +
                                   diagnostics);
  return result;
}

llvm::Expected<JitGemm>
mlir::tensorop::compileGemm(MLIRContext &ctx, llvm::StringRef source,
                            llvm::StringRef name,
                            llvm::StringRef pipelineOptions) {
  auto start = std::chrono::steady_clock::now();
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Inline asm is parsed by the native assembler when the JIT emits code.
    llvm::InitializeNativeTargetAsmParser();
    return true;
  }();
  (void)initialized;

  llvm::Expected<LoweredModule> lowered =
      lowerWithPipeline(ctx, source, pipelineOptions, /*barePtrAbi=*/true);
  if (!lowered)
    return lowered.takeError();
  JitGemm result;
  result.sketch = lowered->sketch;
  bool usesOpenMP = false;
  lowered->module->walk([&](Operation *op) {
    usesOpenMP |= isa<omp::OpenMPDialect>(op->getDialect());
  });
  if (usesOpenMP)
    if (llvm::Error e = loadOpenMPRuntime())
      return llvm::createStringError("the kernel is threaded (OpenMP): " +
                                     llvm::toString(std::move(e)));

  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(3, 0, nullptr);
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.enableGDBNotificationListener = false;
  // TENSOROP_PERF_JIT=1 makes JIT code visible to `perf record -k 1` +
  // `perf inject --jit` (profiling the generated kernels).
  options.enablePerfNotificationListener =
      std::getenv("TENSOROP_PERF_JIT") != nullptr;
  auto engine = ExecutionEngine::create(*lowered->module, options);
  if (!engine)
    return llvm::createStringError("JIT compilation failed: " +
                                   llvm::toString(engine.takeError()));
  llvm::Expected<void *> fn = (*engine)->lookup(name);
  if (!fn)
    return llvm::createStringError("JIT lookup of '" + name + "' failed: " +
                                   llvm::toString(fn.takeError()));
  result.fn = reinterpret_cast<GemmFn>(*fn);
  result.engine = std::move(*engine);
  result.source = source.str();
  result.compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - start)
                              .count();
  return result;
}
