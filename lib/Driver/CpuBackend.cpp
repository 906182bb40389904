//===- CpuBackend.cpp - gen for CPU targets (x86, RVV, NEON) --------------===//
//
// Convolutions (OpKind::Conv2D) take the same path; their object is
// checked against an fp64 reference and timed against oneDNN's convolution
// (CpuConvCheck.cpp).
//
// Writes DIR/<name>.mlir (the module it built), <name>.lowered.mlir (LLVM
// dialect), <name>.ll, <name>.o, <name>.h, report.json and report.md. The
// object itself is loaded back and verified (shared/MEASURE.md); when the
// target runs on this machine it is also timed against OpenBLAS; RVV and
// NEON objects are verified under qemu-user.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Support/DataDir.h"
#include "tensorop/Transforms/MatmulSupport.h"
#include "BenchReport.h"
#include "ConvShapes.h"
#include "CpuConvCheck.h"
#include "CpuGemmEntries.h"
#include "HeaderPreamble.h"
#include "tensorop/Driver/Backend.h"
#include "tensorop/Driver/CompilerContext.h"
#include "tensorop/Driver/EpilogueConv.h"
#include "tensorop/Driver/EpilogueGemm.h"
#include "tensorop/Driver/EpilogueGemmBatched.h"
#include "tensorop/Driver/KernelSandbox.h"
#include "tensorop/Driver/Microkernels.h"
#include "tensorop/Driver/OutputDir.h"
#include "tensorop/Driver/SketchOrigin.h"
#include "tensorop/Driver/TuneBackend.h"
#include "tensorop/Support/TextFiles.h"
#include "tensorop/Verify/CpuConv.h"
#include "tensorop/Verify/CpuGemm.h"
#include "tensorop/Verify/CpuGemmLowp.h"
#include "tensorop/Verify/GemmEntryCheck.h"
#include "tensorop/Verify/Timing.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Advisor/ConvAdvisor.h"
#include "tensorop/Advisor/Request.h"
#include "tensorop/Advisor/SharedPackB.h"
#include "tensorop/Advisor/ThreadCount.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Emitters/Sandbox.h"
#include "tensorop/Runtime/ConvModule.h"
#include "tensorop/Runtime/JitGemm.h"
#include "tensorop/Runtime/ObjectFile.h"
#include "tensorop/Runtime/RvvVlenDispatch.h"
#include "tensorop/Targets/HostHints.h"
#include "tensorop/Targets/TargetHints.h"
#include "tensorop/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

#include <cblas.h>

#include <optional>

using namespace llvm;
using namespace mlir::tensorop;
using namespace ::tensorop;

namespace {
/// The `source` field of a printed sketch.
std::string sketchSource(StringRef sketch) {
  size_t at = sketch.find("source = \"");
  if (at == StringRef::npos)
    return "";
  StringRef rest = sketch.drop_front(at + 10);
  return rest.take_until([](char c) { return c == '"'; }).str();
}

/// What the kernel sandbox is here, for reports and progress lines.
std::string sandboxDescription() {
  std::string why;
  bool available = mlir::tensorop::sandboxAvailable(why);
  return available ? why : "no sandbox can be made here: " + why;
}

class CpuBackend : public Backend {
public:
  StringRef family() const override { return "cpu"; }
  Placement placement() const override { return Placement::Host; }
  std::unique_ptr<mlir::MLIRContext> makeContext() const override {
    return makeCompilerContext();
  }
  Error prepare(const GenJob &job) override;
  std::string resolvedTarget() const override { return resolved; }
  std::string header(const GenJob &job, StringRef sketch) const override;
  std::string abiSummary(const Operator &op, StringRef name) const override {
    if (op.kind == OpKind::Conv2D)
      return op.entryPoint(name) +
             " input NHWC, filter HWCF, output NHWC overwritten, contiguous, "
             "zero padding inside the kernel" +
             (hasConvPrepacked(op)
                  ? "; plus " + name.str() + "_pack_filter(filter, packed), " +
                        name.str() + "_prepacked(input, packed, ...), " +
                        name.str() + "_packed_filter_size()"
                  : std::string());
    if (hasBatchedEpilogueEntry(op))
      return op.entryPoint(name) +
             " row-major, contiguous, C overwritten; plus " + name.str() +
             "_batched(A, B, " + (epilogueHasBias(op.epilogue) ? "bias, " : "") +
             (epilogueHasResidual(op.epilogue) ? "R, " : "") +
             "C, batch, strideA, strideB, strideC" +
             (epilogueHasResidual(op.epilogue) ? ", strideR" : "") +
             "), the epilogue applied per slice";
    if (!op.hasBlasEntries())
      return op.entryPoint(name) + " row-major, contiguous, C overwritten";
    return op.entryPoint(name) + " row-major, contiguous, C = " +
           (op.transposeA ? "A^T" : "A") + "*" + (op.transposeB ? "B^T" : "B") +
           " overwritten; plus " + name.str() + "_ex(A, lda, B, ldb, C, ldc, "
           "alpha, beta), " + name.str() + "_ex_ws(..., workspace), " +
           name.str() + "_workspace_size()" +
           (op.inType() != "f16"
                ? ", " + name.str() + "_pack_b(B, packedB), " + name.str() +
                      "_prepacked(A, packedB, C), " + name.str() +
                      "_prepacked_ws(..., workspace), " + name.str() +
                      "_packed_b_size()"
                : std::string()) +
           (op.batched ? ", " + name.str() + "_batched(A, B, C, batch, "
                         "strideA, strideB, strideC), " + name.str() +
                             "_batched_ws(..., workspace), " + name.str() +
                             "_batched_ex(A, lda, strideA, B, ldb, strideB, "
                             "C, ldc, strideC, batch, alpha, beta), " +
                             name.str() + "_batched_ex_ws(..., workspace)"
                       : std::string());
  }
  int generate(const GenJob &job) override;
  int tune(const TuneOptions &options) override {
    for (auto [given, flag] :
         {std::pair{!options.batchDir.empty(), "--gpu-batch"},
          std::pair{!options.runner.empty(), "--gpu-runner"},
          std::pair{!options.gpus.empty(), "--gpus"}})
      if (given) {
        llvm::errs() << "tensorop tune: " << flag
                     << " is for NVIDIA targets; target " << options.target
                     << " measures in `tensorop worker` processes here\n";
        return 2;
      }
    return runTuneLoop(options, *createCpuTuneBackend());
  }
  int bench(const BenchOptions &options) override {
    return benchmarkOnCpu(options);
  }

private:
  std::string resolved; ///< the target, "host" resolved
  TargetHints hints;
  /// Whether the object has a convolution's prepacked-filter entries
  /// (every CPU target: x86 objects are checked here, RVV and NEON ones
  /// under qemu by conv_check.c -DPREPACKED).
  bool hasConvPrepacked(const Operator &op) const {
    return op.kind == OpKind::Conv2D;
  }
  std::string convHeader(const GenJob &job, StringRef threading) const;
  std::string convPrepackedHeader(const GenJob &job) const;
  Error prepareConv(const GenJob &job);
};

/// Verifies a cross-compiled object the way a user would run it: the C
/// harness linked statically with the object and run under qemu-user (for
/// RVV at VLEN 128 and 256). Returns the runs made, or an error if the
/// tools are missing.
/// With `vlenVariant` (an object built per VLEN, RvvVlenDispatch.h) the
/// harness prints which build the entries called, the runs add VLEN 512,
/// and a run fails if it is not the build for its VLEN.
Expected<json::Array> verifyUnderQemu(const TargetHints &h, StringRef name,
                                      const Operator &r, StringRef dir,
                                      bool sandboxed, StringRef vlenVariant,
                                      bool &passed) {
  passed = false;
  bool riscv = h.arch == "riscv64";
  StringRef qemuName = riscv ? "qemu-riscv64" : "qemu-aarch64";
  ErrorOr<std::string> qemu = sys::findProgramByName(qemuName);
  ErrorOr<std::string> clang = sys::findProgramByName("clang-22");
  if (!qemu || !clang)
    return createStringError(
        (qemu ? "clang-22" : qemuName.str()) +
        " not found (apt-get install qemu-user clang-22 and the "
        "gcc-<arch>-linux-gnu cross tool chain)");
  const bool conv = r.kind == OpKind::Conv2D;
  // A GEMM with a fused epilogue: its own harness, which takes the steps as
  // arguments and the bias / R the entry point takes.
  const bool epilogue = !conv && !r.epilogue.empty();
  std::string harness = mlir::tensorop::dataPath(
      conv       ? "harness/conv_check.c"
      : epilogue ? "harness/epilogue_check.c"
                 : "harness/gemm_check.c");
  // The harness's shape: M, N, K or the convolution's geometry.
  std::vector<std::string> shape;
  auto define = [&](StringRef macro, int64_t value) {
    shape.push_back(("-D" + macro + "=" + Twine(value)).str());
  };
  if (conv) {
    const Conv2DShape &c = r.conv;
    for (auto [macro, value] :
         {std::pair<StringRef, int64_t>{"CN", c.n}, {"CH", c.h}, {"CW", c.w},
          {"CC", c.c}, {"CF", c.f}, {"CR", c.r}, {"CS", c.s},
          {"SH", c.strideH}, {"SW", c.strideW}, {"DH", c.dilationH},
          {"DW", c.dilationW}, {"PT", c.padTop}, {"PL", c.padLeft},
          {"OH", c.outH()}, {"OW", c.outW()}})
      define(macro, value);
    // NAME_pack_filter and NAME_prepacked too (CpuBackend::hasConvPrepacked).
    shape.push_back("-DPREPACKED");
  } else {
    define("M", r.m);
    define("N", r.n);
    define("K", r.k);
    define("TA", r.transposeA);
    define("TB", r.transposeB);
    if (epilogue) {
      define("BIAS", epilogueHasBias(r.epilogue));
      define("RESIDUAL", epilogueHasResidual(r.epilogue));
      // NAME_batched with the epilogue's arguments, checked after NAME.
      if (hasBatchedEpilogueEntry(r))
        shape.push_back("-DBATCHED");
    }
  }
  std::string exe = (dir + "/" + name + ".check").str();
  std::string targetFlag =
      riscv ? "--target=riscv64-linux-gnu" : "--target=aarch64-linux-gnu";
  std::vector<std::string> args = {*clang, targetFlag, "--gcc-toolchain=/usr",
                                   "-static", "-O2"};
  if (riscv)
    args.push_back("-march=rv64gcv");
  args.push_back("-I" + dir.str());
  args.push_back("-DNAME=" + name.str());
  if (!vlenVariant.empty())
    args.push_back("-DVLEN_VARIANT=" + vlenVariant.str());
  args.insert(args.end(), shape.begin(), shape.end());
  for (std::string a : {harness, (dir + "/" + name + ".o").str(),
                        std::string("-lm"), std::string("-o"), exe})
    args.push_back(a);
  std::string message;
  SmallString<128> log;
  sys::fs::createTemporaryFile("tensorop-cross", "log", log);
  FileRemover removeLog(log);
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(log),
                                          StringRef(log)};
  auto link = [&](ArrayRef<std::string> linkArgs) -> Error {
    SmallVector<StringRef> argRefs(linkArgs.begin(), linkArgs.end());
    if (sys::ExecuteAndWait(*clang, argRefs, std::nullopt, redirects, 120, 0,
                            &message) == 0)
      return Error::success();
    auto out = MemoryBuffer::getFile(log);
    return createStringError("cannot link the verification program: " +
                             (out ? (*out)->getBuffer().str() : message));
  };
  if (Error e = link(args))
    return e;
  // A GEMM's other entries (NAME_ex, NAME_ex_ws, NAME_batched, ...): the
  // second program, run after the first under each configuration.
  std::string entriesExe;
  if (!conv && r.hasBlasEntries()) {
    entriesExe = (dir + "/" + name + ".entries-check").str();
    std::vector<std::string> entriesArgs(args.begin(), args.end());
    entriesArgs[entriesArgs.size() - 5] =
        mlir::tensorop::dataPath("harness/gemm_entries_check.c");
    entriesArgs.back() = entriesExe;
    entriesArgs.push_back("-pthread");
    if (r.batched)
      entriesArgs.push_back("-DBATCHED");
    if (Error e = link(entriesArgs))
      return e;
  }
  std::vector<std::vector<std::string>> runs;
  std::vector<int64_t> vlens = {128, 256};
  if (!vlenVariant.empty())
    vlens.push_back(512);
  if (riscv)
    for (int64_t vlen : vlens)
      runs.push_back({"-cpu", formatv("rv64,v=true,vlen={0},vext_spec=v1.0",
                                      vlen)
                                  .str()});
  else
    runs = {{}};
  json::Array results;
  passed = true;
  for (auto &cpu : runs) {
    // gemm_check.c's program, then (GEMMs) gemm_entries_check.c's.
    for (const std::string &program : {exe, entriesExe}) {
      if (program.empty())
        continue;
      const bool entries = program == entriesExe;
      std::vector<std::string> qargs = {*qemu};
      qargs.insert(qargs.end(), cpu.begin(), cpu.end());
      int rc;
      std::string text;
      if (sandboxed) {
        // qemu-user passes the guest's system calls to this kernel: a
        // model-written microkernel runs under it only in the sandbox.
        qargs.push_back("/sandbox/check");
        if (epilogue && program == exe)
          qargs.insert(qargs.end(), r.epilogue.begin(), r.epilogue.end());
        mlir::tensorop::SandboxOptions options;
        options.timeoutSeconds = 600;
        options.memoryBytes =
            gemmVerificationBytes(r.m, r.n, r.k) + (4ull << 30);
        Expected<mlir::tensorop::SandboxResult> run =
            mlir::tensorop::runSandboxedProgram(qargs, {{"check", program}},
                                                "", options);
        if (!run)
          return run.takeError();
        rc = run->exitCode;
        text = run->stdoutText + run->stderrText;
      } else {
        qargs.push_back(program);
        if (epilogue && program == exe)
          qargs.insert(qargs.end(), r.epilogue.begin(), r.epilogue.end());
        // The log holds the previous program's output: start it empty.
        {
          std::error_code ec;
          raw_fd_ostream truncate(log, ec);
        }
        SmallVector<StringRef> qrefs(qargs.begin(), qargs.end());
        rc = sys::ExecuteAndWait(*qemu, qrefs, std::nullopt, redirects, 600,
                                 0, &message);
        auto out = MemoryBuffer::getFile(log);
        text = out ? (*out)->getBuffer().str() : "";
      }
      passed &= rc == 0;
      json::Object run{
          {"runner", (qemuName + (cpu.empty() ? "" : " " + cpu[1]) +
                      (sandboxed ? " (sandboxed)" : "") +
                      (entries ? " (gemm_entries_check.c)" : ""))
                         .str()},
          {"exit", rc},
          {"output", text}};
      if (!vlenVariant.empty()) {
        // The build the entries called: the VLEN-256 one from VLEN 256 up.
        int64_t vlen = 0, called = 0;
        StringRef spec(cpu[1]);
        spec.drop_front(spec.find("vlen=") + 5).consumeInteger(10, vlen);
        size_t at = text.rfind("vlen_variant: ");
        if (at != std::string::npos)
          StringRef(text).drop_front(at + 14).consumeInteger(10, called);
        const int64_t expected = vlen >= 256 ? 256 : 128;
        passed &= called == expected;
        run["vlen_build_called"] = called;
        run["vlen_build_expected"] = expected;
      }
      results.push_back(std::move(run));
    }
  }
  return results;
}
} // namespace

