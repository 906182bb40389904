//===- GpuTune.h - tensorop tune for NVIDIA targets -------------*- C++ -*-===//
//
// The GPU half of `tensorop tune`: the same tree search and database as on
// the CPU, over #tensorop.gpu_sketch knobs, with tensorop-gpu-runner as the
// worker. Each candidate is compiled here (emitter, NVPTX, ptxas) and run in
// its own runner process with a wall-clock limit.
//
// Two ways to reach the GPU:
//  - local: the runner runs here, one process per candidate (this machine
//    has the GPU);
//  - batch (--gpu-batch=DIR): the GPU machine has no MLIR, so the tuner
//    compiles the next candidates into DIR with a run.sh that runs each in
//    its own runner process there, and stops; rerunning the same command
//    after run.sh has run reads the results into the database and writes the
//    next batch, until the budget is spent and a last confirmation batch has
//    run.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TOOLS_GPUTUNE_H
#define TENSOROP_TOOLS_GPUTUNE_H

#include <cstdint>
#include <string>
#include <vector>

namespace tensorop {

struct GpuTuneOptions {
  std::string input, target, dbPath, reportDir;
  unsigned budget = 32;
  double seconds = 0;
  uint64_t seed = 1;
  bool json = false;
  unsigned candidateTimeout = 60;
  int rounds = 5;
  std::string runner;   ///< tensorop-gpu-runner (or a stand-in)
  std::string batchDir; ///< "" = run the runner here
  unsigned batchSize = 16;
  std::string knobsFile; ///< transform.tune.knob constraints
  std::string advisor = "builtin"; ///< or "llm": proposals from the history
  unsigned llmEvery = 4;
  bool printKnobs = false;
};

int runGpuTune(const GpuTuneOptions &options);

/// An SVG line plot of best-so-far against candidates tried.
std::string progressSvg(const std::vector<double> &bestSoFar,
                        const std::string &title, const std::string &unit);

} // namespace tensorop

#endif
