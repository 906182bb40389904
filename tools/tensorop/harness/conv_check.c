/* Verifies a tensorop gen convolution object through its header, as a user
 * links it: small-integer inputs (exact results) and seeded random inputs
 * in [-1, 1) against a double-precision reference with the MEASURE.md bound
 * |C - R| <= 2*K*6e-8*(|x||w|) + 6e-8*|R|, K = R*S*C, output pre-filled
 * with NaN. Input NHWC, filter HWCF, output NHWC (the header's ABI).
 * Build: cc -DNAME=<name> -DCN=.. -DCH=.. -DCW=.. -DCC=.. -DCF=.. -DCR=..
 *   -DCS=.. -DSH=.. -DSW=.. -DDH=.. -DDW=.. -DPT=.. -DPL=.. -DOH=.. -DOW=..
 *   -I<dir> conv_check.c <name>.o
 * Prints "exact_mismatches: N", "failures: N", "max_error_ratio: X";
 * exits 0 only if both checks pass. With -DPREPACKED the same two checks
 * run NAME_pack_filter (into a NaN-filled buffer) and NAME_prepacked too
 * and print their counts with a "prepacked_" prefix. Used by tensorop gen
 * for cross targets (run under qemu). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "check_common.h"
#include "conv_reference.h"

#ifdef PREPACKED
/* NAME_prepacked on a filter packed just now (NaN first: a pack that skips
 * part of its buffer leaves NaN for the kernel to read). */
static void run_prepacked(const float *in, const float *flt, float *out,
                          long no) {
  size_t bytes = CAT(NAME, _packed_filter_size)();
  float *packed = malloc(bytes);
  for (size_t i = 0; i < bytes / sizeof(float); ++i) packed[i] = NAN;
  CAT(NAME, _pack_filter)(flt, packed);
  for (long i = 0; i < no; ++i) out[i] = NAN;
  CAT(NAME, _prepacked)(in, packed, out);
  free(packed);
}
#endif

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
#ifdef PREPACKED
  long prepacked_exact_bad = 0;
  run_prepacked(in, flt, out, no);
  for (long i = 0; i < no; ++i) {
    long f = i % CF, x = (i / CF) % OW, y = (i / CF / OW) % OH,
         n = i / CF / OW / OH;
    conv_reference(&geometry, in, flt, n, y, x, f, &r, &s);
    if (!(out[i] == r)) ++prepacked_exact_bad;
  }
#endif
  for (long i = 0; i < ni; ++i) in[i] = next_random();
  for (long i = 0; i < nf; ++i) flt[i] = next_random();
  for (long i = 0; i < no; ++i) out[i] = NAN;
  NAME(in, flt, out);
  long failures = conv_check_output(&geometry, in, flt, out, &max_ratio);
  printf("exact_mismatches: %ld\nfailures: %ld\nmax_error_ratio: %g\n", exact_bad, failures, max_ratio);
#ifdef PREPACKED
  double prepacked_max_ratio;
  run_prepacked(in, flt, out, no);
  long prepacked_failures =
      conv_check_output(&geometry, in, flt, out, &prepacked_max_ratio);
  printf("prepacked_exact_mismatches: %ld\nprepacked_failures: "
         "%ld\nprepacked_max_error_ratio: %g\n",
         prepacked_exact_bad, prepacked_failures, prepacked_max_ratio);
  if (prepacked_exact_bad != 0 || prepacked_failures != 0)
    return 1;
#endif
  return exact_bad != 0 || failures != 0;
}