/// report.json's "rvv_vlen_builds": the builds in a per-VLEN RVV object
/// (null for any other object).
static json::Value rvvBuildsReport(bool perVlen, StringRef name,
                                   StringRef narrowSketch,
                                   StringRef wideSketch) {
  if (!perVlen)
    return nullptr;
  return json::Object{
      {"dispatch", "every entry point reads vlenb (csrr) and calls the "
                   "VLEN-256 build where vlenb >= 32, else the VLEN-128 "
                   "one; " + rvvVariantSymbol(name) + "() returns which"},
      {"builds",
       json::Array{
           json::Object{{"vlen_min", 128},
                        {"target", "riscv-rvv"},
                        {"symbols", rvvBuildPrefix(name, 128) + "*"},
                        {"sketch", narrowSketch.str()}},
           json::Object{{"vlen_min", 256},
                        {"target", kRvvWideTarget},
                        {"symbols", rvvBuildPrefix(name, 256) + "*"},
                        {"sketch", wideSketch.str()}}}}};
}

/// Threads the lowered sketch runs on (1 when it names none).
static int64_t sketchThreads(StringRef sketch) {
  int64_t threads = 1;
  size_t at = sketch.find("threads = ");
  if (at != StringRef::npos)
    sketch.drop_front(at + 10).consumeInteger(10, threads);
  return threads;
}

/// Why the kernel runs on fewer threads than --threads asked ("" if it
/// does not): the GEMM is too small to pay for the team
/// (chooseGemmThreads, as the pipeline decided), or a sketch from the
/// tuning database says so.
static std::string fewerThreadsReason(const GenJob &job,
                                      const TargetHints &hints,
                                      StringRef sketch) {
  int64_t used = sketchThreads(sketch), asked = job.options.threads;
  if (used >= asked)
    return "";
  if (job.op.kind != OpKind::Conv2D) {
    GemmProblem problem;
    problem.m = job.request.m;
    problem.n = job.request.n;
    problem.k = job.request.k;
    ThreadCountChoice choice = chooseGemmThreads(
        problem, asked,
        minFlopsPerThreadFor(job.options.minFlopsPerThread, hints));
    if (choice.threads == used && !choice.reason.empty())
      return "the GEMM " + choice.reason;
  }
  return formatv("runs on {0} of the {1} threads asked, as its sketch says",
                 used, asked)
      .str();
}

