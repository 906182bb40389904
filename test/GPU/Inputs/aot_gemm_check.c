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
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define HEADER STR(NAME.h)
#include HEADER

#define is_bf16 1
#define is_f16 2
#define is_f32 3
#define TYPE_ID(t) CAT(is_, t)

static uint16_t to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}
static float from_bf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
/* Small integers only: exact in binary16. */
static uint16_t to_f16(float f) {
  if (f == 0)
    return 0;
  uint16_t sign = f < 0 ? 0x8000 : 0;
  float a = fabsf(f);
  int e = 0;
  while (a >= 2) { a /= 2; ++e; }
  uint16_t mant = (uint16_t)((a - 1) * 1024);
  return (uint16_t)(sign | ((e + 15) << 10) | mant);
}
static float from_f16(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0 ? ldexpf((float)m, -24) : ldexpf(1 + m / 1024.0f, e - 15);
  return h & 0x8000 ? -v : v;
}

static size_t esize(int t) { return t == is_f32 ? 4 : 2; }
static void store(void *p, size_t i, int t, float v) {
  if (t == is_f32) ((float *)p)[i] = v;
  else ((uint16_t *)p)[i] = t == is_bf16 ? to_bf16(v) : to_f16(v);
}
static float load(const void *p, size_t i, int t) {
  if (t == is_f32) return ((const float *)p)[i];
  uint16_t h = ((const uint16_t *)p)[i];
  return t == is_bf16 ? from_bf16(h) : from_f16(h);
}

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
