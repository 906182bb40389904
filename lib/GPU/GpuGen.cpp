//===- GpuGen.cpp - tensorop gen for NVIDIA targets -----------------------===//

#include "tensorop/GPU/GpuGen.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/GPU/GpuAdvisor.h"
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

namespace {
std::string today() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

llvm::Error writeFile(llvm::StringRef path, llvm::StringRef text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError("cannot write " + path + ": " +
                                   ec.message());
  os << text;
  return llvm::Error::success();
}

std::string printOp(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

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
      // Where the sketch came from (a tuning database, the advisor).
      llvm::errs() << "  remark: " << diag << "\n";
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

std::string cTypeName(llvm::StringRef t) {
  if (t == "bf16")
    return "tensorop_bf16";
  if (t == "f16")
    return "tensorop_f16";
  return "float";
}

std::string header(const GpuGenRequest &r, llvm::StringRef name,
                   llvm::StringRef aType, llvm::StringRef cType,
                   llvm::StringRef sketch) {
  std::string guard = llvm::StringRef(name).upper() + "_H";
  std::string upper = llvm::StringRef(name).upper();
  return llvm::formatv(
             R"(/* Generated by tensorop gen ({0}) for target {1}.
 * Request: {2}
 * Sketch: {3}
 *
 * C = A * B on the GPU, row-major and contiguous, fp32 accumulation
 * ({4} inputs{5}, {6} output):
 *   A is {7} x {9} (M x K), B is {9} x {8} (K x N), C is {7} x {8} (M x N).
 * A, B and C are DEVICE pointers (cuMemAlloc / cudaMalloc / mgpuMemAlloc),
 * 16-byte aligned. C is overwritten. The call launches the kernel and waits
 * for it. Link {10}.o with libtensorop_cuda_runtime and the CUDA driver
 * (-lcuda); the cubin is embedded and loaded when the program starts.
 */
#ifndef {11}
#define {11}
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#ifndef TENSOROP_HALF_TYPES
#define TENSOROP_HALF_TYPES
typedef uint16_t tensorop_bf16; /* bfloat16 bits */
typedef uint16_t tensorop_f16;  /* IEEE binary16 bits */
#endif

#define {12}_M {7}
#define {12}_N {8}
#define {12}_K {9}

void {10}(const {13} *A, const {13} *B, {14} *C);

#ifdef __cplusplus
}
#endif
#endif
)",
             TENSOROP_VERSION, r.target, r.text, sketch, aType,
             r.dtype == "tf32" ? " rounded to tf32 by the tensor cores" : "",
             cType, r.m, r.n, r.k, name, guard, upper, cTypeName(aType),
             cTypeName(cType))
      .str();
}