std::string CpuBackend::header(const GenJob &job, StringRef sketch) const {
  const Operator &r = job.op;
  StringRef name = job.name, target = resolved;
  std::string guard = StringRef(name).upper() + "_H";
  // The sketch says how many threads the kernel really uses (one from a
  // tuning database may differ from --threads).
  int64_t threads = sketchThreads(sketch);
  std::string threading =
      threads > 1
          ? formatv("Runs on {0} threads through OpenMP: link with LLVM's "
                    "libomp\n * (e.g. -L/usr/lib/llvm-22/lib -lomp "
                    "-Wl,-rpath,/usr/lib/llvm-22/lib).",
                    threads)
                .str()
          : std::string("Single-threaded.");
  if (std::string why = fewerThreadsReason(job, hints, sketch); !why.empty())
    threading += "\n * --threads=" + std::to_string(job.options.threads) +
                 " was asked: " + why + ".";
  if (r.kind == OpKind::Conv2D)
    return convHeader(job, threading);
  // bf16/f16 elements travel as their bits in uint16_t, as in the NVIDIA
  // headers: C's __bf16 and _Float16 are compiler- and ISA-dependent
  // (GCC 13+, Clang 17+, SSE2 ABI), uint16_t is plain C99.
  std::string types = "fp32";
  std::string halfTypes;
  if (r.inType() == "bf16" || r.inType() == "f16") {
    types = r.inType() == "bf16"
                ? "A and B bf16 (bits in uint16_t: the high half of an fp32), "
                  "C fp32,\n * products accumulated in fp32 (vdpbf16ps)"
                : "A and B IEEE binary16 (bits in uint16_t), C fp32,\n * "
                  "converted to fp32 when packed (vcvtph2ps) and accumulated "
                  "in fp32";
    if (r.outType() != "f32")
      types = (r.inType() == "bf16"
                   ? "A, B and C bf16 (bits in uint16_t: the high half of an "
                     "fp32),\n * products accumulated in fp32 (vdpbf16ps)"
                   : "A, B and C IEEE binary16 (bits in uint16_t),\n * "
                     "converted to fp32 when packed (vcvtph2ps), accumulated "
                     "in fp32") +
              std::string(r.epilogue.empty() ? "" : ", the epilogue below "
                                                    "applied in fp32") +
              ",\n * and rounded once to nearest even as C is stored (an "
              "fp32 buffer of\n * M x N holds the partial sums when K spans "
              "several blocks)";
    halfTypes = std::string("#include <stdint.h>\n") + halfTypesPreamble();
  }
  return formatv(R"(/* Generated by tensorop gen ({5}) for target {6}.
 * Request: {7}
 *
 * {0}: C = {11}, {14}, row-major and contiguous:
 *   {12}, C is {1} x {2} (M x N).{16}
 * C is overwritten. {9} Its packing buffers live in a static
 * scratch area of this object (bss, kept for the program's life) that a
 * call claims and releases; a call that finds it claimed by another
 * thread's call allocates its own, so concurrent calls are safe.
 */
#ifndef {4}
#define {4}
#include <stddef.h>
{15}#ifdef __cplusplus
extern "C" {
#endif

#define {8}_M {1}
#define {8}_N {2}
#define {8}_K {3}

{10}
{13}
#ifdef __cplusplus
}
#endif
#endif
)",
                 name, r.m, r.n, r.k, guard, TENSOROP_VERSION, target,
                 r.requestText, StringRef(name).upper(), threading,
                 r.entryPoint(name),
                 std::string(r.transposeA ? "A^T" : "A") + " * " +
                     (r.transposeB ? "B^T" : "B"),
                 formatv("A is {0} ({1}), B is {2} ({3})",
                         r.transposeA ? formatv("{0} x {1}", r.k, r.m).str()
                                      : formatv("{0} x {1}", r.m, r.k).str(),
                         r.transposeA ? "K x M, transposed" : "M x K",
                         r.transposeB ? formatv("{0} x {1}", r.n, r.k).str()
                                      : formatv("{0} x {1}", r.k, r.n).str(),
                         r.transposeB ? "N x K, transposed" : "K x N")
                     .str(),
                 r.hasBlasEntries()            ? gemmEntriesHeader(r, name)
                 : hasBatchedEpilogueEntry(r) ? batchedEpilogueHeader(r, name)
                                              : "",
                 types,
                 halfTypes, epilogueHeaderComment(r.epilogue))
      .str();
}
std::string CpuBackend::convHeader(const GenJob &job,
                                  StringRef threading) const {
  const Conv2DShape &c = job.op.conv;
  StringRef name = job.name;
  std::string upper = StringRef(name).upper();
  return formatv(R"(/* Generated by tensorop gen ({0}) for target {1}.
 * Request: {2}
 *
 * 2-D convolution, fp32, every operand contiguous:
 *   input  N x H x W x C   (NHWC, unpadded)    {3} x {4} x {5} x {6}
 *   filter R x S x C x F   (HWCF)              {7} x {8} x {6} x {9}
 *   output N x OH x OW x F (NHWC, overwritten) {3} x {10} x {11} x {9}
 *   output[n][y][x][f] = sum over r, s, c of filter[r][s][c][f] *
 *     input[n][y*{12} + r*{14} - {16}][x*{13} + s*{15} - {18}][c]
 *   (stride {12} x {13}, dilation {14} x {15}; zero padding top {16},
 *   bottom {17}, left {18}, right {19} is applied inside the kernel: input
 *   positions outside H x W read 0).{23}
 * {20} Its temporary buffers live in a static scratch area of this
 * object (bss, kept for the program's life) that a call claims and
 * releases; a call that finds it claimed by another thread's call
 * allocates its own, so concurrent calls are safe.
 */
#ifndef {21}_H
#define {21}_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

#define {21}_N {3}
#define {21}_IN_H {4}
#define {21}_IN_W {5}
#define {21}_C {6}
#define {21}_F {9}
#define {21}_R {7}
#define {21}_S {8}
#define {21}_OUT_H {10}
#define {21}_OUT_W {11}

{22}

#ifdef __cplusplus
}
#endif
#endif
)",
                 TENSOROP_VERSION, resolved, job.op.requestText, c.n, c.h, c.w,
                 c.c, c.r, c.s, c.f, c.outH(), c.outW(), c.strideH, c.strideW,
                 c.dilationH, c.dilationW, c.padTop, c.padBottom, c.padLeft,
                 c.padRight, threading, upper,
                 job.op.entryPoint(name) + convPrepackedHeader(job),
                 epilogueHeaderComment(job.op.epilogue, "floats",
                                       /*onConvOutput=*/true))
      .str();
}

std::string CpuBackend::convPrepackedHeader(const GenJob &job) const {
  if (!hasConvPrepacked(job.op))
    return "";
  StringRef name = job.name;
  // NAME's declaration with the packed filter in the filter's place.
  std::string prepacked = job.op.entryPoint((name + "_prepacked").str());
  size_t at = prepacked.find("*filter");
  if (at != std::string::npos)
    prepacked.replace(at, 7, "*packed");
  return formatv(R"(

/* The filter packed once (weights used by many calls, as a framework
 * reorders oneDNN's weights when it loads the model), NAME = {0}:
 *   NAME_packed_filter_size()  bytes of the packed filter
 *   NAME_pack_filter(filter, packed)  the HWCF filter into `packed`, in
 *       this kernel's own layout (any alignment; 64 bytes is best)
 *   NAME_prepacked(input, packed, ...)  what NAME computes, from `packed`
 *       (only read), with no packing per call
 * The layout: panels of the sketch's nr output channels (zero past F),
 * channel blocks of cb, their R*S taps adjacent. It belongs to this
 * object: pack with this object's NAME_pack_filter only, and again after
 * rebuilding it. NAME_prepacked and NAME_pack_filter are built from one
 * convolution sketch. A 1x1 stride-1 layer with more than 256 pixels
 * (N*H*W), which NAME computes as a GEMM, is the exception: its packed
 * filter is the HWCF filter itself (NAME_pack_filter copies it) and
 * NAME_prepacked computes what NAME does.
 * Thread safety: NAME_pack_filter writes only `packed`; any number of
 * NAME_prepacked calls may share one packed filter concurrently, with
 * distinct outputs (their temporaries as for NAME).
 */
size_t {0}_packed_filter_size(void);
void {0}_pack_filter(const float *filter, float *packed);
{1})",
                 name, prepacked)
      .str();
}

/// What a convolution needs beyond a GEMM's checks (prepare made those).
Error CpuBackend::prepareConv(const GenJob &job) {
  auto fail = [](const Twine &msg) -> Error { return createStringError(msg); };
  if (std::string tooBig = checkConvBufferBudget(job.op.conv); !tooBig.empty())
    return fail(tooBig);
  if (!job.op.epilogue.empty() && hints.arch != "x86_64")
    return fail("understood " + job.request.describe() +
                "; a fused epilogue on a convolution is built for x86 "
                "targets only so far (the " +
                resolved +
                " convolution runs a GEMM microkernel per tap on packed "
                "panels, which applies no epilogue yet)");
  return Error::success();
}

