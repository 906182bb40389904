/*
 * Where the packed path's time goes: a replica of the loop nest tensorop gen
 * builds for a large fp32 GEMM with a 6 x 64 block (loop order mkn with one
 * M block: for each K block of kc, for each N block of nc, pack B's kc x nc
 * block into 64-column k-major strips, then for each 6-row tile and each
 * strip call the microkernel; A read in place; the first K block stores C,
 * the others add), run with one part changed at a time, every variant once
 * per round (order rotated), thread CPU clock. The kernels are
 * x86_gemm_fma.py's (bench/cpu/packed_parts_ab.sh emits and links them):
 *   ip_st / ip_add    A in place, rows K floats apart (c_update store / add)
 *   ipp_st / ipp_add  A in place, rows K + 16 floats apart (padded copy)
 *   pk_st / pk_add    A packed in 6-row k-major panels
 * Variants that are not gen's own isolate a cost: "B prepacked" drops the
 * pack pass (blocks packed once, outside the timing), "C to one tile" sends
 * every tile's C to one L1-resident scratch tile (no C traffic; its result
 * is not checked), "A prepacked" drops the cost of packing A but keeps the
 * panels. All other variants must produce the same C, bit for bit (exact
 * integer data), and gen's replica matches an fp64 reference on sampled
 * elements.
 *   packed_parts_ab M N K ROUNDS     (N a multiple of 256)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TIMING_CLOCK CLOCK_THREAD_CPUTIME_ID
#include "bench_util.h"

typedef void uk_t(const float *, const float *, float *, long, long, long,
                  long);
uk_t ip_st, ip_add, ipp_st, ipp_add, pk_st, pk_add;

enum ASource { A_IN_PLACE, A_PADDED, A_PACKED, A_PREPACKED };
typedef struct {
  const char *name;
  long kc, nc;
  enum ASource a;
  int prepackedB, padC, scratchC;
} Variant;
static const Variant V[] = {
    {"gen (kc 512, nc 128)", 512, 128, A_IN_PLACE, 0, 0, 0},
    {"nc 256", 512, 256, A_IN_PLACE, 0, 0, 0},
    {"nc 512", 512, 512, A_IN_PLACE, 0, 0, 0},
    {"kc 1024, nc 256", 1024, 256, A_IN_PLACE, 0, 0, 0},
    {"B prepacked", 512, 128, A_IN_PLACE, 1, 0, 0},
    {"A rows padded (K+16)", 512, 128, A_PADDED, 0, 0, 0},
    {"C rows padded (N+16)", 512, 128, A_IN_PLACE, 0, 1, 0},
    {"A packed per K block", 512, 128, A_PACKED, 0, 0, 0},
    {"A prepacked", 512, 128, A_PREPACKED, 0, 0, 0},
    {"C to one tile (bound)", 512, 128, A_IN_PLACE, 0, 0, 1},
};
#define NV (int)(sizeof V / sizeof V[0])
#define MAXKC 1024
#define MAXNC 512

static long M, N, K, Mp;
static float *A, *Ad, *B, *Bblk, *Bpre, *Apk, *Apre, *Cs;

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}
static void packB(long k0, long kc, long n0, long nc, float *dst) {
  for (long s = 0; s < nc / 64; s++)
    for (long k = 0; k < kc; k++)
      memcpy(dst + (s * kc + k) * 64, B + (k0 + k) * N + n0 + s * 64, 256);
}
static void packA(long k0, long kc, float *dst) {
  for (long t = 0; t < Mp / 6; t++)
    for (long k = 0; k < kc; k++)
      for (long i = 0; i < 6; i++)
        dst[(t * kc + k) * 6 + i] = t * 6 + i < M ? A[(t * 6 + i) * K + k0 + k] : 0;
}
static void run(const Variant *v, float *C) {
  long ldc = v->padC ? N + 16 : N;
  for (long k0 = 0; k0 < K; k0 += v->kc) {
    long kc = K - k0 < v->kc ? K - k0 : v->kc;
    int first = k0 == 0;
    uk_t *uk = first ? ip_st : ip_add;
    if (v->a == A_PADDED) uk = first ? ipp_st : ipp_add;
    if (v->a >= A_PACKED) uk = first ? pk_st : pk_add;
    if (v->a == A_PACKED) packA(k0, kc, Apk);
    for (long n0 = 0; n0 < N; n0 += v->nc) {
      long nc = N - n0 < v->nc ? N - n0 : v->nc;
      float *bp = Bblk;
      if (v->prepackedB) bp = Bpre + k0 * N + n0 * kc;
      else packB(k0, kc, n0, nc, Bblk);
      for (long t = 0; t < Mp / 6; t++) {
        long rows = M - t * 6 < 6 ? M - t * 6 : 6;
        const float *a = A + t * 6 * K + k0;
        if (v->a == A_PADDED) a = Ad + t * 6 * (K + 16) + k0;
        if (v->a == A_PACKED) a = Apk + t * 6 * kc;
        if (v->a == A_PREPACKED) a = Apre + k0 * Mp + t * 6 * kc;
        for (long s = 0; s < nc / 64; s++) {
          float *c = v->scratchC ? Cs : C + t * 6 * ldc + n0 + s * 64;
          uk(a, bp + s * kc * 64, c, kc, 4 * (v->scratchC ? 64 : ldc), rows, 64);
        }
      }
    }
  }
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s M N K ROUNDS\n", argv[0]);
    return 2;
  }
  M = atol(argv[1]), N = atol(argv[2]), K = atol(argv[3]);
  int rounds = atoi(argv[4]);
  Mp = (M + 5) / 6 * 6;
  if (M < 1 || N < 256 || N % 256 || K < 1 || rounds < 1 || rounds > 64) {
    fprintf(stderr, "N must be a multiple of 256; 1 <= ROUNDS <= 64\n");
    return 2;
  }
  A = aligned_alloc(4096, M * K * 4);
  Ad = aligned_alloc(4096, M * (K + 16) * 4);
  B = aligned_alloc(4096, K * N * 4);
  Bblk = aligned_alloc(4096, MAXKC * MAXNC * 4);
  Bpre = aligned_alloc(4096, K * N * 4);
  Apk = aligned_alloc(4096, Mp * MAXKC * 4);
  Apre = aligned_alloc(4096, Mp * K * 4);
  Cs = aligned_alloc(4096, 6 * 64 * 4);
  float *C[NV];
  for (int i = 0; i < NV; i++) C[i] = aligned_alloc(4096, M * (N + 16) * 4);
  for (long i = 0; i < M; i++)
    for (long k = 0; k < K; k++)
      A[i * K + k] = Ad[i * (K + 16) + k] = (float)((i * 7 + k * 3) % 13) - 6;
  for (long i = 0; i < K * N; i++) B[i] = (float)((i * 5) % 11) - 5;
  for (long k0 = 0; k0 < K; k0 += 512) {
    long kc = K - k0 < 512 ? K - k0 : 512;
    for (long n0 = 0; n0 < N; n0 += 128) packB(k0, kc, n0, 128, Bpre + k0 * N + n0 * kc);
    packA(k0, kc, Apre + k0 * Mp);
  }
  double t[NV][64];
  for (int r = -1; r < rounds; r++)
    for (int j = 0; j < NV; j++) {
      int m = (j + r + NV) % NV, reps = 0;
      double s = now(), e;
      do {
        run(&V[m], C[m]);
        reps++;
        e = now() - s;
      } while (e < 0.05);
      if (r >= 0) t[m][r] = e / reps;
    }
  long bad = 0;
  for (int m = 1; m < NV; m++) {
    if (V[m].scratchC) continue;
    long ldc = V[m].padC ? N + 16 : N;
    for (long i = 0; i < M; i++)
      for (long j = 0; j < N; j++) bad += C[m][i * ldc + j] != C[0][i * N + j];
  }
  for (long i = 0; i < M; i += 97)
    for (long j = 0; j < N; j += 89) {
      double ref = 0;
      for (long k = 0; k < K; k++) ref += (double)A[i * K + k] * B[k * N + j];
      bad += ref != C[0][i * N + j];
    }
  printf("%ldx%ldx%ld fp32, 1 thread, %d rounds, every variant once per round, "
         "thread CPU clock; C mismatches (variants vs gen, gen vs fp64 "
         "reference, exact data): %ld\n", M, N, K, rounds, bad);
  double flop = 2.0 * M * N * K * 1e-9;
  printf("| variant | median GFLOP/s | best | median vs gen |\n| --- | ---: | ---: | ---: |\n");
  double g = 0;
  for (int m = 0; m < NV; m++) {
    qsort(t[m], rounds, sizeof(double), cmpd);
    if (m == 0) g = t[0][rounds / 2];
    printf("| %s | %.1f | %.1f | %+.1f%% |\n", V[m].name, flop / t[m][rounds / 2],
           flop / t[m][0], 100 * (g / t[m][rounds / 2] - 1));
  }
  return bad != 0;
}
