/* A/B of the two threaded forms of one GEMM sketch in one process: the
 * builtin advisor's sketch with pack_b = "kmajor_nr" (each thread packs all
 * the B it reads) against the same sketch with pack_b = "kmajor_nr_shared"
 * (one packed B block per (k, n) block, shared by the threads), and
 * oneDNN's dnnl_sgemm on the same threads as a yardstick. fp32, row-major
 * C = A * B, warm caches; the three sides alternate round by round (A B C A
 * B C ...), ROUNDS rounds of >= ROUND_SECONDS each; per side the median
 * wall time per call and the median process CPU time per call (all threads,
 * CLOCK_PROCESS_CPUTIME_ID: OpenMP workers spinning between calls count).
 *
 * Both forms are verified before and after timing against an fp64
 * reference (OpenBLAS dgemm), bound 2*K*6e-8*(|A||B|)_ij + 6e-8*|R_ij| as in
 * gemm_vs_libraries.c; a form that fails makes the exit status 1.
 *
 * Built by bench/cpu/shared_b_ab.sh: kernels.inc holds one line
 *   KERNEL(base_fn, shared_fn, M, N, K)
 * per shape, kernels_headers.inc their prototypes. */
#include <cblas.h>
#include <dnnl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef THREADS
#define THREADS 2
#endif
#ifndef ROUNDS
#define ROUNDS 9
#endif
#ifndef ROUND_SECONDS
#define ROUND_SECONDS 0.1
#endif

#include "kernels_headers.inc"

void openblas_set_num_threads(int);

typedef void (*gemm_fn)(const float *, const float *, float *);
struct entry {
  gemm_fn base, shared;
  long m, n, k;
};
#define KERNEL(BASE, SHARED, M, N, K) {BASE, SHARED, M, N, K},
static const struct entry kEntries[] = {
#include "kernels.inc"
};
#undef KERNEL

enum { BASE, SHARED, ONEDNN, SIDES };
static const char *kSideNames[SIDES] = {"kmajor_nr", "kmajor_nr_shared",
                                        "oneDNN"};

static double clock_s(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static uint64_t rng = 42;
static float next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)((rng >> 40) * (1.0 / (1ull << 24)) * 2.0 - 1.0);
}

static float *alloc_floats(long n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, sizeof(float) * (n ? n : 1)))
    abort();
  return p;
}

static void run_side(const struct entry *e, int side, const float *a,
                     const float *b, float *c) {
  if (side == BASE)
    e->base(a, b, c);
  else if (side == SHARED)
    e->shared(a, b, c);
  else
    dnnl_sgemm('N', 'N', e->m, e->n, e->k, 1.0f, a, e->k, b, e->n, 0.0f, c,
               e->n);
}

/* Max error / bound over C (> 1 fails; NaN is infinite). */
static double check(const struct entry *e, const float *a, const float *b,
                    const float *c) {
  long m = e->m, n = e->n, k = e->k;
  double *da = malloc(sizeof(double) * m * k), *db = malloc(sizeof(double) * k * n);
  double *r = malloc(sizeof(double) * m * n), *mag = malloc(sizeof(double) * m * n);
  for (int pass = 0; pass < 2; ++pass) {
    for (long i = 0; i < m * k; ++i)
      da[i] = pass ? fabs((double)a[i]) : a[i];
    for (long i = 0; i < k * n; ++i)
      db[i] = pass ? fabs((double)b[i]) : b[i];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, da,
                k, db, n, 0.0, pass ? mag : r, n);
  }
  double worst = 0;
  for (long i = 0; i < m * n; ++i) {
    double bound = 2.0 * k * 6e-8 * mag[i] + 6e-8 * fabs(r[i]);
    double err = fabs((double)c[i] - r[i]) / (bound < 1e-30 ? 1e-30 : bound);
    if (isnan(err)) {
      worst = INFINITY;
      break;
    }
    if (err > worst)
      worst = err;
  }
  free(da);
  free(db);
  free(r);
  free(mag);
  return worst;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

