//===- GpuBatchScript.h - The run.sh of a --gpu-batch directory -*- C++ -*-===//
//
// `tensorop tune --gpu-batch=DIR` compiles candidates here and leaves DIR
// with a run.sh for the GPU machine, which has no MLIR. The script runs each
// kernel in its own tensorop-gpu-runner process with a wall-clock limit, one
// runner per GPU at a time, a free GPU taking the next job (several GPUs of
// one host; across hosts, DIR is a plain job list: docs/GPU.md).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_GPUBATCHSCRIPT_H
#define TENSOROP_DRIVER_GPUBATCHSCRIPT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tensorop {

/// One runner process of a batch: results go to FILE.result.json, FILE.rc
/// and FILE.gpu (the GPU it ran on).
struct GpuBatchJob {
  std::string file;
  std::vector<std::string> runnerArgs;
};

struct GpuBatchScriptOptions {
  /// The GPUs, as --gpus gives them: "all" or a list such as "0,1"
  /// (TENSOROP_GPUS overrides it when run.sh runs).
  std::string gpus = "all";
  unsigned timeoutSeconds = 60;
  /// A confirmation batch compares its kernels with each other: it runs on
  /// the first GPU only.
  bool confirmation = false;
};

/// Checks a --gpus value: "all", or distinct GPU indices separated by
/// commas ("0,1"). The error names what is wrong.
llvm::Error checkGpuList(llvm::StringRef gpus);

/// The GPU indices of a checked list ("all" gives none: run.sh decides).
std::vector<unsigned> parseGpuList(llvm::StringRef gpus);

/// The text of run.sh.
std::string gpuBatchRunScript(const GpuBatchScriptOptions &options,
                              llvm::ArrayRef<GpuBatchJob> jobs);

} // namespace tensorop

#endif // TENSOROP_DRIVER_GPUBATCHSCRIPT_H
