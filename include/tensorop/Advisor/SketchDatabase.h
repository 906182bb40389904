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

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
namespace tensorop {

/// Recomputes the hash of a row's sketch text (nullopt: not a sketch the
/// hasher understands); rows whose hash does not match are ignored.
using SketchConfigHasher =
    std::function<std::optional<std::string>(llvm::StringRef config)>;

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
  /// Rows read so far that failed their integrity checks, one line each
  /// (each reported once); best() skips them.
  virtual const std::vector<std::string> &warnings() const = 0;
  /// How best() rechecks a row's config hash. The opener sets the one of
  /// #tensorop.sketch; the NVIDIA pass sets that of #tensorop.gpu_sketch.
  virtual void setConfigHasher(SketchConfigHasher hasher) = 0;
};

using SketchDatabaseOpener = llvm::Expected<std::unique_ptr<SketchDatabase>> (*)(
    llvm::StringRef path, MLIRContext *ctx);

/// Installs the opener openSketchDatabase uses.
void registerSketchDatabaseOpener(SketchDatabaseOpener opener);

/// Opens the database at `path` read-only through the registered opener; an
/// error says so when no tuner library was linked.
llvm::Expected<std::unique_ptr<SketchDatabase>>
openSketchDatabase(llvm::StringRef path, MLIRContext *ctx);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_ADVISOR_SKETCHDATABASE_H
