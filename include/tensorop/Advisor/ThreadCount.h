//===- ThreadCount.h - How many threads a GEMM's work pays for --*- C++ -*-===//
//
// `threads=N` asks for N threads; a GEMM whose share per thread is shorter
// than waking and joining an OpenMP team runs faster on fewer. This decides
// how many threads a static GEMM gets and says why when it is fewer.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_THREADCOUNT_H
#define TENSOROP_ADVISOR_THREADCOUNT_H

#include <cstdint>
#include <string>

namespace mlir::tensorop {

struct GemmProblem;

/// The flops one thread's share of a GEMM must reach before a team of
/// threads pays for its fork and join (see ThreadCount.cpp for the
/// measurement behind it).
constexpr unsigned kDefaultMinFlopsPerThread = 640000;

/// How many threads run a GEMM, and why when fewer than asked.
struct ThreadCountChoice {
  int64_t threads = 1;
  /// Empty when `threads` is what was asked; otherwise one sentence.
  std::string reason;
};

/// The largest thread count <= `requested` whose share of 2*M*N*K flops is
/// at least `minFlopsPerThread` (at least one thread). Dynamic GEMMs, whose
/// size is only known at run time, and `minFlopsPerThread` = 0 keep what
/// was asked.
ThreadCountChoice chooseGemmThreads(const GemmProblem &problem,
                                    int64_t requested,
                                    unsigned minFlopsPerThread);

} // namespace mlir::tensorop

#endif // TENSOROP_ADVISOR_THREADCOUNT_H