/// ptxas -v of the PTX: registers, spills, and the warnings that mean a
/// slow kernel (wgmma serialized, setmaxnreg ignored).
Object ptxasReport(llvm::StringRef ptxPath, llvm::StringRef chip) {
  Object report{{"performed", false}};
  std::string toolkit = findCudaToolkit();
  if (toolkit.empty()) {
    report["reason"] = "no CUDA toolkit (ptxas) found";
    return report;
  }
  std::string ptxas = toolkit + "/bin/ptxas";
  llvm::SmallString<128> logPath, outPath;
  llvm::sys::fs::createTemporaryFile("tensorop-ptxas", "log", logPath);
  llvm::sys::fs::createTemporaryFile("tensorop-ptxas", "cubin", outPath);
  std::string arch = "-arch=" + chip.str();
  llvm::StringRef args[] = {ptxas, "-v", arch, ptxPath, "-o", outPath};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, logPath, logPath};
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 300);
  auto log = llvm::MemoryBuffer::getFile(logPath);
  std::string text = log ? (*log)->getBuffer().str() : "";
  llvm::sys::fs::remove(logPath);
  llvm::sys::fs::remove(outPath);
  report["performed"] = true;
  report["ptxas"] = ptxas;
  report["exit"] = rc;
  llvm::json::Array lines;
  bool serialized = false;
  for (llvm::StringRef line : llvm::split(text, '\n')) {
    line = line.trim();
    if (line.contains("Used") || line.contains("spill") ||
        line.contains("warning") || line.contains("error"))
      lines.push_back(line.str());
    serialized |= line.contains("C7510") || line.contains("C7511") ||
                  line.contains("C7515") || line.contains("C7508");
  }
  report["lines"] = std::move(lines);
  report["performance_warnings"] = serialized;
  return report;
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
  std::string source = gpuGemmModuleSource(
      name, p.m, p.n, p.k, p.aType, p.cType, p.precision, sketchText);
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
  module->walk([&](gpu::GPUFuncOp fn) {
    if (auto s = fn->getAttrOfType<StringAttr>("tensorop.launch"))
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
  if (llvm::Error e = writeFile(out.binaryPath, binaryObject(*module)))
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
  if (llvm::Error e = writeFile(
          out.launchPath,
          llvm::formatv("{0:2}\n", llvm::json::Value(std::move(launch))).str()))
    return std::move(e);
  return out;
}

int mlir::tensorop::runGpuGen(const GpuGenRequest &r, llvm::raw_ostream &out,
                              llvm::raw_ostream &err) {
  auto fail = [&](const llvm::Twine &msg) {
    err << "tensorop gen: " << msg << "\n";
    return 2;
  };
  if (r.dtype != "bf16" && r.dtype != "f16" && r.dtype != "tf32" &&
      r.dtype != "f32")
    return fail("NVIDIA targets take bf16, f16, tf32 or f32 GEMMs (got " +
                r.dtype + ")");
  std::string aType = r.dtype == "tf32" ? "f32" : r.dtype;
  // C has the input type (f32 for tf32/f32); other output types are for
  // modules given to tensorop-opt.
  std::string cType = r.cType;
  if (cType.empty())
    cType = r.dtype == "bf16" || r.dtype == "f16" ? r.dtype : "f32";
  if (cType != "f32" && cType != "bf16" && cType != "f16")
    return fail("output type must be f32, bf16 or f16 (got " + cType + ")");
  if ((r.dtype == "tf32" || r.dtype == "f32") && cType != "f32")
    return fail(r.dtype + " GEMMs produce f32 output");
  if (r.outDir.empty())
    return fail("-o DIR is required");
  llvm::Expected<GpuTarget> target = loadGpuTarget(r.target);
  if (!target)
    return fail(llvm::toString(target.takeError()));
  if (std::error_code ec = llvm::sys::fs::create_directories(r.outDir))
    return fail("cannot create " + r.outDir + ": " + ec.message());
  auto path = [&](llvm::StringRef file) {
    llvm::SmallString<256> p(r.outDir);
    llvm::sys::path::append(p, file);
    return std::string(p);
  };
  const std::string &name = r.name;
  out << "tensorop gen: op=gemm, shape=M=" << r.m << " N=" << r.n
      << " K=" << r.k << ", dtype=" << r.dtype << " -> " << cType
      << ", target=" << r.target << " kernel '" << name << "'\n";

  std::unique_ptr<MLIRContext> context = makeGpuCompilerContext();
  MLIRContext &ctx = *context;

  std::string source =
      gpuGemmModuleSource(name, r.m, r.n, r.k, aType, cType, r.dtype, r.sketch);
  if (llvm::Error e = writeFile(path(name + ".mlir"), source))
    return fail(llvm::toString(std::move(e)));
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  if (!module)
    return fail("cannot parse the generated module");

  GpuPipelineOptions options;
  options.target = r.target;
  options.advisor = r.advisor;
  options.db = r.db;
  options.barePtrAbi = true;
  options.kernelsOnly = true;
  if (llvm::Error e = runPipeline(ctx, *module, options))
    return fail(llvm::toString(std::move(e)));
  // What the emitter answered and the sketch, read off the gpu.func.
  std::string launchText, sketchText, kernelName;
  module->walk([&](gpu::GPUFuncOp fn) {
    if (auto s = fn->getAttrOfType<StringAttr>("tensorop.launch"))
      launchText = s.getValue().str();
    if (Attribute s = fn->getAttr("tensorop.gpu_sketch")) {
      llvm::raw_string_ostream os(sketchText);
      os << s;
    }
    kernelName = fn.getName().str();
  });
  if (launchText.empty())
    return fail("the pipeline produced no kernel");
  out << "  sketch: " << sketchText << "\n";

  options.kernelsOnly = false;
  options.loweringOnly = true;
  options.stopBeforeBinary = true;
  if (llvm::Error e = runPipeline(ctx, *module, options))
    return fail(llvm::toString(std::move(e)));
  // PTX from a copy; the cubin (ptxas through gpu-module-to-binary) in place.
  std::string chip = target->chip;
  std::string toolkit = findCudaToolkit();
  {
    OwningOpRef<ModuleOp> copy = module->clone();
    PassManager pm(&ctx);
    std::string err2;
    llvm::raw_string_ostream os(err2);
    if (failed(parsePassPipeline("gpu-module-to-binary{format=isa}", pm, os)) ||
        failed(pm.run(*copy)))
      return fail("cannot produce PTX: " + err2);
    if (llvm::Error e = writeFile(path(name + ".ptx"), binaryObject(*copy)))
      return fail(llvm::toString(std::move(e)));
  }
  bool haveCubin = !toolkit.empty();
  // sm_80 code ships as a fatbin (cubin + PTX) so that sm_90 GPUs JIT it.
  bool fatbin = haveCubin && !llvm::StringRef(chip).ends_with("a");
  auto toBinary = [&](ModuleOp m, llvm::StringRef format) -> llvm::Error {
    PassManager pm(&ctx);
    std::string err2;
    llvm::raw_string_ostream os(err2);
    std::string text = "gpu-module-to-binary{format=" + format.str() +
                       (haveCubin ? " toolkit=" + toolkit : "") + "}";
    std::string diagnostics;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
      llvm::raw_string_ostream d(diagnostics);
      d << diag << "\n";
      return success();
    });
    if (failed(parsePassPipeline(text, pm, os)) || failed(pm.run(m)))
      return llvm::createStringError("ptxas rejected the kernel: " + err2 +
                                     diagnostics);
    return llvm::Error::success();
  };
  if (fatbin) {
    OwningOpRef<ModuleOp> copy = module->clone();
    if (llvm::Error e = toBinary(*copy, "bin"))
      return fail(llvm::toString(std::move(e)));
    if (llvm::Error e = writeFile(path(name + ".cubin"), binaryObject(*copy)))
      return fail(llvm::toString(std::move(e)));
  }
  if (llvm::Error e = toBinary(*module, !haveCubin ? "isa"
                                        : fatbin   ? "fatbin"
                                                   : "bin"))
    return fail(llvm::toString(std::move(e)));
  if (haveCubin)
    if (llvm::Error e = writeFile(path(name + (fatbin ? ".fatbin" : ".cubin")),
                                  binaryObject(*module)))
      return fail(llvm::toString(std::move(e)));
  if (llvm::Error e = writeFile(path(name + ".lowered.mlir"), printOp(*module)))
    return fail(llvm::toString(std::move(e)));
  if (llvm::Error e =
          emitHostObject(*module, path(name + ".o"), path(name + ".ll")))
    return fail("cannot emit the host object: " + llvm::toString(std::move(e)));
  if (llvm::Error e = writeFile(
          path(name + ".h"), header(r, name, r.dtype == "tf32" ? "f32" : aType,
                                    cType, sketchText)))
    return fail(llvm::toString(std::move(e)));

  // The runner's launch description: the emitter's answer + the cubin.
  llvm::Expected<llvm::json::Value> launchDoc = llvm::json::parse(launchText);
  if (!launchDoc || !launchDoc->getAsObject())
    return fail("bad launch description from the pipeline");
  Object launch = std::move(*launchDoc->getAsObject());
  launch["cubin"] = !haveCubin ? name + ".ptx"
                    : fatbin   ? name + ".fatbin"
                               : name + ".cubin";
  launch["kernel_symbol"] = kernelName;
  launch["request"] = r.text;
  launch["target"] = r.target;
  launch["sketch"] = sketchText;
  if (llvm::Error e = writeFile(
          path(name + ".launch.json"),
          llvm::formatv("{0:2}\n", llvm::json::Value(Object(launch))).str()))
    return fail(llvm::toString(std::move(e)));
  Object ptxas = ptxasReport(path(name + ".ptx"), chip);

  llvm::json::Array files;
  for (llvm::StringRef f : {".mlir", ".lowered.mlir", ".ptx", ".cubin",
                            ".fatbin", ".o", ".ll", ".h", ".launch.json"})
    if ((haveCubin || f != ".cubin") && (fatbin || f != ".fatbin"))
      files.push_back(name + f.str());
  files.push_back("report.json");
  files.push_back("report.md");
  std::string runCmd = "tensorop-gpu-runner " + path(name + ".launch.json");
  Object report{
      {"tool", "tensorop gen"},
      {"version", TENSOROP_VERSION},
      {"date", today()},
      {"request", r.text},
      {"understood", Object{{"op", "gemm"},
                            {"m", r.m},
                            {"n", r.n},
                            {"k", r.k},
                            {"dtype", r.dtype},
                            {"c_dtype", cType},
                            {"target", r.target}}},
      {"target", r.target},
      {"hints", target->hints.path},
      {"kernel", name},
      {"gpu_kernel", kernelName},
      {"abi", "void " + name + "(const " + cTypeName(aType) + " *A, const " +
                  cTypeName(aType) + " *B, " + cTypeName(cType) +
                  " *C); device pointers, row-major, C = A*B overwritten"},
      {"advisor", r.advisor},
      {"sketch", sketchText},
      {"sketch_source", r.sketch.empty() ? r.advisor : "request"},
      {"launch", std::move(launch)},
      {"ptxas", std::move(ptxas)},
      {"llvm", LLVM_VERSION_STRING},
      {"verification",
       Object{{"performed", false},
              {"reason", "no GPU on the build machine; tensorop-gpu-runner "
                         "verifies (NaN-filled output, fp64 reference, "
                         "small-integer exact test, re-check after timing) and "
                         "times against cuBLAS on the GPU machine"},
              {"command", runCmd}}},
      {"timing", Object{{"performed", false}, {"command", runCmd}}},
      {"files", std::move(files)}};
  std::string reportText =
      llvm::formatv("{0:2}\n", llvm::json::Value(std::move(report))).str();
  if (llvm::Error e = writeFile(path("report.json"), reportText))
    return fail(llvm::toString(std::move(e)));
  std::string md = llvm::formatv(
      "# {0}\n\nRequest: `{1}`\n\nUnderstood: GEMM M={2} N={3} K={4}, {5} "
      "inputs, {6} output, fp32 accumulation, target `{7}` ({8}); generated "
      "by tensorop {9} with LLVM {10} on {11}.\n\n## Sketch (chosen by the "
      "`{12}` advisor)\n\n```\n{13}\n```\n\n## Files\n\n`{0}.ptx` (the PTX "
      "LLVM's NVPTX back end made of the gpu.func with the emitted inline "
      "PTX), `{0}.cubin` (ptxas), `{0}.o` (host code, cubin embedded; link "
      "with libtensorop_cuda_runtime and -lcuda), `{0}.h`, "
      "`{0}.launch.json`.\n\n## Verification and speed\n\nNot run here: "
      "this machine has no GPU. On the GPU machine:\n\n```\n{14}\n```\n\n"
      "verifies the cubin (NaN-filled output, fp64 reference of the same "
      "inputs, K-scaled bound, small-integer exact test, re-verified after "
      "timing) and times it alternately with cuBLAS at the same precision.\n",
      name, r.text, r.m, r.n, r.k, r.dtype, cType, r.target, chip,
      TENSOROP_VERSION, LLVM_VERSION_STRING, today(), r.advisor, sketchText,
      runCmd);
  if (llvm::Error e = writeFile(path("report.md"), md))
    return fail(llvm::toString(std::move(e)));
  out << "  kernel " << kernelName << ": " << chip << ", "
      << (haveCubin ? "cubin by ptxas" : "PTX only (no ptxas found)") << "\n";
  out << "  not verified here (no GPU): run " << runCmd << "\n";
  out << "  wrote " << r.outDir << "/{" << name << ".mlir, " << name
      << ".lowered.mlir, " << name << ".ptx, "
      << (haveCubin ? name + ".cubin, " : std::string())
      << (fatbin ? name + ".fatbin, " : std::string()) << name << ".o, " << name
      << ".ll, " << name << ".h, " << name
      << ".launch.json, report.json, report.md}\n";
  return 0;
}
