/* Times `tensorop gen` objects, called through their headers' entry points
 * as a user calls them, against OpenBLAS (cblas_sgemm), oneDNN (dnnl_sgemm)
 * and libxsmm (a JIT kernel from libxsmm_smmdispatch) in one process:
 * fp32, row-major C = A * B, warm caches, the sides of one shape
 * alternating round by round, median of ROUNDS rounds.
 *
 * Every side is verified before timing and again on the buffers its timed
 * runs wrote: NaN-prefilled C, seeded inputs in [-1, 1), fp64 reference,
 * bound 2*K*6e-8*(|A||B|)_ij + 6e-8*|R_ij| (shared/MEASURE.md). A side that
 * fails is reported and not counted.
 *
 * Build (bench/cpu/run.sh does this): kernels.inc holds one line
 *   KERNEL(name, M, N, K, "class")
 * per gen object; cc -DTHREADS=1 -I<dirs> gemm_vs_libraries.c *.o
 *   -lopenblas -ldnnl -lxsmm ... (see run.sh).
 * Output: one markdown row per shape, then geomeans per class.
 *
 * At 1 thread each round also times a register-only FMA loop (the core's
 * peak): this machine's clock moves by about 10% within a run, so a shape's
 * "% of peak" divides by the peak of its own rounds, not by one measured
 * before or after the table. Not at 2 threads: the OpenMP runtimes' and
 * OpenBLAS's threads spin for a while after each call, so a 2-thread loop
 * started between the sides shared a core with them and measured anything
 * from one core's peak to two (session 30's 2-thread class table). */
#if !defined(__x86_64__)
#error "gemm_vs_libraries.c times x86-64 GEMMs (its peak loop is AVX FMAs)"
#endif
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

#ifndef THREADS
#define THREADS 1
#endif
#ifndef ROUNDS
#define ROUNDS 9
#endif
#ifndef ROUND_SECONDS
#define ROUND_SECONDS 0.08
#endif

void openblas_set_num_threads(int);
char *openblas_get_config(void);
char *openblas_get_corename(void);

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

enum { OURS, OPENBLAS, ONEDNN, LIBXSMM, SIDES };
static const char *kSideNames[SIDES] = {"TensorOp", "OpenBLAS", "oneDNN",
                                        "libxsmm"};

struct problem {
  const struct entry *e;
  float *a, *b, *c[SIDES];
  libxsmm_smmfunction xsmm;
};

/* -DTIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID (1 thread only) counts only the
 * time this thread ran: on a machine shared with other work, time spent
 * descheduled is then not charged to whichever side was running. Caches
 * and memory bandwidth are still shared, so such figures are labelled as
 * loaded all the same. */
#ifndef TIMING_CLOCK
#define TIMING_CLOCK CLOCK_MONOTONIC
#endif

#include "../common/fma_peak_loop.h"
#include "bench_util.h"

/* The core's peak: fma_peak_loop (bench/common/fma_peak_loop.h) on zmm
   registers where the CPU has AVX-512F, ymm ones otherwise; a call of
   PEAK_ITERATIONS lasts milliseconds. */
#define PEAK_ITERATIONS 4000000L
static int peakOnZmm;

static void run_side(struct problem *p, int side) {
  const struct entry *e = p->e;
  float *c = p->c[side];
  switch (side) {
  case OURS:
    e->fn(p->a, p->b, c);
    break;
  case OPENBLAS:
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, e->m, e->n, e->k,
                1.0f, p->a, e->k, p->b, e->n, 0.0f, c, e->n);
    break;
  case ONEDNN:
    dnnl_sgemm('N', 'N', e->m, e->n, e->k, 1.0f, p->a, e->k, p->b, e->n,
               0.0f, c, e->n);
    break;
  case LIBXSMM:
    /* Column-major: C^T (N x M) = B^T (N x K) * A^T (K x M). */
    p->xsmm(p->b, p->a, c);
    break;
  }
}

/* The fp64 reference of C = A*B and of |A||B| (for the bound), through
   OpenBLAS dgemm on fp64 copies of the inputs. */
struct reference {
  double *value, *magnitude;
};

static struct reference compute_reference(const struct problem *p) {
  const struct entry *e = p->e;
  struct reference r = {malloc(sizeof(double) * e->m * e->n),
                        malloc(sizeof(double) * e->m * e->n)};
  double *a = malloc(sizeof(double) * e->m * e->k),
         *b = malloc(sizeof(double) * e->k * e->n);
  for (int pass = 0; pass < 2; ++pass) {
    for (long i = 0; i < e->m * e->k; ++i)
      a[i] = pass ? fabs((double)p->a[i]) : p->a[i];
    for (long i = 0; i < e->k * e->n; ++i)
      b[i] = pass ? fabs((double)p->b[i]) : p->b[i];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, e->m, e->n, e->k,
                1.0, a, e->k, b, e->n, 0.0, pass ? r.magnitude : r.value,
                e->n);
  }
  free(a);
  free(b);
  return r;
}

