/* Verifies a tensorop gen convolution object through its header, as a user
 * links it: small-integer inputs (exact results) and seeded random inputs
 * in [-1, 1) against a double-precision reference with the MEASURE.md bound
 * |C - R| <= 2*K*6e-8*(|x||w|) + 6e-8*|R|, K = R*S*C, output pre-filled
 * with NaN. Input NHWC, filter HWCF, output NHWC (the header's ABI).
 * Build: cc -DNAME=<name> -DCN=.. -DCH=.. -DCW=.. -DCC=.. -DCF=.. -DCR=..
 *   -DCS=.. -DSH=.. -DSW=.. -DDH=.. -DDW=.. -DPT=.. -DPL=.. -DOH=.. -DOW=..
 *   -I<dir> conv_check.c <name>.o
 * Prints "exact_mismatches: N", "failures: N", "max_error_ratio: X";
 * exits 0 only if both checks pass. Used by tensorop gen for cross targets
 * (run under qemu). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#define STR2(x) #x
#define STR(x) STR2(x)
#define HEADER(n) STR(n.h)
#include HEADER(NAME)

static uint64_t state = 42;
static float next_random(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (float)((state >> 40) * (1.0 / (1ull << 24)) * 2.0 - 1.0);
}

/* The reference of output element (n, y, x, f): value and magnitude. */
static void reference(const float *in, const float *flt, long n, long y,
                      long x, long f, double *value, double *magnitude) {
  double r = 0, s = 0;
  for (long p = 0; p < CR; ++p)
    for (long q = 0; q < CS; ++q) {
      long iy = y * SH + p * DH - PT, ix = x * SW + q * DW - PL;
      if (iy < 0 || iy >= CH || ix < 0 || ix >= CW)
        continue;
      for (long c = 0; c < CC; ++c) {
        double t = (double)in[((n * CH + iy) * CW + ix) * CC + c] *
                   flt[((p * CS + q) * CC + c) * CF + f];
        r += t;
        s += fabs(t);
      }
    }
  *value = r;
  *magnitude = s;
}

int main(void) {
  const long ni = (long)CN * CH * CW * CC, nf = (long)CR * CS * CC * CF,
             no = (long)CN * OH * OW * CF, k = (long)CR * CS * CC;
  float *in = malloc(sizeof(float) * ni), *flt = malloc(sizeof(float) * nf);
  float *out = malloc(sizeof(float) * no);
  long exact_bad = 0, failures = 0;
  double max_ratio = 0, r, s;
  for (long i = 0; i < ni; ++i) in[i] = (float)((i * 7) % 9 - 4);
  for (long i = 0; i < nf; ++i) flt[i] = (float)((i * 5) % 9 - 4);
  for (long i = 0; i < no; ++i) out[i] = NAN;
  NAME(in, flt, out);
  for (long i = 0; i < no; ++i) {
    long f = i % CF, x = (i / CF) % OW, y = (i / CF / OW) % OH,
         n = i / CF / OW / OH;
    reference(in, flt, n, y, x, f, &r, &s);
    if (!(out[i] == r)) ++exact_bad;
  }
  for (long i = 0; i < ni; ++i) in[i] = next_random();
  for (long i = 0; i < nf; ++i) flt[i] = next_random();
  for (long i = 0; i < no; ++i) out[i] = NAN;
  NAME(in, flt, out);
  for (long i = 0; i < no; ++i) {
    long f = i % CF, x = (i / CF) % OW, y = (i / CF / OW) % OH,
         n = i / CF / OW / OH;
    reference(in, flt, n, y, x, f, &r, &s);
    double bound = 2.0 * k * 6e-8 * s + 6e-8 * fabs(r);
    if (bound < 1e-30) bound = 1e-30;
    double err = fabs((double)out[i] - r);
    if (!(err <= bound)) ++failures;
    if (err / bound > max_ratio || isnan(err)) max_ratio = isnan(err) ? INFINITY : err / bound;
  }
  printf("exact_mismatches: %ld\nfailures: %ld\nmax_error_ratio: %g\n", exact_bad, failures, max_ratio);
  return exact_bad != 0 || failures != 0;
}
