//===- NvidiaBackend.cpp - gen for NVIDIA targets (sm80, sm90) ------------===//
//
// `tensorop gen "4096x4096x4096 bf16 GEMM for nvidia-sm90" -o DIR` writes
// DIR/<name>.mlir (the input), <name>.lowered.mlir (LLVM dialect with the
// gpu.binary), <name>.ptx, <name>.cubin, <name>.o (host code with the cubin
// embedded, calling libtensorop_cuda_runtime), <name>.h, <name>.launch.json
// (the description tensorop-gpu-runner loads) and report.json / report.md.
// The build machine has no GPU: verification and timing are done by
// tensorop-gpu-runner on the GPU machine, and the report says so.
//
//===----------------------------------------------------------------------===//

#include "HeaderPreamble.h"
#include "tensorop/Driver/Backend.h"
#include "tensorop/Driver/EpilogueGemm.h"
#include "tensorop/Driver/GpuBatchScript.h"
#include "tensorop/Driver/OutputDir.h"
#include "tensorop/Driver/SketchOrigin.h"
#include "tensorop/Driver/TuneBackend.h"
#include "tensorop/Support/TextFiles.h"

#include "tensorop/GPU/GpuAdvisor.h"
#include "tensorop/GPU/GpuGen.h"
#include "tensorop/GPU/Passes.h"
#include "tensorop/Targets/TargetHints.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace mlir::tensorop;
using namespace ::tensorop;
using llvm::json::Object;

namespace {
std::string printOp(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
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

/// The synchronous entry point: the Operator's, with C's element type for
/// a fused epilogue's bias and R (the NVIDIA kernels read them so).
std::string syncEntryPoint(const Operator &op, llvm::StringRef name) {
  if (op.kind == OpKind::Matmul && !op.epilogue.empty())
    return epilogueEntryPoint(name, op.epilogue,
                              Operator::cTypeName(op.inType()),
                              Operator::cTypeName(op.outType()));
  return op.entryPoint(name);
}

/// The asynchronous twin of the entry point: the same operands and a
/// CUstream / cudaStream_t, 0 or the CUresult back.
std::string asyncEntryPoint(const Operator &op, llvm::StringRef name) {
  std::string in = Operator::cTypeName(op.inType()),
              out = Operator::cTypeName(op.outType());
  if (op.kind == OpKind::Matmul && !op.epilogue.empty()) {
    std::string sync = syncEntryPoint(op, name);
    // void NAME(ARGS); -> int NAME_async(ARGS, void *stream);
    llvm::StringRef args = llvm::StringRef(sync).split('(').second;
    args = args.rsplit(')').first;
    return ("int " + name + "_async(" + args + ", void *stream);").str();
  }
  if (op.kind == OpKind::Conv2D)
    return llvm::formatv("int {0}_async(const {1} *input, const {1} *filter, "
                         "{2} *output, void *stream);",
                         name, in, out)
        .str();
  return llvm::formatv("int {0}_async(const {1} *A, const {1} *B, {2} *C, "
                       "void *stream);",
                       name, in, out)
      .str();
}

class NvidiaBackend : public Backend {
public:
  llvm::StringRef family() const override { return "nvidia"; }
  Placement placement() const override { return Placement::Device; }
  std::unique_ptr<MLIRContext> makeContext() const override {
    return makeGpuCompilerContext();
  }
  llvm::Error prepare(const GenJob &job) override;
  std::string resolvedTarget() const override { return target.hints.name; }
  std::string header(const GenJob &job,
                     llvm::StringRef sketch) const override;
  std::string abiSummary(const Operator &op,
                         llvm::StringRef name) const override {
    if (op.kind == OpKind::Conv2D)
      return op.entryPoint(name) + " " + asyncEntryPoint(op, name) +
             " device pointers, NHWC input, HWCF filter, NHWF output "
             "overwritten; _async launches on the stream and returns 0 or "
             "the CUresult";
    if (!op.epilogue.empty())
      return syncEntryPoint(op, name) + " " + asyncEntryPoint(op, name) +
             " device pointers, row-major, C = steps(A*B) overwritten "
             "(epilogue " +
             llvm::join(op.epilogue, ", ") +
             "; bias and R of C's type); _async launches on the stream and "
             "returns 0 or the CUresult";
    return op.entryPoint(name) + " " + asyncEntryPoint(op, name) +
           " device pointers, row-major, C = A*B overwritten; _async "
           "launches on the stream and returns 0 or the CUresult";
  }
  int generate(const GenJob &job) override;
  int tune(const TuneOptions &options) override;
  int bench(const BenchOptions &options) override;

private:
  std::string convHeader(const GenJob &job, llvm::StringRef sketch) const;
  GpuTarget target;
};
} // namespace

/// The common tail of both headers: the entry points' contract.
static const char *kEntryContract = R"( * {0}_async launches the kernel on `stream` (a CUstream or cudaStream_t;
 * NULL is the legacy default stream) and returns without waiting: 0, or the
 * CUresult of the first CUDA call that failed (the message also goes to
 * stderr and to tensoropGpuTakeLastError()). Errors of the kernel itself
 * show on the stream (cudaStreamSynchronize / cuStreamSynchronize).
 * {0} launches on a stream of its own and waits for the kernel.
 *
 * Context: the calls run in the CUDA context current on the calling thread
 * (the CUDA runtime's primary context once the program used the runtime,
 * e.g. after cudaSetDevice); on a thread with none current, in the primary
 * context of device 0. The embedded cubin is loaded once, at the first call
 * (thread-safe), into that call's context; every later call must run with
 * the same context current (or none). Nothing is printed at exit when the
 * CUDA runtime destroyed the context first.
 *
 * Link {0}.o with libtensorop_cuda_runtime and the CUDA driver (-lcuda).
 */
)";

