//===- SketchDatabaseProvider.cpp - The tuning database for db= -----------===//
//
// Serves the pipeline's db= option (tensorop/Advisor/SketchDatabase.h) from
// the SQLite tuning database.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Advisor/SketchDatabase.h"
#include "tensorop/Tuner/SearchSpace.h"
#include "tensorop/Tuner/TuningDB.h"

using namespace mlir::tensorop;

namespace {
class TuningDBSketches : public SketchDatabase {
public:
  explicit TuningDBSketches(std::unique_ptr<TuningDB> db) : db(std::move(db)) {}
  llvm::StringRef path() const override { return db->path(); }
  llvm::Expected<std::optional<TunedSketch>>
  best(llvm::StringRef opSignature,
       llvm::StringRef targetFingerprint) override {
    llvm::Expected<std::optional<CandidateRecord>> record =
        db->best(opSignature, targetFingerprint);
    if (!record)
      return record.takeError();
    if (!*record)
      return std::nullopt;
    return TunedSketch{(*record)->config, (*record)->configHash,
                       (*record)->gflops};
  }
  const std::vector<std::string> &warnings() const override {
    return db->warnings();
  }
  void setConfigHasher(SketchConfigHasher hasher) override {
    db->setConfigHasher(std::move(hasher));
  }

private:
  std::unique_ptr<TuningDB> db;
};

llvm::Expected<std::unique_ptr<SketchDatabase>>
openTuningDBSketches(llvm::StringRef path, mlir::MLIRContext *ctx) {
  llvm::Expected<std::unique_ptr<TuningDB>> db =
      TuningDB::open(path, /*readOnly=*/true);
  if (!db)
    return db.takeError();
  (*db)->setConfigHasher([ctx](llvm::StringRef config) {
    return configHashOfText(ctx, config);
  });
  return std::make_unique<TuningDBSketches>(std::move(*db));
}
} // namespace

void mlir::tensorop::registerTuningDatabaseProvider() {
  registerSketchDatabaseOpener(openTuningDBSketches);
}
