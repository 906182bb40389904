/* Links a batch matmul compiled by --tensorop-pipeline for an NVIDIA target
 * (bare-pointer ABI: FN(A, B, C) on device buffers, the cubin embedded and
 * loaded by libtensorop_cuda_runtime) into an ordinary program and compares
 * every element with an exact host reference of small integers:
 *   cc -DFN=bmm -DBATCH=3 -DM=.. -DN=.. -DK=.. -DAT=bf16 -DCT=f32 [-DREDUCE]
 *      aot_batch_check.c FN.o -ltensorop_cuda_runtime -lcuda -lstdc++
 * With -DBIAS_RELU: FN(A, B, bias, C), C = max(A*B + bias_n, 0) per slice
 * (the consumer fused into each slice's kernel).
 * C is NaN-filled first: the module zero-fills it, so a skipped element or
 * a slice written at the wrong offset shows. Prints "mismatches: 0". */
#include "tensorop/GPU/CudaRuntime.h"

#include <stdio.h>
#include <stdlib.h>

#include "aot_check_types.h"

#ifdef BIAS_RELU
void FN(void *a, void *b, void *bias, void *c);
#else
void FN(void *a, void *b, void *c);
#endif

#define STR2(x) #x
#define STR(x) STR2(x)

int main(void) {
  const int at = TYPE_ID(AT), ct = TYPE_ID(CT);
#ifdef REDUCE
  const int cBatch = 1;
#else
  const int cBatch = BATCH;
#endif
  size_t na = (size_t)BATCH * M * K, nb = (size_t)BATCH * K * N,
         nc = (size_t)cBatch * M * N;
  void *ha = malloc(na * esize(at)), *hb = malloc(nb * esize(at)),
       *hc = malloc(nc * esize(ct));
  float *fa = malloc(na * 4), *fb = malloc(nb * 4);
  unsigned s = 777;
  for (size_t i = 0; i < na; ++i) {
    s = s * 1103515245u + 12345u;
    fa[i] = (float)((int)((s >> 16) % 7) - 3);
    store(ha, i, at, fa[i]);
  }
  for (size_t i = 0; i < nb; ++i) {
    s = s * 1103515245u + 12345u;
    fb[i] = (float)((int)((s >> 16) % 7) - 3);
    store(hb, i, at, fb[i]);
  }
  void *da = mgpuMemAlloc(na * esize(at), 0, false);
  void *db = mgpuMemAlloc(nb * esize(at), 0, false);
  void *dc = mgpuMemAlloc(nc * esize(ct), 0, false);
#ifdef BIAS_RELU
  float hbias[N];
  for (int j = 0; j < N; ++j)
    hbias[j] = (float)(j % 11 - 5);
  void *dbias = mgpuMemAlloc(sizeof hbias, 0, false);
  mgpuMemcpy(dbias, hbias, sizeof hbias, 0);
#endif
  if (!da || !db || !dc) {
    printf("allocation failed: %s\n", tensoropGpuTakeLastError());
    return 2;
  }
  mgpuMemcpy(da, ha, na * esize(at), 0);
  mgpuMemcpy(db, hb, nb * esize(at), 0);
  if (esize(ct) == 4)
    mgpuMemset32(dc, 0x7fc00000u, nc, 0);
  else
    mgpuMemset16(dc, 0x7fc0, nc, 0);
  mgpuStreamSynchronize(0);
#ifdef BIAS_RELU
  FN(da, db, dbias, dc);
#else
  FN(da, db, dc);
#endif
  mgpuMemcpy(hc, dc, nc * esize(ct), 0);
  mgpuStreamSynchronize(0);
  const char *err = tensoropGpuTakeLastError();
  if (*err) {
    printf("CUDA error: %s\n", err);
    return 2;
  }
  long bad = 0;
  for (int p = 0; p < cBatch; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double r = 0;
#ifdef REDUCE
        for (int q = 0; q < BATCH; ++q)
#else
        int q = p;
#endif
          for (int l = 0; l < K; ++l)
            r += (double)fa[((size_t)q * M + i) * K + l] *
                 fb[((size_t)q * K + l) * N + j];
#ifdef BIAS_RELU
        r += hbias[j];
        r = r > 0 ? r : 0;
#endif
        float want = (float)r; /* exact: small integers */
        float got = load(hc, ((size_t)p * M + i) * N + j, ct);
        if (!(got == want)) {
          if (bad < 5)
            printf("C[%d][%d][%d] = %g, want %g\n", p, i, j, got, want);
          ++bad;
        }
      }
  printf("%s batch %d %dx%dx%d: mismatches: %ld\n", STR(FN), BATCH, M, N, K,
         bad);
  return bad != 0;
}
