//===- WorkerCommand.cpp - tensorop worker: the command line ---------------===//
//
// Only the options; the worker is lib/Driver/WorkerDriver.cpp.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tensorop/Driver/WorkerDriver.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {
cl::SubCommand workerCmd("worker", "(internal) Verify and time one tuning "
                                   "candidate in an isolated process");
cl::opt<std::string> object("object", cl::sub(workerCmd), cl::Required,
                            cl::desc("Object file of the candidate"));
cl::opt<std::string> symbol("symbol", cl::sub(workerCmd), cl::Required,
                            cl::desc("Kernel symbol"));
cl::opt<int64_t> wm("m", cl::sub(workerCmd), cl::Required);
cl::opt<int64_t> wn("n", cl::sub(workerCmd), cl::Required);
cl::opt<int64_t> wk("k", cl::sub(workerCmd), cl::Required);
cl::opt<unsigned> wseed("seed", cl::sub(workerCmd), cl::init(42));
cl::opt<int> wrounds("rounds", cl::sub(workerCmd), cl::init(5));
cl::opt<double> wroundSeconds("round-seconds", cl::sub(workerCmd),
                              cl::init(0.05));
cl::opt<bool> wsandboxed("sandboxed", cl::sub(workerCmd),
                          cl::desc("Started inside the kernel sandbox"));
cl::opt<bool> wcompare("compare", cl::sub(workerCmd),
                       cl::desc("gen's protocol: verify (and time) against "
                                "OpenBLAS, print the whole comparison"));
cl::opt<bool> wtime("time", cl::sub(workerCmd), cl::init(false));
cl::opt<double> wpeak("peak", cl::sub(workerCmd), cl::init(0));
cl::opt<unsigned> wthreads("threads", cl::sub(workerCmd), cl::init(1));
cl::opt<double> wsettle("settle-seconds", cl::sub(workerCmd), cl::init(0));
cl::opt<std::string> wconv(
    "conv", cl::sub(workerCmd), cl::init(""),
    cl::desc("The candidate is a convolution of this shape: N,H,W,C,F,R,S,"
             "stride H,W,dilation H,W,pad top,bottom,left,right"));
cl::opt<bool> wconvBaseline("conv-baseline", cl::sub(workerCmd),
                            cl::init(false),
                            cl::desc("With --conv: time oneDNN's "
                                     "convolution in the same rounds"));
} // namespace

bool tensorop::workerSubcommand() { return bool(workerCmd); }

int tensorop::runWorker() {
  WorkerOptions o;
  o.object = object;
  o.symbol = symbol;
  o.m = wm;
  o.n = wn;
  o.k = wk;
  o.seed = wseed;
  o.rounds = wrounds;
  o.roundSeconds = wroundSeconds;
  o.sandboxed = wsandboxed;
  o.compare = wcompare;
  o.time = wtime;
  o.peak = wpeak;
  o.threads = wthreads;
  o.settleSeconds = wsettle;
  if (!wconv.empty()) {
    o.conv = parseConvShapeArgument(wconv);
    if (!o.conv) {
      errs() << "tensorop worker: --conv='" << wconv
             << "' is not N,H,W,C,F,R,S,SH,SW,DH,DW,PT,PB,PL,PR (15 "
                "non-negative integers of a valid convolution)\n";
      return 2;
    }
  }
  o.convBaseline = wconvBaseline;
  return measureCandidate(o);
}
