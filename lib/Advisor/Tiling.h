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

/// FMA issue slots per k step of `m` rows in register blocks of `mr` rows
/// and `nv` vectors: a tile's rows times its vectors, or where that is
/// fewer than `accumulatorsForPeak` independent chains, that many (the
/// chains' latency binds). An edge tile of m mod mr rows counts its own
/// rows (A read in place: its K loop computes those rows only).
inline int64_t rowTileFmaSlots(int64_t m, int64_t mr, int64_t nv,
                               int64_t accumulatorsForPeak) {
  auto slots = [&](int64_t rows) {
    return std::max(rows * nv, accumulatorsForPeak);
  };
  return m / mr * slots(mr) + (m % mr ? slots(m % mr) : 0);
}

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_ADVISOR_TILING_H
