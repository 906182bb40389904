// What an OpenMP team costs a kernel call: the time of one
// `parallel for schedule(static)` over THREADS iterations of (almost) no
// work, the shape of a threaded sketch's loop after convert-scf-to-openmp
// (omp.parallel num_threads(T) + omp.wsloop), against the same loop run
// serially. Median of ROUNDS rounds of CALLS calls each, in microseconds.
// Used to set kMinFlopsPerThread (lib/Advisor/ThreadCount.cpp):
//   clang-22 -O2 -fopenmp bench/cpu/omp_fork_join.c -o /tmp/omp_fork_join
//   /tmp/omp_fork_join
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// Wall time: a team's cost is also the time the caller waits for it.
#define TIMING_CLOCK CLOCK_MONOTONIC
#include "bench_util.h"

#ifndef THREADS
#define THREADS 2
#endif
#ifndef ROUNDS
#define ROUNDS 21
#endif
#ifndef CALLS
#define CALLS 20000
#endif

static volatile float sink[THREADS * 16];

int main(void) {
  double team[ROUNDS], serial[ROUNDS];
  for (int r = 0; r < ROUNDS; ++r) {
    double t0 = now();
    for (int c = 0; c < CALLS; ++c) {
#pragma omp parallel for num_threads(THREADS) schedule(static)
      for (int i = 0; i < THREADS; ++i)
        sink[i * 16] += 1.0f;
    }
    double t1 = now();
    for (int c = 0; c < CALLS; ++c)
      for (int i = 0; i < THREADS; ++i)
        sink[i * 16] += 1.0f;
    double t2 = now();
    team[r] = (t1 - t0) / CALLS * 1e6;
    serial[r] = (t2 - t1) / CALLS * 1e6;
  }
  qsort(team, ROUNDS, sizeof(double), cmp_double);
  qsort(serial, ROUNDS, sizeof(double), cmp_double);
  printf("%d threads, %d rounds of %d calls: team of %d per call: median "
         "%.3f us (min %.3f, max %.3f); the same loop serially: median "
         "%.4f us\n",
         THREADS, ROUNDS, CALLS, THREADS, team[ROUNDS / 2], team[0],
         team[ROUNDS - 1], serial[ROUNDS / 2]);
  return 0;
}
