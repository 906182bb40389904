//===- PassHints.h - The hints one pass run reads, loaded once --*- C++ -*-===//
//
// A sketch is planned by tensorop-annotate-sketch with the hints of the
// target it was asked for: for target=host the file resolveTargetName picks
// with this machine's caches and CPU facts over it (HostHints.h). The passes
// after it (tensorop-fuse-epilogues, tensorop-apply-sketch for GEMMs,
// convolutions and k-dot GEMMs) must read the same hints, or a kernel is
// applied with other facts than it was planned with. PassHints gives every
// one of them that answer, reading each file (and sysfs) once per pass run
// rather than once per op.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TARGETS_PASSHINTS_H
#define TENSOROP_TARGETS_PASSHINTS_H

#include "tensorop/Targets/TargetHints.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>

namespace mlir {
namespace tensorop {

/// The hints of one pass run, each loaded on first use and kept.
class PassHints {
public:
  /// `requested`: the target the pass runs for (its `target` option: "host",
  /// a named target, or "" where the pass was run without one); `dir`: the
  /// hints directory ("" for defaultHintsDir()).
  explicit PassHints(llvm::StringRef requested, llvm::StringRef dir = "");

  /// The hints of the requested target itself, as loadHintsForTarget gives
  /// them (for "host", overlaid). Fails for an empty request.
  llvm::Expected<const TargetHints &> forRequest();

  /// The hints to apply a sketch for `sketchTarget` (its #tensorop.target
  /// name) with: the overlaid host hints when the pass runs for "host" and
  /// host resolves to `sketchTarget` (annotate planned it with those);
  /// otherwise that target's file.
  llvm::Expected<const TargetHints &> forSketch(llvm::StringRef sketchTarget);

private:
  /// The hints under `key` ("host" or a file's target name), loading them
  /// the first time; a failure is kept and returned again as it was.
  llvm::Expected<const TargetHints &> get(llvm::StringRef key);

  std::string requested, dir;
  /// What "host" resolved to (empty if it did not), once looked up.
  std::optional<std::string> hostName;
  llvm::StringMap<std::unique_ptr<TargetHints>> loaded;
  llvm::StringMap<std::string> failed;
};

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_TARGETS_PASSHINTS_H
