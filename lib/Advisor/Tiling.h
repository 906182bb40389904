//===- Tiling.h - Block sizes shared by the builtin advisors ----*- C++ -*-===//
//
// Internal to lib/Advisor: the block splitting the GEMM, skinny-GEMM and
// convolution advisors size their blocks with (one copy, so that a block
// is split the same way wherever it is chosen). ceilDiv and roundUp come
// from tensorop/Support/IntMath.h, which the rest of lib/ shares.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_ADVISOR_TILING_H
#define TENSOROP_LIB_ADVISOR_TILING_H

#include "tensorop/Support/IntMath.h"

#include <algorithm>
#include <cstdint>

namespace mlir::tensorop {

/// Splits `extent` into equal blocks of at most `target`, rounded up to a
/// multiple of `multiple`, so the last block is not a sliver.
inline int64_t balancedTile(int64_t extent, int64_t target, int64_t multiple) {
  target = std::max(multiple, target / multiple * multiple);
  int64_t blocks = ceilDiv(extent, target);
  return roundUp(ceilDiv(extent, blocks), multiple);
}

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_ADVISOR_TILING_H
