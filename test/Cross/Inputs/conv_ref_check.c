// Checks void conv(const float *in, const float *flt, float *out) (input
// NHWC, filter HWCF, output NHWC; the shape from -D macros: N H W C F R S
// SH SW DH DW PT PB PL PR) against an fp64 reference on NaN-prefilled
// output, with the MEASURE.md bound (K = R*S*C, c = 2, u = 6e-8); prints
// "failures: N" and the largest error/bound ratio. Freestanding POSIX C, so
// it runs under qemu-user when cross-compiled statically. The reference and
// bound: tools/tensorop/harness/conv_reference.h.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "conv_reference.h"

void conv(const float *in, const float *flt, float *out);

#define OH ((H + PT + PB - DH * (R - 1) - 1) / SH + 1)
#define OW ((W + PL + PR - DW * (S - 1) - 1) / SW + 1)

int main(void) {
  long nin = (long)N * H * W * C, nflt = (long)R * S * C * F;
  long nout = (long)N * OH * OW * F;
  float *in = malloc(4 * nin), *flt = malloc(4 * nflt), *out = malloc(4 * nout);
  uint64_t st = 99;
  for (long i = 0; i < nin; ++i) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    in[i] = (float)((st >> 40) / 8388608.0 - 1.0);
  }
  for (long i = 0; i < nflt; ++i) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    flt[i] = (float)((st >> 40) / 8388608.0 - 1.0);
  }
  for (long i = 0; i < nout; ++i)
    out[i] = NAN;
  conv(in, flt, out);
  const struct conv_geometry g = {N,  H,  W,  C,  F,  R,  S, SH,
                                  SW, DH, DW, PT, PL, OH, OW};
  double maxRatio;
  long bad = conv_check_output(&g, in, flt, out, &maxRatio);
  printf("failures: %ld\nmax_error_ratio: %g\n", bad, maxRatio);
  return bad != 0;
}
