//===- EpilogueGemm.h - gen's GEMM with a fused epilogue --------*- C++ -*-===//
//
// `tensorop gen "... GEMM with bias and ReLU"` on x86: the module it builds
// (the matmul and an elementwise consumer the pipeline fuses into the
// microkernel), its C entry point and the check of the built object against
// an fp64 reference of the same steps.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_DRIVER_EPILOGUEGEMM_H
#define TENSOROP_DRIVER_EPILOGUEGEMM_H

#include "tensorop/Dialect/Epilogue.h"
#include "tensorop/Verify/Check.h"
#include "tensorop/Verify/CpuGemm.h"
#include "tensorop/Verify/Numerics.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tensorop {

/// Whether the steps read a bias (along N or M) / a residual (M x N).
bool epilogueHasBias(llvm::ArrayRef<std::string> steps);
/// Whether the bias runs along M (one per row: "bias_m").
bool epilogueBiasAlongM(llvm::ArrayRef<std::string> steps);
bool epilogueHasResidual(llvm::ArrayRef<std::string> steps);

/// The body lines of one step on %v<i> (f32), as a model would write it:
/// defines %v<i+1>; a bias is read from %b, a residual from `residual`.
std::string epilogueStepBody(llvm::StringRef step, int i,
                             llvm::StringRef residual = "%r");

/// The generated header's lines on a fused epilogue ("" without one): the
/// steps in order; `elements` names the bias's and R's elements ("floats");
/// `onConvOutput`: C is a convolution's NHWF output (a bias per output
/// channel, an NHWF residual).
std::string epilogueHeaderComment(llvm::ArrayRef<std::string> steps,
                                  llvm::StringRef elements = "floats",
                                  bool onConvOutput = false);

/// void NAME(const T *A, const T *B[, const O *bias][, const O *R], O *C);
/// T is `inCType` (float, tensorop_bf16, ...), O `outCType`.
std::string epilogueEntryPoint(llvm::StringRef name,
                               llvm::ArrayRef<std::string> steps,
                               llvm::StringRef inCType = "float",
                               llvm::StringRef outCType = "float",
                               llvm::StringRef cCType = "");

/// The module: C = 0; C += A*B (linalg.matmul, A and B of element type
/// `inType`: f32, bf16 or f16; C, the bias and R of `outType`); C =
/// steps(C) (a linalg.generic in place on C, as models write the steps; in
/// f32, between arith.extf and arith.truncf when `outType` is bf16 or f16).
/// A transposed A is stored K x M, a transposed B N x K (the matmul's
/// indexing_maps say so).
std::string epilogueGemmModuleSource(llvm::StringRef name, int64_t m,
                                     int64_t n, int64_t k,
                                     llvm::ArrayRef<std::string> steps,
                                     llvm::StringRef inType = "f32",
                                     llvm::StringRef outType = "f32",
                                     bool transposeA = false,
                                     bool transposeB = false);

/// The CPU module for a 16-bit C (`outType` bf16 or f16) with fp32
/// accumulation, as importers write a bf16 model: the matmul accumulates
/// into an f32 buffer of its own (zero-filled), one linalg.generic applies
/// the steps (bias and R f32; `steps` may be empty) and narrows with one
/// arith.truncf into C. The pipeline fuses it all into the x86 kernel's
/// store (the output step to_bf16 / to_f16; docs/Epilogues.md).
std::string narrowGemmModuleSource(llvm::StringRef name, int64_t m, int64_t n,
                                   int64_t k, llvm::ArrayRef<std::string> steps,
                                   llvm::StringRef inType,
                                   llvm::StringRef outType,
                                   bool transposeA = false,
                                   bool transposeB = false);

struct EpilogueGemmCheck {
  std::string error;      ///< Why nothing could be checked.
  int64_t failures = -1;  ///< Elements over the bound or NaN.
  double maxRatio = 0;    ///< Largest error / bound.
  std::string bound;      ///< The bound, as text.
};

/// Calls the entry point at `fn` once on seeded inputs in [-1, 1) (A and B
/// rounded to `input`'s storage when it is bf16 or f16, passed as their
/// bits) with a NaN-prefilled C and checks every element against the steps
/// applied in fp64 to OpenBLAS dgemm's product of the same (rounded) inputs.
/// With `output` bf16 or f16 C is 16-bit (bias and R stay f32) and the
/// bound adds C's one rounding: u16 * (|E(R)| + the fp32 bound). A
/// transposed A is passed K x M, a transposed B N x K.
EpilogueGemmCheck checkEpilogueGemm(void *fn, int64_t m, int64_t n, int64_t k,
                                    llvm::ArrayRef<std::string> steps,
                                    uint64_t seed,
                                    ElementType input = ElementType::F32,
                                    ElementType output = ElementType::F32,
                                    bool transposeA = false,
                                    bool transposeB = false);

/// The bound of checkEpilogueGemm as report text, and its slope L: 1.2
/// times the scale steps' |s| (each at least 1).
std::string epilogueBoundText();
double epilogueSlope(llvm::ArrayRef<mlir::tensorop::EpilogueStep> steps);

/// Judges an M x N row-major C (leading dimension N) against the steps in
/// fp64 applied to `ref` (bias[i] when `alongM`, else bias[j]; r[i*N + j]),
/// with checkEpilogueGemm's bound; `u16` adds a 16-bit C's one rounding.
Check judgeEpilogueOutput(const float *c, const GemmReference &ref,
                          llvm::ArrayRef<mlir::tensorop::EpilogueStep> steps,
                          const float *bias, const float *r, int64_t m,
                          int64_t n, bool alongM, double slope, double u16);

} // namespace tensorop

#endif // TENSOROP_DRIVER_EPILOGUEGEMM_H
