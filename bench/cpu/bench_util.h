// Helpers shared by the CPU GEMM benchmarks gemm_vs_libraries.c,
// variants_ab.c and bench/epilogue/ab_cpu.c: the clock (TIMING_CLOCK,
// defined by the includer), the inputs' random numbers, 64-byte aligned
// buffers (NULL on failure).
#ifndef TENSOROP_BENCH_CPU_BENCH_UTIL_H
#define TENSOROP_BENCH_CPU_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(TIMING_CLOCK, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static uint64_t rng = 42;
static float next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)((rng >> 40) * (1.0 / (1ull << 24)) * 2.0 - 1.0);
}

static float *alloc_floats(long n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, sizeof(float) * (n ? n : 1)))
    return NULL;
  return p;
}

#endif // TENSOROP_BENCH_CPU_BENCH_UTIL_H
