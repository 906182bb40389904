//===- PassHints.cpp - The hints one pass run reads, loaded once ----------===//

#include "tensorop/Targets/PassHints.h"

using namespace mlir;
using namespace mlir::tensorop;

PassHints::PassHints(llvm::StringRef requested, llvm::StringRef dir)
    : requested(requested.str()), dir(dir.str()) {}

llvm::Expected<const TargetHints &> PassHints::get(llvm::StringRef key) {
  if (auto it = loaded.find(key); it != loaded.end())
    return *it->second;
  if (auto it = failed.find(key); it != failed.end())
    return llvm::createStringError(it->second);
  // "host" is the only key loadHintsForTarget overlays; any other is the
  // named file, as loadTargetHints reads it.
  llvm::Expected<TargetHints> hints = loadHintsForTarget(key, dir);
  if (!hints) {
    std::string why = llvm::toString(hints.takeError());
    failed[key] = why;
    return llvm::createStringError(why);
  }
  std::unique_ptr<TargetHints> &slot = loaded[key];
  slot = std::make_unique<TargetHints>(std::move(*hints));
  return *slot;
}

llvm::Expected<const TargetHints &> PassHints::forRequest() {
  if (requested.empty())
    return llvm::createStringError("no target was requested");
  return get(requested);
}

llvm::Expected<const TargetHints &>
PassHints::forSketch(llvm::StringRef sketchTarget) {
  if (requested == "host") {
    if (!hostName) {
      llvm::Expected<std::string> resolved = resolveTargetName("host");
      // A host without a supported ISA planned nothing for "host": its
      // sketches name their targets, whose files they keep.
      if (resolved)
        hostName = *resolved;
      else {
        llvm::consumeError(resolved.takeError());
        hostName = "";
      }
    }
    if (*hostName == sketchTarget)
      return get("host");
  }
  return get(sketchTarget);
}
