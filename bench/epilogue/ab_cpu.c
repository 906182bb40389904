/* ab_cpu.sh's driver: VARIANTS GEMM + epilogue functions of one shape
 * (objects built by ab_cpu.sh, each `void vI(A, B, bias, R, C)`), called
 * in turn in ONE process, ROUNDS rounds of REPS calls each (the first 2
 * rounds dropped as warm-up), timed with this thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID: time this thread ran, so other processes on a
 * loaded machine do not count, their cache and memory-bandwidth use does).
 * Every variant's C is NaN-prefilled before its first call and compared
 * with variant 0's after the last (max |difference| printed). Inputs:
 * seeded values in [-1, 1). Prints per variant the median and min us per
 * call, then for each variant the median over rounds of (its time / v0's
 * time in the same round).
 * Build: cc -O2 -DM=.. -DN=.. -DK=.. -DBLEN=.. -DVARIANTS=n ab_cpu.c v0.o ... */
#define _POSIX_C_SOURCE 200112L // clock_gettime, posix_memalign
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*Fn)(const float *, const float *, const float *, const float *,
                   float *);
#define DECL(i) void v##i(const float *, const float *, const float *, \
                          const float *, float *);
DECL(0) DECL(1) DECL(2) DECL(3)
static Fn fns[4] = {v0, v1, v2, v3};

// The clock, the inputs' random numbers and aligned buffers of the CPU
// benchmarks.
#define TIMING_CLOCK CLOCK_THREAD_CPUTIME_ID
#include "../cpu/bench_util.h"

static double median(double *x, int n) {
  qsort(x, n, sizeof(double), cmp_double);
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}
static float *alloc(long n) {
  float *p = alloc_floats(n);
  if (!p) {
    fprintf(stderr, "ab_cpu: cannot allocate %ld floats\n", n);
    exit(1);
  }
  for (long i = 0; i < n; ++i) p[i] = next_random();
  return p;
}

int main(int argc, char **argv) {
  rng = 7; // the inputs as before this driver shared bench_util.h's generator
  int rounds = argc > 1 ? atoi(argv[1]) : 21, reps = argc > 2 ? atoi(argv[2]) : 20;
  float *a = alloc((long)M * K), *b = alloc((long)K * N), *bias = alloc(BLEN),
        *r = alloc((long)M * N), *c[VARIANTS];
  for (int v = 0; v < VARIANTS; ++v) {
    c[v] = alloc((long)M * N);
    for (long i = 0; i < (long)M * N; ++i) c[v][i] = NAN;
  }
  double t[VARIANTS][256];
  if (rounds > 256) rounds = 256;
  for (int round = 0; round < rounds; ++round)
    for (int v = 0; v < VARIANTS; ++v) {
      double t0 = now();
      for (int i = 0; i < reps; ++i) fns[v](a, b, bias, r, c[v]);
      t[v][round] = (now() - t0) / reps;
    }
  int kept = rounds - 2;
  printf("%dx%dx%d, %d rounds (2 warm-up dropped) x %d calls, thread CPU time\n",
         M, N, K, kept, reps);
  for (int v = 0; v < VARIANTS; ++v) {
    double ratio[256], times[256];
    double maxdiff = 0;
    for (int i = 0; i < kept; ++i) {
      ratio[i] = t[v][i + 2] / t[0][i + 2];
      times[i] = t[v][i + 2];
    }
    for (long i = 0; i < (long)M * N; ++i) {
      double d = fabs((double)c[v][i] - c[0][i]);
      if (d != d) d = INFINITY;
      if (d > maxdiff) maxdiff = d;
    }
    double med = median(times, kept), mn = times[0];
    printf("v%d %-28s median %9.2f us  min %9.2f us  v%d/v0 %.3f  max|C-C0| %.3g\n",
           v, argv[3 + v], med * 1e6, mn * 1e6, v, median(ratio, kept), maxdiff);
  }
  return 0;
}
