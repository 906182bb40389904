//===- Emitter.h - Run emitter scripts and check what they print -*- C++ -*-===//
//
// Emitter scripts (python_emitters/*.py) take a JSON spec on stdin and print a
// JSON object with the microkernel's code. runEmitterScript() is the one
// runner and cache of every emitter, CPU and NVIDIA: it runs the script
// (shipped ones with a timeout, LLM-written ones in the sandbox), has the
// caller validate the answer and caches it by a content hash of everything
// that determines it. runEmitter() is the CPU microkernel's use of it, which
// also checks that the code assembles for the target with LLVM MC.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_EMITTERS_EMITTER_H
#define TENSOROP_EMITTERS_EMITTER_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::tensorop {

struct EmitterRequest {
  std::string script;      ///< Emitter family, e.g. "x86_gemm_fma".
  std::string dir;         ///< Directory holding <script>.py; "" = default.
  llvm::json::Object spec; ///< The JSON spec sent on stdin.
  unsigned timeoutSeconds = 30;
  /// Shipped emitters are trusted (run with a timeout); LLM-written ones are
  /// not and run in the sandbox (refused where none can be made, unless
  /// allowUnsandboxed).
  bool trusted = true;
  bool allowUnsandboxed = false;
  /// Target the code must assemble for.
  std::string triple, cpu, features;
  /// The asm operands of the answer: kNumUKernelOperands, one more (the
  /// epilogue block) for a kernel with a fused epilogue, one more for each
  /// of A's and B's run-time row strides (last, A's first).
  unsigned numOperands = 7;
};

struct EmittedKernel {
  std::string name;
  std::string asmText;
  std::string constraints;
  std::string dialect; ///< "att" or "intel".
  int64_t mr = 0, nr = 0;
  std::string hash; ///< Content hash of script + spec (the cache key).
  bool fromCache = false;
  /// A fused epilogue's constants (the block holds 16 copies of constant i
  /// at byte 64 + 64*i) and the block's size in bytes (0: no epilogue).
  std::vector<double> epilogueConstants;
  int64_t epilogueBlockBytes = 0;
};

/// TensorOp's cache root: $TENSOROP_CACHE_DIR, else
/// $XDG_CACHE_HOME/tensorop, else ~/.cache/tensorop; empty if none can be
/// named (caching is then off). Emitter and LLM caches live below it.
std::string tensoropCacheDir();

/// Writes `text` to `path` (creating its directory) through a temporary file
/// and a rename, so a concurrent reader never sees half a file. A cache that
/// cannot be written is only slower, so failures are ignored.
void writeCacheFile(llvm::StringRef path, llvm::StringRef text);

/// The directory emitter scripts are read from: $TENSOROP_EMITTER_DIR, else
/// python_emitters/ of the data directory (tensorop/Support/DataDir.h:
/// <prefix>/share/tensorop next to the installed binary).
std::string defaultEmitterDir();

/// One run of an emitter script, as the cache sees it.
struct EmitterScriptRequest {
  std::string script;   ///< Emitter family: runs <dir>/<script>.py.
  std::string dir;      ///< "" = defaultEmitterDir().
  std::string specText; ///< The JSON spec sent on stdin.
  /// The caller's contract with its emitters ("tensorop-emitter/1", ...):
  /// bumped when it changes, so stale entries are not reused.
  std::string protocol;
  /// Anything else the answer depends on (e.g. the target triple and CPU).
  std::string target;
  unsigned timeoutSeconds = 30;
  /// Shipped emitters are trusted (run with a timeout); LLM-written ones are
  /// not and run in the sandbox (refused where none can be made, unless
  /// allowUnsandboxed).
  bool trusted = true;
  bool allowUnsandboxed = false;
};

struct EmitterScriptAnswer {
  std::string text; ///< What the script printed (a JSON object).
  std::string hash; ///< The cache key (SHA-256, hex).
  bool fromCache = false;
};

/// The cache key of a run: SHA-256 of the protocol, the script text
/// `scriptText`, every Python file of the shared package the script can
/// import (<dir>/tensorop_emit/ and the default emitter directory's), the
/// spec and the target.
std::string emitterCacheKey(const EmitterScriptRequest &request,
                            llvm::StringRef scriptText);

/// The version of an emitter as the tuning database records it: 16 hex
/// digits of SHA-256 over <dir>/<script>.py and the same package modules
/// the cache key covers; "" if the script does not exist.
std::string emitterSourceHash(llvm::StringRef dir, llvm::StringRef script);

/// Runs the script, or fetches its answer from the cache
/// ($TENSOROP_CACHE_DIR/emitters/). `validate` checks an answer: a cached
/// one that fails is ignored (and rewritten), a fresh one that fails is the
/// error; only fresh answers that pass are cached.
llvm::Expected<EmitterScriptAnswer> runEmitterScript(
    const EmitterScriptRequest &request,
    llvm::function_ref<llvm::Error(llvm::StringRef answer, bool fromCache)>
        validate);

/// Runs (or fetches from the cache) a CPU microkernel emitter; every
/// failure is an error with the emitter's name and what went wrong.
llvm::Expected<EmittedKernel> runEmitter(const EmitterRequest &request);

/// Runs each shipped emitter script once over all of `requests` (its
/// --batch mode: a spec per stdin line, an answer per stdout line) and
/// checks every answer as runEmitter does; the ones that pass go into the
/// caches, so the runEmitter calls that follow find them. A tool that emits
/// thousands of kernels (the advisor sweeps) starts Python once per script
/// instead of once per spec. Only an accelerator: a spec the batch refused
/// or answered badly is not cached, and its runEmitter call runs the script
/// alone and reports what went wrong. Errors: a model-written (untrusted)
/// request, or a batch that could not run.
llvm::Error prefetchEmitterAnswers(llvm::ArrayRef<EmitterRequest> requests);

/// Checks that `asmText`, an LLVM inline-asm body with operands $0..$N,
/// assembles for the target. Operands are replaced by scratch registers.
llvm::Error checkAssembles(llvm::StringRef asmText, llvm::StringRef dialect,
                           unsigned numOperands, llvm::StringRef triple,
                           llvm::StringRef cpu, llvm::StringRef features);

/// The trust boundary for model-written machine code, before anything runs
/// it: `asmText` must assemble (as checkAssembles) and every instruction
/// the assembler parsed must be one a microkernel may contain on the
/// target: vector/FP and integer arithmetic, loads, stores and prefetches,
/// branches to the kernel's own labels; no call, return, indirect jump,
/// system call, trap, privileged or system instruction, no use of the
/// stack or program counter, no data directives; and at least one store.
/// The error names the first offending instruction (for the model).
llvm::Error checkMicrokernelCode(llvm::StringRef asmText,
                                 llvm::StringRef dialect, unsigned numOperands,
                                 llvm::StringRef triple, llvm::StringRef cpu,
                                 llvm::StringRef features);

/// The same boundary for PTX: the kernel body text of a GPU emitter may not
/// trap, call, branch indirectly, declare state outside its parameters,
/// registers and shared memory (.global/.const/.local variables), or read
/// special registers beyond the thread/block/cluster coordinates. Whether
/// its global stores stay within the parameters' buffers is not checked.
llvm::Error checkPtxKernelCode(llvm::StringRef ptx);

} // namespace mlir::tensorop

#endif // TENSOROP_EMITTERS_EMITTER_H
