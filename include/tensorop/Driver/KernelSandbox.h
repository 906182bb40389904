//===- KernelSandbox.h - Model-written kernels run only sandboxed -*- C++ -*-===//
//
// A kernel built from a model-written emitter (`llm_*`) is machine code a
// model chose. The instruction allowlist (lib/Emitters/CodeAllowlist.cpp)
// stands in front of it, but a kernel that passes it can still store out
// of bounds through its operand pointers or loop forever. Such a kernel is
// therefore executed, for verification and for timing, only in a
// `tensorop worker` process inside the emitter sandbox (bwrap, no network,
// an unprivileged uid, read-only system directories, a private /tmp, the
// seccomp filter, rlimits and a wall-clock limit; lib/Emitters/Sandbox.cpp):
// the object is compiled here, the worker loads a read-only copy, and its
// verdict comes back as one JSON line on a pipe. `gen` and `tune` use it;
// builtin kernels keep the in-process path.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_KERNELSANDBOX_H
#define TENSOROP_DRIVER_KERNELSANDBOX_H

#include "tensorop/Process/ProcessRunner.h"
#include "tensorop/Verify/CpuGemm.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <string>

namespace tensorop {

/// Whether a printed sketch's microkernel comes from a model-written
/// emitter (`emitter = "llm_..."`).
bool usesModelWrittenEmitter(llvm::StringRef sketch);

/// Runs `tensorop worker <workerArgs> --object=/sandbox/kernel.o
/// --sandboxed` on a copy of `object` in the sandbox, killed after
/// `timeoutSeconds`; `m`, `n`, `k` size its memory limit and `threads` its
/// process limit. The outcome as runWithLimit gives it (failedToRun with
/// the reason when no sandbox can be made here).
ChildOutcome runWorkerSandboxed(llvm::StringRef object,
                                llvm::ArrayRef<std::string> workerArgs,
                                int64_t m, int64_t n, int64_t k,
                                unsigned threads, unsigned timeoutSeconds);

/// Wall-clock limit of a sandboxed verification of an M x N x K GEMM:
/// generous for the fp64 reference and the timed rounds, short enough that
/// a kernel that never returns costs little. TENSOROP_KERNEL_TIMEOUT
/// (seconds) overrides it.
unsigned sandboxedKernelTimeout(int64_t m, int64_t n, int64_t k, bool timed);

/// A GemmComparison as the worker sends it, and back.
llvm::json::Object comparisonToJSON(const GemmComparison &c);
GemmComparison comparisonFromJSON(const llvm::json::Object &o);

/// gen's verification of a model-written kernel: compareWithOpenBLAS run by
/// the sandboxed worker on `object`. A kernel that crashes, is killed or
/// cannot be run comes back with `error` saying so.
GemmComparison compareInSandbox(llvm::StringRef object, llvm::StringRef symbol,
                                int64_t m, int64_t n, int64_t k, unsigned seed,
                                bool time, int rounds, double roundSeconds,
                                double peak, unsigned threads,
                                double settleSeconds);

} // namespace tensorop

#endif // TENSOROP_DRIVER_KERNELSANDBOX_H
