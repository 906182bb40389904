/* Times several `tensorop gen` objects of ONE fp32 GEMM shape (variants:
 * different sketches) against OpenBLAS, oneDNN and libxsmm, every side in every
 * round, so that a load that comes and goes hits all sides alike. Built
 * by bench/cpu/sketch_ab.sh with INTERLEAVE=1 (kernels.inc as there: one
 * KERNEL(name, M, N, K, "vI") per variant, all of the same shape).
 *
 * gemm_vs_libraries.c runs its rows one after the other, each with its own
 * library timings; on a shared machine a row's ratio then moves by +-5%
 * between rows of the same object, more than the 1-3% a blocking change
 * makes. Here each round times every side once, in an order rotated from
 * round to round (no side always runs first) and reversed every other
 * round (no side always runs after the same neighbour: rotation alone kept
 * the cyclic order, v1 always right after v0, and identical objects read
 * 1.016-1.043x in v1's favour at 2 threads with the process CPU clock;
 * docs/benchmarks/cpu-gemm-classes.md, "Two threads on the mid-size
 * rows"), and a variant's figure is the median over rounds of its time
 * against the best library's time *in the same round*; the median
 * GFLOP/s, the spread (quartiles of that per-round ratio) and the ratio of
 * the fastest rounds (best library's minimum time / the variant's:
 * interference only ever slows a round down) are printed too.
 *
 * Verification as gemm_vs_libraries.c: NaN-prefilled C, inputs in [-1, 1),
 * fp64 reference, bound 2*K*6e-8*(|A||B|)_ij + 6e-8*|R_ij|, before and
 * after timing; a variant that fails is reported and not timed. */
#include <cblas.h>
#include <dnnl.h>
#include <libxsmm.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels_headers.inc"

#ifndef ROUNDS
#define ROUNDS 21
#endif
/* Threads of every side (OpenBLAS's; oneDNN and the objects take theirs
 * from OMP_NUM_THREADS, the objects' from their build); libxsmm's kernels
 * are single-threaded and only timed at 1. */
#ifndef THREADS
#define THREADS 1
#endif
#ifndef ROUND_SECONDS
#define ROUND_SECONDS 0.05
#endif
#ifndef TIMING_CLOCK
#define TIMING_CLOCK CLOCK_MONOTONIC
#endif

void openblas_set_num_threads(int);

typedef void (*ours_fn)(const float *, const float *, float *);
struct entry {
  const char *name, *cls;
  long m, n, k;
  ours_fn fn;
};
#define KERNEL(NAME, M, N, K, CLS) {#NAME, CLS, M, N, K, NAME},
static const struct entry kEntries[] = {
#include "kernels.inc"
};
#undef KERNEL
enum { kVariants = sizeof(kEntries) / sizeof(kEntries[0]) };
/* Sides: the variants, then the libraries. */
enum { kOpenBlas = kVariants, kOneDnn, kLibxsmm, kSides };

static long M, N, K;
static float *A, *B;
static libxsmm_smmfunction Xsmm;

#include "bench_util.h"

static void run_side(int s, float *c) {
  if (s < kVariants)
    kEntries[s].fn(A, B, c);
  else if (s == kOpenBlas)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A,
                K, B, N, 0.0f, c, N);
  else if (s == kOneDnn)
    dnnl_sgemm('N', 'N', M, N, K, 1.0f, A, K, B, N, 0.0f, c, N);
  else /* Column-major: C^T (N x M) = B^T (N x K) * A^T (K x M). */
    Xsmm(B, A, c);
}

static const char *side_name(int s) {
  return s < kVariants    ? kEntries[s].cls
         : s == kOpenBlas ? "OpenBLAS"
         : s == kOneDnn   ? "oneDNN"
                          : "libxsmm";
}

/* Max error / bound over C (> 1 fails; NaN left in C is infinite). */
static double check(const double *ref, const double *mag, const float *c) {
  double worst = 0;
  for (long i = 0; i < M * N; ++i) {
    double bound = 2.0 * K * 6e-8 * mag[i] + 6e-8 * fabs(ref[i]);
    if (bound < 1e-30)
      bound = 1e-30;
    double err = fabs((double)c[i] - ref[i]);
    if (isnan(err))
      return INFINITY;
    if (err / bound > worst)
      worst = err / bound;
  }
  return worst;
}

static double quantile(double *v, int n, double q) {
  qsort(v, n, sizeof(double), cmp_double);
  return v[(int)(q * (n - 1) + 0.5)];
}

