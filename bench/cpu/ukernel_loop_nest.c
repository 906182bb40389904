/*
 * bench/cpu/ukernel_loop_nest.c: x86_gemm_fma.py kernels timed inside a
 * packed GEMM's loop nest, in one process, interleaved (see
 * ukernel_loop_nest.sh, which emits the variants and builds this file).
 *
 * python_emitters/bench_ukernel.py times a kernel with its A and B panels
 * and its C tile in cache: it reaches the FMA peak. A GEMM's calls walk
 * the packed A block (from L3), the packed B block's micro-panels (L2) and
 * C's tiles in place (L3 or memory). This harness runs the calls of an
 * N^3 GEMM's loop nest (K blocks of kc, M blocks of mc, N blocks of nc,
 * then mr x nr tiles, micro order "mn"), without packing (one A block and
 * one B block reused, so only the kernels' own memory traffic differs from
 * a GEMM's), for every variant in every round (order rotated), and prints
 * the median GFLOP/s and the median of the per-round ratio to the first
 * reference row. Reference rows run the first variant with parts of the
 * traffic removed:
 *   ref:C_one_tile    every call on the same C tile (C in L1/L2)
 *   ref:C_96_rows     C's rows taken modulo 96 (C in L2)
 *   ref:A_fixed       as C_one_tile, every call on A's first micro-panel
 * Numbers are not checked (timing only; the emitter's own tests check
 * them).
 *
 *   ukernel_loop_nest N MC NC KC MR NR ROUNDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*ukernel_fn)(const float *, const float *, float *, long, long,
                           long, long);
#include "ukernel_loop_nest_variants.h" /* kVariants[], kVariantNames[] */

enum { kRefs = 3, kMaxRounds = 64, kMaxRows = 64 };
static const char *const kRefNames[kRefs] = {"ref:C_one_tile", "ref:C_96_rows",
                                             "ref:A_fixed"};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void *page_alloc(size_t bytes) {
  return aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
}

int main(int argc, char **argv) {
  if (argc != 8) {
    fprintf(stderr, "usage: %s N MC NC KC MR NR ROUNDS\n", argv[0]);
    return 2;
  }
  long n = atol(argv[1]), mc = atol(argv[2]), nc = atol(argv[3]);
  long kc = atol(argv[4]), mr = atol(argv[5]), nr = atol(argv[6]);
  int rounds = atoi(argv[7]);
  if (n <= 0 || mc <= 0 || nc <= 0 || kc <= 0 || mr <= 0 || nr <= 0 ||
      rounds < 1 || rounds > kMaxRounds) {
    fprintf(stderr, "bad arguments (ROUNDS 1..%d)\n", kMaxRounds);
    return 2;
  }
  long rows = kRefs + (long)(sizeof(kVariants) / sizeof(kVariants[0]));
  if (rows > kMaxRows) {
    fprintf(stderr, "at most %d variants\n", kMaxRows - kRefs);
    return 2;
  }
  float *a = page_alloc((size_t)(mc + mr) * kc * 4);
  float *b = page_alloc((size_t)(nc + nr) * kc * 4);
  float *c = page_alloc((size_t)n * n * 4 + 4096);
  for (long i = 0; i < (mc + mr) * kc; i++) a[i] = 1e-3f * (float)(i % 13);
  for (long i = 0; i < (nc + nr) * kc; i++) b[i] = 1e-3f * (float)(i % 11);
  memset(c, 0, (size_t)n * n * 4);
  static double gflops[kMaxRounds][kMaxRows];
  for (int r = 0; r < rounds; r++)
    for (long i = 0; i < rows; i++) {
      long row = (i + r) % rows;
      ukernel_fn uk = row < kRefs ? kVariants[0] : kVariants[row - kRefs];
      double flops = 0, t0 = now();
      for (long pc = 0; pc < n; pc += kc) {
        long kb = n - pc < kc ? n - pc : kc;
        for (long ic = 0; ic < n; ic += mc) {
          long mb = n - ic < mc ? n - ic : mc;
          for (long jc = 0; jc < n; jc += nc) {
            long nb = n - jc < nc ? n - jc : nc;
            for (long ir = 0; ir < mb; ir += mr)
              for (long jr = 0; jr < nb; jr += nr) {
                long mrem = mb - ir < mr ? mb - ir : mr;
                long nrem = nb - jr < nr ? nb - jr : nr;
                long crow = ic + ir, ccol = jc + jr;
                const float *ap = a + ir * kb;
                if (row == 0 || row == 2)
                  crow = ccol = 0;
                else if (row == 1)
                  crow %= 96;
                if (row == 2)
                  ap = a;
                uk(ap, b + jr * kb, c + crow * n + ccol, kb, n * 4, mrem, nrem);
                flops += 2.0 * mrem * nrem * kb;
              }
          }
        }
      }
      gflops[r][row] = flops / (now() - t0) * 1e-9;
    }
  printf("%ld^3 loop nest: mc %ld, nc %ld, kc %ld, %ld x %ld tiles, %d rounds\n",
         n, mc, nc, kc, mr, nr, rounds);
  printf("| row | median GFLOP/s | vs %s | q1..q3 |\n| --- | ---: | ---: | --- |\n",
         kVariantNames[0]);
  for (long row = 0; row < rows; row++) {
    double g[kMaxRounds], q[kMaxRounds];
    for (int r = 0; r < rounds; r++) {
      g[r] = gflops[r][row];
      q[r] = gflops[r][row] / gflops[r][kRefs];
    }
    qsort(g, rounds, sizeof(double), cmpd);
    qsort(q, rounds, sizeof(double), cmpd);
    printf("| %s | %.1f | %.3f | %.3f..%.3f |\n",
           row < kRefs ? kRefNames[row] : kVariantNames[row - kRefs],
           g[rounds / 2], q[rounds / 2], q[rounds / 4], q[3 * rounds / 4]);
  }
  return 0;
}
