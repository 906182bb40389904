// bench/conv/pack_filter_bench.c: how fast an HWCF filter is packed into
// panels of 32 output channels, by the order the pack reads it in (thread
// CPU time, best of 30 passes; the filter stays in L3 between passes, as
// in a warm per-call benchmark). Loop order "fcp" packs one channel block
// of a panel (or of a group of panels) at a time into a buffer that stays
// in L2.
//
//   clang-22 -O2 -mavx512f bench/conv/pack_filter_bench.c -o /tmp/pfb
//   /tmp/pfb C F CB R GROUP   (e.g. 512 512 256 3 1, then 512 512 64 3 4)
//
// GROUP 1 reads 128 bytes of each filter row per panel (F*4 bytes apart);
// GROUP g reads g*128 consecutive bytes and writes g panels' blocks. Also
// prints a plain sequential read and a sequential copy of the filter for
// scale.
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s C F CB R GROUP\n", argv[0]);
    return 2;
  }
  int C = atoi(argv[1]), F = atoi(argv[2]), cb = atoi(argv[3]),
      R = atoi(argv[4]), G = atoi(argv[5]);
  const int nr = 32, taps = R * R;
  if (C % cb || F % (nr * G) || G < 1) {
    fprintf(stderr, "C must be a multiple of CB, F of 32*GROUP\n");
    return 2;
  }
  size_t n = (size_t)taps * C * F, block = (size_t)taps * cb * nr;
  float *flt = aligned_alloc(64, n * 4), *buf = aligned_alloc(64, G * block * 4);
  for (size_t i = 0; i < n; ++i)
    flt[i] = (float)(i % 1000);
  double pack = 1e9, read = 1e9, copy = 1e9;
  for (int it = 0; it < 30; ++it) {
    double t0 = now();
    for (int fg = 0; fg < F / nr; fg += G)
      for (int c0 = 0; c0 < C; c0 += cb) {
        __asm__ volatile("" ::"r"(buf) : "memory");
        for (int tap = 0; tap < taps; ++tap)
          for (int c = 0; c < cb; ++c) {
            const float *src = flt + ((size_t)tap * C + c0 + c) * F + fg * nr;
            for (int g = 0; g < G; ++g) {
              float *dst = buf + g * block + ((size_t)tap * cb + c) * nr;
              _mm512_store_ps(dst, _mm512_loadu_ps(src + g * nr));
              _mm512_store_ps(dst + 16, _mm512_loadu_ps(src + g * nr + 16));
            }
          }
      }
    __asm__ volatile("" ::"r"(buf) : "memory");
    double t1 = now();
    __m512 a = _mm512_setzero_ps(), b = _mm512_setzero_ps();
    for (size_t i = 0; i < n; i += 32) {
      a = _mm512_add_ps(a, _mm512_load_ps(flt + i));
      b = _mm512_add_ps(b, _mm512_load_ps(flt + i + 16));
    }
    _mm512_store_ps(buf, _mm512_add_ps(a, b));
    __asm__ volatile("" ::"r"(buf) : "memory");
    double t2 = now();
    for (size_t i = 0; i < n; i += 32) {
      float *d = buf + i % block;
      _mm512_store_ps(d, _mm512_load_ps(flt + i));
      _mm512_store_ps(d + 16, _mm512_load_ps(flt + i + 16));
    }
    __asm__ volatile("" ::"r"(buf) : "memory");
    double t3 = now();
    if (t1 - t0 < pack) pack = t1 - t0;
    if (t2 - t1 < read) read = t2 - t1;
    if (t3 - t2 < copy) copy = t3 - t2;
  }
  printf("%dx%d C=%d F=%d cb=%d group=%d (%.1f MB): pack %.3f ms, "
         "sequential read %.3f ms, sequential copy %.3f ms\n",
         R, R, C, F, cb, G, n * 4 / 1e6, pack * 1e3, read * 1e3, copy * 1e3);
  return 0;
}