std::string NvidiaBackend::convHeader(const GenJob &job,
                                      llvm::StringRef sketch) const {
  const OpRequest &r = job.request;
  const ::tensorop::Conv2DShape &c = job.op.conv;
  llvm::StringRef name = job.name;
  std::string upper = llvm::StringRef(name).upper();
  std::string text = llvm::formatv(
      R"(/* Generated by tensorop gen ({0}) for target {1}.
 * Request: {2}
 * Sketch: {3}
 *
 * output = conv2d(input, filter) on the GPU as an implicit GEMM on tensor
 * cores, fp32 accumulation ({4} inputs, {5} output), contiguous:
 *   input  N x H x W x C   = {6} x {7} x {8} x {9} (NHWC)
 *   filter R x S x C x F   = {10} x {11} x {9} x {12} (HWCF)
 *   output N x OH x OW x F = {6} x {13} x {14} x {12} (NHWF)
 *   stride {15}x{16}, dilation {17}x{18}, zero padding top {19} left {20}
 *   bottom {21} right {22} (not stored: read as zeros).
 * input, filter and output are DEVICE pointers (cuMemAlloc / cudaMalloc /
 * mgpuMemAlloc), 16-byte aligned. The output is overwritten.
 *
)",
      TENSOROP_VERSION, r.target, r.text, sketch, job.op.inType(),
      job.op.outType(), c.n, c.h, c.w, c.c, c.r, c.s, c.f, c.outH(), c.outW(),
      c.strideH, c.strideW, c.dilationH, c.dilationW, c.padTop, c.padLeft,
      c.padBottom, c.padRight);
  text += llvm::formatv(kEntryContract, name).str();
  text += llvm::formatv(R"(#ifndef {0}_H
#define {0}_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

{11}
#define {0}_N {1}
#define {0}_IH {2}
#define {0}_IW {3}
#define {0}_C {4}
#define {0}_F {5}
#define {0}_R {6}
#define {0}_S {7}
#define {0}_OH {8}
#define {0}_OW {9}

{10}

#ifdef __cplusplus
}
#endif
#endif
)",
                        upper, c.n, c.h, c.w, c.c, c.f, c.r, c.s, c.outH(),
                        c.outW(),
                        job.op.entryPoint(name) + "\n" +
                            asyncEntryPoint(job.op, name),
                        halfTypesPreamble())
              .str();
  return text;
}

