//===- KDotGemm.h - The loop nest of a GEMM vectorized along K --*- C++ -*-===//
//
// Internal to lib/Transforms: tensorop-apply-sketch's form for sketches of
// the x86_gemm_kdot emitter (ApplyKDotSketch.cpp says how).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_TRANSFORMS_KDOTGEMM_H
#define TENSOROP_LIB_TRANSFORMS_KDOTGEMM_H

#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Dialect/TensorOpDialect.h"
#include "tensorop/Targets/PassHints.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tensorop {

/// Replaces `op` (a memref linalg.matmul with `sketch`, whose kernel is
/// x86_gemm_kdot) by a copy of B transposed and a loop of microkernel calls
/// over C's rows; `zeroFill`, the zero fill of C right before `op` or
/// null, goes (the kernels store C). A located error where the GEMM does
/// not fit the form (not fp32, dynamic, A transposed, an epilogue).
/// `hints`: the pass run's (PassHints::forSketch).
LogicalResult applyKDotSketch(RewriterBase &rewriter, linalg::MatmulOp op,
                              SketchAttr sketch, const GemmProblem &p,
                              linalg::FillOp zeroFill, StringRef emitterDir,
                              unsigned emitterTimeout, PassHints &hints);

/// Splits `op` (a memref linalg.matmul whose sketch has an n_tail) into
/// two GEMMs on column ranges of B and C: the first N - columns columns
/// with the sketch less its tail, the last ones with the tail's
/// x86_gemm_kdot block (applyKDotSketch); a zero fill of C right before
/// `op` is split alike, so that each part may store its tiles. A located
/// error where the GEMM cannot be split so (not fp32, dynamic, A or B
/// transposed, N not above the tail's columns).
LogicalResult applyNTailSketch(RewriterBase &rewriter, linalg::MatmulOp op,
                               SketchAttr sketch, const GemmProblem &p,
                               linalg::FillOp zeroFill, StringRef emitterDir,
                               unsigned emitterTimeout, PassHints &hints);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_TRANSFORMS_KDOTGEMM_H
