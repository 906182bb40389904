//===- SkinnyGemm.h - Sketches of GEMMs with few rows or columns -*- C++ -*-===//
//
// Internal to lib/Advisor: the builtin advisor's choices for memory-bound
// GEMMs on AVX-512, where one operand is streamed once in place (few rows:
// B; few columns: A) instead of being packed (SkinnyGemm.cpp says why).
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_LIB_ADVISOR_SKINNYGEMM_H
#define TENSOROP_LIB_ADVISOR_SKINNYGEMM_H

#include "tensorop/Advisor/Advisor.h"

#include <string>

namespace mlir::tensorop {

/// At most this many rows of C: B is swept in place (chooseFewRowsSketch).
/// 64 rather than 40 (quiet, 1 thread, ratio to the best library, packed ->
/// swept): 49x2048x512 0.92 -> 1.01x, 49x512x2048 0.93 -> 0.99x,
/// 49x1024x1024 0.93 -> 1.05x, 64x1000x1000 0.86 -> 0.96x, 56x4096x1024
/// 0.87x both (the N=1 7x7 layers of ResNet-50's last stage are such GEMMs);
/// at 96-128 rows sweeping lost to packing (128x2048x2048 1.00 -> 0.76x).
constexpr int64_t kFewRows = 64;
/// At most this many columns of C (and more rows than that):
/// A is streamed in place (chooseFewColumnsSketch).
constexpr int64_t kFewColumns = 16;

/// At most this many columns of C (and more than kFewColumns rows): the
/// kernel vectorized along K (chooseKDotSketch). Measured (1 thread, same
/// process, loaded; docs/benchmarks/cpu-gemm-classes.md): 3496x6x1930
/// 0.88x -> 1.20x the best library, 1000x1x1000 0.27x -> 1.05x,
/// 2000x8x2000 0.94x -> 1.24x; at N = 11 (two or three column blocks)
/// it lost to the broadcast kernel (3026x11x4778: 0.91x -> 0.67-0.77x).
constexpr int64_t kKDotColumns = 8;
/// Up to this many columns the K-vectorized kernel holding A (2 rows and
/// more) is chosen where B's N x K fits in L1 (chooseKDotSketch).
constexpr int64_t kKDotHeldAColumns = 14;

/// Fills `c` (tiles, block, packing, prefetch) for a GEMM of at most
/// kFewRows rows on an AVX-512 x86 target whose A and B can be read in
/// place; false (and `c` untouched) where the path does not apply. Where
/// the team's size decided whether it is a GEMV (gemv.rows at one thread,
/// gemv.rows_threaded on a team), `note` says so (else it is left empty).
bool chooseFewRowsSketch(const GemmProblem &p, const TargetHints &t,
                         SketchChoice &c, std::string *note = nullptr);

/// Likewise for a GEMM of at most kKDotColumns columns and more than
/// kFewColumns rows: the x86_gemm_kdot kernel (K in the vector lanes);
/// false where A streams from memory in blocks too short for it (N = 7
/// and 8: chooseFewColumnsSketch's broadcast kernel then).
bool chooseKDotSketch(const GemmProblem &p, const TargetHints &t,
                      SketchChoice &c);

/// Likewise for a small GEMM (the builtin advisor's small path: every
/// dimension at most 128) of at most kKDotColumns columns whose K fills
/// enough of the K-vectorized kernel's lanes (SkinnyGemm.cpp says how
/// much), any number of rows.
bool chooseSmallKDotSketch(const GemmProblem &p, const TargetHints &t,
                           SketchChoice &c);

/// Likewise for a GEMM of at most kFewColumns columns and more rows.
bool chooseFewColumnsSketch(const GemmProblem &p, const TargetHints &t,
                            SketchChoice &c);

/// The N tail of a GEMM whose N is not a whole number of vectors (more
/// than 16 columns and rows): its last N mod 16 columns by the kernel
/// vectorized along K (#tensorop.n_tail), where the target's
/// blocking.kdot_n_tail_min_saving_pct allows one and the estimated share
/// of vector instructions it saves reaches it. Threads: the tail's own
/// team, at most `p.threads`. Columns 0: none.
NTailChoice chooseKDotNTail(const GemmProblem &p, const TargetHints &t);

} // namespace mlir::tensorop

#endif // TENSOROP_LIB_ADVISOR_SKINNYGEMM_H
