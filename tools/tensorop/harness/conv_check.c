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

#include "conv_reference.h"

static uint64_t state = 42;
static float next_random(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (float)((state >> 40) * (1.0 / (1ull << 24)) * 2.0 - 1.0);
}

static const struct conv_geometry geometry = {CN, CH, CW, CC, CF, CR, CS,
                                              SH, SW, DH, DW, PT, PL, OH, OW};

int main(void) {
  const long ni = (long)CN * CH * CW * CC, nf = (long)CR * CS * CC * CF,
             no = (long)CN * OH * OW * CF;
  float *in = malloc(sizeof(float) * ni), *flt = malloc(sizeof(float) * nf);
  float *out = malloc(sizeof(float) * no);
  long exact_bad = 0;
  double max_ratio, r, s;
  for (long i = 0; i < ni; ++i) in[i] = (float)((i * 7) % 9 - 4);
  for (long i = 0; i < nf; ++i) flt[i] = (float)((i * 5) % 9 - 4);
  for (long i = 0; i < no; ++i) out[i] = NAN;
  NAME(in, flt, out);
  for (long i = 0; i < no; ++i) {
    long f = i % CF, x = (i / CF) % OW, y = (i / CF / OW) % OH,
         n = i / CF / OW / OH;
    conv_reference(&geometry, in, flt, n, y, x, f, &r, &s);
    if (!(out[i] == r)) ++exact_bad;
  }
  for (long i = 0; i < ni; ++i) in[i] = next_random();
  for (long i = 0; i < nf; ++i) flt[i] = next_random();
  for (long i = 0; i < no; ++i) out[i] = NAN;
  NAME(in, flt, out);
  long failures = conv_check_output(&geometry, in, flt, out, &max_ratio);
  printf("exact_mismatches: %ld\nfailures: %ld\nmax_error_ratio: %g\n", exact_bad, failures, max_ratio);
  return exact_bad != 0 || failures != 0;
}
