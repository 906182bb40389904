//===- GemmEntryPoints.h - The MLIR of gen's BLAS-like GEMM API -*- C++ -*-===//
//
// `tensorop gen` ships one object per GEMM with these entry points (all
// through the sketch path: each is a linalg.matmul on memrefs whose strided
// layouts come from the call's arguments):
//
//   NAME(A, B, C)                         C = op(A)*op(B), contiguous
//   NAME_ws(A, B, C, workspace)           the same, no allocation
//   NAME_ex(A, lda, B, ldb, C, ldc, alpha, beta)
//                                         C = alpha*op(A)*op(B) + beta*C
//   NAME_ex_ws(..., beta, workspace)      the same, no allocation
//   NAME_workspace_size()                 bytes a workspace needs
//   NAME_batched(A, B, C, batch, strideA, strideB, strideC)   (with batch)
//   NAME_batched_ws(..., strideC, workspace)
//   NAME_batched_ex(A, lda, strideA, B, ldb, strideB, C, ldc, strideC,
//                   batch, alpha, beta)  C_i = alpha*op(A_i)*op(B_i) + beta*C_i
//   NAME_batched_ex_ws(..., beta, workspace)
//   NAME_packed_b_size()                  bytes of B packed once
//   NAME_pack_b(B, Bp)                    op(B) into the kernel's panels
//   NAME_prepacked(A, Bp, C)              C = op(A)*op(B), B packed
//   NAME_prepacked_ws(A, Bp, C, workspace)
//
// op() is fixed at generation (A stored K x M when transposeA, B stored
// N x K when transposeB). The _ws bodies allocate through memref.alloc; the
// pass tensorop-bind-workspace turns those allocations into views of the
// workspace argument and defines NAME_workspace_size; NAME_ex (NAME_ex_ws)
// calls NAME (NAME_ws) for contiguous operands with alpha = 1, beta = 0;
// the entries without _ws allocate one workspace per call and call their
// _ws twin.
//
// A and B may be bf16 or f16 (C is f32): the entries are the same but the
// prepacked ones (f16 has none; bf16's panels hold k pairs, which each
// panel's linalg.matmul, marked tensorop.b_k_pairs, reads in place through
// a [W, 2]-strided view), and alpha != 1 scales the product, not B
// (a scaled copy of a 16-bit B would round alpha*B to 16 bits): the product
// goes to an M x N fp32 buffer in the workspace and C = alpha*T + beta*C.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_RUNTIME_GEMMENTRYPOINTS_H
#define TENSOROP_RUNTIME_GEMMENTRYPOINTS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::tensorop {

struct GemmEntryPointsSpec {
  std::string name;
  int64_t m = 0, n = 0, k = 0;
  bool transposeA = false, transposeB = false;
  bool batched = false;
  /// A #tensorop.sketch for every matmul ("" = the advisor chooses).
  std::string sketch;
  /// Threads the object is built for: NAME_prepacked runs its full panels
  /// in an scf.forall of this many chunks when > 1.
  int64_t threads = 1;
  /// Element type of A and B: "f32", "bf16" or "f16" (C is f32).
  std::string inType = "f32";
};

/// The module of every entry point above, for the bare-pointer ABI.
std::string gemmEntryPointsSource(const GemmEntryPointsSpec &spec);

/// The prepacked-B entries alone (GemmPrepackedEntries.cpp).
std::string gemmPrepackedEntriesSource(const GemmEntryPointsSpec &spec);

/// linalg.matmul's "indexing_maps = [...]" for the transposes: a transposed
/// A is stored K x M, a transposed B N x K (a linear layer's x * W^T).
std::string matmulIndexingMaps(bool transposeA, bool transposeB);

/// One GEMM of a batch as NAME_batched's loop views it: A (aRows x aCols)
/// and B (bRows x bCols) of `inType`, C (m x n) f32, all row-major and
/// contiguous.
struct BatchedSliceLoop {
  int64_t aRows, aCols, bRows, bCols, m, n;
  std::string inType;
  /// The matmul's "indexing_maps = [...] " for a transposed operand, or "".
  std::string matmulMaps;
};

/// The body of a batched entry (NAME_batched_ws, and gen's batched GEMM
/// with an epilogue): an scf.for over %batch in which %av, %bv and %cv view
/// slice i of the bare pointers %A, %B (memref<1xinType>) and %C
/// (memref<1xf32>) at i * %strideA/B/C elements (no copy; the padding
/// between matrices is never touched), C is zero-filled and the matmul
/// accumulates into it. `views` (lines before the fill: more slice views)
/// and `afterMatmul` (lines after it, on %cv) are inserted as they are.
/// (Not %a/%b/%c: an epilogue's block names its bias %b.)
std::string batchedSliceLoop(const BatchedSliceLoop &loop,
                             llvm::StringRef views,
                             llvm::StringRef afterMatmul);

/// The type of a rows x cols row-major slice view of a batch:
/// memref<RxCxtype, strided<[C, 1], offset: ?>>.
std::string batchedSliceView(llvm::StringRef type, int64_t rows,
                             int64_t cols);

/// Columns per panel of NAME_pack_b's layout for an M x N x K GEMM (`pairs`:
/// bf16's panels of k pairs).
int64_t prepackedPanelWidth(int64_t m, int64_t n, bool pairs = false);

} // namespace mlir::tensorop

#endif // TENSOROP_RUNTIME_GEMMENTRYPOINTS_H
