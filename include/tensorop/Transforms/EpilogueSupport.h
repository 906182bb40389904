//===- EpilogueSupport.h - Elementwise consumers a GEMM can fuse -*- C++ -*-===//
//
// Which elementwise consumers of a linalg.matmul's result become a fused
// epilogue (a #tensorop.epilogue on the matmul's sketch, applied by the
// microkernel as it stores C), shared by tensorop-fuse-epilogues, which
// records them, and tensorop-apply-sketch, which finds the consumer again
// after bufferization and erases it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_TRANSFORMS_EPILOGUESUPPORT_H
#define TENSOROP_TRANSFORMS_EPILOGUESUPPORT_H

#include "tensorop/Dialect/Epilogue.h"
#include "tensorop/Dialect/TensorOpDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>
#include <string>

namespace mlir::tensorop {

/// Unit attribute on the linalg.generic whose computation a matmul's sketch
/// now carries as its epilogue (written in place on the matmul's C).
constexpr llvm::StringLiteral kFusedEpilogueAttrName =
    "tensorop.fused_epilogue";

/// An elementwise consumer read as epilogue steps: the value the steps
/// start from is the block argument of the matmul's result (`cArg`), the
/// operand steps read `bias` (a vector along N or M) and `residual` (M x N).
struct EpilogueMatch {
  llvm::SmallVector<EpilogueStep> steps;
  int biasInput = -1;     ///< Index among the generic's inputs, or -1.
  int residualInput = -1; ///< Likewise.
  int cInput = -1;        ///< The input that is the matmul's C, or -1.
};

/// Reads `generic`, a consumer of `c` (the matmul's result tensor, or its C
/// memref for a consumer in place), as epilogue steps. On failure `why`
/// says what is not an epilogue (for the remark).
FailureOr<EpilogueMatch> matchEpilogue(linalg::GenericOp generic, Value c,
                                       std::string &why);

/// The steps as a #tensorop.epilogue.
EpilogueAttr epilogueAttr(MLIRContext *ctx, llvm::ArrayRef<EpilogueStep> steps);

/// The steps of an attribute (which its verifier checked).
llvm::SmallVector<EpilogueStep> epilogueSteps(EpilogueAttr attr);

/// The consumers tensorop-fuse-epilogues fused into a matmul (marked, in
/// place on its C, in order), with the bias and residual they read.
struct FusedChain {
  SmallVector<linalg::GenericOp> ops;
  Value bias, residual;
  bool biasAlongN = false;
};

/// The chain tensorop-fuse-epilogues marked for `op`: the marked
/// linalg.generic ops after it in its block that write `c` in place, up to
/// the first other op that mentions `c` (which may read or overwrite it).
/// Found only when each still reads as an epilogue and together they
/// compute `epilogue`'s steps (a residual with unit row stride).
std::optional<FusedChain> findFusedChain(linalg::MatmulOp op, Value c,
                                         EpilogueAttr epilogue);

} // namespace mlir::tensorop

#endif // TENSOROP_TRANSFORMS_EPILOGUESUPPORT_H
