//===- BenchCommand.cpp - tensorop bench: the command line -----------------===//
//
// Only the options; the benchmark is lib/Driver/BenchDriver.cpp.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tensorop/Driver/BenchDriver.h"

#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace {
cl::SubCommand benchCmd("bench",
                        "Time TensorOp fp32 GEMMs against OpenBLAS sgemm, side "
                        "by side in one process, verified before and after");
cl::list<std::string> shapes(
    "shapes", cl::sub(benchCmd), cl::CommaSeparated,
    cl::desc("Shapes: N (N^3) or MxNxK; default 256,512,1024,2048,127x1000x513"));
cl::opt<bool> conv(
    "conv", cl::sub(benchCmd), cl::init(false),
    cl::desc("Time fp32 convolutions against oneDNN's convolution primitive "
             "instead (default layers: ResNet-50 at N=1 and N=8 and odd "
             "shapes; --shapes takes convolution requests without commas)"));
cl::opt<std::string> target("target", cl::sub(benchCmd), cl::init("host"),
                            cl::desc("Target: host, x86-avx512, x86-avx2"));
cl::opt<std::string> advisor("advisor", cl::sub(benchCmd),
                             cl::init("builtin"), cl::desc("Advisor"));
cl::opt<int> rounds("rounds", cl::sub(benchCmd), cl::init(7),
                    cl::desc("Timed rounds per side (A B A B ..., >= 5)"));
cl::opt<double> roundSeconds("round-seconds", cl::sub(benchCmd),
                             cl::init(0.15),
                             cl::desc("Minimum length of one timed round"));
cl::opt<unsigned> seed("seed", cl::sub(benchCmd), cl::init(42),
                       cl::desc("Seed of the input values"));
cl::opt<std::string> sketchOverride(
    "sketch", cl::sub(benchCmd), cl::init(""),
    cl::desc("Use this #tensorop.sketch<...> for every shape instead of "
             "asking the advisor (with --conv: a #tensorop.conv_sketch<...> "
             "for every layer)"));
cl::opt<std::string> tunedDb(
    "tuned-db", cl::sub(benchCmd), cl::init(""),
    cl::desc("Also time the sketch this tuning database holds for each "
             "shape: builtin, tuned and OpenBLAS side by side. With --conv: "
             "each layer runs its record from this database (the advisor's "
             "sketch where it has none; the path column says which)"));
cl::opt<unsigned> benchThreads(
    "threads", cl::sub(benchCmd), cl::init(1),
    cl::desc("Threads for our kernels and the libraries (with N > 1, our "
             "single-threaded kernel is timed in the same rounds)"));
cl::opt<bool> classes(
    "classes", cl::sub(benchCmd), cl::init(false),
    cl::desc("Default shapes: the shape classes (small, skinny, irregular, "
             "square, tall), with a geomean against the best library per "
             "class"));
cl::opt<double> peakGflops(
    "peak", cl::sub(benchCmd), cl::init(0),
    cl::desc("fp32 FMA peak of one core in GFLOP/s (default: measured); "
             "a sample above it is reported with a warning"));
cl::opt<std::string> jsonOut("json", cl::sub(benchCmd), cl::init(""),
                             cl::desc("Write the results as JSON here"));
cl::opt<std::string> markdownOut("markdown", cl::sub(benchCmd), cl::init(""),
                                 cl::desc("Write a markdown table here"));
} // namespace

void tensorop::registerBenchCommand() {}
bool tensorop::benchSubcommand() { return bool(benchCmd); }

int tensorop::runBench() {
  BenchOptions o;
  o.shapes.assign(shapes.begin(), shapes.end());
  o.conv = conv;
  o.target = target;
  o.advisor = advisor;
  o.rounds = rounds;
  o.roundSeconds = roundSeconds;
  o.seed = seed;
  o.sketch = sketchOverride;
  o.tunedDb = tunedDb;
  o.threads = benchThreads;
  o.classes = classes;
  o.peakGflops = peakGflops;
  o.jsonOut = jsonOut;
  o.markdownOut = markdownOut;
  return benchmark(o);
}
