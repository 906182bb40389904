/* Calls conv(x, w, o) of an NCHW 1x1 convolution (N = 1, C = 512, F = 128,
 * 28 x 28: GEMMs with a partial last register block along H*W) on small
 * integers and compares every output with the exact sum; prints the count
 * of wrong elements ("bad 0" when right).
 *   clang -O2 -c conv.ll; clang this.c conv.o -lm */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void conv(const float *x, const float *w, float *o);
enum { C = 512, F = 128, HW = 784 };

int main(void) {
  float *x = malloc(4 * C * HW), *w = malloc(4 * F * C), *o = malloc(4 * F * HW);
  for (int i = 0; i < C * HW; ++i)
    x[i] = (float)((i * 7) % 13 - 6);
  for (int i = 0; i < F * C; ++i)
    w[i] = (float)((i * 5) % 11 - 5);
  for (int i = 0; i < F * HW; ++i)
    o[i] = NAN;
  conv(x, w, o);
  int bad = 0;
  for (int f = 0; f < F; ++f)
    for (int p = 0; p < HW; ++p) {
      double s = 0;
      for (int c = 0; c < C; ++c)
        s += (double)w[f * C + c] * x[c * HW + p];
      bad += !(o[f * HW + p] == s);
    }
  printf("bad %d\n", bad);
  return bad != 0;
}
