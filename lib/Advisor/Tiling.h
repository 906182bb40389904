//===- Tiling.h - Block sizes shared by the builtin advisors ----*- C++ -*-===//
//
// Internal to lib/Advisor: the integer helpers the GEMM, skinny-GEMM and
// convolution advisors size their blocks with (one copy, so that a block
// is split the same way wherever it is chosen).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_ADVISOR_TILING_H
#define TENSOROP_LIB_ADVISOR_TILING_H

#include <algorithm>
#include <cstdint>

namespace mlir::tensorop {

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// Splits `extent` into equal blocks of at most `target`, rounded up to a
/// multiple of `multiple`, so the last block is not a sliver.
inline int64_t balancedTile(int64_t extent, int64_t target, int64_t multiple) {
  target = std::max(multiple, target / multiple * multiple);
  int64_t blocks = ceilDiv(extent, target);
  return roundUp(ceilDiv(extent, blocks), multiple);
}

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_ADVISOR_TILING_H
