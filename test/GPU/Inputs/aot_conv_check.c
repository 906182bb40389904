/* Links a `tensorop gen "conv2d ... for nvidia-sm90"` object into an
 * ordinary program: calls NAME (and NAME_async on the default stream) on
 * device buffers, input and filter small integers, output prefilled with
 * NaN, and compares every output element with an exact host convolution
 * (zero padding, strides, dilation from the header's geometry).
 *   cc -DNAME=conv2d_... -DAT=bf16|f16 -DCT=bf16|f16|f32 -DSH= -DSW= -DDH=
 *      -DDW= -DPT= -DPL= -I DIR aot_conv_check.c DIR/NAME.o
 *      -ltensorop_cuda_runtime -lcuda -lstdc++
 * Prints "mismatches: 0" when the kernel is right. */
#include "tensorop/GPU/CudaRuntime.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR2(x) #x
#define STR(x) STR2(x)
#define HEADER STR(NAME.h)
#include HEADER
#include "aot_check_types.h"


#define GEO(x) CAT(CAT(UPPER, _), x)

int main(void) {
  const int at = TYPE_ID(AT), ct = TYPE_ID(CT);
  const int n = GEO(N), h = GEO(IH), w = GEO(IW), c = GEO(C), f = GEO(F),
            r = GEO(R), s = GEO(S), oh = GEO(OH), ow = GEO(OW);
  size_t ni = (size_t)n * h * w * c, nf = (size_t)r * s * c * f,
         no = (size_t)n * oh * ow * f;
  void *hi = malloc(ni * esize(at)), *hf = malloc(nf * esize(at)),
       *ho = malloc(no * esize(ct));
  float *fi = malloc(ni * 4), *ff = malloc(nf * 4);
  unsigned seed = 12345;
  for (size_t i = 0; i < ni; ++i) {
    seed = seed * 1103515245u + 12345u;
    fi[i] = (float)((int)((seed >> 16) % 3) - 1);
    store(hi, i, at, fi[i]);
  }
  for (size_t i = 0; i < nf; ++i) {
    seed = seed * 1103515245u + 12345u;
    ff[i] = (float)((int)((seed >> 16) % 3) - 1);
    store(hf, i, at, ff[i]);
  }
  void *di = mgpuMemAlloc(ni * esize(at), 0, false);
  void *df = mgpuMemAlloc(nf * esize(at), 0, false);
  void *dout = mgpuMemAlloc(no * esize(ct), 0, false);
  if (!di || !df || !dout) {
    printf("allocation failed: %s\n", tensoropGpuTakeLastError());
    return 2;
  }
  mgpuMemcpy(di, hi, ni * esize(at), 0);
  mgpuMemcpy(df, hf, nf * esize(at), 0);
  long bad = 0;
  for (int pass = 0; pass < 2; ++pass) {
    /* NaN everywhere: an element the kernel skips cannot pass. */
    if (esize(ct) == 4) mgpuMemset32(dout, 0x7fc00000u, no, 0);
    else mgpuMemset16(dout, 0x7fc0, no, 0);
    mgpuStreamSynchronize(0);
    if (pass == 0) {
      NAME(di, df, dout);
    } else if (CAT(NAME, _async)(di, df, dout, 0) != 0) {
      printf("NAME_async failed: %s\n", tensoropGpuTakeLastError());
      return 2;
    }
    mgpuStreamSynchronize(0);
    mgpuMemcpy(ho, dout, no * esize(ct), 0);
    mgpuStreamSynchronize(0);
    const char *err = tensoropGpuTakeLastError();
    if (*err) {
      printf("CUDA error: %s\n", err);
      return 2;
    }
    for (int b = 0; b < n; ++b)
      for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x)
          for (int k = 0; k < f; ++k) {
            double acc = 0;
            for (int i = 0; i < r; ++i)
              for (int j = 0; j < s; ++j) {
                int iy = y * SH - PT + i * DH, ix = x * SW - PL + j * DW;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w)
                  continue;
                for (int l = 0; l < c; ++l)
                  acc += (double)fi[(((size_t)b * h + iy) * w + ix) * c + l] *
                         ff[(((size_t)i * s + j) * c + l) * f + k];
              }
            float want = (float)acc; /* exact: |acc| <= r*s*c < 2^11 */
            if (ct == is_bf16)
              want = from_bf16(to_bf16(want));
            size_t at_out = (((size_t)b * oh + y) * ow + x) * f + k;
            float got = load(ho, at_out, ct);
            if (!(got == want)) {
              if (bad < 5)
                printf("out[%d][%d][%d][%d] = %g, want %g (%s)\n", b, y, x, k,
                       got, want, pass ? "async" : "sync");
              ++bad;
            }
          }
  }
  printf("mismatches: %ld\n", bad);
  return bad != 0;
}