std::string NvidiaBackend::header(const GenJob &job,
                                  llvm::StringRef sketch) const {
  if (job.op.kind == OpKind::Conv2D)
    return convHeader(job, sketch);
  const OpRequest &r = job.request;
  llvm::StringRef name = job.name;
  std::string aType = job.op.inType(), cType = job.op.outType();
  std::string guard = llvm::StringRef(name).upper() + "_H";
  std::string upper = llvm::StringRef(name).upper();
  // A fused epilogue: applied to the fp32 accumulators, then C is rounded
  // to its type once; the bias and R have C's type.
  std::string epilogue;
  if (!job.op.epilogue.empty())
    epilogue = epilogueHeaderComment(job.op.epilogue,
                                     "values of C's type (" + cType + ")") +
               "\n * The steps run in fp32 on the accumulators (tanh and erf "
               "by the\n * CPU kernels' rational approximations, "
               "docs/Epilogues.md); C is\n * rounded to " +
               cType + " once, after the last step.";
  return llvm::formatv(
             R"(/* Generated by tensorop gen ({0}) for target {1}.
 * Request: {2}
 * Sketch: {3}
 *
 * C = A * B on the GPU, row-major and contiguous, fp32 accumulation
 * ({4} inputs{5}, {6} output):
 *   A is {7} x {9} (M x K), B is {9} x {8} (K x N), C is {7} x {8} (M x N).{14}
 * {15} are DEVICE pointers (cuMemAlloc / cudaMalloc / mgpuMemAlloc),
 * 16-byte aligned. C is overwritten.
 *
 * {10}_async launches the kernel on `stream` (a CUstream or cudaStream_t;
 * NULL is the legacy default stream) and returns without waiting: 0, or the
 * CUresult of the first CUDA call that failed (the message also goes to
 * stderr and to tensoropGpuTakeLastError()). Errors of the kernel itself
 * show on the stream (cudaStreamSynchronize / cuStreamSynchronize).
 * {10} launches on a stream of its own and waits for the kernel.
 *
 * Context: the calls run in the CUDA context current on the calling thread
 * (the CUDA runtime's primary context once the program used the runtime,
 * e.g. after cudaSetDevice); on a thread with none current, in the primary
 * context of device 0. The embedded cubin is loaded once, at the first call
 * (thread-safe), into that call's context; every later call must run with
 * the same context current (or none). Nothing is printed at exit when the
 * CUDA runtime destroyed the context first.
 *
 * Link {10}.o with libtensorop_cuda_runtime and the CUDA driver (-lcuda).
 */
#ifndef {11}
#define {11}
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

{16}
#define {12}_M {7}
#define {12}_N {8}
#define {12}_K {9}

{13}

#ifdef __cplusplus
}
#endif
#endif
)",
             TENSOROP_VERSION, r.target, r.text, sketch, aType,
             r.dtype == "tf32" ? " rounded to tf32 by the tensor cores" : "",
             cType, r.m, r.n, r.k, name, guard, upper,
             syncEntryPoint(job.op, name) + "\n" +
                 asyncEntryPoint(job.op, name),
             epilogue,
             !epilogueHasBias(job.op.epilogue)       ? "A, B and C"
             : epilogueHasResidual(job.op.epilogue) ? "A, B, bias, R and C"
                                                      : "A, B, bias and C",
             halfTypesPreamble())
      .str();
}

