//===- TuneDriver.h - tensorop tune: MCTS over sketches, measured -*- C++ -*-===//
//
// The library behind `tensorop tune`: for every supported GEMM of a module,
// a Monte Carlo tree search over its sketch space, each candidate compiled
// here and measured in its own process with a wall-clock limit, every
// result (failures included) in the tuning database before the next starts.
// One search loop for every target (TuneLoop.cpp); what a target family adds
// is in TuneBackend.h (CpuTune.cpp, GpuTune.cpp).
//
// CPU targets measure in a `tensorop worker` process. NVIDIA targets search
// #tensorop.gpu_sketch knobs with tensorop-gpu-runner as the worker; each
// candidate is compiled here (emitter, NVPTX, ptxas). Two ways to reach the
// GPU:
//  - local: the runner runs here, one process per candidate (this machine
//    has the GPU);
//  - batch (batchDir): the GPU machine has no MLIR, so the tuner compiles
//    the next candidates into DIR with a run.sh that runs each in its own
//    runner process there, and stops; rerunning the same command after
//    run.sh has run reads the results into the database and writes the
//    next batch, until the budget is spent and a last confirmation batch has
//    run.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_TUNEDRIVER_H
#define TENSOROP_DRIVER_TUNEDRIVER_H

#include <cstdint>
#include <string>
#include <vector>

namespace tensorop {

struct TuneOptions {
  std::string input;           ///< the module (.mlir) whose GEMMs are tuned
  std::string target = "host";
  std::string dbPath, reportDir;
  unsigned budget = 32;        ///< candidates per op (resumed ones count)
  double seconds = 0;          ///< 0 = no time limit
  uint64_t seed = 1;
  bool json = false;           ///< a JSON summary on stdout
  unsigned candidateTimeout = 60;
  int rounds = 5;              ///< timed rounds per candidate
  std::string emitterDir;      ///< CPU: emitter scripts ("" = shipped ones)
  unsigned threads = 1;        ///< CPU: threads of the starting sketch
  std::string runner;   ///< NVIDIA: tensorop-gpu-runner ("" = find it)
  std::string batchDir; ///< NVIDIA: "" = run the runner here
  unsigned batchSize = 16;
  /// NVIDIA: the GPUs ("" = the runner's default one here, every GPU of
  /// the GPU machine in a batch; "all"; "0,1"). Several GPUs here: the
  /// candidates go through batches run here, one runner per GPU.
  std::string gpus;
  /// Leaves out the summary on stdout (a round of a several-GPU run).
  bool quietSummary = false;
  /// The batch directory is run here between rounds (several GPUs here),
  /// not taken to a GPU machine.
  bool batchRunsHere = false;
  std::string knobsFile; ///< transform.tune.knob constraints
  /// "NAME=VALUE" each: knobs fixed from the command line (--fix), as a
  /// `selected` value in knobsFile fixes one.
  std::vector<std::string> fixedKnobs;
  std::string advisor = "builtin"; ///< or "llm": proposals from the history
  unsigned llmEvery = 4;
  bool printKnobs = false;
};

/// Runs `tensorop tune` through the target's Backend; returns the exit
/// status.
int tuneModule(const TuneOptions &options);


/// An SVG line plot of best-so-far against candidates tried.
std::string progressSvg(const std::vector<double> &bestSoFar,
                        const std::string &title, const std::string &unit);

} // namespace tensorop

#endif // TENSOROP_DRIVER_TUNEDRIVER_H
