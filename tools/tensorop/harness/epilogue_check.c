/* Verifies a tensorop gen object for a GEMM with a fused epilogue through
 * its header, as a user links it: seeded random A, B, bias and R in
 * [-1, 1), C pre-filled with NaN, against the steps applied in fp64 to an
 * fp64 product with the bound gen's x86 check uses (lib/Driver/
 * EpilogueGemm.cpp):
 *   |C - E(acc)| <= L*(2*K*6e-8*(|A||B|) + 6e-8*|acc|)
 *                   + 2e-6*(1 + |acc| + |E(acc)|),  E = the steps in fp64,
 *   L = 1.2 times the scale steps' |s| (each at least 1).
 * Build: cc -DNAME=<name> -DM=.. -DN=.. -DK=.. [-DBIAS=1] [-DRESIDUAL=1]
 *   [-DTA=1] [-DTB=1] [-DBATCHED] -I<dir> epilogue_check.c <name>.o -lm
 * (BIAS: NAME takes a bias of N floats, RESIDUAL: an M x N R; TA / TB: A is
 * stored K x M / B is stored N x K, as the request's transposes say;
 * BATCHED: NAME_batched too, on 3 slices with padded strides, the padding
 * compared bit for bit).
 * Run: ./check STEP... with the steps in order (bias_n, bias_m, residual,
 * relu, tanh, sigmoid, silu, gelu_tanh, gelu_erf, scale(s), clamp(lo,hi)).
 * Prints "failures: N", "max_error_ratio: X"; exits 0 only if no element is
 * over the bound, 2 on an unknown step. Used by tensorop gen for cross
 * targets (run under qemu). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_common.h"
#ifndef BIAS
#define BIAS 0
#endif
#ifndef RESIDUAL
#define RESIDUAL 0
#endif

/* One step on x (row i, column j); returns 0 for an unknown step. */
static int apply(const char *step, double *x, double bias_n, double bias_m,
                 double r) {
  double v = *x, lo, hi;
  if (!strcmp(step, "bias_n")) v += bias_n;
  else if (!strcmp(step, "bias_m")) v += bias_m;
  else if (!strcmp(step, "residual")) v += r;
  else if (!strcmp(step, "relu")) v = v > 0 ? v : 0;
  else if (!strcmp(step, "tanh")) v = tanh(v);
  else if (!strcmp(step, "sigmoid")) v = 1 / (1 + exp(-v));
  else if (!strcmp(step, "silu")) v = v / (1 + exp(-v));
  else if (!strcmp(step, "gelu_tanh"))
    v = 0.5 * v * (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
  else if (!strcmp(step, "gelu_erf")) v = 0.5 * v * (1 + erf(v / sqrt(2.0)));
  else if (sscanf(step, "scale(%lf)", &lo) == 1) v *= lo;
  else if (sscanf(step, "clamp(%lf,%lf)", &lo, &hi) == 2)
    v = v < lo ? lo : v > hi ? hi : v;
  else return 0;
  *x = v;
  return 1;
}

/* Checks the M x N C (row-major, contiguous) of A and B (stored as TA / TB
 * say) against the steps in fp64; adds to *failures and *max_ratio.
 * Returns 0 on an unknown step. */
static int check_output(const float *a, const float *b, const float *bias,
                        const float *r, const float *c, int argc, char **argv,
                        double slope, long *failures, double *max_ratio) {
  for (long i = 0; i < M; ++i)
    for (long j = 0; j < N; ++j) {
      double acc = 0, s = 0;
      for (long k = 0; k < K; ++k) {
        double p = (double)A_AT(i, k) * B_AT(k, j);
        acc += p;
        s += fabs(p);
      }
      double want = acc;
      for (int n = 1; n < argc; ++n)
        if (!apply(argv[n], &want, bias[j], bias[i], r[i * N + j])) {
          fprintf(stderr, "unknown epilogue step '%s'\n", argv[n]);
          return 0;
        }
      double bound = slope * (2.0 * K * 6e-8 * s + 6e-8 * fabs(acc)) +
                     2e-6 * (1 + fabs(acc) + fabs(want));
      double err = fabs((double)c[i * N + j] - want);
      if (!(err <= bound)) ++*failures;
      if (err / bound > *max_ratio || isnan(err))
        *max_ratio = isnan(err) ? INFINITY : err / bound;
    }
  return 1;
}

#ifdef BATCHED
/* The padding's NaN payload (gen's in-process check uses the same):
   compared bit for bit after the call. */
static const uint32_t poison_bits = 0x7fc0dead;
static float *poisoned(long n) {
  float *x = malloc(sizeof(float) * n);
  for (long i = 0; i < n; ++i) memcpy(&x[i], &poison_bits, 4);
  return x;
}
static long poison_changed(const float *x, long n, long size, long stride) {
  long changed = 0;
  for (long i = 0; i < n; ++i) {
    uint32_t bits;
    memcpy(&bits, &x[i], 4);
    changed += i % stride >= size && bits != poison_bits;
  }
  return changed;
}
#endif

int main(int argc, char **argv) {
  float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
  float *c = malloc(sizeof(float) * M * N), *r = malloc(sizeof(float) * M * N);
  float *bias = malloc(sizeof(float) * (M > N ? M : N));
  long failures = 0;
  double max_ratio = 0, slope = 1.2, s;
  /* A scale step multiplies the GEMM's rounding error by |s|. */
  for (int n = 1; n < argc; ++n)
    if (sscanf(argv[n], "scale(%lf)", &s) == 1 && fabs(s) > 1) slope *= fabs(s);
  for (long i = 0; i < (long)M * K; ++i) a[i] = next_random();
  for (long i = 0; i < (long)K * N; ++i) b[i] = next_random();
  for (long i = 0; i < (M > N ? M : N); ++i) bias[i] = next_random();
  for (long i = 0; i < (long)M * N; ++i) r[i] = next_random();
  for (long i = 0; i < (long)M * N; ++i) c[i] = NAN;
#if BIAS && RESIDUAL
  NAME(a, b, bias, r, c);
#elif BIAS
  NAME(a, b, bias, c);
#elif RESIDUAL
  NAME(a, b, r, c);
#else
  NAME(a, b, c);
#endif
  if (!check_output(a, b, bias, r, c, argc, argv, slope, &failures,
                    &max_ratio))
    return 2;
  printf("failures: %ld\nmax_error_ratio: %g\n", failures, max_ratio);
#ifdef BATCHED
  {
    /* NAME_batched: 3 slices, each matrix 5 elements longer than it (the
       padding poisoned), C NaN before; every slice checked as NAME is. */
    enum { NB = 3, PAD = 5 };
    long sa = (long)M * K + PAD, sb = (long)K * N + PAD, sc = (long)M * N + PAD,
         sr = (long)M * N + 2 * PAD; /* strideR differs from strideC */
    float *ab = poisoned(NB * sa), *bb = poisoned(NB * sb),
          *cb = poisoned(NB * sc), *rb = poisoned(NB * sr);
    long bfail = 0, changed = 0;
    double bratio = 0;
    for (long t = 0; t < NB; ++t) {
      for (long i = 0; i < (long)M * K; ++i) ab[t * sa + i] = next_random();
      for (long i = 0; i < (long)K * N; ++i) bb[t * sb + i] = next_random();
      for (long i = 0; i < (long)M * N; ++i) rb[t * sr + i] = next_random();
      for (long i = 0; i < (long)M * N; ++i) cb[t * sc + i] = NAN;
    }
#if BIAS && RESIDUAL
    CAT(NAME, _batched)(ab, bb, bias, rb, cb, NB, sa, sb, sc, sr);
#elif BIAS
    CAT(NAME, _batched)(ab, bb, bias, cb, NB, sa, sb, sc);
#elif RESIDUAL
    CAT(NAME, _batched)(ab, bb, rb, cb, NB, sa, sb, sc, sr);
#else
    CAT(NAME, _batched)(ab, bb, cb, NB, sa, sb, sc);
#endif
    for (long t = 0; t < NB; ++t)
      check_output(ab + t * sa, bb + t * sb, bias, rb + t * sr, cb + t * sc,
                   argc, argv, slope, &bfail, &bratio);
    changed = poison_changed(ab, NB * sa, (long)M * K, sa) +
              poison_changed(bb, NB * sb, (long)K * N, sb) +
              poison_changed(cb, NB * sc, (long)M * N, sc) +
              poison_changed(rb, NB * sr, (long)M * N, sr);
    printf("batched_failures: %ld\nbatched_max_error_ratio: %g\n"
           "batched_padding_changed: %ld\n", bfail, bratio, changed);
    failures += bfail + changed;
  }
#endif
#ifdef VLEN_VARIANT
  printf("vlen_variant: %d\n", VLEN_VARIANT());
#endif
  return failures != 0;
}
