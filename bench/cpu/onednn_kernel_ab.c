/*
 * The inner loops alone: oneDNN 2.6's copy-based sgemm kernel (its JIT code,
 * dumped by DNNL_JIT_DUMP=1 and mapped executable here) against our
 * x86_gemm_fma 8 x 48 microkernel over the SAME packed buffers, so that
 * the kernels are compared without either library's packing, blocking or
 * C traffic (bench/cpu/onednn_kernel_ab.sh builds and runs it).
 *
 *   onednn_kernel_ab dump M N K
 *     calls dnnl_sgemm once (row-major, 'N','N'): with DNNL_JIT_DUMP=1 in
 *     the environment oneDNN writes its kernels to dnnl_dump_*.bin.
 *   onednn_kernel_ab ab M STRIPS KC LDA ROUNDS LDC KERNEL.bin
 *     M rows (a multiple of 8) of A, STRIPS 48-column strips of B, one
 *     K block of KC: B packed k-major (48 floats per k, as both kernels
 *     read it), A packed in 8-row panels (8 floats per k) and in place
 *     (rows of LDA floats, the stride uk_ip was emitted for). Five sweeps,
 *     interleaved, thread CPU clock: oneDNN's kernel (one call per strip,
 *     all rows in 8-row tiles: its loop), ours with packed A (strip outer,
 *     rows outer) and ours with A in place (both orders). Every sweep
 *     accumulates into its own C; all five C must be equal.
 * KERNEL.bin: oneDNN's beta = 1 kernel ("jit_avx2_kernel_sgemm_kern" whose
 * code adds C: vaddps zmm, zmm, [C]); its ABI is (const dim_t *m, const
 * dim_t *n, const dim_t *k, const float *alpha, const float *a, const
 * float *b, float *c, dim_t ldc, const float *co, const float *ro), in
 * oneDNN's column-major terms: a = our B strip, b = our A panels.
 */
#define _GNU_SOURCE
#include <dnnl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

typedef long dim_t;
typedef void (*dnnl_kern_t)(const dim_t *, const dim_t *, const dim_t *,
                            const float *, const float *, const float *,
                            float *, dim_t, const float *, const float *);
void uk_pk(const float *, const float *, float *, long, long, long, long);
void uk_ip(const float *, const float *, float *, long, long, long, long);

// Thread CPU time: one thread, and the samples ignore time spent descheduled.
#define TIMING_CLOCK CLOCK_THREAD_CPUTIME_ID
#include "bench_util.h"
int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "dump")) {
    long M = atol(argv[2]), N = atol(argv[3]), K = atol(argv[4]);
    float *A = calloc(M * K, 4), *B = calloc(K * N, 4), *C = calloc(M * N, 4);
    return dnnl_sgemm('N', 'N', M, N, K, 1.f, A, K, B, N, 0.f, C, N) != dnnl_success;
  }
  if (argc != 9 || strcmp(argv[1], "ab")) {
    fprintf(stderr, "usage: %s dump M N K | ab M STRIPS KC LDA ROUNDS LDC KERNEL.bin\n", argv[0]);
    return 2;
  }
  long M = atol(argv[2]), NS = atol(argv[3]), kc = atol(argv[4]), lda = atol(argv[5]);
  int rounds = atoi(argv[6]);
  long ldc = atol(argv[7]);
  if (M % 8 || rounds < 1 || rounds > 64 || ldc < NS * 48 || lda < kc) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  FILE *f = fopen(argv[8], "rb");
  if (!f) { perror(argv[8]); return 2; }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  void *code = mmap(0, size + 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (code == MAP_FAILED || fread(code, 1, size, f) != (size_t)size) return 2;
  fclose(f);
  dnnl_kern_t dk = (dnnl_kern_t)code;
  float *A = aligned_alloc(64, (M * lda + 64) * 4);
  float *Ap = aligned_alloc(64, (M * kc + 64) * 4);
  float *Bp = aligned_alloc(64, (NS * 48 * kc + 64) * 4);
  float *C[5];
  srand(1);
  for (long i = 0; i < M * lda; i++) A[i] = (rand() % 17 - 8) / 8.0f;
  for (long p = 0; p < M / 8; p++)
    for (long k = 0; k < kc; k++)
      for (long r = 0; r < 8; r++) Ap[p * 8 * kc + k * 8 + r] = A[(p * 8 + r) * lda + k];
  for (long i = 0; i < NS * 48 * kc; i++) Bp[i] = (rand() % 17 - 8) / 8.0f;
  for (int v = 0; v < 5; v++) C[v] = calloc(M * ldc + 64, 4);
  const char *names[5] = {"oneDNN kernel (strip outer, packed A)", "ours 8x48, packed A, strip outer",
                          "ours 8x48, packed A, rows outer", "ours 8x48, A in place, rows outer",
                          "ours 8x48, A in place, strip outer"};
  double t[5][64];
  float one = 1.0f;
  dim_t m48 = 48, dM = M, dkc = kc;
  const int reps = 20;
  for (int rd = -2; rd < rounds; rd++)
    for (int v = 0; v < 5; v++) {
      float *c = C[v];
      double t0 = now();
      for (int rep = 0; rep < reps; rep++) {
        if (v == 0)
          for (long s = 0; s < NS; s++)
            dk(&m48, &dM, &dkc, &one, Bp + s * 48 * kc, Ap, c + s * 48, ldc, 0, 0);
        else if (v == 1 || v == 4)
          for (long s = 0; s < NS; s++)
            for (long p = 0; p < M / 8; p++) {
              float *cc = c + p * 8 * ldc + s * 48;
              if (v == 1) uk_pk(Ap + p * 8 * kc, Bp + s * 48 * kc, cc, kc, ldc * 4, 8, 48);
              else uk_ip(A + p * 8 * lda, Bp + s * 48 * kc, cc, kc, ldc * 4, 8, 48);
            }
        else
          for (long p = 0; p < M / 8; p++)
            for (long s = 0; s < NS; s++) {
              float *cc = c + p * 8 * ldc + s * 48;
              if (v == 2) uk_pk(Ap + p * 8 * kc, Bp + s * 48 * kc, cc, kc, ldc * 4, 8, 48);
              else uk_ip(A + p * 8 * lda, Bp + s * 48 * kc, cc, kc, ldc * 4, 8, 48);
            }
      }
      if (rd >= 0) t[v][rd] = now() - t0;
    }
  /* Small integers times eighths: every sum is exact, so the five C agree bit for bit. */
  double maxd = 0;
  for (int v = 1; v < 5; v++)
    for (long i = 0; i < M * ldc; i++) maxd = fmax(maxd, fabs(C[v][i] - C[0][i]));
  printf("M %ld, %ld strips (N %ld), kc %ld, lda %ld, ldc %ld: max |C - C_oneDNN| = %g\n", M, NS,
         NS * 48, kc, lda, ldc, maxd);
  double flops = 2.0 * M * NS * 48 * kc * reps;
  for (int v = 0; v < 5; v++) {
    qsort(t[v], rounds, sizeof(double), cmp_double);
    printf("  %-40s median %6.1f  best %6.1f GFLOP/s\n", names[v], flops / t[v][rounds / 2] * 1e-9,
           flops / t[v][0] * 1e-9);
  }
  return maxd != 0;
}
