/*
 * Numeric harness for the K-vectorized microkernels of
 * python_emitters/x86_gemm_kdot.py (--format=function --symbol ukernel):
 *
 *   void ukernel(const float *a, const float *bt, float *c, long kc,
 *                long ldc_bytes, long m_rem, long n_rem);
 *
 * A(r, k) = a[r * LDA + k], B(k, j) = bt[j * LDBT + k] (B transposed).
 *
 *   kdot_harness MR NR KCLIST MLIST NLIST SEED LDA LDBT STORE
 *     Every combination of kc, m_rem and n_rem, each with two C row
 *     strides (n_rem and nr + 3 floats). Cases with kc > LDA or kc > LDBT
 *     are skipped. For each case:
 *     - A holds the m_rem rows of the tile and ends right after
 *       A[m_rem-1][kc-1] at a PROT_NONE page; Bt holds NR rows and ends
 *       right after Bt[NR-1][kc-1] likewise (the kernel reads all NR rows):
 *       reading a row past m_rem, or k past kc, faults; the columns kc..
 *       of each row hold NaN, so a product of them is caught;
 *     - C ends at C[m_rem-1][n_rem-1] right before a PROT_NONE page, with
 *       64 guard floats before it; everything outside the m_rem x n_rem
 *       tile must be bit-identical afterwards; STORE=1 (c_update "store"):
 *       the tile starts as NaN and the reference from zero; STORE=0: the
 *       tile starts random and is accumulated into;
 *     - result vs. a double reference, |err| <= 2*kc*6e-8*sum|a*b| +
 *       6e-8*|ref|; kc == 0 with STORE=0: C bit-identical.
 *   Prints "OK <cases>" and exits 0, the first failures and exits 1, or
 *   "FAULT" and exits 3.
 */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guard_pages.h"

#ifdef UKERNEL_LDA_OPERAND
/* A kernel emitted with a_stride_operand 1 takes A's row stride in bytes as
   an eighth argument (LDA floats). */
void ukernel(const float *a, const float *b, float *c, long kc, long ldc_bytes,
             long m_rem, long n_rem, long lda_bytes);
#define UKERNEL(a, b, c, kc, ldc, m, n)                                       \
  ukernel(a, b, c, kc, ldc, m, n, lda * (long)sizeof(float))
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
    s = end;
  }
  return n;
}

static long lda, ldbt;
static int store;

static int check_case(long nr, long kc, long m, long n, long ldc) {
  const float nanv = NAN;
  guarded_t ga, gb, gc;
  size_t a_len = kc > 0 ? (size_t)((m - 1) * lda + kc) : 1;
  size_t b_len = kc > 0 ? (size_t)((nr - 1) * ldbt + kc) : 1;
  guarded_alloc(&ga, a_len * sizeof(float));
  guarded_alloc(&gb, b_len * sizeof(float));
  float *a = (float *)ga.ptr, *bt = (float *)gb.ptr;
  for (size_t i = 0; i < a_len; i++)
    a[i] = (long)(i % lda) < kc ? rng_float() : nanv;
  for (size_t i = 0; i < b_len; i++)
    bt[i] = (long)(i % ldbt) < kc ? rng_float() : nanv;
  const long guard = 64;
  size_t c_len = (size_t)(guard + (m - 1) * ldc + n);
  guarded_alloc(&gc, c_len * sizeof(float));
  float *region = (float *)gc.ptr, *c = region + guard;
  for (size_t i = 0; i < c_len; i++)
    region[i] = rng_float() * 4.0f;
  for (long r = 0; store && r < m; r++)
    for (long j = 0; j < n; j++)
      c[r * ldc + j] = nanv;
  float *before = malloc(c_len * sizeof(float));
  memcpy(before, region, c_len * sizeof(float));
  snprintf(current_case, sizeof current_case,
           "nr=%ld kc=%ld m_rem=%ld n_rem=%ld ldc=%ld lda=%ld ldbt=%ld", nr,
           kc, m, n, ldc, lda, ldbt);
  UKERNEL(a, bt, c, kc, ldc * (long)sizeof(float), m, n);
  int bad = 0;
  for (size_t i = 0; i < c_len; i++) {
    long off = (long)i - guard;
    long r = off >= 0 ? off / ldc : -1, j = off >= 0 ? off % ldc : -1;
    int inside = off >= 0 && r < m && j < n;
    if (!inside || (kc == 0 && !store)) {
      if (memcmp(&region[i], &before[i], sizeof(float)) != 0 && bad++ < 5)
        printf("FAIL %s: %s element (row %ld col %ld) changed %.9g -> %.9g\n",
               current_case, inside ? "tile (kc == 0)" : "guard", r, j,
               (double)before[i], (double)region[i]);
      continue;
    }
    double ref = store ? 0.0 : before[i], mag = 0.0;
    for (long k = 0; k < kc; k++) {
      double p = (double)a[r * lda + k] * (double)bt[j * ldbt + k];
      ref += p;
      mag += fabs(p);
    }
    double tol = 2.0 * kc * 6e-8 * mag + 6e-8 * fabs(ref);
    double err = fabs((double)region[i] - ref);
    if (!(err <= tol) && bad++ < 5)
      printf("FAIL %s: C[%ld][%ld] = %.9g, reference %.9g (tolerance %.3g)\n",
             current_case, r, j, (double)region[i], ref, tol);
  }
  free(before);
  guarded_free(&ga);
  guarded_free(&gb);
  guarded_free(&gc);
  return bad;
}

int main(int argc, char **argv) {
  if (argc != 10) {
    fprintf(stderr, "usage: %s MR NR KCLIST MLIST NLIST SEED LDA LDBT STORE\n",
            argv[0]);
    return 2;
  }
  catch_faults();
  long nr = atol(argv[2]);
  long kcs[64], ms[64], ns[64];
  int nk = parse_list(argv[3], kcs, 64), nm = parse_list(argv[4], ms, 64),
      nn = parse_list(argv[5], ns, 64);
  rng_state ^= (uint64_t)atol(argv[6]) * 0x9E3779B97F4A7C15ull;
  lda = atol(argv[7]);
  ldbt = atol(argv[8]);
  store = atoi(argv[9]);
  long cases = 0, bad = 0;
  for (int ik = 0; ik < nk; ik++)
    for (int im = 0; im < nm; im++)
      for (int in = 0; in < nn; in++) {
        if (kcs[ik] > lda || kcs[ik] > ldbt)
          continue;
        long ldcs[2] = {ns[in], nr + 3};
        for (int l = 0; l < 2; l++) {
          bad += check_case(nr, kcs[ik], ms[im], ns[in], ldcs[l]);
          cases++;
        }
      }
  if (bad)
    return 1;
  printf("OK %ld\n", cases);
  return 0;
}
