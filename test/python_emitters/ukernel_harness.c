/*
 * Numeric and throughput harness for the fp32 GEMM microkernels produced by
 * python_emitters/x86_gemm_fma.py (--format=function --symbol ukernel), or by
 * any other object that defines
 *
 *   void ukernel(const float *a, const float *b, float *c, long kc,
 *                long ldc_bytes, long m_rem, long n_rem);
 *
 * Build:  clang-22 -O2 ukernel_harness.c kernel.s -o harness
 *
 * Check mode:
 *   harness check MR NR KCLIST MLIST NLIST SEED [CROUNDINGS [LDB [LDA]]]
 *     KCLIST, MLIST, NLIST: comma-separated lists; every combination is run,
 *     each with three C row strides (ldc = n_rem, nr + 3, 2*nr + 16 floats).
 *     CROUNDINGS (default 1): how many times the kernel may round into C
 *     (e.g. 2 when the tested ukernel runs the microkernel twice on halves
 *     of kc); scales the 6e-8*|ref| term of the tolerance.
 *     LDB (default 0): 0 for a packed B panel; > 0 for a kernel emitted with
 *     b_stride_bytes = 4*LDB, which reads B in place from rows of LDB floats.
 *     Then B holds the kc rows of the matrix and ends right after
 *     B[kc-1][n_rem-1] at a PROT_NONE page (an N-edge over-read faults);
 *     columns n_rem..LDB-1 hold NaN; cases with n_rem > LDB are skipped.
 *     LDA (default 0): likewise for A: > 0 for a kernel emitted with
 *     a_stride_bytes = 4*LDA, which reads A in place from rows of LDA floats.
 *     Then A holds only the m_rem rows of the tile and ends right after
 *     A[m_rem-1][kc-1] at a PROT_NONE page (reading a row past m_rem
 *     faults); columns kc..LDA-1 hold NaN; cases with kc > LDA are skipped.
 *     Built with -DUKERNEL_LDA_OPERAND (-DUKERNEL_LDB_OPERAND), the kernel
 *     (a_stride_operand / b_stride_operand 1) gets 4*LDA (4*LDB) as one
 *     more argument instead of having it compiled in.
 *   For every case:
 *     - A (kc*MR floats) and B (kc*NR floats) end exactly at a page boundary
 *       followed by a PROT_NONE page (reading past the panels faults); panel
 *       padding (rows >= m_rem of A, columns >= n_rem of B) holds NaN, so a
 *       stored value that depends on padding is caught;
 *     - C is pre-filled with random values (checks accumulation) and its last
 *       element C[m_rem-1][n_rem-1] is the last float before a PROT_NONE page
 *       (any access past the tile, even a read, faults); 64 guard floats
 *       precede C and every element of the region outside the m_rem x n_rem
 *       tile must be bit-identical afterwards;
 *     - result vs. a double-precision reference with tolerance
 *       |err| <= 2*kc*6e-8*sum|a*b| + 6e-8*|ref|;  kc == 0: C bit-identical.
 *   Prints "OK <cases>" and exits 0, or prints the first failures and exits 1;
 *   a fault prints the case and exits 3.
 *
 * Bench mode:
 *   harness bench MR NR KC [SECONDS]
 *     A and B panels (64-byte aligned) and C (MR x NR, m_rem = MR, n_rem = NR)
 *     stay cache resident; repeated calls, best of 5 runs of about SECONDS/5.
 *     Prints "GFLOPS <value>".
 *
 * Peak mode (x86-64 only):
 *   harness peak
 *     Prints "GHZ <core clock from a dependent add chain> ZMM_FMA_GFLOPS <...>
 *     YMM_FMA_GFLOPS <...>" (register-only FMA loops, 12 accumulators; the
 *     zmm loop needs AVX-512F, run it only where the CPU has it).
 */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../bench/common/fma_peak_loop.h"
#include "guard_pages.h"

