//===- TransposeCopy.h - A 2-D transposing copy as a linalg op ---*- C++ -*-===//
//
// Packing routines that turn a K x N view into an N x K buffer (the kdot
// kernel's transposed B, a convolution's k-major input panel).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_TRANSFORMS_TRANSPOSECOPY_H
#define TENSOROP_LIB_TRANSFORMS_TRANSPOSECOPY_H

#include "mlir/IR/Builders.h"

namespace mlir::tensorop {

/// dst (C x R) = transpose(src (R x C)), both memrefs: a linalg.generic
/// over src's rows (its contiguous direction, so each source row is read
/// once, in order).
void emitTransposeCopy(OpBuilder &b, Location loc, Value src, Value dst);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_TRANSFORMS_TRANSPOSECOPY_H
