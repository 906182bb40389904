//===- SketchDatabase.cpp - The registered tuning-database opener ---------===//

#include "tensorop/Advisor/SketchDatabase.h"

#include <atomic>

using namespace mlir::tensorop;

SketchDatabase::~SketchDatabase() = default;

static std::atomic<SketchDatabaseOpener> registeredOpener{nullptr};

void mlir::tensorop::registerSketchDatabaseOpener(SketchDatabaseOpener opener) {
  registeredOpener = opener;
}

llvm::Expected<std::unique_ptr<SketchDatabase>>
mlir::tensorop::openSketchDatabase(llvm::StringRef path, MLIRContext *ctx) {
  if (SketchDatabaseOpener opener = registeredOpener)
    return opener(path, ctx);
  return llvm::createStringError(
      "db=" + path.str() +
      " is not available: this build/consumer did not link TensorOp::Tuner "
      "(or did not call mlir::tensorop::registerAllPasses())");
}
