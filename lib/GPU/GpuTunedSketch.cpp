//===- GpuTunedSketch.cpp - A GPU op's sketch from the tuning database ---===//
//
// See tensorop/GPU/GpuTunedSketch.h.
//
//===----------------------------------------------------------------------===//

#include "tensorop/GPU/GpuTunedSketch.h"

#include "tensorop/Advisor/SketchDatabase.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/GPU/GpuSearchSpace.h"
#include "tensorop/Transforms/GpuMatmulSupport.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tensorop;

llvm::Expected<std::unique_ptr<SketchDatabase>>
mlir::tensorop::openGpuSketchDatabase(llvm::StringRef path, MLIRContext *ctx) {
  llvm::Expected<std::unique_ptr<SketchDatabase>> opened =
      openSketchDatabase(path, ctx);
  if (opened)
    (*opened)->setConfigHasher([ctx](llvm::StringRef config) {
      return gpuConfigHashOfText(ctx, config);
    });
  return opened;
}

FailureOr<std::optional<GpuSketchChoice>>
mlir::tensorop::lookupTunedGpuSketch(Operation *op, SketchDatabase &db,
                     const GpuGemmProblem &p, const GpuTarget &t) {
  std::string signature = gpuOpSignature(p);
  size_t reported = db.warnings().size();
  llvm::Expected<std::optional<TunedSketch>> best =
      db.best(signature, t.hints.name);
  // Rows that failed their integrity checks were skipped: say which.
  for (size_t i = reported; i < db.warnings().size(); ++i)
    op->emitWarning() << "tensorop: " << db.warnings()[i];
  if (!best) {
    op->emitError() << "tensorop: " << llvm::toString(best.takeError());
    return failure();
  }
  if (!*best) {
    op->emitRemark() << "tensorop: no verified record in " << db.path()
                    << " for '" << signature << "' on '" << t.hints.name
                    << "'; using the advisor";
    return std::optional<GpuSketchChoice>();
  }
  const TunedSketch &r = **best;
  auto attr = dyn_cast_or_null<GpuSketchAttr>(
      parseAttribute(r.config, op->getContext()));
  if (!attr) {
    op->emitError() << "tensorop: record " << r.configHash << " in "
                   << db.path()
                   << " holds no valid #tensorop.gpu_sketch: " << r.config;
    return failure();
  }
  GpuSketchChoice c = GpuSketchChoice::fromAttr(attr);
  c.source = "db:" + r.configHash;
  op->emitRemark() << "tensorop: using the tuned sketch " << r.configHash
                  << " from " << db.path() << " ("
                  << llvm::formatv("{0:F1}", r.gflops.value_or(0) / 1000)
                  << " TFLOP/s when measured)";
  return std::optional<GpuSketchChoice>(c);
}