llvm::Error NvidiaBackend::prepare(const GenJob &job) {
  const OpRequest &r = job.request;
  auto fail = [](const llvm::Twine &msg) -> llvm::Error {
    return llvm::createStringError(msg);
  };
  // Said before anything is built (it came back as "bad pipeline: ...").
  if (llvm::Error e = mlir::tensorop::checkGpuAdvisorName(job.options.advisor))
    return e;
  if (job.op.kind == OpKind::Conv2D && r.dtype != "bf16" && r.dtype != "f16" &&
      r.dtype != "tf32")
    return fail("understood " + r.describe() + "; convolutions on NVIDIA "
                "targets take bf16, f16 or tf32 inputs (got " + r.dtype +
                (r.dtype == "f32" ? "; ask for tf32 to run fp32 data on the "
                                    "tensor cores"
                                  : "") +
                ")");
  if (job.op.kind != OpKind::Matmul && job.op.kind != OpKind::Conv2D)
    return fail("understood " + r.describe() +
                "; NVIDIA targets generate GEMMs and convolutions only");
  if (!job.op.epilogue.empty() && job.op.kind == OpKind::Conv2D)
    return fail("understood " + r.describe() + "; convolutions on NVIDIA "
                "targets take no fused epilogue (GEMMs do)");
  if (!job.op.epilogue.empty() && r.dtype != "bf16" && r.dtype != "f16")
    return fail("understood " + r.describe() + "; fused epilogues on NVIDIA "
                "targets run in the bf16 and f16 tensor-core kernels (got " +
                r.dtype + ": the fp32 kernel has no epilogue, and gen builds "
                "tf32 GEMMs without one)");
  // A batch with a fused epilogue: the words the request used, and where
  // it is built (gen's CPU NAME_batched; a module's batch matmul with its
  // consumers fuses per slice on sm90: test/GPU/batch-matmul-run.test).
  if (r.batched && !job.op.epilogue.empty()) {
    std::string steps;
    for (const std::string &s : job.op.epilogue)
      steps += (steps.empty() ? "" : ", ") + s;
    return fail("understood " + r.describe() + "; a batch of GEMMs with a "
                "fused epilogue ('batch" +
                (r.batchCount > 0 ? " " + std::to_string(r.batchCount)
                                  : std::string()) +
                "' with [" + steps + "]) is generated "
                "for CPU targets only (NAME_batched(A, B, bias, R, C, batch, "
                "strides...)); NVIDIA kernels from gen run one GEMM per call "
                "(in a module given to tensorop-opt, a linalg.batch_matmul "
                "followed by its elementwise consumers fuses per slice)");
  }
  if (r.transposeA || r.transposeB || r.batched)
    return fail("understood " + r.describe() + "; transposed operands and "
                "batched GEMMs are generated for CPU targets only (NVIDIA "
                "kernels take row-major A and B, one GEMM per call)");
  if (r.dtype != "bf16" && r.dtype != "f16" && r.dtype != "tf32" &&
      r.dtype != "f32")
    return fail("NVIDIA targets take bf16, f16, tf32 or f32 GEMMs (got " +
                r.dtype + ")");
  // C has the input type (f32 for tf32/f32) unless the request names
  // another; other output types are for modules given to tensorop-opt.
  std::string cType = job.op.outType();
  if (cType != "f32" && cType != "bf16" && cType != "f16")
    return fail("output type must be f32, bf16 or f16 (got " + cType + ")");
  if ((r.dtype == "tf32" || r.dtype == "f32") && cType != "f32")
    return fail(r.dtype + " GEMMs produce f32 output");
  llvm::Expected<GpuTarget> loaded = loadGpuTarget(r.target);
  if (!loaded)
    return loaded.takeError();
  target = *loaded;
  return llvm::Error::success();
}

