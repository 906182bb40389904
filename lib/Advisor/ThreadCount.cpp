//===- ThreadCount.cpp - How many threads a GEMM's work pays for ----------===//
//
// A threaded sketch runs its chunks in an OpenMP team (scf.forall ->
// omp.parallel + omp.wsloop): every call forks the team, splits the GEMM
// and joins it. Two threads beat one when half the work saves more than
// the team costs: with W flops at P flop/s per core and team cost c,
// W/P > W/(2P) + c, i.e. W/2 > c*P: one thread's share must exceed the
// flops one core does while the team forks and joins (for T threads the
// same bound per share, applied to T, T-1, ... 1).
//
// c, measured here (Zen 5, 2-core KVM guest shared with other builds, LLVM
// 22's libomp, 2026-12-01; docs/benchmarks/cpu-gemm-classes.md):
//  - an empty `parallel for` of 2 threads (bench/cpu/omp_fork_join.c):
//    1.25-1.6 us a call (median; fastest round 1.0-1.2 us) at load 2.7-4.9;
//  - a GEMM kernel's team, t2 - t1/2 for gen's object of the same shape on
//    two threads and on one (bench/cpu/thread-crossover.sh): 5.6-7.1 us
//    from 32^3 to 24x120x96 at load 4.5, while one core did 115-141
//    GFLOP/s on them: c*P = 0.65-0.91 Mflop a share.
// (At load 10 a team costs 16-216 us, a thread being descheduled: no
// threshold fits that; in the quiet runs of the doc above, 64^3 to 128^3
// on 1 and 2 threads give c = 2.4-2.7 us at 235-266 GFLOP/s, 0.63-0.66
// Mflop. A kernel's team costs two to four times an empty one: the bare
// fork/join alone, 1.25 us x 265 GFLOP/s = 0.33 Mflop, is too low.)
// Hence 640000 flops a thread: at 2 threads, GEMMs under 1.28 Mflop
// (80x80x80, 64^3, 37x53x71) run on one; 100^3 (2 Mflop) keeps two.
//
//===----------------------------------------------------------------------===//

#include "tensorop/Advisor/ThreadCount.h"
#include "tensorop/Advisor/Advisor.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tensorop;

ThreadCountChoice mlir::tensorop::chooseGemmThreads(const GemmProblem &p,
                                                    int64_t requested,
                                                    unsigned minFlopsPerThread) {
  ThreadCountChoice choice;
  choice.threads = std::max<int64_t>(1, requested);
  if (choice.threads == 1 || minFlopsPerThread == 0 || p.isDynamic())
    return choice;
  // (In doubles: M * N * K overflows int64 for huge GEMMs.)
  double flops = 2.0 * double(p.m) * double(p.n) * double(p.k);
  int64_t threads = choice.threads;
  while (threads > 1 && flops / double(threads) < double(minFlopsPerThread))
    --threads;
  if (threads == choice.threads)
    return choice;
  choice.threads = threads;
  choice.reason =
      llvm::formatv("runs on {0} thread{1}, not the {2} asked: its {3} flops "
                    "give each of {2} threads {4}, under the {5} a thread's "
                    "share must reach to pay for forking and joining an "
                    "OpenMP team (min-flops-per-thread)",
                    threads, threads == 1 ? "" : "s", requested,
                    int64_t(flops), int64_t(flops / double(requested)),
                    minFlopsPerThread)
          .str();
  return choice;
}