Error CpuBackend::prepare(const GenJob &job) {
  const OpRequest &r = job.request;
  const unsigned genThreads = job.options.threads;
  auto fail = [](const Twine &msg) -> Error { return createStringError(msg); };
  const bool conv = job.op.kind == OpKind::Conv2D;
  if (conv && (r.dtype != "f32" || (!r.cType.empty() && r.cType != "f32")))
    return fail("understood " + r.describe() + "; " + r.dtype +
                (r.cType.empty() ? "" : " -> " + r.cType) +
                " convolutions are not supported yet (fp32 only; bf16 "
                "follows the GEMM's bf16)");
  const bool lowPrecision = r.dtype == "bf16" || r.dtype == "f16";
  // f32 inputs with a 16-bit C read "support f32 only (got f32 -> bf16)",
  // as if the f32 inputs were the problem.
  if (r.dtype == "f32" && !r.cType.empty() && r.cType != "f32")
    return fail("understood " + r.describe() + "; on CPU targets f32 inputs "
                "give an f32 C (got f32 -> " + r.cType + "); a " + r.cType +
                " C is built from " + r.cType + " inputs ('" + r.cType +
                " GEMM with " + r.cType + " output')");
  if (!lowPrecision &&
      (r.dtype != "f32" || (!r.cType.empty() && r.cType != "f32")))
    return fail("understood " + r.describe() + "; CPU targets support f32 "
                "only (got " + r.dtype +
                (r.cType.empty() ? "" : " -> " + r.cType) +
                "; bf16 and f16 inputs with an f32 C or one of their own "
                "type are supported too)");
  // A 16-bit C: fp32 accumulation, rounded once to C's type as the x86
  // AVX-512 kernel stores it (checked against the target below).
  const bool narrowOut = lowPrecision && job.op.outType() != "f32";
  if (narrowOut && job.op.outType() != r.dtype)
    return fail("understood " + r.describe() + "; on CPU targets " +
                r.dtype + " inputs accumulate into an f32 C or one of their "
                "own type (" + r.dtype + " output); " + job.op.outType() +
                " output from " + r.dtype + " inputs is not built");
  if (lowPrecision && job.options.advisor != "builtin")
    return fail("--advisor=" + job.options.advisor + " is not supported for " +
                r.dtype + " GEMMs yet (the builtin advisor chooses their "
                "sketch)");
  Expected<std::string> resolvedName = resolveTargetName(r.target);
  if (!resolvedName)
    return resolvedName.takeError();
  Expected<TargetHints> loaded = loadHintsForTarget(r.target);
  if (!loaded)
    return loaded.takeError();
  resolved = *resolvedName;
  hints = *loaded;
  if (narrowOut && hints.isa != "avx512")
    return fail("understood " + r.describe() + "; a " + job.op.outType() +
                " C is written by the x86 AVX-512 kernel only (it rounds as "
                "it stores: vcvtneps2bf16 / vcvtps2ph and masked 16-bit "
                "stores); target '" + resolved + "' has none: ask for f32 "
                "output");
  if (lowPrecision) {
    // The pipeline would refuse the matmul the same way; say it before
    // anything is built.
    GemmProblem problem;
    problem.input = r.dtype == "bf16" ? GemmInputType::BF16
                                      : GemmInputType::F16;
    std::string why;
    if (failed(checkInputTypeOnTarget(problem, hints, r.target == "host",
                                      why)))
      return fail("understood " + r.describe() + "; " + why);
  }
  if (genThreads < 1)
    return fail("--threads must be at least 1");
  // Cross targets are verified as static programs under qemu-user, and no
  // cross-built libomp is installed to link them with.
  if (genThreads > 1 && hints.arch != "x86_64")
    return fail("--threads > 1 is supported for x86-64 targets only (the "
                "OpenMP runtime is not available for " + hints.arch + ")");
  if (conv)
    return prepareConv(job);
  if (!job.op.epilogue.empty()) {
    if (job.options.advisor != "builtin")
      return fail("--advisor=" + job.options.advisor +
                  " is not supported with a fused epilogue yet (the "
                  "builtin advisor chooses its sketch)");
  }
  // A transposed GEMM with an epilogue or a 16-bit C (a linear layer's
  // x * W^T + bias) gets NAME alone, its module reading the operands
  // through the matmul's indexing maps; a batch needs NAME_batched: the
  // BLAS-like one (fp32 C, no epilogue) or the epilogue's (fp32 C,
  // EpilogueGemmBatched.h). A 16-bit C has neither.
  if (job.op.batched && !job.op.hasBlasEntries() &&
      !hasBatchedEpilogueEntry(job.op))
    return fail("understood " + r.describe() + "; batched GEMMs are built "
                "with an fp32 C only so far (NAME_batched, with or without "
                "an epilogue, writes an fp32 C; a " + job.op.outType() +
                " C is rounded as NAME stores it, which has no batched "
                "form yet); ask for one GEMM (transposes are fine) or for "
                "f32 output");
  if ((job.op.transposeA || job.op.transposeB || job.op.batched) &&
      job.options.advisor != "builtin")
    return fail("--advisor=" + job.options.advisor +
                " is not supported for transposed or batched requests yet "
                "(its candidates are checked as plain NN GEMMs)");
  // The kernel is verified here (or under qemu, same buffers): refuse a
  // request whose buffers do not fit before building anything.
  if (std::string tooBig = checkGemmBufferBudget(r.m, r.n, r.k);
      !tooBig.empty())
    return fail(tooBig);
  if (hasBatchedEpilogueEntry(job.op))
    if (std::string tooBig = checkBatchedEpilogueBudget(job.op);
        !tooBig.empty())
      return fail(tooBig);
  if (job.op.batched)
    if (std::string tooBig = checkBatchedEntriesBudget(
            r.m, r.n, r.k, job.op.batchCount);
        !tooBig.empty())
      return fail(tooBig);
  return Error::success();
}

