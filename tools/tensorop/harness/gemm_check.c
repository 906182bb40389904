/* Verifies a tensorop gen object through its header, as a user links it:
 * small-integer inputs (exact results) and seeded random inputs in [-1, 1)
 * against a double-precision reference with the MEASURE.md bound
 * |C - R| <= 2*K*6e-8*(|A||B|) + 6e-8*|R|, C pre-filled with NaN.
 * Build: cc -DNAME=<name> -DM=.. -DN=.. -DK=.. [-DTA=1] [-DTB=1] -I<dir>
 * gemm_check.c <name>.o (TA: A stored K x M, TB: B stored N x K)
 * Prints "exact_mismatches: N", "failures: N", "max_error_ratio: X";
 * exits 0 only if both checks pass. Used by tensorop gen for cross targets
 * (run under qemu) and by the tests. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "check_common.h"

int main(void) {
  float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
  float *c = malloc(sizeof(float) * M * N);
  long exact_bad = 0, failures = 0;
  double max_ratio = 0;
  for (long i = 0; i < (long)M * K; ++i) a[i] = (float)((i * 7) % 9 - 4);
  for (long i = 0; i < (long)K * N; ++i) b[i] = (float)((i * 5) % 9 - 4);
  for (long i = 0; i < (long)M * N; ++i) c[i] = NAN;
  NAME(a, b, c);
  for (long i = 0; i < M; ++i)
    for (long j = 0; j < N; ++j) {
      double r = 0;
      for (long k = 0; k < K; ++k) r += (double)A_AT(i, k) * B_AT(k, j);
      if (!(c[i * N + j] == r)) ++exact_bad;
    }
  for (long i = 0; i < (long)M * K; ++i) a[i] = next_random();
  for (long i = 0; i < (long)K * N; ++i) b[i] = next_random();
  for (long i = 0; i < (long)M * N; ++i) c[i] = NAN;
  NAME(a, b, c);
  for (long i = 0; i < M; ++i)
    for (long j = 0; j < N; ++j) {
      double r = 0, s = 0;
      for (long k = 0; k < K; ++k) {
        double p = (double)A_AT(i, k) * B_AT(k, j);
        r += p;
        s += fabs(p);
      }
      double bound = 2.0 * K * 6e-8 * s + 6e-8 * fabs(r);
      if (bound < 1e-30) bound = 1e-30;
      double err = fabs((double)c[i * N + j] - r);
      if (!(err <= bound)) ++failures;
      if (err / bound > max_ratio || isnan(err)) max_ratio = isnan(err) ? INFINITY : err / bound;
    }
  printf("exact_mismatches: %ld\nfailures: %ld\nmax_error_ratio: %g\n", exact_bad, failures, max_ratio);
#ifdef VLEN_VARIANT
  printf("vlen_variant: %d\n", VLEN_VARIANT());
#endif
  return exact_bad != 0 || failures != 0;
}
