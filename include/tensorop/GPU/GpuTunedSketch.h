//===- GpuTunedSketch.h - A GPU op's sketch from the tuning database -----===//
//
// Shared by tensorop-gpu-annotate-sketch (matmuls) and
// tensorop-gpu-lower-conv (convolutions): the tuning database's best
// verified record for an op's signature on a target.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_GPU_GPUTUNEDSKETCH_H
#define TENSOROP_GPU_GPUTUNEDSKETCH_H

#include "tensorop/GPU/GpuAdvisor.h"

#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>

namespace mlir {
class MLIRContext;
class Operation;
namespace tensorop {
class SketchDatabase;

/// The tuning database at `path`, its records hashed as GPU sketches (the
/// hash `tensorop tune` stored them under).
llvm::Expected<std::unique_ptr<SketchDatabase>>
openGpuSketchDatabase(llvm::StringRef path, MLIRContext *ctx);

/// The best verified record of `db` for `p` (its gpuOpSignature) on `t`,
/// said in a remark on `op`; nullopt when there is none (also said). Rows
/// that failed the database's integrity checks are warnings; a record that
/// holds no valid #tensorop.gpu_sketch is an error (failure).
FailureOr<std::optional<GpuSketchChoice>>
lookupTunedGpuSketch(Operation *op, SketchDatabase &db,
                     const GpuGemmProblem &p, const GpuTarget &t);

} // namespace tensorop
} // namespace mlir

#endif // TENSOROP_GPU_GPUTUNEDSKETCH_H