int NvidiaBackend::generate(const GenJob &job) {
  const GenOptions &o = job.options;
  const OpRequest &r = job.request;
  const std::string &name = job.name;
  const std::string cType = job.op.outType();
  llvm::raw_ostream &out = llvm::outs();
  auto fail = [](const llvm::Twine &msg) { return genFailure(msg); };
  // Files go to a staging directory and into DIR once all are written.
  llvm::Expected<std::unique_ptr<StagedOutput>> staged =
      StagedOutput::create(o.outDir);
  if (!staged)
    return fail(llvm::toString(staged.takeError()));
  auto path = [&](llvm::StringRef file) { return (*staged)->path(file); };
  const bool isConv = job.op.kind == OpKind::Conv2D;
  const ::tensorop::Conv2DShape &cs = job.op.conv;
  if (isConv)
    out << "tensorop gen: " << r.describe() << " -> " << cType << " kernel '"
        << name << "'\n";
  else
    out << "tensorop gen: op=gemm, shape=M=" << r.m << " N=" << r.n
        << " K=" << r.k << ", dtype=" << r.dtype << " -> " << cType
        << (job.op.epilogue.empty()
                ? std::string()
                : ", epilogue=" + llvm::join(job.op.epilogue, "+"))
        << ", target=" << r.target << " kernel '" << name << "'\n";

  std::unique_ptr<MLIRContext> context = makeGpuCompilerContext();
  MLIRContext &ctx = *context;

  std::string source =
      job.op.moduleSource(name, placement());
  if (llvm::Error e = writeTextFile(path(name + ".mlir"), source))
    return fail(llvm::toString(std::move(e)));
  // Named after the file as it will be in DIR, so that the pipeline's
  // remarks and errors point at the op in it.
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      source, &ctx, (*staged)->finalPath(name + ".mlir"));
  if (!module)
    return fail("cannot parse the generated module");

  GpuPipelineOptions options;
  options.target = r.target;
  options.advisor = o.advisor;
  options.db = o.db;
  options.barePtrAbi = true;
  options.kernelsOnly = true;
  if (llvm::Error e = runGpuPipeline(ctx, *module, options))
    return fail(llvm::toString(std::move(e)));
  // What the emitter answered and the sketch, read off the gpu.func.
  std::string launchText, sketchText, kernelName;
  // (The GEMM's gpu.func: pad kernels beside it carry no launch of their
  // own, their launches are in its "before" list.)
  module->walk([&](gpu::GPUFuncOp fn) {
    auto s = fn->getAttrOfType<StringAttr>("tensorop.launch");
    if (!s)
      return;
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
  if (llvm::Error e = runGpuPipeline(ctx, *module, options))
    return fail(llvm::toString(std::move(e)));
  // PTX from a copy; the cubin (ptxas through gpu-module-to-binary) in place.
  std::string chip = target.chip;
  std::string toolkit = findCudaToolkit();
  {
    OwningOpRef<ModuleOp> copy = module->clone();
    PassManager pm(&ctx);
    std::string err2;
    llvm::raw_string_ostream os(err2);
    if (failed(parsePassPipeline("gpu-module-to-binary{format=isa}", pm, os)) ||
        failed(pm.run(*copy)))
      return fail("cannot produce PTX: " + err2);
    if (llvm::Error e = writeTextFile(path(name + ".ptx"), gpuBinaryObject(*copy)))
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
    if (llvm::Error e = writeTextFile(path(name + ".cubin"), gpuBinaryObject(*copy)))
      return fail(llvm::toString(std::move(e)));
  }
  if (llvm::Error e = toBinary(*module, !haveCubin ? "isa"
                                        : fatbin   ? "fatbin"
                                                   : "bin"))
    return fail(llvm::toString(std::move(e)));
  if (haveCubin)
    if (llvm::Error e = writeTextFile(path(name + (fatbin ? ".fatbin" : ".cubin")),
                                  gpuBinaryObject(*module)))
      return fail(llvm::toString(std::move(e)));
  if (llvm::Error e = addAsyncEntryPoint(*module, name))
    return fail(llvm::toString(std::move(e)));
  if (llvm::Error e = writeTextFile(path(name + ".lowered.mlir"), printOp(*module)))
    return fail(llvm::toString(std::move(e)));
  if (llvm::Error e =
          emitGpuHostObject(*module, path(name + ".o"), path(name + ".ll")))
    return fail("cannot emit the host object: " + llvm::toString(std::move(e)));
  if (llvm::Error e = writeTextFile(
          path(name + ".h"), header(job, sketchText)))
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
  if (llvm::Error e = writeTextFile(
          path(name + ".launch.json"),
          llvm::formatv("{0:2}\n", llvm::json::Value(Object(launch))).str()))
    return fail(llvm::toString(std::move(e)));
  Object ptxas = ptxasReport(path(name + ".ptx"), chip);

  std::vector<std::string> fileNames;
  for (llvm::StringRef f : {".mlir", ".lowered.mlir", ".ptx", ".cubin",
                            ".fatbin", ".o", ".ll", ".h", ".launch.json"})
    if ((haveCubin || f != ".cubin") && (fatbin || f != ".fatbin"))
      fileNames.push_back(name + f.str());
  fileNames.push_back("report.json");
  fileNames.push_back("report.md");
  llvm::json::Array files;
  for (const std::string &f : fileNames)
    files.push_back(f);
  // The runner takes GEMM and convolution launch descriptions alike.
  std::string runCmd =
      "tensorop-gpu-runner " + (*staged)->finalPath(name + ".launch.json");
  Object report{
      {"tool", "tensorop gen"},
      {"version", TENSOROP_VERSION},
      {"date", reportDate()},
      {"request", r.text},
      {"understood",
       isConv ? Object{{"op", "conv2d"},
                       {"n", cs.n},
                       {"h", cs.h},
                       {"w", cs.w},
                       {"c", cs.c},
                       {"f", cs.f},
                       {"r", cs.r},
                       {"s", cs.s},
                       {"stride", llvm::json::Array{cs.strideH, cs.strideW}},
                       {"dilation",
                        llvm::json::Array{cs.dilationH, cs.dilationW}},
                       {"padding", llvm::json::Array{cs.padTop, cs.padLeft,
                                                     cs.padBottom,
                                                     cs.padRight}},
                       {"out_h", cs.outH()},
                       {"out_w", cs.outW()},
                       {"implicit_gemm", Object{{"m", cs.n * cs.outH() *
                                                          cs.outW()},
                                                {"n", cs.f},
                                                {"k", cs.contractionLength()}}},
                       {"dtype", r.dtype},
                       {"c_dtype", cType},
                       {"target", r.target}}
              : Object{{"op", "gemm"},
                       {"m", r.m},
                       {"n", r.n},
                       {"k", r.k},
                       {"dtype", r.dtype},
                       {"c_dtype", cType},
                       {"target", r.target}}},
      {"target", r.target},
      {"hints", target.hints.path},
      {"kernel", name},
      {"gpu_kernel", kernelName},
      {"abi", abiSummary(job.op, name)},
      {"advisor", o.advisor},
      {"sketch", sketchText},
      {"sketch_source", sketchSourceField(sketchText, o.advisor, o.db)},
      {"launch", std::move(launch)},
      {"ptxas", std::move(ptxas)},
      {"llvm", LLVM_VERSION_STRING},
      {"verification",
       Object{{"performed", false},
              {"reason",
               isConv ? "no GPU on the build machine; tensorop-gpu-runner "
                        "verifies (NaN-filled output, fp64 reference, "
                        "R*S*C-scaled bound, small-integer exact test, "
                        "re-check after timing) and times against cuDNN's "
                        "legacy API on the GPU machine"
                      : "no GPU on the build machine; tensorop-gpu-runner "
                        "verifies (NaN-filled output, fp64 reference, "
                        "small-integer exact test, re-check after timing) and "
                        "times against cuBLAS on the GPU machine"},
              {"command", runCmd}}},
      {"timing", Object{{"performed", false}, {"command", runCmd}}},
      {"files", std::move(files)}};
  if (!job.op.epilogue.empty()) {
    llvm::json::Array steps;
    for (const std::string &s : job.op.epilogue)
      steps.push_back(s);
    report.getObject("understood")->try_emplace("epilogue", std::move(steps));
  }
  std::string reportText =
      llvm::formatv("{0:2}\n", llvm::json::Value(std::move(report))).str();
  if (llvm::Error e = writeTextFile(path("report.json"), reportText))
    return fail(llvm::toString(std::move(e)));
  std::string understoodText =
      isConv ? llvm::formatv("convolution {0}, as the implicit GEMM M={1} "
                             "N={2} K={3}",
                             r.describe(), cs.n * cs.outH() * cs.outW(), cs.f,
                             cs.contractionLength())
                   .str()
             : llvm::formatv("GEMM M={0} N={1} K={2}", r.m, r.n, r.k).str();
  std::string md = llvm::formatv(
      "# {0}\n\nRequest: `{1}`\n\nUnderstood: {2}{3}{4}, {5} "
      "inputs, {6} output, fp32 accumulation, target `{7}` ({8}); generated "
      "by tensorop {9} with LLVM {10} on {11}.\n\n## {12}\n\n```\n{13}\n```\n\n## Files\n\n`{0}.ptx` (the PTX "
      "LLVM's NVPTX back end made of the gpu.func with the emitted inline "
      "PTX), `{0}.cubin` (ptxas), `{0}.o` (host code, cubin embedded; link "
      "with libtensorop_cuda_runtime and -lcuda), `{0}.h`, "
      "`{0}.launch.json`.\n\n## Verification and speed\n\nNot run here: "
      "this machine has no GPU. On the GPU machine:\n\n```\n{14}\n```\n\n"
      "verifies the cubin (NaN-filled output, fp64 reference of the same "
      "inputs, K-scaled bound, small-integer exact test, re-verified after "
      "timing) and times it alternately with cuBLAS at the same precision.\n",
      name, r.text, understoodText, "", "", r.dtype, cType, r.target, chip,
      TENSOROP_VERSION, LLVM_VERSION_STRING, reportDate(),
      sketchHeading(sketchText, o.advisor, o.db), sketchText,
      runCmd);
  if (isConv)
    md = llvm::StringRef(md).rsplit("and times it alternately").first.str() +
         "and times it alternately with cuDNN (PyTorch's conv2d, "
         "cudnn.benchmark) at the same precision.\n";
  if (llvm::Error e = writeTextFile(path("report.md"), md))
    return fail(llvm::toString(std::move(e)));
  if (llvm::Error e = (*staged)->commit(fileNames))
    return fail(llvm::toString(std::move(e)));
  out << "  kernel " << kernelName << ": " << chip << ", "
      << (haveCubin ? "cubin by ptxas" : "PTX only (no ptxas found)") << "\n";
  out << "  not verified here (no GPU): run " << runCmd << "\n";
  out << "  wrote " << o.outDir << "/{" << name << ".mlir, " << name
      << ".lowered.mlir, " << name << ".ptx, "
      << (haveCubin ? name + ".cubin, " : std::string())
      << (fatbin ? name + ".fatbin, " : std::string()) << name << ".o, " << name
      << ".ll, " << name << ".h, " << name
      << ".launch.json, report.json, report.md}\n";
  return 0;
}

int NvidiaBackend::tune(const TuneOptions &options) {
  TuneOptions o = options;
  o.batchSize = std::max(1u, o.batchSize);
  o.llmEvery = std::max(1u, o.llmEvery);
  if (o.runner.empty()) {
    // The runner beside this tool, else on PATH; a batch needs none here.
    llvm::SmallString<256> beside(llvm::sys::path::parent_path(
        llvm::sys::fs::getMainExecutable(nullptr, nullptr)));
    llvm::sys::path::append(beside, "tensorop-gpu-runner");
    if (llvm::sys::fs::can_execute(beside))
      o.runner = std::string(beside);
    else if (llvm::ErrorOr<std::string> onPath =
                 llvm::sys::findProgramByName("tensorop-gpu-runner"))
      o.runner = *onPath;
    else if (o.batchDir.empty()) {
      llvm::errs() << "tensorop tune: no tensorop-gpu-runner beside this "
                      "tool or on PATH (give --gpu-runner=PATH, or use "
                      "--gpu-batch=DIR to measure on another machine)\n";
      return 2;
    }
  }
  if (llvm::Error e = checkGpuList(o.gpus.empty() ? "all" : o.gpus)) {
    llvm::errs() << "tensorop tune: " << llvm::toString(std::move(e)) << "\n";
    return 2;
  }
  bool severalHere = o.batchDir.empty() &&
                     (o.gpus == "all" || parseGpuList(o.gpus).size() > 1);
  if (!severalHere) {
    // One GPU here: the runner sees only that one.
    if (o.batchDir.empty() && !o.gpus.empty())
      ::setenv("CUDA_VISIBLE_DEVICES", o.gpus.c_str(), 1);
    return runTuneLoop(o, *createNvidiaTuneBackend());
  }
  return tuneOnSeveralGpus(o);
}

int NvidiaBackend::bench(const BenchOptions &options) {
  // `tensorop bench` times kernels in its own process against OpenBLAS; a
  // GPU kernel is timed on the GPU machine against cuBLAS, by the runner.
  if (!llvm::is_contained(mlir::tensorop::supportedGpuTargets(),
                          options.target)) {
    llvm::errs() << "tensorop bench: unknown target '" << options.target
                 << "' (NVIDIA targets: "
                 << llvm::join(mlir::tensorop::supportedGpuTargets(), ", ")
                 << ")\n";
    return 2;
  }
  llvm::errs()
      << "tensorop bench: --target=" << options.target
      << ": NVIDIA kernels are not benchmarked by `tensorop bench` (it times "
         "CPU kernels against OpenBLAS in this process). Benchmark a GPU "
         "kernel with tensorop-gpu-runner on the GPU machine: `tensorop gen "
         "\"4096x4096x4096 bf16 GEMM for "
      << options.target
      << "\" -o DIR`, then `tensorop-gpu-runner "
         "DIR/gemm_4096x4096x4096_bf16.launch.json` "
         "verifies it and times it against cuBLAS in the same process "
         "(docs/GPU.md); `tensorop tune --target="
      << options.target << "` measures candidates the same way.\n";
  return 2;
}

namespace tensorop {
std::unique_ptr<Backend> createNvidiaBackend() {
  return std::make_unique<NvidiaBackend>();
}
} // namespace tensorop
