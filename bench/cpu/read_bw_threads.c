/* Linear read bandwidth of 1 and 2 threads over buffers of 4-537 MB (each
 * thread its contiguous half), best of 9 wall-clock sweeps: whether a
 * second core reads L3 / memory as fast as the first (on this Emerald
 * Rapids VM it does: 23-33 -> 53-68 GB/s from L3, 14-15 -> 28-32 from
 * memory, two runs), to set beside a 2-thread GEMM's GB/s of B.
 *
 *   clang-22 -O2 -march=znver4 -fopenmp bench/cpu/read_bw_threads.c -o /tmp/rbw
 *   /tmp/rbw
 *
 * The first (4 MB) row's 2-thread figure includes the team's start-up. */
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
static double sweep(const float *b, size_t n, int threads) {
  double best = 1e9;
  for (int r = 0; r < 9; ++r) {
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(threads)
    {
      int id = omp_get_thread_num();
      size_t lo = n * id / threads, hi = n * (id + 1) / threads;
      __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
      for (size_t i = lo; i + 64 <= hi; i += 64) {
        a0 = _mm512_add_ps(a0, _mm512_loadu_ps(b + i));
        a1 = _mm512_add_ps(a1, _mm512_loadu_ps(b + i + 16));
        a2 = _mm512_add_ps(a2, _mm512_loadu_ps(b + i + 32));
        a3 = _mm512_add_ps(a3, _mm512_loadu_ps(b + i + 48));
      }
      volatile float sink = _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
      (void)sink;
    }
    double t = omp_get_wtime() - t0;
    if (t < best) best = t;
  }
  return n * 4.0 / best / 1e9;
}
int main(void) {
  size_t sizes[] = {1 << 20, 1 << 21, 4 << 20, 16 << 20, 128 << 20};
  for (int s = 0; s < 5; ++s) {
    size_t n = sizes[s];
    float *b = aligned_alloc(64, n * 4);
    for (size_t i = 0; i < n; ++i) b[i] = 1.0f;
    printf("%6.1f MB: 1 thread %.1f GB/s, 2 threads %.1f GB/s\n", n * 4 / 1e6, sweep(b, n, 1), sweep(b, n, 2));
    free(b);
  }
}
