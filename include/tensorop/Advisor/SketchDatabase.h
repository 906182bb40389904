//===- SketchDatabase.h - Tuned sketches the pipeline reads -----*- C++ -*-===//
//
// The pipeline's db= option reads the best verified sketch of each op from a
// tuning database. The database (SQLite) belongs to TensorOp::Tuner; the
// passes see it through this interface, and the Tuner library registers the
// opener (registerTuningDatabaseProvider() in tensorop/Tuner/TuningDB.h), so
// the core does not link SQLite.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_SKETCHDATABASE_H
#define TENSOROP_ADVISOR_SKETCHDATABASE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::tensorop {

/// One tuned sketch: the attribute text, the hash of its knobs, and its
/// speed when measured.
struct TunedSketch {
  std::string config;
  std::string configHash;
  std::optional<double> gflops;
};

class SketchDatabase {
public:
  virtual ~SketchDatabase();
  /// Where the database is (for messages).
  virtual llvm::StringRef path() const = 0;
  /// The best verified sketch for the op signature on the target
  /// fingerprint; nullopt if there is none.
  virtual llvm::Expected<std::optional<TunedSketch>>
  best(llvm::StringRef opSignature, llvm::StringRef targetFingerprint) = 0;
};

using SketchDatabaseOpener =
    llvm::Expected<std::unique_ptr<SketchDatabase>> (*)(llvm::StringRef path);

/// Installs the opener openSketchDatabase uses.
void registerSketchDatabaseOpener(SketchDatabaseOpener opener);

/// Opens the database at `path` read-only through the registered opener; an
/// error says so when no tuner library was linked.
llvm::Expected<std::unique_ptr<SketchDatabase>>
openSketchDatabase(llvm::StringRef path);

} // namespace mlir::tensorop

#endif // TENSOROP_ADVISOR_SKETCHDATABASE_H
