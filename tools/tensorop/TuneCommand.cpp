//===- TuneCommand.cpp - tensorop tune: the command line -------------------===//
//
//   tensorop tune model.mlir --target=host --budget=64 --db=tune.db
//
// Only the options; the tuner is lib/Driver (TuneDriver.h).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tensorop/Driver/TuneDriver.h"

#include "llvm/Support/CommandLine.h"

using namespace llvm;

namespace {
cl::SubCommand tuneCmd("tune", "Tune every supported op of a module "
                               "(GEMMs; on CPU targets also "
                               "linalg.conv_2d_nhwc_hwcf convolutions over "
                               "the #tensorop.conv_sketch knobs; on NVIDIA "
                               "targets convolutions as implicit GEMMs): "
                               "MCTS over sketches, each candidate verified "
                               "and timed in an isolated worker");
cl::opt<std::string> input(cl::Positional, cl::sub(tuneCmd), cl::Required,
                           cl::desc("<input.mlir>"));
cl::opt<std::string> tTarget(
    "target", cl::sub(tuneCmd), cl::init("host"),
    cl::desc("Target: host, x86-avx512, x86-avx2, nvidia-sm80, nvidia-sm90"));
cl::opt<unsigned> budget("budget", cl::sub(tuneCmd), cl::init(32),
                         cl::desc("Candidates per op (resumed ones count)"));
cl::opt<std::string> dbPath("db", cl::sub(tuneCmd), cl::init(""),
                            cl::desc("Tuning database (SQLite, created if "
                                     "absent)"));
cl::opt<double> seconds("seconds", cl::sub(tuneCmd), cl::init(0),
                        cl::desc("Stop after this many seconds (0: no "
                                 "limit)"));
cl::opt<uint64_t> tSeed("seed", cl::sub(tuneCmd), cl::init(1),
                        cl::desc("Seed of the search"));
cl::opt<bool> jsonOut("json", cl::sub(tuneCmd), cl::init(false),
                      cl::desc("Print a JSON summary on stdout"));
cl::opt<std::string> reportDir("o", cl::sub(tuneCmd), cl::init(""),
                               cl::desc("Write report.md and progress.svg "
                                        "here"));
cl::opt<std::string> emitterDir(
    "emitter-dir", cl::sub(tuneCmd), cl::init(""),
    cl::desc("Emitter scripts directory (default: the shipped ones)"));
cl::opt<unsigned> candidateTimeout(
    "candidate-timeout", cl::sub(tuneCmd), cl::init(60),
    cl::desc("Wall-clock seconds a candidate's worker may run"));
cl::opt<std::string> tuneAdvisor(
    "advisor", cl::sub(tuneCmd), cl::init("builtin"),
    cl::desc("Who proposes expansions: builtin (its cost model ranks the "
             "tree's options), or llm (also asked every --llm-every "
             "candidates for a new sketch given the best and worst so far)"));
cl::opt<unsigned> llmEvery("llm-every", cl::sub(tuneCmd), cl::init(4),
                           cl::desc("With --advisor=llm: candidates between "
                                    "two proposals of the model"));
cl::opt<int> workerRounds("rounds", cl::sub(tuneCmd), cl::init(5),
                          cl::desc("Timed rounds per candidate"));
cl::opt<std::string> gpuRunner(
    "gpu-runner", cl::sub(tuneCmd), cl::init(""),
    cl::desc("NVIDIA targets: the measuring process (default: "
             "tensorop-gpu-runner beside this tool, else on PATH)"));
cl::opt<std::string> gpuBatch(
    "gpu-batch", cl::sub(tuneCmd), cl::init(""),
    cl::desc("NVIDIA targets, GPU on another machine: compile the next "
             "candidates into this directory with a run.sh for the GPU "
             "machine and stop; rerun after run.sh has run there to read the "
             "results and write the next batch"));
cl::opt<std::string> tuneGpus(
    "gpus", cl::sub(tuneCmd), cl::init(""),
    cl::desc("NVIDIA targets: the GPUs that measure, 'all' or indices such "
             "as 0,1 (default: the runner's GPU here; in a --gpu-batch, "
             "every GPU of the GPU machine). One runner per GPU, a free GPU "
             "taking the next candidate; with several GPUs here the "
             "candidates go through batches of --batch-size run here"));
cl::opt<std::string> knobsFile(
    "knobs", cl::sub(tuneCmd), cl::init(""),
    cl::desc("An MLIR file of transform.tune.knob ops (upstream's tune "
             "extension) naming knobs of the space: their options restrict "
             "the search, a selected value fixes a knob"));
cl::list<std::string> fixKnobs(
    "fix", cl::sub(tuneCmd), cl::CommaSeparated, cl::value_desc("NAME=VALUE"),
    cl::desc("Fix a knob of the space to one value, e.g. --fix=threads=1 "
             "(repeatable, or comma-separated: --fix=threads=1,kc=256); "
             "as a `selected` value in a --knobs file, with which it "
             "combines. --print-knobs lists the knobs and their values"));
cl::opt<bool> printKnobs(
    "print-knobs", cl::sub(tuneCmd), cl::init(false),
    cl::desc("Print each op's space as transform.tune.knob ops (the builtin "
             "advisor's values selected) and stop"));
cl::opt<unsigned> batchSize("batch-size", cl::sub(tuneCmd), cl::init(16),
                            cl::desc("Candidates per op in one --gpu-batch"));
cl::opt<unsigned> tuneThreads(
    "threads", cl::sub(tuneCmd), cl::init(1),
    cl::desc("Threads of the starting sketch (the builtin advisor's, as "
             "gen --threads=N builds it). The threads knob itself ranges "
             "over 1..cores, but as the last knob of the tree a small "
             "budget seldom reaches it"));
} // namespace

bool tensorop::tuneSubcommand() { return bool(tuneCmd); }

int tensorop::runTune() {
  TuneOptions o;
  o.input = input;
  o.target = tTarget;
  o.dbPath = dbPath;
  o.reportDir = reportDir;
  o.budget = budget;
  o.seconds = seconds;
  o.seed = tSeed;
  o.json = jsonOut;
  o.candidateTimeout = candidateTimeout;
  o.rounds = workerRounds;
  o.emitterDir = emitterDir;
  o.threads = tuneThreads;
  o.runner = gpuRunner;
  o.batchDir = gpuBatch;
  o.batchSize = batchSize;
  o.gpus = tuneGpus;
  o.knobsFile = knobsFile;
  o.fixedKnobs.assign(fixKnobs.begin(), fixKnobs.end());
  o.advisor = tuneAdvisor;
  o.llmEvery = llmEvery;
  o.printKnobs = printKnobs;
  return tuneModule(o);
}
