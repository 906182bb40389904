/*
 * Numeric harness for x86_gemm_fma.py's store_b_panel kernels (B read in
 * place, each loaded B vector also stored to a packed panel). Links two
 * kernels of the same block:
 *
 *   void fused(const float *a, const float *b, float *c, long kc,
 *              long ldc_bytes, long m_rem, long n_rem, float *b_panel_out);
 *     emitted with b_stride_bytes = 4*LDB and store_b_panel = 1;
 *   void packed(const float *a, const float *b, float *c, long kc,
 *               long ldc_bytes, long m_rem, long n_rem);
 *     the same spec with B packed (no b_stride_bytes, no store_b_panel).
 *
 *   harness MR NR KCLIST MLIST NLIST SEED LDB [LDA [STORE]]
 *     (STORE 1: kernels emitted with c_update "store", C = A*B)
 *
 * For every (kc, m_rem, n_rem) with n_rem <= LDB:
 *   - B holds kc rows of LDB floats and ends right after B[kc-1][n_rem-1]
 *     at a PROT_NONE page; its columns n_rem..LDB-1 hold NaN;
 *   - A is a packed panel (kc x MR, rows >= m_rem NaN) or, with LDA > 0,
 *     m_rem rows of LDA floats read in place, ending at a PROT_NONE page;
 *   - the output panel (kc x NR floats) ends at a PROT_NONE page, is
 *     preceded by 16 guard floats and pre-filled with a NaN pattern;
 *   - after fused(): the panel must equal, bit for bit, what ApplySketch's
 *     B packing writes (emitPackBVectorized: B[k][j] for j < n_rem, +0.0
 *     past it), the guard floats must be untouched;
 *   - packed() run on that reference panel from the same C must give a C
 *     bit-identical to fused()'s (same FMAs in the same order), and both
 *     must match a double-precision reference within
 *     2*kc*6e-8*sum|a*b| + 6e-8*|ref|, with C outside the tile untouched.
 * Prints "OK <cases>" and exits 0; the first failures and exit 1; a fault
 * prints the case and exits 3.
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

void fused(const float *a, const float *b, float *c, long kc, long ldc_bytes,
           long m_rem, long n_rem, float *b_panel_out);
void packed(const float *a, const float *b, float *c, long kc, long ldc_bytes,
            long m_rem, long n_rem);

static uint64_t rng_state = 88172645463325252ull;
static float rng_float(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (float)((double)(int64_t)(rng_state >> 43) / (double)(1 << 20) - 1.0);
}

static int parse(const char *s, long *out) {
  int n = 0;
  while (*s && n < 64) {
    out[n++] = strtol(s, (char **)&s, 10);
    if (*s == ',')
      ++s;
  }
  return n;
}

static uint32_t bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

int main(int argc, char **argv) {
  if (argc < 8) {
    fprintf(stderr, "usage: %s MR NR KCLIST MLIST NLIST SEED LDB [LDA]\n",
            argv[0]);
    return 2;
  }
  catch_faults();
  long mr = atol(argv[1]), nr = atol(argv[2]);
  long kcs[64], ms[64], ns[64];
  int nk = parse(argv[3], kcs), nm = parse(argv[4], ms), nn = parse(argv[5], ns);
  rng_state += (uint64_t)atol(argv[6]) * 0x9E3779B97F4A7C15ull;
  long ldb = atol(argv[7]), lda = argc > 8 ? atol(argv[8]) : 0;
  int store = argc > 9 && atol(argv[9]) == 1;
  const float qnan = __builtin_nanf("0x1234");
  long cases = 0, failures = 0;
  for (int ik = 0; ik < nk; ++ik)
    for (int im = 0; im < nm; ++im)
      for (int in = 0; in < nn; ++in) {
        long kc = kcs[ik], m = ms[im], n = ns[in];
        if (n > ldb || (lda && kc > lda))
          continue;
        snprintf(current_case, sizeof current_case,
                 "kc=%ld m_rem=%ld n_rem=%ld", kc, m, n);
        /* B in place: kc rows, the last ending at n_rem. */
        long bElems = kc ? (kc - 1) * ldb + n : 1;
        guarded_t gb, ga, gp;
        guarded_alloc(&gb, bElems * 4);
        float *b = (float *)gb.ptr;
        for (long i = 0; i < bElems; ++i)
          b[i] = (i % ldb) < n ? rng_float() : qnan;
        long aElems = lda ? (m - 1) * lda + (kc ? kc : 1) : (kc ? kc : 1) * mr;
        guarded_alloc(&ga, aElems * 4);
        float *a = (float *)ga.ptr;
        for (long i = 0; i < aElems; ++i) {
          long r = lda ? i / lda : i % mr, k = lda ? i % lda : i / mr;
          a[i] = (r < m && k < kc) ? rng_float() : qnan;
        }
        long pElems = (kc ? kc : 1) * nr + 16;
        guarded_alloc(&gp, pElems * 4);
        float *guard = (float *)gp.ptr, *panel = guard + 16;
        for (long i = 0; i < pElems; ++i)
          guard[i] = __builtin_nanf("0x777");
        /* What the packing pass writes: B, zero past n_rem. */
        float *ref = malloc((kc ? kc : 1) * nr * 4);
        for (long k = 0; k < kc; ++k)
          for (long j = 0; j < nr; ++j)
            ref[k * nr + j] = j < n ? b[k * ldb + j] : 0.0f;
        long ldc = n + 3, cElems = m * ldc + 8;
        float *c1 = malloc(cElems * 4), *c2 = malloc(cElems * 4),
              *c0 = malloc(cElems * 4);
        for (long i = 0; i < cElems; ++i)
          c0[i] = rng_float();
        memcpy(c1, c0, cElems * 4);
        memcpy(c2, c0, cElems * 4);
        fused(a, b, c1, kc, ldc * 4, m, n, panel);
        /* The panel of a K loop that ran (kc > 0) is checked whole. */
        for (long i = 0; i < 16; ++i)
          if (bits(guard[i]) != bits(__builtin_nanf("0x777"))) {
            printf("FAIL %s: guard float %ld before the panel written\n",
                   current_case, i);
            ++failures;
            break;
          }
        for (long i = 0; i < kc * nr; ++i)
          if (bits(panel[i]) != bits(ref[i])) {
            printf("FAIL %s: panel[k=%ld][j=%ld] = %g, packing writes %g\n",
                   current_case, i / nr, i % nr, panel[i], ref[i]);
            ++failures;
            break;
          }
        for (long i = kc * nr; i < pElems - 16; ++i)
          if (bits(panel[i]) != bits(__builtin_nanf("0x777"))) {
            printf("FAIL %s: panel written past kc rows\n", current_case);
            ++failures;
            break;
          }
        packed(a, ref, c2, kc, ldc * 4, m, n);
        for (long i = 0; i < cElems; ++i) {
          long r = i / ldc, j = i % ldc;
          int inTile = r < m && j < n;
          if (bits(c1[i]) != bits(c2[i])) {
            printf("FAIL %s: C[%ld][%ld] fused %.9g, packed kernel %.9g\n",
                   current_case, r, j, c1[i], c2[i]);
            ++failures;
            break;
          }
          if (!inTile) {
            if (bits(c1[i]) != bits(c0[i])) {
              printf("FAIL %s: C[%ld][%ld] outside the tile written\n",
                     current_case, r, j);
              ++failures;
              break;
            }
            continue;
          }
          double s = store ? 0.0 : c0[i], mag = 0;
          for (long k = 0; k < kc; ++k) {
            double av = lda ? a[r * lda + k] : a[k * mr + r];
            double p = av * (double)b[k * ldb + j];
            s += p;
            mag += fabs(p);
          }
          if (fabs(c1[i] - s) > 2 * kc * 6e-8 * mag + 6e-8 * fabs(s)) {
            printf("FAIL %s: C[%ld][%ld] = %.9g, reference %.9g\n",
                   current_case, r, j, c1[i], s);
            ++failures;
            break;
          }
        }
        free(ref);
        free(c0);
        free(c1);
        free(c2);
        guarded_free(&ga);
        guarded_free(&gb);
        guarded_free(&gp);
        ++cases;
        if (failures > 10)
          return 1;
      }
  if (failures)
    return 1;
  printf("OK %ld\n", cases);
  return 0;
}