int CpuBackend::generate(const GenJob &job) {
  const GenOptions &o = job.options;
  const OpRequest &r = job.request;
  const std::string &outDir = o.outDir, &genAdvisor = o.advisor,
                    &genDb = o.db, &name = job.name;
  const bool noBench = o.noBench;
  const bool peakGiven = o.peakGflops > 0;
  const unsigned genSeed = o.seed, genThreads = o.threads;
  auto fail = [](const Twine &msg) { return genFailure(msg); };
  // Files go to a staging directory and into DIR only once verified.
  Expected<std::unique_ptr<StagedOutput>> staged = StagedOutput::create(outDir);
  if (!staged)
    return fail(toString(staged.takeError()));
  auto path = [&](StringRef file) { return (*staged)->path(file); };
  outs() << "tensorop gen: " << r.describe() << " -> " << resolved
         << " kernel '" << name << "'\n";
  // target=host: which machine the advisor planned for, and what it could
  // not read (report.json's "host" has every overlaid field).
  if (!hints.hostCpu.empty()) {
    outs() << "tensorop gen: host " << hints.hostCpu;
    for (const CacheLevel &c : hints.caches)
      outs() << formatv(", L{0} {1} KiB {2}-way", c.level,
                        c.sizeBytes / 1024, c.ways);
    outs() << "\n";
  }
  for (const std::string &remark : hints.hostRemarks)
    errs() << "tensorop gen: " << remark << "\n";

  std::unique_ptr<mlir::MLIRContext> context = makeCompilerContext();
  mlir::MLIRContext &ctx = *context;

  StringMap<bool> hostFeatures = sys::getHostCPUFeatures();
  bool hostRunsTarget =
      hints.arch == "x86_64" &&
      (hints.isa != "avx512" ||
       (hostFeatures.lookup("avx512f") && hostFeatures.lookup("avx512bw")));

  // An advisor that can be wrong (llm, replay) answers here, with a
  // validator that builds each proposed kernel and, where this CPU runs it,
  // verifies it numerically; the rejection text goes back to the model.
  std::string chosenSketch;
  json::Array advisorNotes;
  int64_t promptTokens = 0, completionTokens = 0;
  auto reportNotes = [&](Advisor &adv) {
    for (const AdvisorNote &note : adv.notes()) {
      errs() << "tensorop gen: advisor '" << genAdvisor << "': " << note.text
             << "\n";
      advisorNotes.push_back(note.text);
    }
    promptTokens = adv.promptTokens();
    completionTokens = adv.completionTokens();
  };
  if (genAdvisor != "builtin" && job.op.kind == OpKind::Conv2D) {
    // A convolution's sketch names the shipped emitter (answers with
    // scripts are refused), so what the advisor chose is checked by the
    // sketch verifier here and verified numerically with the kernel below.
    Expected<std::unique_ptr<Advisor>> adv = createAdvisor(genAdvisor);
    if (!adv)
      return fail(toString(adv.takeError()));
    ConvProblem problem = convProblemOf(job.op.conv);
    Expected<ConvSketchChoice> choice = (*adv)->proposeConv(problem, hints);
    reportNotes(**adv);
    if (!choice)
      return fail(toString(choice.takeError()));
    choice->threads = genThreads;
    std::string illegal;
    ConvSketchAttr attr = choice->toAttr(&ctx, hints, illegal);
    if (!attr)
      return fail("the advisor's final choice is illegal: " + illegal);
    raw_string_ostream(chosenSketch) << attr;
  } else if (genAdvisor != "builtin") {
    Expected<std::unique_ptr<Advisor>> adv = createAdvisor(genAdvisor);
    if (!adv)
      return fail(toString(adv.takeError()));
    std::string buildOptions = "target=" + r.target + " advisor=builtin";
    GemmProblem teamProblem;
    teamProblem.m = r.m;
    teamProblem.n = r.n;
    teamProblem.k = r.k;
    // The same team size as the pipeline gives the builtin advisor's sketch.
    const int64_t teamSize =
        chooseGemmThreads(teamProblem, genThreads,
                          minFlopsPerThreadFor(o.minFlopsPerThread, hints))
            .threads;
    auto sketchText = [&](SketchChoice c, std::string &text) -> Error {
      c.threads = teamSize;
      // (One thread has nobody to share a packed B block with.)
      if (teamSize == 1 && c.packB == kSharedPackB)
        c.packB = "kmajor_nr";
      std::string illegal;
      SketchAttr attr = c.toAttr(&ctx, hints, illegal);
      if (!attr)
        return createStringError(illegal);
      text.clear();
      raw_string_ostream(text) << attr;
      return Error::success();
    };
    (*adv)->setValidator([&](const SketchChoice &c) -> Error {
      std::string text;
      if (Error e = sketchText(c, text))
        return e;
      std::string probe = job.op.moduleSource(name, placement(), text);
      if (!hostRunsTarget) {
        Expected<LoweredModule> l =
            lowerWithPipeline(ctx, probe, buildOptions, true);
        return l ? Error::success() : l.takeError();
      }
      GemmComparison check;
      if (c.emitter.rfind("llm_", 0) == 0) {
        // Model-written machine code runs only in the sandboxed worker.
        Expected<LoweredModule> l =
            lowerWithPipeline(ctx, probe, buildOptions, true);
        if (!l)
          return l.takeError();
        SmallString<128> object;
        if (std::error_code ec = sys::fs::createTemporaryFile(
                "tensorop-candidate", "o", object))
          return createStringError("cannot create a temporary file: " +
                                   ec.message());
        FileRemover removeObject(object);
        if (Error e = emitObjectFile(*l->module, hints.triple, hints.cpu,
                                     hints.features, object))
          return e;
        check = compareInSandbox(object, name, r.m, r.n, r.k, genSeed,
                                 /*time=*/false, 5, 0.1, 0, genThreads, 0);
      } else {
        Expected<JitGemm> jit = compileGemm(ctx, probe, name, buildOptions);
        if (!jit)
          return jit.takeError();
        check = compareWithOpenBLAS(jit->fn, r.m, r.n, r.k, genSeed, false,
                                    5, 0.1, 0);
      }
      if (!check.error.empty())
        return createStringError(check.error);
      if (!check.verified())
        return createStringError(formatv(
            "the kernel computes wrong results: {0} elements over the error "
            "bound (max error/bound {1:E2}), {2} wrong with small-integer "
            "inputs",
            check.before.failures(), check.before.maxRatio,
            check.exactMismatches));
      return Error::success();
    });
    GemmProblem problem;
    problem.m = r.m;
    problem.n = r.n;
    problem.k = r.k;
    // gen's A is a contiguous row-major buffer: rows K floats apart, read
    // in place where the microkernel's displacements reach that far.
    problem.aRowsInPlace = r.k <= kMaxInPlaceRowStrideBytes / 4;
    // The team is decided before the advisor chooses (its sketch may
    // depend on it), as in the pipeline.
    problem.threads = teamSize;
    Expected<SketchChoice> choice = (*adv)->propose(problem, hints);
    reportNotes(**adv);
    if (!choice)
      return fail(toString(choice.takeError()));
    if (Error e = sketchText(*choice, chosenSketch))
      return fail("the advisor's final choice is illegal: " +
                  toString(std::move(e)));
  }

  // RVV GEMMs the builtin advisor sketches: one build for VLEN >= 128 and
  // one for VLEN >= 256 (its own sketch: nr follows the VLEN), behind
  // entries that read vlenb (RvvVlenDispatch.h). NAME.mlir and
  // NAME.lowered.mlir hold the VLEN-128 build, NAME.vlen256.* the other.
  const bool perVlen = hints.isa == "rvv" && resolved == "riscv-rvv" &&
                       job.op.kind == OpKind::Matmul && chosenSketch.empty();
  std::optional<TargetHints> wideHints;
  if (perVlen) {
    Expected<TargetHints> loadedWide = loadTargetHints(kRvvWideTarget);
    if (!loadedWide)
      return fail(toString(loadedWide.takeError()));
    wideHints = *loadedWide;
  }
  auto build = [&](StringRef target, StringRef symbol,
                   StringRef file) -> Expected<LoweredModule> {
    std::string source =
        job.op.cpuEntryPointsSource(symbol, chosenSketch, genThreads);
    if (hasConvPrepacked(job.op)) {
      std::optional<mlir::tensorop::ConvConsumer> consumer;
      if (!job.op.epilogue.empty())
        consumer = epilogueConvConsumer(job.op.conv, job.op.epilogue);
      source += mlir::tensorop::convPrepackedSource(
          symbol, job.op.conv, chosenSketch,
          consumer ? &*consumer : nullptr);
    }
    if (Error e = writeTextFile(path(name + file.str() + ".mlir"), source))
      return std::move(e);
    std::string options = "target=" + target.str() + " advisor=builtin" +
                          " threads=" + std::to_string(genThreads) +
                          " min-flops-per-thread=" +
                          std::to_string(o.minFlopsPerThread) +
                          (genDb.empty() ? "" : " db=" + genDb);
    Expected<LoweredModule> l =
        lowerWithPipeline(ctx, source, options, /*barePtrAbi=*/true);
    if (!l)
      return l.takeError();
    std::string text;
    raw_string_ostream os(text);
    l->module->print(os);
    if (Error e = writeTextFile(path(name + file.str() + ".lowered.mlir"),
                                text))
      return std::move(e);
    return l;
  };
  // The target as requested (resolveTargetName leaves a named one as it
  // is): target=host builds with this machine's hints, as the report shows
  // them, not only the file of the target host resolves to.
  Expected<LoweredModule> lowered =
      build(r.target, perVlen ? rvvBuildPrefix(name, 128) : name, "");
  if (!lowered)
    return fail(toString(lowered.takeError()));
  std::optional<LoweredModule> wide;
  if (perVlen) {
    Expected<LoweredModule> l =
        build(kRvvWideTarget, rvvBuildPrefix(name, 256), ".vlen256");
    if (!l)
      return fail(toString(l.takeError()));
    wide = std::move(*l);
  }
  // The kernels the object runs, read from its code: the sketch names the
  // emitter script, which writes fp32 FMA and bf16 vdpbf16ps kernels alike.
  std::vector<MicrokernelInfo> kernels = listMicrokernels(*lowered->module);
  if (wide)
    for (MicrokernelInfo &k : listMicrokernels(*wide->module))
      kernels.push_back(std::move(k));
  std::string obj = path(name + ".o");
  if (Error e = perVlen
                    ? emitRvvVlenDispatchObject(
                          {*lowered->module, hints.features},
                          {*wide->module, wideHints->features}, hints.triple,
                          hints.cpu, name, obj, path(name + ".ll"))
                    : emitObjectFile(*lowered->module, hints.triple,
                                     hints.cpu, hints.features, obj,
                                     path(name + ".ll")))
    return fail("cannot emit the object: " + toString(std::move(e)));
  if (Error e = writeTextFile(path(name + ".h"), header(job, lowered->sketch)))
    return fail(toString(std::move(e)));
  // No sketch: the pipeline lowered the op through upstream loops (a
  // convolution its sketch path does not match); say so, not "".
  const std::string sketchShown =
      lowered->sketch.empty()
          ? std::string("none (the pipeline matched no sketch for this op "
                        "and lowered it through upstream loops)")
          : lowered->sketch;
  outs() << "  sketch: " << sketchShown << "\n";
  outs() << "  microkernels: " << microkernelsLine(kernels) << "\n";
  if (perVlen)
    outs() << "  sketch for VLEN >= 256 (called where vlenb >= 32): "
           << wide->sketch << "\n";
  const std::string fewerThreads = fewerThreadsReason(job, hints, lowered->sketch);
  if (!fewerThreads.empty())
    outs() << "  threads: " << fewerThreads << "\n";

  // Verify the shipped object itself (and time it) when this CPU runs it;
  // a model-written microkernel only in the sandbox.
  const bool modelWritten = usesModelWrittenEmitter(lowered->sketch);
  json::Object verification{{"performed", false}};
  EpilogueGemmCheck epilogueCheck; // A GEMM with a fused epilogue.
  json::Object timing{{"performed", false}};
  bool verified = false;
  std::string gemmFailure; ///< why a GEMM failed its check, in words
  bool crossRun = false; // Verified under qemu (not timed).
  bool runsHere = hostRunsTarget;
  GemmComparison cmp;
  const bool conv = job.op.kind == OpKind::Conv2D;
  ConvObjectCheck convCheck;
  GemmEntriesCheck entries;
  const bool transposed = job.op.transposeA || job.op.transposeB;
  // NAME alone, checked like a fused epilogue's GEMM (no steps where the
  // request has none): an epilogue, or a transposed 16-bit C.
  const bool checkedAsEpilogue =
      !conv && (!job.op.epilogue.empty() ||
                (transposed && !job.op.hasBlasEntries()));
  double peak = 0;
  if (runsHere) {
    // The libraries get as many threads as the kernel asked for.
    setBaselineThreads(genThreads);
    peak = noBench      ? 0
           : peakGiven ? o.peakGflops * genThreads
                       : measureFmaPeakGflops() * genThreads;
    if (!noBench && !openblasCoreWarning().empty())
      errs() << "tensorop gen: " << openblasCoreWarning() << "\n";
    double settle = genThreads > 1 ? 0.3 : 0;
    if (conv) {
      // Convolution microkernels come from the shipped emitters only.
      Expected<LoadedObject> loaded = loadObjectFile(obj, name);
      if (!loaded)
        return fail("cannot load " + obj + ": " +
                    toString(loaded.takeError()));
      // The entries with the filter packed once, checked (and timed) with
      // NAME.
      ConvPrepackedEntries prepacked;
      if (hasConvPrepacked(job.op)) {
        std::string missing;
        auto find = [&](StringRef suffix) -> void * {
          Expected<void *> sym = loaded->lookup((name + suffix).str());
          if (sym)
            return *sym;
          consumeError(sym.takeError());
          missing += (missing.empty() ? "" : ", ") + (name + suffix).str();
          return nullptr;
        };
        prepacked.packedSize = reinterpret_cast<size_t (*)()>(
            find("_packed_filter_size"));
        prepacked.pack = reinterpret_cast<void (*)(const float *, float *)>(
            find("_pack_filter"));
        prepacked.run =
            reinterpret_cast<void (*)(const float *, const float *, float *)>(
                find("_prepacked"));
        if (!missing.empty())
          return fail("the object lacks " + missing + "; nothing written to " +
                      outDir);
      }
      const ConvPrepackedEntries *withPrepacked =
          prepacked.complete() ? &prepacked : nullptr;
      convCheck =
          job.op.epilogue.empty()
              ? checkConvObject(reinterpret_cast<ConvFn>(loaded->symbol),
                                job.op.conv, name, obj, genSeed, noBench,
                                genThreads, peak, peakGiven, withPrepacked)
              : checkEpilogueConvObject(loaded->symbol, job.op.conv,
                                        job.op.epilogue, name, obj, genSeed,
                                        withPrepacked);
      if (!convCheck.error.empty())
        return fail(convCheck.error + "; nothing written to " + outDir);
      verified = convCheck.verified;
      verification = std::move(convCheck.verification);
      timing = std::move(convCheck.timing);
    } else if (checkedAsEpilogue) {
      // A GEMM with a fused epilogue (or a transposed one with a 16-bit C,
      // NAME alone): its entry point takes the bias and residual; checked
      // against the steps applied to an fp64 product.
      Expected<LoadedObject> loaded = loadObjectFile(obj, name);
      if (!loaded)
        return fail("cannot load " + obj + ": " +
                    toString(loaded.takeError()));
      const ElementType input = r.dtype == "bf16"  ? ElementType::BF16
                                : r.dtype == "f16" ? ElementType::F16
                                                   : ElementType::F32;
      const ElementType output = job.op.outType() == "bf16" ? ElementType::BF16
                                 : job.op.outType() == "f16"
                                     ? ElementType::F16
                                     : ElementType::F32;
      epilogueCheck = checkEpilogueGemm(loaded->symbol, r.m, r.n, r.k,
                                        job.op.epilogue, genSeed, input,
                                        output, r.transposeA, r.transposeB);
      const EpilogueGemmCheck &check = epilogueCheck;
      if (!check.error.empty())
        return fail(check.error + "; nothing written to " + outDir);
      verified = check.failures == 0;
      json::Array steps;
      for (const std::string &s : job.op.epilogue)
        steps.push_back(s);
      verification = json::Object{
          {"performed", true},
          {"object", (*staged)->finalPath(name + ".o")},
          {"where", "in process (shipped emitters)"},
          {"seed", int64_t(genSeed)},
          {"inputs", "seeded uniform [-1, 1) (A, B, bias, R)"},
          {"epilogue", std::move(steps)},
          {"reference", "OpenBLAS dgemm (fp64) of the same " + r.dtype +
                            " inputs, then the epilogue's steps in fp64" +
                            (output == ElementType::F32
                                 ? std::string()
                                 : ", against a " + job.op.outType() + " C")},
          {"bound", check.bound},
          {"output_prefill", "NaN"},
          {"max_error_ratio", check.maxRatio},
          {"elements_over_bound", check.failures},
          {"passed", verified}};
      if (hasBatchedEpilogueEntry(job.op)) {
        // NAME_batched: several slices with padded strides, then a batch
        // of 0 (nothing written) and contiguous slices.
        Expected<void *> batchedFn = loaded->lookup(name + "_batched");
        if (!batchedFn)
          return fail("the object lacks " + name + "_batched (" +
                      toString(batchedFn.takeError()) +
                      "); nothing written to " + outDir);
        json::Array cases;
        bool allPassed = true;
        const int64_t many = job.op.batchCount > 0 ? job.op.batchCount : 3;
        for (auto [count, pad] : {std::pair<int64_t, int64_t>{many, 5}, {0, 1},
                                  {2, 0}}) {
          BatchedEpilogueCheck one = checkBatchedEpilogueGemm(
              *batchedFn, r.m, r.n, r.k, job.op.epilogue, genSeed + 100,
              count, pad, input, r.transposeA, r.transposeB);
          if (!one.check.error.empty())
            return fail(one.check.error + "; nothing written to " + outDir);
          allPassed &= one.passed();
          cases.push_back(json::Object{
              {"entry", name + "_batched"},
              {"case", one.what},
              {"max_error_ratio", one.check.maxRatio},
              {"elements_over_bound", one.check.failures},
              {"padding_or_inputs_changed", one.paddingChanged},
              {"passed", one.passed()}});
        }
        outs() << "  " << name << "_batched: "
               << (allPassed ? "verified" : "FAILED")
               << " (batch " << many
               << " with padded strides, batch 0, batch 2 "
                  "contiguous; every slice against the steps in fp64)\n";
        verified &= allPassed;
        verification["batched_entry"] = std::move(cases);
        verification["passed"] = verified;
      }
      timing["reason"] =
          job.op.epilogue.empty()
              ? "not timed: gen times GEMMs with BLAS-like entries only "
                "(bench/cpu/run-bf16.sh times bf16 ones against oneDNN)"
              : "not timed: no baseline computes the same fused epilogue yet";
    } else {
    if (modelWritten) {
      outs() << "  the microkernel is model-written: verified"
             << (noBench ? "" : " and timed")
             << " only in the sandboxed worker (" << sandboxDescription()
             << ")\n";
      cmp = compareInSandbox(obj, name, r.m, r.n, r.k, genSeed, !noBench, 7,
                             0.1, peak, genThreads, settle);
    } else if (r.dtype == "bf16" || r.dtype == "f16") {
      // Verified here; timed against oneDNN's bf16 matmul by
      // bench/cpu/run-bf16.sh (no bf16 GEMM in OpenBLAS's CBLAS here).
      Expected<LoadedObject> loaded = loadObjectFile(obj, name);
      if (!loaded)
        return fail("cannot load " + obj + ": " +
                    toString(loaded.takeError()));
      const ElementType input =
          r.dtype == "bf16" ? ElementType::BF16 : ElementType::F16;
      // NAME in the NN layout here (exact test included); a transposed
      // NAME is checked with the other entries.
      if (!transposed)
        cmp = verifyLowPrecisionGemm(
            reinterpret_cast<GemmFn16>(loaded->symbol), r.m, r.n, r.k,
            genSeed, input,
            job.op.outType() == "f32" ? ElementType::F32 : input);
      if (job.op.hasBlasEntries()) {
        entries = checkGemmEntriesObject(*loaded, name, job.op, genSeed,
                                         /*time=*/false);
        if (!entries.error.empty())
          return fail(entries.error + "; nothing written to " + outDir);
      }
      timing["reason"] = "bf16/f16 kernels are not timed by gen; "
                         "bench/cpu/run-bf16.sh times bf16 ones against "
                         "oneDNN's bf16 matmul";
    } else {
      Expected<LoadedObject> loaded = loadObjectFile(obj, name);
      if (!loaded)
        return fail("cannot load " + obj + ": " +
                    toString(loaded.takeError()));
      // Every entry point, NAME in the request's layout included; the
      // timing against OpenBLAS below takes NN layouts only.
      entries = checkGemmEntriesObject(*loaded, name, job.op, genSeed,
                                       !noBench);
      if (!entries.error.empty())
        return fail(entries.error + "; nothing written to " + outDir);
      if (!transposed)
        cmp = compareWithOpenBLAS(reinterpret_cast<GemmFn>(loaded->symbol),
                                  r.m, r.n, r.k, genSeed, !noBench, 7, 0.1,
                                  peak, /*second=*/nullptr, settle);
    }
    if (!cmp.error.empty())
      return fail(cmp.error + "; nothing written to " + outDir);
    // A best sample above the FMA peak (measured again first, unless
    // given): the result verified before and after timing, so for a kernel
    // of the shipped emitters the peak measurement was most likely slowed
    // by other load; gen warns, ships it and marks its timing suspect. A
    // model-written microkernel is not trusted that far: it fails.
    if (cmp.fasterThanPeak && !modelWritten)
      warnAboveFmaPeak(cmp.fasterThanPeak, cmp.oursBest, peak / genThreads,
                       genThreads, peakGiven, "tensorop gen", name,
                       peakGiven ? "" : " (other load while it was measured?)",
                       "kernel");
    else if (cmp.fasterThanPeak && !peakGiven)
      cmp.fasterThanPeak =
          fasterThanRemeasuredPeak(cmp.oursBest, peak, genThreads);
    const bool aboveRejected = modelWritten && cmp.fasterThanPeak;
    // A model-written microkernel's object is not loaded here, so its
    // other entries are not checked (report.json says so).
    const bool entriesChecked = !modelWritten && job.op.hasBlasEntries();
    verified = (transposed ? true : cmp.verified() && !aboveRejected) &&
               (!entriesChecked || entries.passed);
    // Why it failed, in words (the numbers are in report.json; a failed
    // kernel's report is not written, so gen prints them).
    if (!verified)
      gemmFailure =
          !cmp.before.ok() ? formatv("{0} elements over the bound",
                                     cmp.before.failures())
                                 .str()
          : cmp.exactMismatches != 0
              ? formatv("{0} mismatches in the small-integer exact test",
                        cmp.exactMismatches)
                    .str()
          : cmp.timed && !cmp.after.ok()
              ? formatv("the re-check after timing: {0} elements over the "
                        "bound (max error/bound {1:E2})",
                        cmp.after.failures(), cmp.after.maxRatio)
                    .str()
          : aboveRejected
              ? formatv("best sample {0:F1} GFLOP/s is above the FMA peak "
                        "({1:F1} GFLOP/s): not trusted of a model-written "
                        "microkernel",
                        cmp.oursBest, peak)
                    .str()
          : entriesChecked && !entries.passed
              ? std::string("an entry point failed (above)")
              : std::string("see report.json's verification");
    if (transposed)
      verification = json::Object{
          {"performed", true},
          {"object", (*staged)->finalPath(name + ".o")},
          {"where", "in process (shipped emitters)"},
          {"seed", int64_t(genSeed)},
          {"entry_points", std::move(entries.verification)},
          {"passed", verified}};
    else
    verification = json::Object{
        {"performed", true},
        {"object", (*staged)->finalPath(name + ".o")},
        {"where", modelWritten ? "sandboxed worker (model-written "
                                 "microkernel): " + sandboxDescription()
                               : std::string("in process (shipped emitters)")},
        {"seed", int64_t(genSeed)},
        {"inputs", "seeded uniform [-1, 1) (A, B)" +
                       (r.dtype == "f32" ? std::string()
                                         : " rounded to " + r.dtype) +
                       "; plus small integers in [-4, 4] (exact results)"},
        {"reference", "OpenBLAS dgemm (fp64) of the same " + r.dtype +
                          " inputs"},
        {"bound", job.op.outType() == "bf16"
                      ? "|C - R| <= 2*K*6e-8*(|A||B|) + (2^-8 + 1.2e-7)*|R| "
                        "(fp32 accumulation, one rounding to bf16)"
                  : job.op.outType() == "f16"
                      ? "|C - R| <= 2*K*6e-8*(|A||B|) + (2^-11 + 1.2e-7)*|R| "
                        "(fp32 accumulation, one rounding to f16)"
                      : "|C - R| <= 2*K*6e-8*(|A||B|) + 6e-8*|R|"},
        {"output_prefill", "NaN"},
        {"max_error_ratio", cmp.before.maxRatio},
        {"elements_over_bound", cmp.before.failures()},
        {"exact_small_integer_mismatches", cmp.exactMismatches},
        {"max_error_ratio_after_timing",
         cmp.timed ? json::Value(cmp.after.maxRatio) : json::Value(nullptr)},
        {"entry_points",
         entriesChecked
             ? json::Value(std::move(entries.verification))
             : json::Value("not checked: the object holds a model-written "
                           "microkernel, which runs only in the sandboxed "
                           "worker (NAME only)")},
        {"passed", verified}};
    if (cmp.timed)
      timing = json::Object{
          {"performed", true},
          {"precision", "fp32 (both)"},
          {"threads", int64_t(genThreads)},
          {"caches", "warm"},
          {"rounds", 7},
          {"method", "alternating A B A B in one process, median and best"},
          {"settle_seconds_before_each_round", genThreads > 1 ? 0.3 : 0.0},
          {"tensorop_gflops_median", cmp.oursMedian},
          {"tensorop_gflops_best", cmp.oursBest},
          {"openblas_gflops_median", cmp.blasMedian},
          {"openblas_gflops_best", cmp.blasBest},
          {"ratio_median", cmp.oursMedian / cmp.blasMedian},
          {"onednn", cmp.haveOneDNN ? oneDNNVersion() : std::string("")},
          {"onednn_gflops_median",
           cmp.haveOneDNN ? json::Value(cmp.onednnMedian) : json::Value(nullptr)},
          {"ratio_vs_onednn_median",
           cmp.haveOneDNN ? json::Value(cmp.oursMedian / cmp.onednnMedian)
                          : json::Value(nullptr)},
          {"openblas", std::string(openblas_get_config())},
          {"openblas_core", std::string(openblas_get_corename())},
          {"openblas_coretype_env", openblasCoreWarning()},
          {peakGiven ? "given_fma_peak_gflops" : "measured_fma_peak_gflops",
           peak},
          {"best_sample_above_peak", cmp.fasterThanPeak},
          {"cpu", cpuModelName() + " (" + cpuFamilyModel() + ")"}};
    }
  } else if (hints.arch == "riscv64" || hints.arch == "aarch64") {
    bool passed = false;
    Expected<json::Array> runs =
        verifyUnderQemu(hints, name, job.op, (*staged)->stagingDir(),
                        modelWritten,
                        perVlen ? rvvVariantSymbol(name) : std::string(),
                        passed);
    if (!runs) {
      verification["reason"] =
          "not verified: " + toString(runs.takeError());
    } else {
      verified = passed;
      // A failed run says which configuration and what it printed (the
      // report that would hold it is not written).
      for (const json::Value &run : *runs) {
        const json::Object *o = run.getAsObject();
        std::optional<int64_t> rc = o->getInteger("exit");
        std::optional<int64_t> called = o->getInteger("vlen_build_called");
        std::optional<int64_t> expected =
            o->getInteger("vlen_build_expected");
        if ((rc && *rc != 0) || (called && expected && *called != *expected))
          outs() << "  FAILED run: " << *o->getString("runner") << ": exit "
                 << (rc ? *rc : -1)
                 << (called ? formatv(", called the VLEN-{0} build, "
                                      "expected VLEN-{1}",
                                      *called, *expected)
                                  .str()
                            : std::string())
                 << "\n" << *o->getString("output");
      }
      std::string method =
          std::string("tools/tensorop/harness/") +
          (conv ? "conv_check.c" : "gemm_check.c") +
          " linked statically with the object, run under qemu-user: "
          "small-integer inputs (exact) and seeded random inputs "
          "against an fp64 reference, bound 2*K*6e-8*(|A||B|) + "
          "6e-8*|R|" +
          (conv ? " with K = R*S*C" : "") + ", NaN-prefilled output";
      if (!conv && !job.op.epilogue.empty())
        method = "tools/tensorop/harness/epilogue_check.c linked statically "
                 "with the object, run under qemu-user with the steps as "
                 "arguments: seeded random A, B, bias, R in [-1, 1) against "
                 "the steps applied in fp64 to an fp64 product, bound "
                 "L*(2*K*6e-8*(|A||B|) + 6e-8*|R|) + 2e-6*(1 + |R| + "
                 "|E(R)|) (R = the product, E = the steps, L = 1.2 times the "
                 "scale steps' |s|, at least 1), NaN-prefilled output" +
                 std::string(hasBatchedEpilogueEntry(job.op)
                                 ? "; -DBATCHED: NAME_batched on 3 slices "
                                   "with padded strides too (padding "
                                   "compared bit for bit)"
                                 : "");
      verification = json::Object{
          {"performed", true},
          {"method", std::move(method)},
          {"runs", std::move(*runs)},
          {"passed", passed}};
      crossRun = true;
    }
  } else {
    verification["reason"] =
        "the target's instruction set does not run on this machine";
  }

  // Why nothing was verified, for the line printed below: `verification`
  // is moved into the report first.
  std::string unverifiedReason;
  if (std::optional<StringRef> why = verification.getString("reason"))
    unverifiedReason = why->str();
  std::vector<std::string> fileNames;
  for (StringRef f : {".mlir", ".lowered.mlir", ".ll", ".o", ".h"})
    fileNames.push_back(name + f.str());
  if (perVlen)
    for (StringRef f : {".vlen256.mlir", ".vlen256.lowered.mlir"})
      fileNames.push_back(name + f.str());
  fileNames.push_back("report.json");
  fileNames.push_back("report.md");
  json::Array files;
  for (const std::string &f : fileNames)
    files.push_back(f);
  json::Object report{
      {"tool", "tensorop gen"},
      {"version", TENSOROP_VERSION},
      {"date", reportDate()},
      {"request", r.text},
      {"understood",
       conv ? json::Object{{"op", r.op},
                           {"shape", describeConvShape(r.conv)},
                           {"dtype", r.dtype},
                           {"target", r.target}}
            : json::Object{{"op", r.op},
                           {"m", r.m},
                           {"n", r.n},
                           {"k", r.k},
                           {"dtype", r.dtype},
                           {"target", r.target}}},
      {"flops_per_call", job.op.flops()},
      {"target", resolved},
      {"hints", hints.path},
      {"host", hostOverlayJson(hints)},
      {"kernel", name},
      {"abi", abiSummary(job.op, name)},
      {"advisor", genAdvisor},
      {"advisor_notes", std::move(advisorNotes)},
      {"llm_tokens", json::Object{{"prompt", promptTokens},
                                  {"completion", completionTokens}}},
      {"sketch", lowered->sketch},
      {"sketch_source", sketchSourceField(lowered->sketch, genAdvisor, genDb)},
      {"microkernels", microkernelsJson(kernels)},
      {"provenance", sketchSource(lowered->sketch)},
      {"threads", json::Object{{"asked", int64_t(genThreads)},
                               {"used", sketchThreads(lowered->sketch)},
                               {"why_fewer", fewerThreads.empty()
                                                 ? json::Value(nullptr)
                                                 : json::Value(fewerThreads)}}},
      {"llvm", LLVM_VERSION_STRING},
      {"rvv_vlen_builds", rvvBuildsReport(perVlen, name, lowered->sketch,
                                          wide ? wide->sketch : "")},
      {"verification", std::move(verification)},
      {"timing", std::move(timing)},
      {"files", std::move(files)}};
  std::string reportText =
      formatv("{0:2}\n", json::Value(std::move(report))).str();
  if (Error e = writeTextFile(path("report.json"), reportText))
    return fail(toString(std::move(e)));

  std::string md = formatv("# {0}\n\nRequest: `{1}`\n\nUnderstood: {2} "
                           "(target `{3}`), generated by tensorop {4} with "
                           "LLVM {5} on {6}.\n\n",
                           name, r.text, r.describe(), resolved,
                           TENSOROP_VERSION, LLVM_VERSION_STRING, reportDate())
                       .str();
  // (It said "chosen by the builtin advisor" for a sketch from --db.)
  md += "## " + sketchHeading(lowered->sketch, genAdvisor, genDb) +
        "\n\n```\n" + sketchShown + "\n```\n\n" +
        microkernelsMarkdown(kernels) +
        (fewerThreads.empty() ? std::string()
                              : "Threads: --threads=" +
                                    std::to_string(genThreads) +
                                    " was asked; " + fewerThreads + ".\n\n") +
        hostOverlayMarkdown(hints) + "## Verification\n\n";
  if (runsHere && conv)
    md += convCheck.markdown;
  else if (runsHere && checkedAsEpilogue)
    md += formatv("The shipped object `{0}.o` was loaded and `{0}` run once "
                  "(A{6}, B{7}): seeded inputs in [-1, 1) (seed {1}), output "
                  "pre-filled with NaN, against {2} applied in fp64 to an fp64 "
                  "product of the same inputs; bound {3}.\n\n"
                  "- max error / bound: {4:E2} ({5} elements over the "
                  "bound)\n- result: **{8}**\n- not timed: {9}\n\n",
                  name, unsigned(genSeed),
                  job.op.epilogue.empty()
                      ? std::string("the rounding to C's type")
                      : "the epilogue's steps (" +
                            join(job.op.epilogue, ", ") + ")",
                  epilogueCheck.bound, epilogueCheck.maxRatio,
                  epilogueCheck.failures,
                  r.transposeA ? " stored K x M" : "",
                  r.transposeB ? " stored N x K" : "",
                  verified ? "passed" : "FAILED",
                  job.op.epilogue.empty()
                      ? "gen times GEMMs with BLAS-like entries only"
                      : "no baseline computes the same fused epilogue yet")
              .str();
  else if (runsHere && transposed)
    md += std::string("NAME is checked with the other entries (a "
                      "transposed layout") +
          (job.op.inType() == "f32"
               ? "; its timing against OpenBLAS with the same transposes is "
                 "in report.json's verification.entry_points.ex_timing"
               : "; not timed: no library here has a " + job.op.inType() +
                     " GEMM with these transposes to time it against") +
          "):\n\n" + entries.markdown;
  else if (runsHere)
    md += formatv("The shipped object `{0}.o` was loaded and run: output "
                  "pre-filled with NaN, fp64 reference of the same inputs "
                  "(seed {1}), bound 2*K*6e-8*(|A||B|) + 6e-8*|R|.\n\n"
                  "- max error / bound: {2:E2} ({3} elements over the "
                  "bound)\n- small-integer inputs (exact): {4} mismatches\n"
                  "- result: **{5}**\n\n",
                  name, unsigned(genSeed), cmp.before.maxRatio,
                  cmp.before.failures(), cmp.exactMismatches,
                  verified ? "passed" : "FAILED")
              .str() +
          entries.markdown;
  else if (crossRun)
    md += std::string("Cross-compiled for ") + hints.triple +
          ": the object was linked into tools/tensorop/harness/" +
          (conv                        ? "conv_check.c"
           : !job.op.epilogue.empty() ? "epilogue_check.c"
                                      : "gemm_check.c") +
          " and run under qemu-user " +
          (!conv && !job.op.epilogue.empty()
               ? "(seeded random inputs against the epilogue's steps "
                 "applied in fp64 to an fp64 product)"
               : "(small-integer exact test and seeded random inputs "
                 "against an fp64 reference)") +
          ". Result: **" +
          (verified ? "passed" : "FAILED") +
          "** (see report.json for each run). Speed is not measured under "
          "emulation; see docs/estimates/ for model estimates.\n\n";
  else
    md += "Not run: the target's instruction set does not run here, and "
          "no emulator was found.\n\n";
  if (cmp.timed)
    md += formatv("## Speed ({9} thread(s), fp32 on every side, warm caches, 7 "
                  "round-robin rounds{10})\n\n| | median GFLOP/s | best GFLOP/s "
                  "|\n| --- | --- | --- |\n| TensorOp | {0:F1} | {1:F1} |\n| "
                  "OpenBLAS {4} ({5}) | {2:F1} | {3:F1} |\n\nRatio of "
                  "medians: **{6:F2}x**. Machine: {7}; {11} FMA peak "
                  "{8:F1} GFLOP/s per core.{12}\n",
                  cmp.oursMedian, cmp.oursBest, cmp.blasMedian, cmp.blasBest,
                  StringRef(openblas_get_config()).split(' ').second.split(' ').first,
                  openblas_get_corename(), cmp.oursMedian / cmp.blasMedian,
                  cpuModelName() + " (" + cpuFamilyModel() + ")",
                  peak / genThreads, unsigned(genThreads),
                  genThreads > 1 ? ", 0.3 s idle before each side's round"
                                 : "",
                  peakGiven ? "given" : "measured",
                  cmp.fasterThanPeak
                      ? " **The best sample is above that peak**: the result "
                        "verified before and after timing, so the peak "
                        "figure is suspect (other load while it was "
                        "measured?); treat these timings with care."
                      : "")
              .str();
  if (cmp.timed && cmp.haveOneDNN)
    md += formatv("\n{0} (`dnnl_sgemm`, same rounds, {4} thread(s)): {1:F1} "
                  "GFLOP/s median (best {2:F1}); ratio of medians **{3:F2}x**.\n",
                  oneDNNVersion(), cmp.onednnMedian, cmp.onednnBest,
                  cmp.oursMedian / cmp.onednnMedian, unsigned(genThreads))
              .str();
  if (perVlen)
    md += formatv("## One build per VLEN\n\nThe object holds two builds: "
                  "`{0}_vlen128*` (VLEN >= 128, the sketch above) and "
                  "`{0}_vlen256*` (VLEN >= 256):\n\n```\n{1}\n```\n\n"
                  "Each entry point reads `vlenb` (csrr) and calls the "
                  "VLEN-256 build where vlenb >= 32, the VLEN-128 one "
                  "otherwise; `int {0}_vlen_variant(void)` returns which "
                  "(256 or 128). Verified under qemu at VLEN 128, 256 and "
                  "512, each run checking which build was called.\n\n",
                  name, wide->sketch)
              .str();
  if (Error e = writeTextFile(path("report.md"), md))
    return fail(toString(std::move(e)));

  if (runsHere && conv)
    outs() << convCheck.summary;
  else if (runsHere && checkedAsEpilogue)
    outs() << formatv("  verified{3}: max error/bound {0:E2}, {1} elements "
                      "over it -> {2}; not timed ({4})\n",
                      epilogueCheck.maxRatio, epilogueCheck.failures,
                      verified ? "passed" : "FAILED",
                      job.op.epilogue.empty() ? "" : " (with the epilogue)",
                      job.op.epilogue.empty()
                          ? "gen times GEMMs with BLAS-like entries only"
                          : "no baseline with the same epilogue yet");
  else if (runsHere) {
    if (!transposed)
      outs() << formatv("  verified: max error/bound {0:E2}, exact test {1} "
                        "mismatches -> {2}\n",
                        cmp.before.maxRatio, cmp.exactMismatches,
                        verified ? "passed" : "FAILED (" + gemmFailure + ")");
    if (!entries.summary.empty())
      outs() << "  " << entries.summary << "\n";
    if (cmp.timed)
      outs() << formatv("  speed: {0:F1} GFLOP/s vs OpenBLAS {1:F1} "
                        "(median, {4} thread(s)): {2:F2}x{3}{5}\n",
                        cmp.oursMedian, cmp.blasMedian,
                        cmp.oursMedian / cmp.blasMedian,
                        cmp.haveOneDNN
                            ? formatv("; vs oneDNN {0:F1}: {1:F2}x",
                                      cmp.onednnMedian,
                                      cmp.oursMedian / cmp.onednnMedian)
                                  .str()
                            : std::string(),
                        unsigned(genThreads),
                        cmp.fasterThanPeak
                            ? " (best sample above the FMA peak: timings "
                              "suspect)"
                            : "");
  }
  if (crossRun)
    outs() << "  verified under qemu: " << (verified ? "passed" : "FAILED")
           << "\n";
  else if (!runsHere)
    outs() << "  NOT verified: " << unverifiedReason << "\n";
  if ((runsHere || crossRun) && !verified) {
    // A kernel that failed verification is not shipped (the staging
    // directory goes with `staged`); an older one in DIR stays.
    outs() << "  nothing written to " << outDir
           << ": the kernel failed verification\n";
    return 1;
  }
  if (Error e = (*staged)->commit(fileNames))
    return fail(toString(std::move(e)));
  outs() << "  wrote " << outDir << "/{" << join(fileNames, ", ") << "}\n";
  return 0;
}

std::unique_ptr<Backend> tensorop::createCpuBackend() {
  return std::make_unique<CpuBackend>();
}
