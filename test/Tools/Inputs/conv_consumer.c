/* A plain C program that links a `tensorop gen` convolution object and
 * checks it against the scalar loop the header's comment states
 * (test/Tools/tensorop-gen-conv.test). Built with -include <kernel>.h
 * -DKERNEL=<name> -DUPPER=<NAME>, plus -DSTRIDE_H= ... -DPAD_LEFT= for the
 * geometry the header does not define as macros. With -DPREPACKED it
 * also packs the filter with KERNEL_pack_filter (into a buffer one float
 * off 64-byte alignment, NaN-filled first) and checks KERNEL_prepacked,
 * called twice on the same packed filter, element by element too. */
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
  float *out = malloc(sizeof(float) * n * oh * ow * f);
  for (int i = 0; i < n * h * w * c; ++i)
    in[i] = (float)((i * 7 + 3) % 9 - 4);
  for (int i = 0; i < r * s * c * f; ++i)
    flt[i] = (float)((i * 5 + 1) % 9 - 4);
  for (int i = 0; i < n * oh * ow * f; ++i)
    out[i] = NAN;
  KERNEL(in, flt, out);
#ifdef PREPACKED
  float *out2 = malloc(sizeof(float) * n * oh * ow * f);
  size_t bytes = CAT(KERNEL, _packed_filter_size)();
  float *packedBase = aligned_alloc(64, bytes + 64 + 64);
  float *packed = packedBase + 1; /* any alignment */
  for (size_t i = 0; i < bytes / sizeof(float); ++i)
    packed[i] = NAN;
  CAT(KERNEL, _pack_filter)(flt, packed);
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < n * oh * ow * f; ++i)
      out2[i] = NAN;
    CAT(KERNEL, _prepacked)(in, packed, out2);
  }
#endif
  int wrong = 0;
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
          float got = out[((b * oh + y) * ow + x) * f + k];
          if (!(got == acc)) {
            if (wrong < 5)
              printf("wrong at n=%d y=%d x=%d f=%d: %g, expected %g\n", b, y,
                     x, k, got, acc);
            ++wrong;
          }
#ifdef PREPACKED
          got = out2[((b * oh + y) * ow + x) * f + k];
          if (!(got == acc)) {
            if (wrong < 5)
              printf("prepacked wrong at n=%d y=%d x=%d f=%d: %g, expected "
                     "%g\n",
                     b, y, x, k, got, acc);
            ++wrong;
          }
#endif
          checksum += acc;
        }
  printf("%d x %d x %d x %d output, %d wrong, checksum %g\n", n, oh, ow, f,
         wrong, checksum);
#ifdef PREPACKED
  printf("prepacked: %zu bytes packed, checked with the output above\n",
         bytes);
  free(out2);
  free(packedBase);
#endif
  free(in);
  free(flt);
  free(out);
  return wrong != 0;
}
