/* Read bandwidth of one core over B (K x N fp32, row-major) in the order
 * the few-rows path sweeps it (lib/Advisor/SkinnyGemm.cpp): bands of KC
 * rows, each band read tile by tile (48 columns, three zmm), each tile down
 * the band's rows, with a software prefetch PFC columns ahead of every row
 * (hint t0 / t1 / t2 / nta), against a plain linear read of the same B. No
 * FMAs: what the memory side alone delivers to that order, to set beside a
 * kernel's GB/s of B (bytes of B / time of the GEMM).
 *
 *   clang-22 -O2 -march=znver4 bench/cpu/b_sweep_bw.c -o /tmp/bsw
 *   /tmp/bsw K N          (e.g. 2048 2048: 16 MB, 16x2048x2048's B)
 *
 * Best of 7 per configuration, thread CPU clock; a 64 MB buffer is read
 * between runs so that each starts with B out of L1/L2 (L3 may keep it). */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void prefetch(const float *p, int hint) {
  switch (hint) {
  case 0: _mm_prefetch((const char *)p, _MM_HINT_T0); break;
  case 1: _mm_prefetch((const char *)p, _MM_HINT_T1); break;
  case 2: _mm_prefetch((const char *)p, _MM_HINT_T2); break;
  default: _mm_prefetch((const char *)p, _MM_HINT_NTA); break;
  }
}

/* pfc < 0: no software prefetch. */
__attribute__((noinline)) static float sweep(const float *b, long k, long n,
                                             int kc, int pfc, int hint) {
  __m512 acc0 = _mm512_setzero_ps(), acc1 = acc0, acc2 = acc0;
  for (long k0 = 0; k0 < k; k0 += kc)
    for (long j = 0; j + 48 <= n; j += 48)
      for (long kk = k0; kk < k0 + kc && kk < k; ++kk) {
        const float *p = b + kk * n + j;
        if (pfc >= 0) {
          prefetch(p + pfc, hint);
          prefetch(p + pfc + 16, hint);
          prefetch(p + pfc + 32, hint);
        }
        acc0 = _mm512_add_ps(acc0, _mm512_loadu_ps(p));
        acc1 = _mm512_add_ps(acc1, _mm512_loadu_ps(p + 16));
        acc2 = _mm512_add_ps(acc2, _mm512_loadu_ps(p + 32));
      }
  return _mm512_reduce_add_ps(_mm512_add_ps(acc0, _mm512_add_ps(acc1, acc2)));
}

__attribute__((noinline)) static float linear(const float *b, long count) {
  __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  for (long i = 0; i + 64 <= count; i += 64) {
    a0 = _mm512_add_ps(a0, _mm512_loadu_ps(b + i));
    a1 = _mm512_add_ps(a1, _mm512_loadu_ps(b + i + 16));
    a2 = _mm512_add_ps(a2, _mm512_loadu_ps(b + i + 32));
    a3 = _mm512_add_ps(a3, _mm512_loadu_ps(b + i + 48));
  }
  return _mm512_reduce_add_ps(
      _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s K N\n", argv[0]);
    return 2;
  }
  long k = atol(argv[1]), n = atol(argv[2]);
  float *b = aligned_alloc(64, (k * n * 4 + 4096 + 63) / 64 * 64);
  float *evict = aligned_alloc(64, 64l << 20);
  if (!b || !evict || k <= 0 || n < 48) {
    fprintf(stderr, "bad size or out of memory\n");
    return 2;
  }
  for (long i = 0; i < k * n; ++i)
    b[i] = 1;
  for (long i = 0; i < (16l << 20); ++i)
    evict[i] = 1;
  static const struct { int kc, pfc, hint; } cfg[] = {
      {128, -1, 0}, {128, 96, 0}, {128, 192, 0}, {128, 384, 0},
      {128, 96, 1}, {128, 384, 1}, {128, 96, 2}, {128, 96, 3},
      {16, -1, 0},  {16, 96, 0},   {32, -1, 0},  {24, -1, 0},  {64, -1, 0},  {64, 96, 0},   {256, 96, 0}};
  enum { kCfg = sizeof cfg / sizeof cfg[0] };
  static const char *hints[] = {"t0", "t1", "t2", "nta"};
  double best[kCfg + 1];
  float sink = 0;
  for (int i = 0; i <= kCfg; ++i)
    best[i] = 1e30;
  for (int rep = 0; rep < 7; ++rep)
    for (int i = 0; i <= kCfg; ++i) {
      for (long q = 0; q < (16l << 20); q += 16)
        sink += evict[q];
      double t0 = now();
      sink += i == kCfg ? linear(b, k * n)
                        : sweep(b, k, n, cfg[i].kc, cfg[i].pfc, cfg[i].hint);
      double dt = now() - t0;
      if (dt < best[i])
        best[i] = dt;
    }
  double gb = k * n * 4 / 1e9;
  printf("B %ldx%ld fp32 (%.1f MB), best of 7, thread CPU clock\n", k, n,
         gb * 1e3);
  for (int i = 0; i < kCfg; ++i) {
    if (cfg[i].pfc < 0)
      printf("sweep, bands of %3d rows, no prefetch:         %5.1f GB/s\n",
             cfg[i].kc, gb / best[i]);
    else
      printf("sweep, bands of %3d rows, prefetch%s %3d ahead: %5.1f GB/s\n",
             cfg[i].kc, hints[cfg[i].hint], cfg[i].pfc, gb / best[i]);
  }
  printf("linear read:                                    %5.1f GB/s\n",
         gb / best[kCfg]);
  return sink == 0.5f; /* keep the reads */
}
