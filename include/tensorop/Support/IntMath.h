//===- IntMath.h - Integer rounding shared across TensorOp ------*- C++ -*-===//
//
// ceilDiv and roundUp on the signed sizes (int64_t) that the advisors, the
// tuner's search spaces and the sketch appliers compute blocks, panels and
// chunks with: one definition, so a block is rounded the same way wherever
// it is chosen or applied.
//
// Why not llvm::divideCeil / llvm::alignTo directly: they are unsigned
// (their result is common_uint, here uint64_t), so a negative int64_t wraps
// to a huge value and the uint64_t result does not mix with the int64_t
// sizes the callers compare (std::min<int64_t>). These wrap upstream's
// signed llvm::divideCeilSigned instead, which also cannot overflow the way
// (a + b - 1) / b does near INT64_MAX. For a >= 0 and b > 0 (every caller)
// the result is the same as (a + b - 1) / b.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_SUPPORT_INTMATH_H
#define TENSOROP_SUPPORT_INTMATH_H

#include "llvm/Support/MathExtras.h"

#include <cstdint>

namespace mlir::tensorop {

/// ceil(a / b) for b != 0.
inline int64_t ceilDiv(int64_t a, int64_t b) {
  return llvm::divideCeilSigned(a, b);
}

/// The least multiple of b that is >= a (b > 0).
inline int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

} // namespace mlir::tensorop

#endif // TENSOROP_SUPPORT_INTMATH_H
