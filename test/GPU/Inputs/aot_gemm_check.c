/* Links a `tensorop gen ... for nvidia-*` object into an ordinary program:
 * the cubin embedded in NAME.o is loaded at start-up by the mgpu* functions
 * of libtensorop_cuda_runtime; this calls NAME on device buffers filled with
 * small integers and compares every element with an exact host reference.
 *   cc -DNAME=gemm_... -DM=.. -DN=.. -DK=.. -DAT=bf16|f16|f32 -DCT=bf16|f16|f32
 *      -I DIR aot_gemm_check.c DIR/NAME.o -ltensorop_cuda_runtime -lcuda -lstdc++
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


int main(void) {
  const int at = TYPE_ID(AT), ct = TYPE_ID(CT);
  size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
  void *ha = malloc(na * esize(at)), *hb = malloc(nb * esize(at)),
       *hc = malloc(nc * esize(ct));
  float *fa = malloc(na * 4), *fb = malloc(nb * 4);
  unsigned s = 12345;
  for (size_t i = 0; i < na; ++i) {
    s = s * 1103515245u + 12345u;
    fa[i] = (float)((int)((s >> 16) % 9) - 4);
    store(ha, i, at, fa[i]);
  }
  for (size_t i = 0; i < nb; ++i) {
    s = s * 1103515245u + 12345u;
    fb[i] = (float)((int)((s >> 16) % 9) - 4);
    store(hb, i, at, fb[i]);
  }
  void *da = mgpuMemAlloc(na * esize(at), 0, false);
  void *db = mgpuMemAlloc(nb * esize(at), 0, false);
  void *dc = mgpuMemAlloc(nc * esize(ct), 0, false);
  if (!da || !db || !dc) {
    printf("allocation failed: %s\n", tensoropGpuTakeLastError());
    return 2;
  }
  mgpuMemcpy(da, ha, na * esize(at), 0);
  mgpuMemcpy(db, hb, nb * esize(at), 0);
  /* NaN everywhere: an element the kernel skips cannot pass. */
  if (esize(ct) == 4) mgpuMemset32(dc, 0x7fc00000u, nc, 0);
  else mgpuMemset16(dc, 0x7fc0, nc, 0);
  mgpuStreamSynchronize(0);
  NAME(da, db, dc);
  mgpuMemcpy(hc, dc, nc * esize(ct), 0);
  mgpuStreamSynchronize(0);
  const char *err = tensoropGpuTakeLastError();
  if (*err) {
    printf("CUDA error: %s\n", err);
    return 2;
  }
  long bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double r = 0;
      for (int l = 0; l < K; ++l)
        r += (double)fa[(size_t)i * K + l] * fb[(size_t)l * N + j];
      float want = (float)r; /* exact: |r| < 2^24 */
      if (ct != is_f32) { /* the kernel rounds its f32 result once */
        uint16_t h = ct == is_bf16 ? to_bf16(want) : 0;
        want = ct == is_bf16 ? from_bf16(h) : want;
      }
      float got = load(hc, (size_t)i * N + j, ct);
      if (!(got == want) && !(ct == is_f16 && fabsf(got - want) <= fabsf(want) / 1024)) {
        if (bad < 5)
          printf("C[%d][%d] = %g, want %g\n", i, j, got, want);
        ++bad;
      }
    }
  printf("%s %dx%dx%d: mismatches: %ld\n", STR(NAME), M, N, K, bad);
  mgpuMemFree(da, 0);
  mgpuMemFree(db, 0);
  mgpuMemFree(dc, 0);
  return bad != 0;
}