int main(void) {
  openblas_set_num_threads(THREADS);
  libxsmm_init();
  M = kEntries[0].m, N = kEntries[0].n, K = kEntries[0].k;
  for (int v = 1; v < kVariants; ++v)
    if (kEntries[v].m != M || kEntries[v].n != N || kEntries[v].k != K) {
      fprintf(stderr, "variants_ab: %s is not %ldx%ldx%ld\n",
              kEntries[v].name, M, N, K);
      return 2;
    }
  A = alloc_floats(M * K);
  B = alloc_floats(K * N);
  for (long i = 0; i < M * K; ++i)
    A[i] = next_random();
  for (long i = 0; i < K * N; ++i)
    B[i] = next_random();
  int xn = N, xm = M, xk = K;
  float alpha = 1, beta = 0;
  Xsmm = libxsmm_smmdispatch(xn, xm, xk, &xn, &xk, &xn, &alpha, &beta, NULL,
                             NULL);
  double *ref = malloc(sizeof(double) * M * N),
         *mag = malloc(sizeof(double) * M * N);
  double *a64 = malloc(sizeof(double) * M * K),
         *b64 = malloc(sizeof(double) * K * N);
  for (int pass = 0; pass < 2; ++pass) {
    for (long i = 0; i < M * K; ++i)
      a64[i] = pass ? fabs((double)A[i]) : A[i];
    for (long i = 0; i < K * N; ++i)
      b64[i] = pass ? fabs((double)B[i]) : B[i];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0, a64,
                K, b64, N, 0.0, pass ? mag : ref, N);
  }
  free(a64);
  free(b64);

  float *c[kSides];
  int active[kSides], reps[kSides];
  double err[kSides];
  for (int s = 0; s < kSides; ++s) {
    c[s] = alloc_floats(M * N);
    if (s == kLibxsmm && (!Xsmm || THREADS > 1)) {
      active[s] = 0, reps[s] = 0, err[s] = 0;
      continue;
    }
    for (long i = 0; i < M * N; ++i)
      c[s][i] = NAN;
    run_side(s, c[s]);
    err[s] = check(ref, mag, c[s]);
    active[s] = err[s] <= 1;
    if (!active[s])
      fprintf(stderr, "%s FAILED verification (%g); not timed\n",
              side_name(s), err[s]);
    double best = INFINITY;
    for (int t = 0; t < 3 && active[s]; ++t) {
      double t0 = now();
      run_side(s, c[s]);
      double dt = now() - t0;
      if (dt < best)
        best = dt;
    }
    reps[s] = active[s] ? (int)(ROUND_SECONDS / (best > 1e-9 ? best : 1e-9))
                        : 0;
    if (reps[s] < 1)
      reps[s] = 1;
  }
  if (!active[kOpenBlas] && !active[kOneDnn] && !active[kLibxsmm])
    return 1;

  static double t[kSides][ROUNDS];
  for (int r = 0; r < ROUNDS; ++r)
    for (int i = 0; i < kSides; ++i) {
      int s = r % 2 ? (r - i + kSides * ROUNDS) % kSides : (i + r) % kSides;
      if (!active[s])
        continue;
      double t0 = now();
      for (int j = 0; j < reps[s]; ++j)
        run_side(s, c[s]);
      t[s][r] = (now() - t0) / reps[s];
    }

  int status = 0;
  for (int s = 0; s < kSides; ++s) {
    if (!active[s])
      continue;
    double after = check(ref, mag, c[s]);
    if (!(after <= 1)) {
      fprintf(stderr, "%s FAILED verification after timing\n", side_name(s));
      active[s] = 0;
      status = 1;
    } else if (after > err[s]) {
      err[s] = after;
    }
  }
  double flops = 2.0 * M * N * K;
  printf("%ldx%ldx%ld, %d thread(s), %d rounds, every side once per round "
         "(order rotated), >= %.2f s per side per round\n",
         M, N, K, THREADS, ROUNDS, ROUND_SECONDS);
  printf("vs best: median over rounds of (best library's time / variant's "
         "time) in the same round; q1..q3 its quartiles\n\n");
  printf("| side | median GFLOP/s | vs best (same round) | q1..q3 | "
         "fastest rounds vs best | max error/bound |\n"
         "| --- | ---: | ---: | --- | ---: | ---: |\n");
  double libMin = INFINITY;
  for (int s = kOpenBlas; s < kSides; ++s)
    for (int r = 0; r < ROUNDS && active[s]; ++r)
      if (t[s][r] < libMin)
        libMin = t[s][r];
  for (int s = 0; s < kSides; ++s) {
    if (!active[s]) {
      printf("| %s | - | - | - | - | %s |\n", side_name(s),
             s == kLibxsmm ? "not timed" : "FAILED");
      if (s < kVariants)
        status = 1;
      continue;
    }
    double sorted[ROUNDS], ratio[ROUNDS], fastest = INFINITY;
    for (int r = 0; r < ROUNDS; ++r) {
      double lib = INFINITY;
      if (active[kOpenBlas] && t[kOpenBlas][r] < lib)
        lib = t[kOpenBlas][r];
      if (active[kOneDnn] && t[kOneDnn][r] < lib)
        lib = t[kOneDnn][r];
      if (active[kLibxsmm] && t[kLibxsmm][r] < lib)
        lib = t[kLibxsmm][r];
      ratio[r] = lib / t[s][r];
      sorted[r] = t[s][r];
      if (t[s][r] < fastest)
        fastest = t[s][r];
    }
    double med = quantile(sorted, ROUNDS, 0.5);
    double rq1 = quantile(ratio, ROUNDS, 0.25),
           rq3 = quantile(ratio, ROUNDS, 0.75);
    double rmed = quantile(ratio, ROUNDS, 0.5);
    printf("| %s | %.1f | %.3fx | %.3f..%.3f | %.3fx | %.1e |\n",
           side_name(s), flops / med / 1e9, rmed, rq1, rq3, libMin / fastest,
           err[s]);
  }
  return status;
}
