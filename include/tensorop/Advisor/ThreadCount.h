//===- ThreadCount.h - How many threads a GEMM's work pays for --*- C++ -*-===//
//
// `threads=N` asks for N threads; a GEMM whose share per thread is shorter
// than waking and joining an OpenMP team runs faster on fewer. This decides
// how many threads a static GEMM gets and says why when it is fewer. It is
// decided before the advisor chooses the sketch (GemmProblem::threads): a
// sketch may depend on the team that runs it.
//
//===----------------------------------------------------------------------===//

#ifndef TENSOROP_ADVISOR_THREADCOUNT_H
#define TENSOROP_ADVISOR_THREADCOUNT_H

#include <cstdint>
#include <string>

namespace mlir::tensorop {

struct GemmProblem;
struct TargetHints;

/// The flops one thread's share of a GEMM must reach before a team of
/// threads pays for its fork and join, where the target gives no
/// `threads.team_cost_us` (the Zen 5 figure: see ThreadCount.cpp).
constexpr unsigned kDefaultMinFlopsPerThread = 640000;

/// A K below this makes the target's flops per thread kShortTeamKFactor
/// times larger (ThreadCount.cpp says why).
constexpr int64_t kShortTeamK = 64;
constexpr int64_t kShortTeamKFactor = 2;

/// The `min-flops-per-thread` options' default: the target's own figure
/// (minFlopsPerThreadFor).
constexpr int64_t kTargetMinFlopsPerThread = -1;

/// The share of flops a thread must reach, and where the figure comes from.
struct MinFlopsPerThread {
  uint64_t flops = kDefaultMinFlopsPerThread;
  /// Given by the min-flops-per-thread option (taken as it is), not the
  /// target's figure.
  bool fromOption = false;
  /// For remarks, e.g. "min-flops-per-thread" or "threads.team_cost_us
  /// 2.5 us x 114.1 GFLOP/s a core (peak_gflops_f32_per_core) of target
  /// x86-avx512".
  std::string source;
};

/// `option` (a min-flops-per-thread value: 0 or more) as given, or for
/// kTargetMinFlopsPerThread (any negative value) the target's: its team
/// cost times its core's peak, c*P (ThreadCount.cpp says why), else
/// kDefaultMinFlopsPerThread.
MinFlopsPerThread minFlopsPerThreadFor(int64_t option,
                                       const TargetHints &target);

/// How many threads run a GEMM, and why when fewer than asked.
struct ThreadCountChoice {
  int64_t threads = 1;
  /// Empty when `threads` is what was asked; otherwise one sentence.
  std::string reason;
};

/// The largest thread count <= `requested` whose share of 2*M*N*K flops is
/// at least `minFlops.flops` (at least one thread). Dynamic GEMMs, whose
/// size is only known at run time, and a figure of 0 keep what was asked.
ThreadCountChoice chooseGemmThreads(const GemmProblem &problem,
                                    int64_t requested,
                                    const MinFlopsPerThread &minFlops);

} // namespace mlir::tensorop

#endif // TENSOROP_ADVISOR_THREADCOUNT_H
