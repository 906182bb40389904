/* Computes 1x1 taps only (ignores R, S > 1) and leaves the last element:
 * both the exact and the random check of conv_check.c must fail. Built
 * with the same -D geometry as the harness. */
#include "wrong_conv.h"
void wrong_conv(const float *in, const float *flt, float *out) {
  for (long n = 0; n < CN; ++n)
    for (long y = 0; y < OH; ++y)
      for (long x = 0; x < OW; ++x)
        for (long f = 0; f < CF; ++f) {
          long i = ((n * OH + y) * OW + x) * CF + f;
          if (i == (long)CN * OH * OW * CF - 1)
            continue;
          float acc = 0;
          long iy = y * SH - PT, ix = x * SW - PL;
          if (iy >= 0 && iy < CH && ix >= 0 && ix < CW)
            for (long c = 0; c < CC; ++c)
              acc += in[((n * CH + iy) * CW + ix) * CC + c] * flt[c * CF + f];
          out[i] = acc;
        }
}
