//===- ProcessRunner.h - Run a program with limits, watched -----*- C++ -*-===//
//
// One way to run another program for everything TensorOp launches: the
// emitter sandbox (bwrap or limits only), the tuner's `tensorop worker`
// processes and tensorop-gpu-runner. The program runs in its own session and
// process group with rlimits (CPU time, address space, file size,
// processes, ...), dies with this process, is killed with its whole process
// tree at a wall-clock limit or when its output passes a cap, and its
// stdout and stderr come back as text.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_PROCESS_PROCESSRUNNER_H
#define TENSOROP_PROCESS_PROCESSRUNNER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tensorop {

/// One setrlimit(resource, {value, value}) applied in the child before exec
/// (RLIMIT_CPU gets a hard limit one second above: SIGXCPU, then SIGKILL).
struct ResourceLimit {
  int resource;
  uint64_t value;
};

struct ProcessSpec {
  /// argv[0] is the program's path, given to execve as is (no PATH search).
  std::vector<std::string> argv;
  /// The environment; none: this process's.
  std::optional<std::vector<std::string>> environment;
  /// Working directory; empty: this process's.
  std::string cwd;
  std::vector<ResourceLimit> limits;
  std::string stdinText;
  /// Wall-clock limit; none: wait as long as it runs.
  std::optional<unsigned> timeoutSeconds = 30;
  /// Cap on stdout and on stderr (each); the tree is killed past it.
  uint64_t maxOutputBytes = 4ull << 20;
  /// The command is bwrap with `--info-fd 3`: learn the pid of the sandbox's
  /// pid-namespace init from it, and before returning wait for that init to
  /// be gone, which the kernel allows only once every process in the
  /// namespace is.
  bool bwrapInfoFd = false;
  /// Bytes the child reads from descriptor 4 (a sealed memfd), e.g. the BPF
  /// program of bwrap's `--seccomp 4`; none: descriptor 4 is not set.
  std::optional<std::string> fd4Data;
  /// What errors (the program could not be started) begin with.
  std::string errorPrefix = "process";
};

struct ProcessResult {
  /// Exit status, or 128 + signal number if it was killed.
  int exitCode = -1;
  /// The signal that ended it (0 if it exited).
  int signal = 0;
  std::string stdoutText, stderrText;
  /// Killed at the wall-clock limit.
  bool timedOut = false;
  /// stdout or stderr went past maxOutputBytes; it was killed and the text
  /// holds the first maxOutputBytes bytes.
  bool outputTruncated = false;
};

/// Runs `spec`. A program that fails, crashes, times out or prints too much
/// is a result; errors are for what stops it from being started at all.
llvm::Expected<ProcessResult> runProcess(const ProcessSpec &spec);

/// How a worker-style child ended (the tuner's view): exit status, whether
/// the wall-clock limit killed it, why it did not exit normally.
struct ChildOutcome {
  int rc = -1;         ///< exit status; negative when it did not exit
  bool killed = false; ///< by the wall-clock limit (or the output cap)
  bool failedToRun = false;
  std::string message; ///< why it did not exit normally
  std::string stdoutText, stderrText;
};

/// Runs `program` (a path, or a name looked up on PATH) with `args`
/// (argv[1..]), stdout and stderr captured (up to 64 MiB each), its process
/// tree killed after `limitSeconds` (0: no limit); no core dumps.
ChildOutcome runWithLimit(llvm::StringRef program,
                          llvm::ArrayRef<std::string> args,
                          unsigned limitSeconds);

} // namespace tensorop

#endif // TENSOROP_PROCESS_PROCESSRUNNER_H
