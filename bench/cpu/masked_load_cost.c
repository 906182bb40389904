/* bench/cpu/masked_load_cost.c: what masked B loads cost an FMA-bound
 * AVX-512 K loop. One 6 x 64 block (24 accumulators, four B vectors and
 * two alternating broadcast registers, as x86_gemm_fma emits it) from L1,
 * its B loads (a) plain, (b) all four masked with zeroing under an
 * all-ones mask (what every B load of an unpacked kernel was before the
 * forty-third session), (c) only the last one masked. Prints GFLOP/s per
 * variant, five times; compare within a line.
 *
 *   clang-22 -O2 bench/cpu/masked_load_cost.c -o /tmp/mlc && /tmp/mlc
 *
 * Emerald Rapids (2026-12-07, five lines): plain 204-224, all masked
 * 178-192 (0.84-0.92x), last masked 199-212 (0.89-1.02x) GFLOP/s
 * (docs/benchmarks/cpu-gemm-classes.md, "Emerald Rapids in the
 * forty-third session"). */
#include <stdio.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Four FMAs of broadcast register B into accumulators A0..A3. */
#define FMAS(b, a0, a1, a2, a3)                                                \
  "vfmadd231ps %%zmm24, %%zmm" b ", %%zmm" a0 "\n"                             \
  "vfmadd231ps %%zmm25, %%zmm" b ", %%zmm" a1 "\n"                             \
  "vfmadd231ps %%zmm26, %%zmm" b ", %%zmm" a2 "\n"                             \
  "vfmadd231ps %%zmm27, %%zmm" b ", %%zmm" a3 "\n"
/* One k step: the B loads LOADS, then six rows of A broadcast. */
#define STEP(LOADS)                                                            \
  LOADS "vbroadcastss (%2), %%zmm28\n vbroadcastss 4(%2), %%zmm29\n"           \
  FMAS("28", "0", "1", "2", "3") FMAS("29", "4", "5", "6", "7")                \
  "vbroadcastss 8(%2), %%zmm28\n" FMAS("28", "8", "9", "10", "11")             \
  "vbroadcastss 12(%2), %%zmm29\n" FMAS("29", "12", "13", "14", "15")          \
  "vbroadcastss 16(%2), %%zmm28\n" FMAS("28", "16", "17", "18", "19")          \
  "vbroadcastss 20(%2), %%zmm29\n" FMAS("29", "20", "21", "22", "23")
#define MASKED(off, reg) "vmovups " off "(%1), %%zmm" reg " %{%%k1%}%{z%}\n"
#define PLAIN(off, reg) "vmovups " off "(%1), %%zmm" reg "\n"
#define ALL_MASKED                                                             \
  MASKED("0", "24") MASKED("64", "25") MASKED("128", "26") MASKED("192", "27")
#define ALL_PLAIN                                                              \
  PLAIN("0", "24") PLAIN("64", "25") PLAIN("128", "26") PLAIN("192", "27")
#define LAST_MASKED                                                            \
  PLAIN("0", "24") PLAIN("64", "25") PLAIN("128", "26") MASKED("192", "27")
#define ZERO_ACCUMULATORS                                                      \
  "vpxord %%zmm0, %%zmm0, %%zmm0\n"                                            \
  "vmovaps %%zmm0, %%zmm1\n vmovaps %%zmm0, %%zmm2\n"                          \
  "vmovaps %%zmm0, %%zmm3\n vmovaps %%zmm0, %%zmm4\n"                          \
  "vmovaps %%zmm0, %%zmm5\n vmovaps %%zmm0, %%zmm6\n"                          \
  "vmovaps %%zmm0, %%zmm7\n vmovaps %%zmm0, %%zmm8\n"                          \
  "vmovaps %%zmm0, %%zmm9\n vmovaps %%zmm0, %%zmm10\n"                         \
  "vmovaps %%zmm0, %%zmm11\n vmovaps %%zmm0, %%zmm12\n"                        \
  "vmovaps %%zmm0, %%zmm13\n vmovaps %%zmm0, %%zmm14\n"                        \
  "vmovaps %%zmm0, %%zmm15\n vmovaps %%zmm0, %%zmm16\n"                        \
  "vmovaps %%zmm0, %%zmm17\n vmovaps %%zmm0, %%zmm18\n"                        \
  "vmovaps %%zmm0, %%zmm19\n vmovaps %%zmm0, %%zmm20\n"                        \
  "vmovaps %%zmm0, %%zmm21\n vmovaps %%zmm0, %%zmm22\n"                        \
  "vmovaps %%zmm0, %%zmm23\n"
#define LOOP(LOADS)                                                            \
  asm volatile(ZERO_ACCUMULATORS "mov $-1, %%eax\n kmovw %%eax, %%k1\n"        \
               "1:\n" STEP(LOADS) "dec %0\n jnz 1b"                            \
               : "+r"(n)                                                       \
               : "r"(b), "r"(a)                                                \
               : "eax", "k1", "memory", "xmm0", "xmm1", "xmm2", "xmm3",        \
                 "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",      \
                 "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16",         \
                 "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",         \
                 "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28",         \
                 "xmm29")

static float a[64] __attribute__((aligned(64)));
static float b[64] __attribute__((aligned(64)));
static const long kSteps = 40000000;

/* GFLOP/s of kSteps k steps of variant V (0 plain, 1 all masked, 2 last
   masked): 24 FMAs of 16 lanes each per step. */
static double gflops(int v) {
  long n = kSteps;
  double t0 = now();
  if (v == 0)
    LOOP(ALL_PLAIN);
  else if (v == 1)
    LOOP(ALL_MASKED);
  else
    LOOP(LAST_MASKED);
  return kSteps * 24.0 * 32 / (now() - t0) / 1e9;
}

int main(void) {
  for (int r = 0; r < 5; ++r) {
    double plain = gflops(0), masked = gflops(1), last = gflops(2);
    printf("plain %.1f  all masked %.1f (%.3fx)  last masked %.1f (%.3fx) "
           "GFLOP/s\n",
           plain, masked, masked / plain, last, last / plain);
  }
  return 0;
}
