//===- EpilogueGemmBatched.h - gen's batch of GEMMs with an epilogue -*- C++ -*-===//
//
// `tensorop gen "batch 4 of 100x200x300 fp32 GEMM with bias and GELU"`:
// besides NAME (EpilogueGemm.h), the object holds
//   NAME_batched(A, B[, bias][, R], C, batch, strideA, strideB, strideC
//                [, strideR])
// which runs NAME's GEMM and epilogue on `batch` matrices X + i*strideX
// (the bias shared by every slice, R one M x N matrix per slice). Here:
// whether a request gets it, its module, its C declaration and header text,
// and gen's in-process check of it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_EPILOGUEGEMMBATCHED_H
#define TENSOROP_DRIVER_EPILOGUEGEMMBATCHED_H

#include "tensorop/Driver/EpilogueGemm.h"
#include "tensorop/Driver/Operator.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tensorop {

/// Whether the CPU object of `op` holds NAME_batched with the epilogue's
/// arguments: a batched GEMM with a fused epilogue, f32 / bf16 / f16 A and
/// B and an fp32 C (a 16-bit C has NAME alone).
bool hasBatchedEpilogueEntry(const Operator &op);

/// void NAME_batched(const T *A, const T *B[, const float *bias][, const
/// float *R], float *C, long batch, long strideA, long strideB, long
/// strideC[, long strideR]); T is `inCType`.
std::string batchedEpilogueEntryPoint(llvm::StringRef name,
                                      llvm::ArrayRef<std::string> steps,
                                      llvm::StringRef inCType);

/// The module of NAME_batched (appended to NAME's): an scf.for over the
/// slices, each a linalg.fill, linalg.matmul and the steps' linalg.generic
/// on strided views of the caller's pointers (offset i*strideX), the form
/// the pipeline fuses into each slice's microkernel store.
std::string batchedEpilogueModuleSource(llvm::StringRef name, int64_t m,
                                        int64_t n, int64_t k,
                                        llvm::ArrayRef<std::string> steps,
                                        llvm::StringRef inType,
                                        bool transposeA, bool transposeB);

/// The header's text on NAME_batched: what it computes and its declaration.
std::string batchedEpilogueHeader(const Operator &op, llvm::StringRef name);

/// Calls NAME_batched at `fn` on `batch` slices (seeded inputs in [-1, 1),
/// rounded to `input` as checkEpilogueGemm does) whose strides leave
/// `pad` elements of padding after each matrix of A, B, C and R, the
/// padding holding a NaN payload no arithmetic makes and every C slice
/// NaN; checks every element of every slice against the steps in fp64
/// (checkEpilogueGemm's bound) and that no padding bit and no input
/// changed. `paddingChanged` counts the changed elements (as failures).
struct BatchedEpilogueCheck {
  EpilogueGemmCheck check;
  int64_t paddingChanged = 0;
  std::string what; ///< The case, as report text.
  bool passed() const {
    return check.error.empty() && check.failures == 0 && paddingChanged == 0;
  }
};
BatchedEpilogueCheck checkBatchedEpilogueGemm(
    void *fn, int64_t m, int64_t n, int64_t k,
    llvm::ArrayRef<std::string> steps, uint64_t seed, int64_t batch,
    int64_t pad, ElementType input = ElementType::F32,
    bool transposeA = false, bool transposeB = false);

/// "" when checkBatchedEpilogueGemm's buffers for the request's batch
/// (every slice's A, B, C and R held at once, twice: as the entry reads
/// them and as the reference does) fit the verification budget
/// (Verify/Buffers.h); otherwise why not, with the numbers.
std::string checkBatchedEpilogueBudget(const Operator &op);

} // namespace tensorop

#endif // TENSOROP_DRIVER_EPILOGUEGEMMBATCHED_H
