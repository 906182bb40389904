//===- tensorop.cpp - The tensorop command --------------------------------===//
//
//   tensorop gen "<one line>" -o DIR
//   tensorop bench [--shapes=...] [--target=T] [--json=FILE]
//
// One binary, one subcommand per job; each subcommand lives in its own file.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Support/ToolInfo.h"
#include "tensorop/Transforms/Passes.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  tensorop::registerBenchCommand();
  // Each subcommand's --help lists its own options; the top level's would
  // list LLVM's (they move to --help-hidden).
  mlir::tensorop::hideLibraryOptions();
  mlir::tensorop::setToolVersionPrinter("tensorop");
  std::string overview =
      "TensorOp: high-performance tensor operators from sketches and "
      "emitted microkernels (" +
      mlir::tensorop::versionLine() +
      ")\n\n"
      "  tensorop gen     a verified kernel (object, header, report) from a "
      "one-line request\n"
      "  tensorop tune    MCTS over sketches, measured in isolated workers, "
      "into a tuning database\n"
      "  tensorop db      list, show, export or prune a tuning database\n"
      "  tensorop bench   time TensorOp GEMMs against OpenBLAS, verified\n\n"
      "  targets:  " +
      mlir::tensorop::knownTargetList() +
      "\n"
      "  advisors: " +
      mlir::tensorop::kAdvisorNames.str() +
      " (NVIDIA targets: builtin, llm)\n\n"
      "  'tensorop <subcommand> --help' lists a subcommand's options.\n";
  llvm::cl::ParseCommandLineOptions(argc, argv, overview);
  if (tensorop::benchSubcommand())
    return tensorop::runBench();
  if (tensorop::genSubcommand())
    return tensorop::runGen();
  if (tensorop::tuneSubcommand())
    return tensorop::runTune();
  if (tensorop::dbSubcommand())
    return tensorop::runDb();
  if (tensorop::workerSubcommand())
    return tensorop::runWorker();
  llvm::errs() << "tensorop: no subcommand given; see 'tensorop --help'\n";
  return 2;
}