/* Max error / bound over C (> 1 fails; NaN left in C is infinite). */
static double check(const struct problem *p, const struct reference *ref,
                    const float *c) {
  const struct entry *e = p->e;
  double worst = 0;
  for (long i = 0; i < e->m * e->n; ++i) {
    double r = ref->value[i];
    double bound = 2.0 * e->k * 6e-8 * ref->magnitude[i] + 6e-8 * fabs(r);
    if (bound < 1e-30)
      bound = 1e-30;
    double err = fabs((double)c[i] - r);
    if (isnan(err))
      return INFINITY;
    if (err / bound > worst)
      worst = err / bound;
  }
  return worst;
}

int main(void) {
  openblas_set_num_threads(THREADS);
  peakOnZmm = __builtin_cpu_supports("avx512f");
  libxsmm_init();
  const dnnl_version_t *dv = dnnl_version();
  printf("threads %d, %d rounds of >= %.2f s per side (order rotated), "
         "median GFLOP/s\n",
         THREADS, ROUNDS, ROUND_SECONDS);
  printf("OpenBLAS %s (core %s); oneDNN %d.%d.%d; libxsmm %s (target %s)%s\n",
         openblas_get_config(), openblas_get_corename(), dv->major,
         dv->minor, dv->patch, LIBXSMM_VERSION, libxsmm_get_target_arch(),
         THREADS > 1 ? " (libxsmm kernels are single-threaded: not timed)"
                     : "");
  if (THREADS == 1)
    printf("peak: a register-only %s FMA loop, timed in every round next to "
           "the sides; %% peak = ours / the median of its rounds\n",
           peakOnZmm ? "zmm" : "ymm");
  else
    printf("peak: not timed at %d threads (other runtimes' spinning threads "
           "share its cores)\n",
           THREADS);
  printf("\n| class | shape MxNxK | TensorOp | OpenBLAS | oneDNN | libxsmm "
         "| best library | vs best | peak | ours %% peak | max error/bound (ours) "
         "|\n"
         "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
         "|\n");
  int nEntries = sizeof(kEntries) / sizeof(kEntries[0]);
  double logSum = 0, worst = INFINITY;
  int counted = 0, status = 0;
  const char *classes[16];
  double classLog[16];
  int classCount[16], nClasses = 0;
  for (int idx = 0; idx < nEntries; ++idx) {
    struct problem p = {&kEntries[idx]};
    const struct entry *e = p.e;
    p.a = alloc_floats(e->m * e->k);
    p.b = alloc_floats(e->k * e->n);
    for (int s = 0; s < SIDES; ++s)
      p.c[s] = alloc_floats(e->m * e->n);
    for (long i = 0; i < e->m * e->k; ++i)
      p.a[i] = next_random();
    for (long i = 0; i < e->k * e->n; ++i)
      p.b[i] = next_random();
    int xn = e->n, xm = e->m, xk = e->k;
    float alpha = 1, beta = 0;
    p.xsmm = libxsmm_smmdispatch(xn, xm, xk, &xn, &xk, &xn, &alpha, &beta,
                                 NULL, NULL);
    int active[SIDES] = {1, 1, 1, p.xsmm != NULL && THREADS == 1};
    struct reference ref = compute_reference(&p);
    double before[SIDES] = {0}, after[SIDES] = {0};
    for (int s = 0; s < SIDES; ++s) {
      if (!active[s])
        continue;
      for (long i = 0; i < e->m * e->n; ++i)
        p.c[s][i] = NAN;
      run_side(&p, s);
      before[s] = check(&p, &ref, p.c[s]);
      if (!(before[s] <= 1)) {
        fprintf(stderr, "%ldx%ldx%ld: %s FAILED verification (%g); not timed\n",
                e->m, e->n, e->k, kSideNames[s], before[s]);
        active[s] = 0;
        if (s == OURS)
          status = 1;
      }
    }
    /* Warm up and size each side's round. */
    int reps[SIDES];
    for (int s = 0; s < SIDES; ++s) {
      if (!active[s])
        continue;
      double best = INFINITY;
      for (int t = 0; t < 3; ++t) {
        double t0 = now();
        run_side(&p, s);
        double dt = now() - t0;
        if (dt < best)
          best = dt;
      }
      reps[s] = (int)(ROUND_SECONDS / (best > 1e-9 ? best : 1e-9));
      if (reps[s] < 1)
        reps[s] = 1;
    }
    double samples[SIDES][ROUNDS], peakSamples[ROUNDS];
    // The order rotates per round: a side's frees (libxsmm's per-call
    // buffers, returned to the kernel) cost work the next side's timing
    // absorbs (2694^3 after libxsmm: 153-163 GFLOP/s in fixed order, 187
    // with the order rotated; docs/benchmarks/cpu-gemm-classes.md, "Zen 5:
    // the side after libxsmm").
    // The peak takes one more slot of the rotation (s == SIDES).
    for (int r = 0; r < ROUNDS; ++r)
      for (int i = 0; i <= SIDES; ++i) {
        int s = (r + i) % (SIDES + 1);
        if (s == SIDES) {
          if (THREADS > 1)
            continue;
          double t0 = now();
          fma_peak_loop(PEAK_ITERATIONS, peakOnZmm);
          peakSamples[r] = now() - t0;
          continue;
        }
        if (!active[s])
          continue;
        double t0 = now();
        for (int j = 0; j < reps[s]; ++j)
          run_side(&p, s);
        samples[s][r] = (now() - t0) / reps[s];
      }
    double gflops[SIDES] = {0};
    double flops = 2.0 * e->m * e->n * e->k;
    for (int s = 0; s < SIDES; ++s) {
      if (!active[s])
        continue;
      after[s] = check(&p, &ref, p.c[s]);
      if (!(after[s] <= 1)) {
        fprintf(stderr, "%ldx%ldx%ld: %s FAILED verification after timing\n",
                e->m, e->n, e->k, kSideNames[s]);
        active[s] = 0;
        if (s == OURS)
          status = 1;
        continue;
      }
      qsort(samples[s], ROUNDS, sizeof(double), cmp_double);
      gflops[s] = flops / samples[s][ROUNDS / 2] / 1e9;
    }
    int best = -1;
    for (int s = OPENBLAS; s < SIDES; ++s)
      if (active[s] && (best < 0 || gflops[s] > gflops[best]))
        best = s;
    char cells[SIDES][32];
    for (int s = 0; s < SIDES; ++s)
      snprintf(cells[s], sizeof cells[s], active[s] ? "%.1f" : "-",
               gflops[s]);
    double ratio = active[OURS] && best >= 0 ? gflops[OURS] / gflops[best] : 0;
    char peakCells[2][32] = {"-", "-"};
    if (THREADS == 1) {
      qsort(peakSamples, ROUNDS, sizeof(double), cmp_double);
      double peak = PEAK_ITERATIONS * fma_peak_flops_per_iteration(peakOnZmm) /
                    peakSamples[ROUNDS / 2] / 1e9;
      snprintf(peakCells[0], sizeof peakCells[0], "%.1f", peak);
      snprintf(peakCells[1], sizeof peakCells[1], "%.1f%%",
               100 * gflops[OURS] / peak);
    }
    printf("| %s | %ldx%ldx%ld | %s | %s | %s | %s | %s | %.2fx | %s | %s "
           "| %.1e |\n",
           e->cls, e->m, e->n, e->k, cells[OURS], cells[OPENBLAS],
           cells[ONEDNN], cells[LIBXSMM], best >= 0 ? kSideNames[best] : "-",
           ratio, peakCells[0], peakCells[1],
           before[OURS] > after[OURS] ? before[OURS] : after[OURS]);
    fflush(stdout);
    if (ratio > 0) {
      logSum += log(ratio);
      ++counted;
      if (ratio < worst)
        worst = ratio;
      int c = 0;
      while (c < nClasses && strcmp(classes[c], e->cls))
        ++c;
      if (c == nClasses && nClasses < 16) {
        classes[nClasses] = e->cls;
        classLog[nClasses] = 0;
        classCount[nClasses++] = 0;
      }
      if (c < nClasses) {
        classLog[c] += log(ratio);
        ++classCount[c];
      }
    }
    free(ref.value);
    free(ref.magnitude);
    free(p.a);
    free(p.b);
    for (int s = 0; s < SIDES; ++s)
      free(p.c[s]);
  }
  printf("\n");
  for (int c = 0; c < nClasses; ++c)
    printf("%s: geomean %.2fx the best library over %d shapes\n", classes[c],
           exp(classLog[c] / classCount[c]), classCount[c]);
  if (counted)
    printf("all: geomean %.2fx the best library over %d shapes, lowest %.2fx\n",
           exp(logSum / counted), counted, worst);
  return status;
}
