//===- Sandbox.h - Run untrusted emitter scripts contained ------*- C++ -*-===//
//
// Emitter scripts written by an LLM are untrusted code. runSandboxed() runs
// `python3 SCRIPT` under bubblewrap: new network, pid, ipc and uts namespaces,
// a read-only view of the system directories only, a private size-limited
// tmpfs as /tmp, an unprivileged uid, rlimits on CPU, address space, processes,
// file size and descriptors, a wall-clock timeout that kills the whole process
// tree, and a byte cap on what it prints. docs/LLM.md says what each layer
// does and does not protect against.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_EMITTERS_SANDBOX_H
#define TENSOROP_EMITTERS_SANDBOX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tensorop {

struct SandboxOptions {
  /// Wall-clock limit; the CPU rlimit is one second more.
  unsigned timeoutSeconds = 30;
  /// RLIMIT_AS of every process in the sandbox.
  uint64_t memoryBytes = 512ull << 20;
  /// Cap on stdout and on stderr (each); the script is killed past it.
  uint64_t maxOutputBytes = 4ull << 20;
  /// Size of the private /tmp (tmpfs size) and RLIMIT_FSIZE.
  uint64_t tmpBytes = 16ull << 20;
  /// RLIMIT_NPROC of the sandbox uid.
  unsigned maxProcesses = 16;
  /// Where no sandbox can be made: run with the limits only instead of
  /// refusing. Never set this for code you do not trust.
  bool allowUnsandboxed = false;
  /// Directories made visible read-only at the same path and put on
  /// PYTHONPATH (e.g. python_emitters/ for the shared helper module).
  std::vector<std::string> importDirs;
};

struct SandboxResult {
  /// Exit status, or 128 + signal number if the script was killed.
  int exitCode = -1;
  std::string stdoutText, stderrText;
  /// Killed at the wall-clock limit.
  bool timedOut = false;
  /// stdout or stderr went past maxOutputBytes; the script was killed and
  /// the text holds the first maxOutputBytes bytes.
  bool outputTruncated = false;
  /// "bwrap" or "none".
  std::string sandbox;
};

/// Whether a real sandbox can be made here; `why` says what is missing (or,
/// when one can, describes it). The answer is computed once per process.
bool sandboxAvailable(std::string &why);

/// Runs `python3 <scriptPath>` with `stdinText` on stdin inside the sandbox. If
/// no sandbox can be made, fails with a clear message unless
/// options.allowUnsandboxed (then runs with limits only, sandbox="none").
/// A script that fails, times out or prints too much is a result, not an
/// error; errors are for what stops the script from being started at all.
llvm::Expected<SandboxResult> runSandboxed(llvm::StringRef scriptPath,
                                           llvm::StringRef stdinText,
                                           const SandboxOptions &options);

/// A file a sandboxed program needs: a private read-only copy of hostPath
/// appears as /sandbox/<name>.
struct SandboxFile {
  std::string name;
  std::string hostPath;
};

/// Runs `argv` (paths as the sandbox sees them, e.g. /sandbox/NAME for one
/// of `files`) in the same sandbox as the emitter scripts: bwrap's
/// namespaces, read-only /usr and /etc, private /tmp, an unprivileged uid,
/// the seccomp filter, the limits of `options`. Used for model-written
/// kernels (`tensorop worker` on their object). There is no unsandboxed
/// fallback: where no sandbox can be made this is an error.
llvm::Expected<SandboxResult>
runSandboxedProgram(llvm::ArrayRef<std::string> argv,
                    llvm::ArrayRef<SandboxFile> files,
                    llvm::StringRef stdinText, const SandboxOptions &options);

} // namespace mlir::tensorop

#endif // TENSOROP_EMITTERS_SANDBOX_H