/* A kernel emitted with a_stride_operand 1 (b_stride_operand 1) takes A's
   (B's) row stride in bytes as one more argument, A's first: LDA (LDB)
   floats in check mode, 0 in bench mode (every row then reads the first). */
#if defined(UKERNEL_LDA_OPERAND) && defined(UKERNEL_LDB_OPERAND)
void ukernel(const float *a, const float *b, float *c, long kc, long ldc_bytes,
             long m_rem, long n_rem, long lda_bytes, long ldb_bytes);
#define UKERNEL(a, b, c, kc, ldc, m, n)                                       \
  ukernel(a, b, c, kc, ldc, m, n, lda * (long)sizeof(float),                  \
          ldb * (long)sizeof(float))
#elif defined(UKERNEL_LDA_OPERAND) || defined(UKERNEL_LDB_OPERAND)
void ukernel(const float *a, const float *b, float *c, long kc, long ldc_bytes,
             long m_rem, long n_rem, long ld_bytes);
#ifdef UKERNEL_LDA_OPERAND
#define UKERNEL(a, b, c, kc, ldc, m, n)                                       \
  ukernel(a, b, c, kc, ldc, m, n, lda * (long)sizeof(float))
#else
#define UKERNEL(a, b, c, kc, ldc, m, n)                                       \
  ukernel(a, b, c, kc, ldc, m, n, ldb * (long)sizeof(float))
#endif
#else
void ukernel(const float *a, const float *b, float *c, long kc, long ldc_bytes,
             long m_rem, long n_rem);
