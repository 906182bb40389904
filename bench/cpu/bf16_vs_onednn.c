// TensorOp's bf16 GEMM (bf16 A and B, fp32 C, vdpbf16ps microkernel) against
// oneDNN's matmul primitive with bf16 src/weights and an f32 dst, in one
// process at one thread: both read the same row-major inputs and overwrite a
// row-major C; both are checked against an fp64 reference of the same bf16
// values (bound 2*K*6e-8*sum|a||b| + 6e-8*|R|: bf16 products are exact in
// fp32, so only the fp32 accumulation rounds) before and after the timed
// rounds; the rounds alternate (ours, oneDNN, ours, ...), each about
// ROUND_SECONDS of back-to-back calls, warm caches; median and best per call.
//
//   clang -O2 bf16_vs_onednn.c gemm.o -ldnnl -lm
//   ./a.out M N K [bt]   (gemm.o defines void gemm(A, B, C) for that shape;
//                         with bt, B is stored N x K as in x * W^T, and
//                         oneDNN's weights get the matching "ba" layout)
#include <dnnl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void gemm(const uint16_t *A, const uint16_t *B, float *C);

enum { ROUNDS = 7 };
static const double ROUND_SECONDS = 0.25;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

#define CHECK(x)                                                               \
  do {                                                                         \
    dnnl_status_t s_ = (x);                                                    \
    if (s_ != dnnl_success) {                                                  \
      fprintf(stderr, "oneDNN error %d at %s:%d\n", (int)s_, __FILE__,         \
              __LINE__);                                                       \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

static uint16_t toBf16(float f) { // round to nearest even (no NaNs here)
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return (uint16_t)(u >> 16);
}
static float fromBf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint64_t rng = 88172645463325252ull;
static double uniform(void) { // [-1, 1)
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

static long M, N, K;
static double *R, *S; // reference and sum |a||b|

// Elements over the bound (NaN counts) and the largest error/bound.
static long check(const float *c, double *maxRatio) {
  long bad = 0;
  *maxRatio = 0;
  for (long i = 0; i < M * N; ++i) {
    double err = fabs((double)c[i] - R[i]);
    double bound = 2.0 * K * 6e-8 * S[i] + 6e-8 * fabs(R[i]);
    double ratio = bound > 0 ? err / bound : (err > 0 ? INFINITY : 0);
    if (!(err <= bound))
      ++bad;
    if (!(ratio <= *maxRatio))
      *maxRatio = ratio;
  }
  return bad;
}

static int cmpDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 4 && !(argc == 5 && strcmp(argv[4], "bt") == 0)) {
    fprintf(stderr, "usage: %s M N K [bt]\n", argv[0]);
    return 2;
  }
  int bt = argc == 5;
  M = atol(argv[1]);
  N = atol(argv[2]);
  K = atol(argv[3]);
  uint16_t *A = aligned_alloc(64, ((M * K * 2 + 63) / 64) * 64);
  uint16_t *B = aligned_alloc(64, ((K * N * 2 + 63) / 64) * 64);
  float *ours = aligned_alloc(64, ((M * N * 4 + 63) / 64) * 64);
  float *theirs = aligned_alloc(64, ((M * N * 4 + 63) / 64) * 64);
  R = calloc(M * N, sizeof(double));
  S = calloc(M * N, sizeof(double));
  double *Ad = malloc(M * K * sizeof(double)), *Bd = malloc(K * N * sizeof(double));
  for (long i = 0; i < M * K; ++i)
    Ad[i] = fromBf16(A[i] = toBf16((float)uniform()));
  for (long i = 0; i < K * N; ++i)
    Bd[i] = fromBf16(B[i] = toBf16((float)uniform()));
  for (long i = 0; i < M; ++i)
    for (long k = 0; k < K; ++k) {
      double a = Ad[i * K + k];
      for (long j = 0; j < N; ++j) {
        double b = bt ? Bd[j * K + k] : Bd[k * N + j];
        R[i * N + j] += a * b;
        S[i * N + j] += fabs(a * b);
      }
    }

  dnnl_engine_t eng;
  dnnl_stream_t strm;
  CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
  dnnl_dims_t ad = {M, K}, bd = {K, N}, cd = {M, N};
  dnnl_memory_desc_t aMd, bMd, cMd;
  CHECK(dnnl_memory_desc_init_by_tag(&aMd, 2, ad, dnnl_bf16, dnnl_ab));
  CHECK(dnnl_memory_desc_init_by_tag(&bMd, 2, bd, dnnl_bf16,
                                     bt ? dnnl_ba : dnnl_ab));
  CHECK(dnnl_memory_desc_init_by_tag(&cMd, 2, cd, dnnl_f32, dnnl_ab));
  dnnl_matmul_desc_t md;
  CHECK(dnnl_matmul_desc_init(&md, &aMd, &bMd, NULL, &cMd));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_primitive_desc_create(&pd, &md, NULL, eng, NULL));
  const char *impl = "?";
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
  dnnl_primitive_t prim;
  CHECK(dnnl_primitive_create(&prim, pd));
  dnnl_memory_t aM, bM, cM;
  CHECK(dnnl_memory_create(&aM, &aMd, eng, A));
  CHECK(dnnl_memory_create(&bM, &bMd, eng, B));
  CHECK(dnnl_memory_create(&cM, &cMd, eng, theirs));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, aM}, {DNNL_ARG_WEIGHTS, bM},
                            {DNNL_ARG_DST, cM}};

  for (long i = 0; i < M * N; ++i)
    ours[i] = theirs[i] = NAN;
  gemm(A, B, ours);
  CHECK(dnnl_primitive_execute(prim, strm, 3, args));
  CHECK(dnnl_stream_wait(strm));
  double rOurs, rTheirs;
  long badOurs = check(ours, &rOurs), badTheirs = check(theirs, &rTheirs);
  if (badOurs || badTheirs) {
    printf("%ld %ld %ld VERIFY-FAILED ours %ld over bound (max %.3g), oneDNN "
           "%ld (max %.3g)\n",
           M, N, K, badOurs, rOurs, badTheirs, rTheirs);
    return 1;
  }

  double tOurs[ROUNDS], tTheirs[ROUNDS];
  for (int r = 0; r < ROUNDS; ++r)
    for (int side = 0; side < 2; ++side) {
      long calls = 0;
      double start = now(), t;
      do {
        if (side == 0) {
          gemm(A, B, ours);
        } else {
          dnnl_primitive_execute(prim, strm, 3, args);
          dnnl_stream_wait(strm);
        }
        ++calls;
        t = now() - start;
      } while (t < ROUND_SECONDS);
      (side == 0 ? tOurs : tTheirs)[r] = t / calls;
    }
  double rOurs2, rTheirs2;
  long after = check(ours, &rOurs2) + check(theirs, &rTheirs2);
  if (after) {
    printf("%ld %ld %ld VERIFY-FAILED after timing\n", M, N, K);
    return 1;
  }
  qsort(tOurs, ROUNDS, sizeof(double), cmpDouble);
  qsort(tTheirs, ROUNDS, sizeof(double), cmpDouble);
  double flops = 2.0 * M * N * K;
  // M N K ours-median ours-best onednn-median onednn-best ratio(median)
  // max-error/bound(ours, oneDNN) oneDNN-implementation
  printf("%ld %ld %ld%s %.1f %.1f %.1f %.1f %.2f %.2g %.2g %s\n", M, N, K, bt ? " bt" : "",
         flops / tOurs[ROUNDS / 2] / 1e9, flops / tOurs[0] / 1e9,
         flops / tTheirs[ROUNDS / 2] / 1e9, flops / tTheirs[0] / 1e9,
         tTheirs[ROUNDS / 2] / tOurs[ROUNDS / 2], rOurs, rTheirs, impl);
  return 0;
}
