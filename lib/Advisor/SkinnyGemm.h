//===- SkinnyGemm.h - Sketches of GEMMs with few rows or columns -*- C++ -*-===//
//
// Internal to lib/Advisor: the builtin advisor's choices for memory-bound
// GEMMs on AVX-512, where one operand is streamed once in place (few rows:
// B; few columns: A) instead of being packed (SkinnyGemm.cpp says why).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_ADVISOR_SKINNYGEMM_H
#define TENSOROP_LIB_ADVISOR_SKINNYGEMM_H

#include "tensorop/Advisor/Advisor.h"

namespace mlir::tensorop {

/// At most this many rows of C: B is swept in place (chooseFewRowsSketch).
constexpr int64_t kFewRows = 40;
/// At most this many columns of C (and more rows than that):
/// A is streamed in place (chooseFewColumnsSketch).
constexpr int64_t kFewColumns = 16;

/// Fills `c` (tiles, block, packing, prefetch) for a GEMM of at most
/// kFewRows rows on an AVX-512 x86 target whose A and B can be read in
/// place; false (and `c` untouched) where the path does not apply.
bool chooseFewRowsSketch(const GemmProblem &p, const TargetHints &t,
                         SketchChoice &c);

/// Likewise for a GEMM of at most kFewColumns columns and more rows.
bool chooseFewColumnsSketch(const GemmProblem &p, const TargetHints &t,
                            SketchChoice &c);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_ADVISOR_SKINNYGEMM_H
