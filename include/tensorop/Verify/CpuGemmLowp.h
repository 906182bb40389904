//===- CpuGemmLowp.h - Verify a bf16/f16-input GEMM on this CPU -*- C++ -*-===//
//
// The checks of shared/MEASURE.md for a GEMM whose A and B are bf16 or f16
// (16-bit storage) and whose C is fp32: the inputs are rounded to the 16-bit
// type first and the fp64 reference is computed from the rounded values, so
// the bound is fp32 accumulation's (products of two bf16 or two f16 values
// are exact in fp32). A 16-bit C (bf16 or f16 output: accumulated in fp32,
// rounded once as it is stored) is compared with the same reference, its
// bound widened by the output's rounding.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_VERIFY_CPUGEMMLOWP_H
#define TENSOROP_VERIFY_CPUGEMMLOWP_H

#include "tensorop/Verify/CpuGemm.h"
#include "tensorop/Verify/Numerics.h"

#include <vector>

namespace tensorop {

/// Rounds each value of `x` to `type` (bf16 or f16): its bits go to
/// `bits` (as many as `x` has), the rounded value back to `x` (what a
/// reference reads).
void roundTo16BitStorage(ElementType type, float *x,
                         std::vector<uint16_t> &bits);

/// void NAME(const uint16_t *A, const uint16_t *B, float *C): bf16 or f16
/// bits in, C = A*B in fp32 (overwritten), row-major.
using GemmFn16 = void (*)(const uint16_t *A, const uint16_t *B, float *C);

/// Runs `fn` on small integers (exact; `exactMismatches`) and on seeded
/// values in [-1, 1) rounded to `input` (`before`), each with a NaN-filled
/// C, against the fp64 reference of the rounded inputs. Nothing is timed.
/// With `output` bf16 or f16, `fn` is really
/// void NAME(const uint16_t *A, const uint16_t *B, uint16_t *C): C's
/// elements are 16-bit; the bound is |C - R| <= 2*K*u32*(|A||B|) +
/// (u16 + 2*u32)*|R| (fp32 accumulation, then one rounding to the 16-bit
/// type, u16 = 2^-8 for bf16, 2^-11 for f16), and the small-integer test
/// compares with R rounded to the output type (exact partial sums, one
/// rounding).
GemmComparison verifyLowPrecisionGemm(GemmFn16 fn, int64_t m, int64_t n,
                                      int64_t k, uint64_t seed,
                                      ElementType input,
                                      ElementType output = ElementType::F32);

} // namespace tensorop

#endif // TENSOROP_VERIFY_CPUGEMMLOWP_H
