/* A plain C program that links a `tensorop gen` convolution object with a
 * fused epilogue and checks every element against the scalar loop and the
 * steps the header's comment states
 * (test/Tools/tensorop-gen-conv-epilogue.test). Built like conv_consumer.c,
 * plus -DRESIDUAL=0|1 and -DCLAMP_HI=<hi> (6 for ReLU6; 0: ReLU). Small-integer
 * inputs, bias and residual: exact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define DIM(d) CAT(UPPER, d)

int main(void) {
  const int n = DIM(_N), h = DIM(_IN_H), w = DIM(_IN_W), c = DIM(_C),
            f = DIM(_F), r = DIM(_R), s = DIM(_S), oh = DIM(_OUT_H),
            ow = DIM(_OUT_W);
  float *in = malloc(sizeof(float) * n * h * w * c);
  float *flt = malloc(sizeof(float) * r * s * c * f);
  float *bias = malloc(sizeof(float) * f);
  float *res = malloc(sizeof(float) * n * oh * ow * f);
  float *out = malloc(sizeof(float) * n * oh * ow * f);
  for (int i = 0; i < n * h * w * c; ++i)
    in[i] = (float)((i * 7 + 3) % 9 - 4);
  for (int i = 0; i < r * s * c * f; ++i)
    flt[i] = (float)((i * 5 + 1) % 9 - 4);
  for (int i = 0; i < f; ++i)
    bias[i] = (float)((i * 3 + 2) % 13 - 6);
  for (int i = 0; i < n * oh * ow * f; ++i) {
    res[i] = (float)((i * 11 + 5) % 7 - 3);
    out[i] = NAN;
  }
#if RESIDUAL
  KERNEL(in, flt, bias, res, out);
#else
  KERNEL(in, flt, bias, out);
#endif
  int wrong = 0, clamped = 0, zeroed = 0;
  double checksum = 0;
  for (int b = 0; b < n; ++b)
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x)
        for (int k = 0; k < f; ++k) {
          float acc = 0; /* small integers: exact in any order */
          for (int p = 0; p < r; ++p)
            for (int q = 0; q < s; ++q) {
              int iy = y * STRIDE_H + p * DILATION_H - PAD_TOP;
              int ix = x * STRIDE_W + q * DILATION_W - PAD_LEFT;
              if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                continue;
              for (int ch = 0; ch < c; ++ch)
                acc += in[((b * h + iy) * w + ix) * c + ch] *
                       flt[((p * s + q) * c + ch) * f + k];
            }
          int at = ((b * oh + y) * ow + x) * f + k;
          float want = acc + bias[k];
          want = want > 0 ? want : 0;
          zeroed += want == 0;
#if CLAMP_HI
          clamped += want > CLAMP_HI;
          want = want < CLAMP_HI ? want : CLAMP_HI;
#endif
#if RESIDUAL
          want += res[at];
#endif
          float got = out[at];
          if (!(got == want)) {
            if (wrong < 5)
              printf("wrong at n=%d y=%d x=%d f=%d: %g, expected %g\n", b, y, x,
                     k, got, want);
            ++wrong;
          }
          checksum += want;
        }
  /* Both sides of each step were exercised. */
  printf("%d x %d x %d x %d output, %d wrong, %s zeroed, %s clamped, "
         "checksum %g\n",
         n, oh, ow, f, wrong, zeroed ? "some" : "none",
         clamped ? "some" : "none", checksum);
  free(in);
  free(flt);
  free(bias);
  free(res);
  free(out);
  return wrong != 0;
}
