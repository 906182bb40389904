//===- GemmEntryCheck.h - Verify gen's BLAS-like GEMM entries ---*- C++ -*-===//
//
// `tensorop gen` ships NAME, NAME_ex, NAME_ex_ws, NAME_workspace_size and
// (batched requests) NAME_batched(_ws) in one object (lib/Runtime/
// GemmEntryPoints.cpp). This checks each entry of the loaded object the way
// MEASURE.md checks NAME: an fp64 reference (OpenBLAS dgemm with the same
// transposes, leading dimensions, alpha and beta), the bound of MEASURE.md
// over |alpha|*sum|a||b| + |beta||c|; and the BLAS contract around it:
// padded leading dimensions whose padding holds a NaN pattern that must
// survive bit for bit, C not read when beta = 0 (it holds NaN), A and B not
// read when alpha = 0 (they hold NaN), a workspace at an unaligned address
// with guard bytes after it, batch strides with padding between matrices,
// and batch = 0; NAME_pack_b writing exactly NAME_packed_b_size() bytes
// (guards after them) and NAME_prepacked reading only the packed B (B is
// NaN by the time it runs).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_GEMMENTRYCHECK_H
#define TENSOROP_VERIFY_GEMMENTRYCHECK_H

#include "tensorop/Verify/Check.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tensorop {

/// The C signatures of the generated header (long = the ABI's 64-bit
/// index on every target gen builds for). A and B are `const void *`: fp32,
/// or bf16 / f16 bits (GemmLayout::input); C is fp32.
using GemmPlainFn = void (*)(const void *A, const void *B, float *C);
using GemmPlainWsFn = void (*)(const void *A, const void *B, float *C,
                               void *workspace);
using GemmExFn = void (*)(const void *A, long lda, const void *B, long ldb,
                          float *C, long ldc, float alpha, float beta);
using GemmExWsFn = void (*)(const void *A, long lda, const void *B,
                            long ldb, float *C, long ldc, float alpha,
                            float beta, void *workspace);
using GemmWorkspaceSizeFn = size_t (*)();
using GemmPackedBSizeFn = size_t (*)();
// (A and B, packed or not, are f32 or 16-bit bits, as for NAME.)
using GemmPackBFn = void (*)(const void *B, void *packedB);
using GemmPrepackedFn = void (*)(const void *A, const void *packedB,
                                 float *C);
using GemmPrepackedWsFn = void (*)(const void *A, const void *packedB,
                                   float *C, void *workspace);
using GemmBatchedFn = void (*)(const void *A, const void *B, float *C,
                               long batch, long strideA, long strideB,
                               long strideC);
using GemmBatchedWsFn = void (*)(const void *A, const void *B, float *C,
                                 long batch, long strideA, long strideB,
                                 long strideC, void *workspace);
using GemmBatchedExFn = void (*)(const void *A, long lda, long strideA,
                                 const void *B, long ldb, long strideB,
                                 float *C, long ldc, long strideC, long batch,
                                 float alpha, float beta);
using GemmBatchedExWsFn = void (*)(const void *A, long lda, long strideA,
                                   const void *B, long ldb, long strideB,
                                   float *C, long ldc, long strideC,
                                   long batch, float alpha, float beta,
                                   void *workspace);

struct GemmEntryPoints {
  GemmPlainFn plain = nullptr;
  GemmPlainWsFn plainWs = nullptr;
  GemmExFn ex = nullptr;
  GemmExWsFn exWs = nullptr;
  GemmWorkspaceSizeFn workspaceSize = nullptr;
  GemmBatchedFn batched = nullptr;     ///< null: not generated
  GemmBatchedWsFn batchedWs = nullptr; ///< null: not generated
  GemmBatchedExFn batchedEx = nullptr;     ///< null: not generated
  GemmBatchedExWsFn batchedExWs = nullptr; ///< null: not generated
  GemmPackedBSizeFn packedBSize = nullptr;   ///< null: not generated
  GemmPackBFn packB = nullptr;               ///< null: not generated
  GemmPrepackedFn prepacked = nullptr;       ///< null: not generated
  GemmPrepackedWsFn prepackedWs = nullptr;   ///< null: not generated
};

/// C = op(A)*op(B): A stored K x M when transposeA, B stored N x K when
/// transposeB (row-major).
struct GemmLayout {
  int64_t m = 0, n = 0, k = 0;
  bool transposeA = false, transposeB = false;
  /// A's and B's element type: F32, or BF16 / F16 (passed as their bits;
  /// the inputs are rounded to it first and the reference reads the
  /// rounded values, so the bound stays fp32 accumulation's).
  ElementType input = ElementType::F32;
};

/// One call checked.
struct GemmEntryCase {
  std::string entry; ///< "NAME_ex", ...
  std::string what;  ///< the arguments, e.g. "alpha=2 beta=0, C=NaN"
  Check check;
  int64_t paddingChanged = 0; ///< padding / guard elements not as poisoned
  bool ok() const { return check.ok() && paddingChanged == 0; }
};

struct GemmEntryCheck {
  std::string error; ///< why nothing could be checked
  std::vector<GemmEntryCase> cases;
  size_t workspaceBytes = 0;
  bool passed() const;
  /// "12 calls, max error/bound 3.1E-02, padding untouched" or the first
  /// failing case.
  std::string summary() const;
};

/// Checks every non-null entry; `batchCount` is the batch the request named
/// (0: 3 is used).
GemmEntryCheck checkGemmEntryPoints(const GemmEntryPoints &entries,
                                    const GemmLayout &layout,
                                    int64_t batchCount, uint64_t seed);

/// The up-front refusal ("" if it fits) of a batched request whose check
/// would not fit the host buffer limit (checkBufferBudget): the batched
/// cases hold every slice's operands, outputs and fp64 reference at once,
/// so the request's batch count multiplies them ("batch 2147483647 of
/// 1000x1000x1000" ran out of memory and aborted in the check).
std::string checkBatchedEntriesBudget(int64_t m, int64_t n, int64_t k,
                                      int64_t batchCount);

/// Seconds per call (alpha = 1, beta = 0) of NAME, of NAME_prepacked (B
/// packed once before the rounds), of NAME_ex with
/// contiguous operands (which calls NAME) and of NAME_ex_ws with every
/// leading dimension 16 elements longer (the strided path), in turn (round
/// robin): what the entries cost over NAME; and OpenBLAS's cblas_sgemm with
/// the same transposes in the same rounds. Medians over `rounds`. fp32
/// inputs only (all zero otherwise).
struct ExOverhead {
  double plainSeconds = 0, exSeconds = 0, exWsSeconds = 0, blasSeconds = 0;
  /// NAME_prepacked on a B packed once before the rounds (0: no such
  /// entry).
  double prepackedSeconds = 0;
};
ExOverhead timeExAgainstPlain(const GemmEntryPoints &entries,
                              const GemmLayout &layout, uint64_t seed,
                              int rounds, double roundSeconds);

} // namespace tensorop

#endif // TENSOROP_VERIFY_GEMMENTRYCHECK_H
