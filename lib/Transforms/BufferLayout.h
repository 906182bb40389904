//===- BufferLayout.h - Static buffers laid out in one byte region -*- C++ -*-===//
//
// Internal to lib/Transforms: how tensorop-bind-workspace (a caller's
// workspace) and tensorop-static-scratch (a module-level scratch area) place
// a function's static buffers in one region of bytes: each buffer at its own
// 64-byte aligned offset, buffers inside a thread chunk (a 1-D scf.forall
// from 0 with a static count) once per chunk, so no two buffers and no two
// threads share bytes.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_TRANSFORMS_BUFFERLAYOUT_H
#define TENSOROP_LIB_TRANSFORMS_BUFFERLAYOUT_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tensorop {

constexpr int64_t kBufferAlign = 64;

/// One buffer's place: `offset` bytes from the aligned start, plus
/// `chunkStride` bytes per iteration of `chunk` (a thread chunk), if any.
struct BufferPlacement {
  memref::AllocOp alloc;
  int64_t offset = 0;
  scf::ForallOp chunk;
  int64_t chunkStride = 0;
};

struct BufferLayout {
  SmallVector<BufferPlacement> places;
  /// Bytes from the aligned start (the region needs kBufferAlign more for
  /// an unaligned base).
  int64_t total = 0;
};

/// Places `allocs`. Failure when one is not a static identity-layout buffer
/// of integers or floats, or sits in a thread chunk of another form; with
/// `emitErrors` the op is told why.
FailureOr<BufferLayout> layOutBuffers(ArrayRef<memref::AllocOp> allocs,
                                      bool emitErrors);

/// Replaces every placed buffer by a memref.view of `region` (a 1-D i8
/// memref of at least layout.total + kBufferAlign bytes, any alignment) and
/// erases its deallocations. The aligned start is computed at `builder`'s
/// insertion point, which must dominate every buffer.
void bindBuffers(OpBuilder &builder, Location loc, Value region,
                 const BufferLayout &layout);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_TRANSFORMS_BUFFERLAYOUT_H