#define UKERNEL(a, b, c, kc, ldc, m, n) ukernel(a, b, c, kc, ldc, m, n)
#endif

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng_next(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
/* uniform in [-1, 1), multiples of 2^-20 (exact in float) */
static float rng_float(void) {
  return (float)((double)(int64_t)(rng_next() >> 43) / (double)(1 << 20) - 1.0);
}

static int parse_list(const char *s, long *out, int max) {
  int n = 0;
  while (*s && n < max) {
    char *end;
    out[n++] = strtol(s, &end, 10);
    if (*end == ',')
      end++;
    else if (*end != 0) {
      fprintf(stderr, "bad list: %s\n", s);
      exit(2);
    }
    s = end;
  }
  return n;
}

static double c_roundings = 1.0;
static long ldb = 0;
static long lda = 0;

static int check_case(long mr, long nr, long kc, long m, long n, long ldc) {
  const float nanv = NAN;
  guarded_t ga, gb, gc;
  /* B(k, j) is b[k * bs + j]: a packed panel, or rows of the matrix */
  long bs = ldb > 0 ? ldb : nr;
  /* A(r, k) is a[r * ars + k * aks]: a packed panel, or rows of the matrix */
  long ars = lda > 0 ? lda : 1, aks = lda > 0 ? 1 : mr;
  size_t a_len = lda > 0 ? (kc > 0 ? (size_t)((m - 1) * lda + kc) : 0) : (size_t)(kc * mr);
  size_t b_len = ldb > 0 ? (kc > 0 ? (size_t)((kc - 1) * ldb + n) : 0) : (size_t)(kc * nr);
  guarded_alloc(&ga, a_len * sizeof(float));
  guarded_alloc(&gb, b_len * sizeof(float));
  float *a = (float *)ga.ptr, *b = (float *)gb.ptr;
  for (long r = 0; lda > 0 && r < m; r++)
    for (long k = 0; k < lda && (size_t)(r * lda + k) < a_len; k++)
      a[r * lda + k] = k < kc ? rng_float() : nanv;
  for (long k = 0; k < kc; k++) {
    for (long r = 0; lda == 0 && r < mr; r++) a[k * mr + r] = r < m ? rng_float() : nanv;
    for (long j = 0; j < bs && (size_t)(k * bs + j) < b_len; j++)
      b[k * bs + j] = j < n ? rng_float() : nanv;
  }
  const long guard = 64;
  size_t c_len = (size_t)(guard + (m - 1) * ldc + n);
  guarded_alloc(&gc, c_len * sizeof(float));
  float *region = (float *)gc.ptr;
  float *c = region + guard;
  for (size_t i = 0; i < c_len; i++) region[i] = rng_float() * 4.0f;
  /* UKERNEL_STORE=1: a c_update "store" kernel (C = A*B) must not read the
     tile: it starts as NaN, and the reference starts from zero. */
  const char *store_env = getenv("UKERNEL_STORE");
  int store = store_env && strcmp(store_env, "1") == 0;
  for (long r = 0; store && r < m; r++)
    for (long j = 0; j < n; j++) region[guard + r * ldc + j] = nanv;
  float *before = malloc(c_len * sizeof(float));
  memcpy(before, region, c_len * sizeof(float));

  snprintf(current_case, sizeof current_case,
           "mr=%ld nr=%ld kc=%ld m_rem=%ld n_rem=%ld ldc=%ld ldb=%ld lda=%ld floats", mr, nr,
           kc, m, n, ldc, ldb, lda);
  UKERNEL(a, b, c, kc, ldc * (long)sizeof(float), m, n);

  int bad = 0;
  for (size_t i = 0; i < c_len; i++) {
    long off = (long)i - guard;
    long r = off >= 0 ? off / ldc : -1, j = off >= 0 ? off % ldc : -1;
    int inside = off >= 0 && r < m && j < n;
    if (!inside || (kc == 0 && !store)) {
      if (memcmp(&region[i], &before[i], sizeof(float)) != 0) {
        if (bad++ < 5)
          printf("FAIL %s: %s element (off %ld, row %ld col %ld) changed %.9g -> %.9g\n",
                 current_case, inside ? "tile (kc == 0)" : "guard", off, r, j,
                 (double)before[i], (double)region[i]);
      }
      continue;
    }
    double ref = store ? 0.0 : before[i], mag = 0.0;
    for (long k = 0; k < kc; k++) {
      double p = (double)a[r * ars + k * aks] * (double)b[k * bs + j];
      ref += p;
      mag += fabs(p);
    }
    double tol = 2.0 * kc * 6e-8 * mag + c_roundings * 6e-8 * fabs(ref);
    double got = region[i];
    if (!(fabs(got - ref) <= tol)) {
      if (bad++ < 5)
        printf("FAIL %s: C[%ld][%ld] = %.9g, reference %.9g (tol %.3g)\n", current_case,
               r, j, got, ref, tol);
    }
  }
  free(before);
  guarded_free(&ga);
  guarded_free(&gb);
  guarded_free(&gc);
  return bad;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int bench(long mr, long nr, long kc, double seconds) {
  float *a = aligned_alloc(64, ((kc * mr * 4 + 63) / 64) * 64 + 64);
  float *b = aligned_alloc(64, ((kc * nr * 4 + 63) / 64) * 64 + 64);
  float *c = aligned_alloc(64, ((mr * nr * 4 + 63) / 64) * 64 + 64);
  for (long i = 0; i < kc * mr; i++) a[i] = rng_float() * 1e-3f;
  for (long i = 0; i < kc * nr; i++) b[i] = rng_float() * 1e-3f;
  for (long i = 0; i < mr * nr; i++) c[i] = 0.0f;
  long ldc = nr * 4;
  /* calibrate */
  long iters = 16;
  for (;;) {
    double t0 = now();
    for (long i = 0; i < iters; i++) UKERNEL(a, b, c, kc, ldc, mr, nr);
    double t = now() - t0;
    if (t > seconds / 50) {
      iters = (long)(iters * (seconds / 5) / t) + 1;
      break;
    }
    iters *= 2;
  }
  double best = 1e30;
  for (int rep = 0; rep < 5; rep++) {
    double t0 = now();
    for (long i = 0; i < iters; i++) UKERNEL(a, b, c, kc, ldc, mr, nr);
    double t = now() - t0;
    if (t < best) best = t;
  }
  double flops = 2.0 * mr * nr * kc * iters;
  double gf = flops / best * 1e-9;
  printf("GFLOPS %.2f (checksum %g)\n", gf, (double)c[0]);
  return 0;
}

#if defined(__x86_64__)
static int peak(void) {
  double best_add = 1e30, best_z = 1e30, best_y = 1e30;
  const long n = 50000000, m = 20000000;
  for (int rep = 0; rep < 3; rep++) {
    double t0 = now();
    __asm__ volatile("mov %0, %%rcx\n1:\n .rept 10\n add $1, %%rax\n .endr\n"
                     " dec %%rcx\n jnz 1b\n" ::"r"(n) : "rax", "rcx", "cc");
    double t = now() - t0;
    if (t < best_add) best_add = t;
    t0 = now();
    fma_peak_loop(m, 1);
    t = now() - t0;
    if (t < best_z) best_z = t;
    t0 = now();
    fma_peak_loop(m, 0);
    t = now() - t0;
    if (t < best_y) best_y = t;
  }
  printf("GHZ %.3f ZMM_FMA_GFLOPS %.1f YMM_FMA_GFLOPS %.1f\n", n * 10.0 / best_add * 1e-9,
         m * fma_peak_flops_per_iteration(1) / best_z * 1e-9,
         m * fma_peak_flops_per_iteration(0) / best_y * 1e-9);
  return 0;
}
#else
static int peak(void) {
  printf("GHZ 0 ZMM_FMA_GFLOPS 0 YMM_FMA_GFLOPS 0\n");
  return 0;
}
#endif

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "peak") == 0) return peak();
  if (argc >= 5 && strcmp(argv[1], "bench") == 0) {
    return bench(atol(argv[2]), atol(argv[3]), atol(argv[4]),
                 argc >= 6 ? atof(argv[5]) : 1.0);
  }
  if (argc < 8 || argc > 11 || strcmp(argv[1], "check") != 0) {
    fprintf(stderr,
            "usage: %s check MR NR KCLIST MLIST NLIST SEED [CROUNDINGS [LDB [LDA]]]\n"
            "       %s bench MR NR KC [SECONDS]\n"
            "       %s peak\n",
            argv[0], argv[0], argv[0]);
    return 2;
  }
  long mr = atol(argv[2]), nr = atol(argv[3]);
  long kcs[64], ms[64], ns[64];
  int nkc = parse_list(argv[4], kcs, 64), nm = parse_list(argv[5], ms, 64),
      nn = parse_list(argv[6], ns, 64);
  rng_state ^= (uint64_t)atol(argv[7]) * 0x9E3779B97F4A7C15ull;
  if (!rng_state) rng_state = 1;
  if (argc >= 9) c_roundings = atof(argv[8]);
  if (argc >= 10) ldb = atol(argv[9]);
  if (argc == 11) lda = atol(argv[10]);
  catch_faults();
  signal(SIGILL, on_fault); // an instruction this CPU lacks
  int failures = 0;
  long cases = 0;
  for (int ik = 0; ik < nkc; ik++)
    for (int im = 0; im < nm; im++)
      for (int in = 0; in < nn; in++) {
        long m = ms[im], n = ns[in];
        if (m < 1 || m > mr || n < 1 || n > nr) {
          fprintf(stderr, "bad m_rem/n_rem %ld/%ld\n", m, n);
          return 2;
        }
        if (ldb > 0 && n > ldb) continue;
        if (lda > 0 && kcs[ik] > lda) continue;
        long ldcs[3] = {n, nr + 3, 2 * nr + 16};
        for (int il = 0; il < 3; il++) {
          cases++;
          if (check_case(mr, nr, kcs[ik], m, n, ldcs[il])) failures++;
          if (failures >= 5) goto done;
        }
      }
done:
  if (failures) {
    printf("FAILED %d of %ld cases\n", failures, cases);
    return 1;
  }
  printf("OK %ld\n", cases);
  return 0;
}
