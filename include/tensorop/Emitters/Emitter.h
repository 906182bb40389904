//===- Emitter.h - Run emitter scripts and check what they print -*- C++ -*-===//
//
// Emitter scripts (python_emitters/*.py) take a JSON spec on stdin and print a
// JSON object with the microkernel's code. This library runs them with a
// timeout, validates the answer, checks that the code assembles for the
// target with LLVM MC, and caches the result by content hash.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_EMITTERS_EMITTER_H
#define TENSOROP_EMITTERS_EMITTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>

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
};

struct EmittedKernel {
  std::string name;
  std::string asmText;
  std::string constraints;
  std::string dialect; ///< "att" or "intel".
  int64_t mr = 0, nr = 0;
  std::string hash; ///< Content hash of script + spec (the cache key).
  bool fromCache = false;
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

/// Runs (or fetches from the cache) the emitter; every failure is an error
/// with the emitter's name and what went wrong.
llvm::Expected<EmittedKernel> runEmitter(const EmitterRequest &request);

/// Checks that `asmText`, an LLVM inline-asm body with operands $0..$N,
/// assembles for the target. Operands are replaced by scratch registers.
llvm::Error checkAssembles(llvm::StringRef asmText, llvm::StringRef dialect,
                           unsigned numOperands, llvm::StringRef triple,
                           llvm::StringRef cpu, llvm::StringRef features);

} // namespace mlir::tensorop

#endif // TENSOROP_EMITTERS_EMITTER_H