int main(void) {
  openblas_set_num_threads(1);
  printf("threads %d, %d rounds of >= %.2f s per side, sides alternating; "
         "median per call\n\n",
         THREADS, ROUNDS, ROUND_SECONDS);
  printf("| shape MxNxK | kmajor_nr wall us | shared wall us | shared/base "
         "wall | kmajor_nr CPU us | shared CPU us | shared/base CPU | oneDNN "
         "wall us | base GFLOP/s | shared GFLOP/s | oneDNN GFLOP/s |\n"
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  int status = 0;
  for (size_t idx = 0; idx < sizeof(kEntries) / sizeof(kEntries[0]); ++idx) {
    const struct entry *e = &kEntries[idx];
    float *a = alloc_floats(e->m * e->k), *b = alloc_floats(e->k * e->n);
    float *c[SIDES];
    for (long i = 0; i < e->m * e->k; ++i)
      a[i] = next_random();
    for (long i = 0; i < e->k * e->n; ++i)
      b[i] = next_random();
    for (int s = 0; s < SIDES; ++s) {
      c[s] = alloc_floats(e->m * e->n);
      for (long i = 0; i < e->m * e->n; ++i)
        c[s][i] = NAN;
    }
    int reps[SIDES];
    for (int s = 0; s < SIDES; ++s) {
      run_side(e, s, a, b, c[s]);
      if (s != ONEDNN && !(check(e, a, b, c[s]) <= 1)) {
        fprintf(stderr, "%ldx%ldx%ld: %s FAILED verification\n", e->m, e->n,
                e->k, kSideNames[s]);
        status = 1;
      }
      double best = INFINITY;
      for (int t = 0; t < 3; ++t) {
        double t0 = clock_s(CLOCK_MONOTONIC);
        run_side(e, s, a, b, c[s]);
        double dt = clock_s(CLOCK_MONOTONIC) - t0;
        best = dt < best ? dt : best;
      }
      reps[s] = (int)(ROUND_SECONDS / (best > 1e-9 ? best : 1e-9));
      reps[s] = reps[s] < 1 ? 1 : reps[s];
    }
    double wall[SIDES][ROUNDS], cpu[SIDES][ROUNDS];
    for (int r = 0; r < ROUNDS; ++r)
      for (int s = 0; s < SIDES; ++s) {
        double w0 = clock_s(CLOCK_MONOTONIC);
        double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
        for (int j = 0; j < reps[s]; ++j)
          run_side(e, s, a, b, c[s]);
        cpu[s][r] = (clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0) / reps[s];
        wall[s][r] = (clock_s(CLOCK_MONOTONIC) - w0) / reps[s];
      }
    for (int s = 0; s < ONEDNN; ++s)
      if (!(check(e, a, b, c[s]) <= 1)) {
        fprintf(stderr, "%ldx%ldx%ld: %s FAILED verification after timing\n",
                e->m, e->n, e->k, kSideNames[s]);
        status = 1;
      }
    double w[SIDES], cp[SIDES];
    for (int s = 0; s < SIDES; ++s) {
      qsort(wall[s], ROUNDS, sizeof(double), cmp_double);
      qsort(cpu[s], ROUNDS, sizeof(double), cmp_double);
      w[s] = wall[s][ROUNDS / 2];
      cp[s] = cpu[s][ROUNDS / 2];
    }
    double flops = 2.0 * e->m * e->n * e->k;
    printf("| %ldx%ldx%ld | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f | %.1f "
           "| %.1f | %.1f | %.1f |\n",
           e->m, e->n, e->k, w[BASE] * 1e6, w[SHARED] * 1e6,
           w[SHARED] / w[BASE], cp[BASE] * 1e6, cp[SHARED] * 1e6,
           cp[SHARED] / cp[BASE], w[ONEDNN] * 1e6, flops / w[BASE] / 1e9,
           flops / w[SHARED] / 1e9, flops / w[ONEDNN] / 1e9);
    fflush(stdout);
    free(a);
    free(b);
    for (int s = 0; s < SIDES; ++s)
      free(c[s]);
  }
  return status;
}
