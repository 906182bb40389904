// Helpers shared by the CPU GEMM benchmarks gemm_vs_libraries.c,
// variants_ab.c, packed_parts_ab.c, onednn_kernel_ab.c,
// thread_crossover.c, omp_fork_join.c and bench/epilogue/ab_cpu.c: the
// clock (TIMING_CLOCK, defined by the includer), a qsort comparison of
// doubles, the inputs' random numbers, 64-byte aligned buffers (NULL on
// failure). Static inline: a program that uses only some of them is not
// warned about the rest.
#ifndef TENSOROP_BENCH_CPU_BENCH_UTIL_H
#define TENSOROP_BENCH_CPU_BENCH_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline double now(void) {
  struct timespec t;
  clock_gettime(TIMING_CLOCK, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static uint64_t rng = 42;
static inline float next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)((rng >> 40) * (1.0 / (1ull << 24)) * 2.0 - 1.0);
}

static inline float *alloc_floats(long n) {
  void *p = NULL;
  if (posix_memalign(&p, 64, sizeof(float) * (n ? n : 1)))
    return NULL;
  return p;
}

#endif // TENSOROP_BENCH_CPU_BENCH_UTIL_H
