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
// Hence 640000 flops a thread on Zen 5: at 2 threads, GEMMs under 1.28
// Mflop (80x80x80, 64^3, 37x53x71) run on one; 100^3 (2 Mflop) keeps two.
//
// c*P follows the core: a Zen 4 does under half a Zen 5's flops in the
// same microseconds (114 against 220-265 GFLOP/s), so its threshold is
// under half, and at 640000 GEMMs like 82x108x71 ran on one thread where
// oneDNN ran on two (0.74x it, 2 threads). The hints give c per CPU
// (threads.team_cost_us) and P (peak_gflops_f32_per_core): Zen 4 3.3 us
// (t2 - t1/2 in its quiet class tables: gen's 100^3 3.4 us, 200x300x100
// 3.2 us, 128^3 4.4 us; oneDNN's 3.0 us), 376530 flops; Zen 5 2.91 us, the
// 640000 above at its 220 GFLOP/s. A target without c keeps 640000.
// (Gen's objects timed alone give Zen 4 a smaller c, 1.2-2.5 us; 2.0 us
// lost 0.75-0.79x at 64^3, 24x120x96 and 29x103x103 in a process where
// other libraries' threads share the cores: 3.3 us is kept.)
//
// A K below kShortTeamK (64) doubles the share (kShortTeamKFactor) where
// the figure is the target's: in one process with OpenBLAS's and oneDNN's
// thread pools (the class tables' harness, and any application with a
// pool of its own), two threads lost to one on such GEMMs well above the
// threshold. Zen 5, gen's objects on one thread against two in one
// process (compare_interleaved.sh, 2 threads asked): 12 drawn shapes of K
// 8-48 and 1.28-4 Mflop, one thread faster on 8 of the 9 under 2.56
// Mflop (up to 1.68x, 82x178x46; 225x114x48 0.94x), two faster on the 3
// above it; 14 more of K 8-63 and 1.28-2.56 Mflop, one thread 1.168 and
// 1.155 in two runs (161x154x26 1.81 and 1.49; single shapes moved by up
// to 40% between the runs). A K of 74-170 at 1.28-2 Mflop went the other way,
// two threads ahead on 7 of 9 (docs/benchmarks/cpu-gemm-classes.md, "Zen
// 5 in the forty-ninth session"). Why short K matters was not found: the
// team's fork and join costs the same, so each thread's share must run
// slower on a team (its C tiles, whose loads and stores weigh most where
// K is short, in the other core's cache?).
//
// The team is decided before the advisor chooses the sketch
// (GemmProblem::threads): a sketch may be right on one thread and wrong on
// two (SkinnyGemm.cpp: the GEMV form of four rows on Zen 4).
//
//===----------------------------------------------------------------------===//

#include "tensorop/Advisor/ThreadCount.h"
#include "tensorop/Advisor/Advisor.h"
#include "tensorop/Targets/TargetHints.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir::tensorop;

MinFlopsPerThread mlir::tensorop::minFlopsPerThreadFor(int64_t option,
                                                       const TargetHints &t) {
  MinFlopsPerThread m;
  if (option >= 0) {
    m.flops = uint64_t(option);
    m.fromOption = true;
    m.source = "min-flops-per-thread";
    return m;
  }
  if (t.teamCostUs <= 0 || t.peakGflopsF32PerCore <= 0) {
    m.source = llvm::formatv("min-flops-per-thread's default: target {0} "
                             "gives no threads.team_cost_us",
                             t.name)
                   .str();
    return m;
  }
  // c [us] x P [GFLOP/s] = c * P * 1e3 flops.
  m.flops = uint64_t(t.teamCostUs * t.peakGflopsF32PerCore * 1e3 + 0.5);
  m.source = llvm::formatv("threads.team_cost_us {0} us x {1} GFLOP/s a "
                           "core (peak_gflops_f32_per_core) of target {2}{3}",
                           hintNumberText(t.teamCostUs),
                           hintNumberText(t.peakGflopsF32PerCore), t.name,
                           t.hostCpu.empty() ? "" : " on " + t.hostCpu)
                 .str();
  return m;
}

ThreadCountChoice
mlir::tensorop::chooseGemmThreads(const GemmProblem &p, int64_t requested,
                                  const MinFlopsPerThread &minFlops) {
  ThreadCountChoice choice;
  choice.threads = std::max<int64_t>(1, requested);
  if (choice.threads == 1 || minFlops.flops == 0 || p.isDynamic())
    return choice;
  // (In doubles: M * N * K overflows int64 for huge GEMMs.)
  double flops = 2.0 * double(p.m) * double(p.n) * double(p.k);
  double minShare = double(minFlops.flops);
  bool shortK = !minFlops.fromOption && p.k < kShortTeamK;
  if (shortK)
    minShare *= kShortTeamKFactor;
  int64_t threads = choice.threads;
  while (threads > 1 && flops / double(threads) < minShare)
    --threads;
  if (threads == choice.threads)
    return choice;
  choice.threads = threads;
  choice.reason =
      llvm::formatv("runs on {0} thread{1}, not the {2} asked: its {3} flops "
                    "give each of {2} threads {4}, under the {5} a thread's "
                    "share must reach to pay for forking and joining an "
                    "OpenMP team ({6})",
                    threads, threads == 1 ? "" : "s", requested,
                    int64_t(flops), int64_t(flops / double(requested)),
                    uint64_t(minShare),
                    shortK ? llvm::formatv("{0} times the {1} of {2}, for a "
                                           "K below {3}",
                                           kShortTeamKFactor, minFlops.flops,
                                           minFlops.source, kShortTeamK)
                                 .str()
                           : minFlops.source)
          .str();
  return choice;
}
