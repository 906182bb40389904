//===- tensorop-sandbox-run.cpp - Run one script in the sandbox -----------===//
//
//   tensorop-sandbox-run [--timeout=S] [--memory-mb=N] [--allow-unsandboxed]
//                        SCRIPT < spec.json
//   tensorop-sandbox-run --probe
//
// Prints the script's stdout on stdout and its stderr on stderr, then one line
// of JSON status on stderr. Exit status: 0 if the script exited 0 in time and
// within the output cap, 1 if not, 2 if it could not be run at all (no
// sandbox, unreadable script). For tests and for debugging emitters.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Emitters/Sandbox.h"
#include "tensorop/Support/ToolInfo.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>

using namespace llvm;
using namespace mlir::tensorop;

static cl::opt<std::string> scriptPath(cl::Positional, cl::desc("<script.py>"));
static cl::opt<bool> probeOnly("probe",
                               cl::desc("Say whether a sandbox can be made "
                                        "here (exit 0) or not (exit 1)"));
static cl::opt<unsigned>
    timeoutSeconds("timeout", cl::desc("Wall-clock limit (seconds)"),
                   cl::init(SandboxOptions().timeoutSeconds));
static cl::opt<uint64_t> memoryMB("memory-mb",
                                  cl::desc("Address-space limit (MiB)"),
                                  cl::init(SandboxOptions().memoryBytes >> 20));
static cl::opt<uint64_t> tmpMB("tmp-mb", cl::desc("Size of /tmp (MiB)"),
                               cl::init(SandboxOptions().tmpBytes >> 20));
static cl::opt<uint64_t>
    maxOutputKB("max-output-kb", cl::desc("Cap on stdout and stderr (KiB)"),
                cl::init(SandboxOptions().maxOutputBytes >> 10));
static cl::opt<unsigned> maxProcesses("max-processes",
                                      cl::desc("Process limit (RLIMIT_NPROC)"),
                                      cl::init(SandboxOptions().maxProcesses));
static cl::opt<bool> allowUnsandboxed(
    "allow-unsandboxed",
    cl::desc("Where no sandbox can be made, run with resource limits only"));
static cl::list<std::string>
    importDirs("import-dir",
               cl::desc("Directory visible read-only and on PYTHONPATH"));

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  showOnlyToolOptions({&scriptPath, &probeOnly, &timeoutSeconds, &memoryMB,
                       &tmpMB, &maxOutputKB, &maxProcesses, &allowUnsandboxed,
                       &static_cast<cl::Option &>(importDirs)});
  setToolVersionPrinter("tensorop-sandbox-run");
  cl::ParseCommandLineOptions(argc, argv,
                              "Run a python3 script in the TensorOp sandbox\n");
  if (probeOnly) {
    std::string why;
    bool ok = sandboxAvailable(why);
    outs() << "sandbox: " << (ok ? "available: " : "unavailable: ") << why
           << "\n";
    return ok ? 0 : 1;
  }
  if (scriptPath.empty()) {
    errs() << "tensorop-sandbox-run: error: no script given\n";
    return 2;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> input = MemoryBuffer::getSTDIN();
  if (!input) {
    errs() << "tensorop-sandbox-run: error: cannot read stdin: "
           << input.getError().message() << "\n";
    return 2;
  }
  SandboxOptions options;
  options.timeoutSeconds = timeoutSeconds;
  options.memoryBytes = memoryMB << 20;
  options.tmpBytes = tmpMB << 20;
  options.maxOutputBytes = maxOutputKB << 10;
  options.maxProcesses = maxProcesses;
  options.allowUnsandboxed = allowUnsandboxed;
  options.importDirs.assign(importDirs.begin(), importDirs.end());

  auto start = std::chrono::steady_clock::now();
  Expected<SandboxResult> result =
      runSandboxed(scriptPath, (*input)->getBuffer(), options);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (!result) {
    errs() << "tensorop-sandbox-run: error: " << toString(result.takeError())
           << "\n";
    return 2;
  }
  outs() << result->stdoutText;
  outs().flush();
  errs() << result->stderrText;
  if (!result->stderrText.empty() && result->stderrText.back() != '\n')
    errs() << "\n";
  json::Object status{{"sandbox", result->sandbox},
                      {"exit_code", result->exitCode},
                      {"timed_out", result->timedOut},
                      {"output_truncated", result->outputTruncated},
                      {"stdout_bytes", int64_t(result->stdoutText.size())},
                      {"stderr_bytes", int64_t(result->stderrText.size())},
                      {"wall_ms", int64_t(std::llround(seconds * 1000))}};
  errs() << json::Value(std::move(status)) << "\n";
  bool ok =
      result->exitCode == 0 && !result->timedOut && !result->outputTruncated;
  return ok ? 0 : 1;
}
