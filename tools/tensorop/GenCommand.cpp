//===- GenCommand.cpp - tensorop gen: the command line ---------------------===//
//
//   tensorop gen "97x131x67 fp32 GEMM for x86-avx512" -o out/
//
// Only the options; the driver is lib/Driver/GenDriver.cpp.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tensorop/Driver/GenDriver.h"

#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace {
cl::SubCommand genCmd("gen", "Generate a verified kernel from a one-line "
                             "request, e.g. \"97x131x67 fp32 GEMM for "
                             "x86-avx512\"");
cl::opt<std::string> request(cl::Positional, cl::sub(genCmd), cl::Required,
                             cl::desc("\"<one-line request>\""));
cl::opt<std::string> outDir("o", cl::sub(genCmd), cl::init(""),
                            cl::desc("Output directory"),
                            cl::value_desc("DIR"));
cl::opt<std::string> genAdvisor("advisor", cl::sub(genCmd),
                                cl::init("builtin"),
                                cl::desc("Advisor: builtin, llm (needs "
                                         "TENSOROP_LLM_URL/_MODEL), "
                                         "replay:DIR"));
cl::opt<std::string> genTarget(
    "target", cl::sub(genCmd), cl::init(""),
    cl::desc("Target of a request that names none (one that names another "
             "is an error): host, x86-avx512, x86-avx2, riscv-rvv, arm-neon, "
             "nvidia-sm80, nvidia-sm90"));
cl::opt<std::string> kernelName("name", cl::sub(genCmd), cl::init(""),
                                cl::desc("Kernel (function) name"));
cl::opt<std::string> genDb("db", cl::sub(genCmd), cl::init(""),
                          cl::desc("Tuning database: use its best verified "
                                   "sketch for this op if it has one"));
cl::opt<bool> noBench("no-bench", cl::sub(genCmd), cl::init(false),
                      cl::desc("Verify but do not time against OpenBLAS"));
cl::opt<double> genPeakGflops(
    "peak", cl::sub(genCmd), cl::init(0),
    cl::desc("fp32 FMA peak of one core in GFLOP/s (default: measured at "
             "start). A best sample above it: a warning for a kernel of the "
             "shipped emitters (the result verified before and after "
             "timing, so the peak figure is suspect), a failure for a "
             "model-written microkernel"));
cl::opt<bool> parseOnly("parse-only", cl::sub(genCmd), cl::init(false),
                        cl::desc("Print what the request was understood as "
                                 "(JSON) and stop; a request gen would "
                                 "refuse fails with gen's message"));
cl::opt<bool> allowUnsandboxed(
    "allow-unsandboxed", cl::sub(genCmd), cl::init(false),
    cl::desc("Run LLM-written emitter scripts even where no sandbox can be "
             "made (with resource limits only); the kernels they print are "
             "still run only in the sandbox. Never use this with a model "
             "you do not trust"));
cl::opt<unsigned> genSeed("seed", cl::sub(genCmd), cl::init(42),
                          cl::desc("Seed of the verification inputs"));
cl::opt<unsigned> genThreads(
    "threads", cl::sub(genCmd), cl::init(1),
    cl::desc("Threads the kernel runs on (x86-64 CPU targets; N > 1 needs "
             "LLVM's OpenMP runtime, libomp, where the object is linked); "
             "a sketch from --db keeps its own"));
cl::opt<int64_t> genMinFlopsPerThread(
    "min-flops-per-thread", cl::sub(genCmd),
    cl::init(mlir::tensorop::kTargetMinFlopsPerThread),
    cl::desc("With --threads=N: a GEMM whose 2*M*N*K flops give a thread "
             "less than this runs on fewer threads (the header and report "
             "say why); 0: always N; -1 (the default): the target's "
             "threads.team_cost_us times its core's peak, doubled for a "
             "K below 64"));
} // namespace

bool tensorop::genSubcommand() { return bool(genCmd); }

int tensorop::runGen() {
  GenOptions o;
  o.request = request;
  o.outDir = outDir;
  o.advisor = genAdvisor;
  o.target = genTarget;
  o.name = kernelName;
  o.db = genDb;
  o.noBench = noBench;
  o.peakGflops = genPeakGflops;
  o.parseOnly = parseOnly;
  o.allowUnsandboxed = allowUnsandboxed;
  o.seed = genSeed;
  o.threads = genThreads;
  o.minFlopsPerThread = genMinFlopsPerThread;
  return generateKernel(o);
}
