//===- ChildProcess.h - A program run with a wall-clock limit ---*- C++ -*-===//
//
// How the tuner's workers run (`tensorop worker` for CPU candidates,
// tensorop-gpu-runner for GPU ones): one process each, stdout and stderr
// captured, killed when the limit passes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TOOLS_CHILDPROCESS_H
#define TENSOROP_TOOLS_CHILDPROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tensorop {
struct ChildOutcome {
  int rc = -1;         ///< exit status; negative when it did not exit
  bool killed = false; ///< by the wall-clock limit
  bool failedToRun = false;
  std::string message; ///< why it did not exit normally (from LLVM)
  std::string stdoutText, stderrText;
};

/// Runs `program` with `args` (argv[1..]); killed after `limitSeconds`.
ChildOutcome runWithLimit(llvm::StringRef program,
                          llvm::ArrayRef<std::string> args,
                          unsigned limitSeconds);
} // namespace tensorop

#endif
