/* Times `tensorop gen` objects with B packed once (NAME_pack_b once, then
 * NAME_prepacked per call) against oneDNN's matmul primitive with its
 * weights reordered once into the layout it prefers (format_tag::any, as a
 * framework runs a linear layer), in one process: fp32, row-major
 * C = A * B, 1 thread, the sides of one shape alternating round by round,
 * median of ROUNDS rounds. NAME on plain B and dnnl_sgemm are timed in the
 * same rounds for reference.
 *
 * Every side is verified before timing and again on the buffers its timed
 * runs wrote: NaN-prefilled C, seeded inputs in [-1, 1), fp64 reference,
 * bound 2*K*6e-8*(|A||B|)_ij + 6e-8*|R_ij| (shared/MEASURE.md); the packed
 * B is made from a copy of B that is then poisoned. A side that fails is
 * reported and not counted.
 *
 * With -DBF16 A and B are bf16 (gen's bf16 objects, oneDNN's bf16 matmul,
 * fp32 C, both accumulating in fp32): the inputs are rounded to bf16 and
 * the reference reads the rounded values; there is no dnnl_sgemm side.
 *
 * Build (bench/cpu/prepacked.sh does this): kernels.inc holds one line
 *   KERNEL(name, M, N, K)
 * per gen object. */
#include <dnnl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels_headers.inc"

#ifndef ROUNDS
#define ROUNDS 9
#endif
#ifndef ROUND_SECONDS
#define ROUND_SECONDS 0.05
#endif

#ifdef BF16
typedef uint16_t in_t;
#define IN_DT dnnl_bf16
static in_t toIn(float f) { /* round to nearest even (no NaN here) */
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);
  return (in_t)(u >> 16);
}
static float fromIn(in_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
#else
typedef float in_t;
#define IN_DT dnnl_f32
static in_t toIn(float f) { return f; }
static float fromIn(in_t x) { return x; }
#endif
typedef void (*plain_fn)(const in_t *, const in_t *, float *);
typedef size_t (*size_fn)(void);
typedef void (*pack_fn)(const in_t *, in_t *);
typedef void (*prepacked_fn)(const in_t *, const in_t *, float *);
struct entry {
  const char *name;
  long m, n, k;
  plain_fn plain;
  size_fn packedSize;
  pack_fn pack;
  prepacked_fn prepacked;
};
#define KERNEL(NAME, M, N, K)                                                  \
  {#NAME, M, N, K, NAME, NAME##_packed_b_size, NAME##_pack_b, NAME##_prepacked},
static const struct entry kEntries[] = {
#include "kernels.inc"
};
#undef KERNEL

#ifdef BF16
enum { PREPACKED, PLAIN, REORDERED, SIDES, SGEMM };
#else
enum { PREPACKED, PLAIN, REORDERED, SGEMM, SIDES };
#endif
static const char *kSides[] = {"TensorOp prepacked", "TensorOp plain B",
                               "oneDNN reordered", "dnnl_sgemm"};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
static uint64_t rng = 42;
static float uniform(void) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((rng >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
}

struct problem {
  const struct entry *e;
  float *a, *b, *c[SIDES]; /* a, b: the values the sides read */
  in_t *ain, *bin, *packed;
  dnnl_primitive_t matmul;
  dnnl_memory_t srcMem, weightsMem, dstMem;
  dnnl_stream_t stream;
};

static void run(struct problem *p, int side) {
  const struct entry *e = p->e;
  switch (side) {
  case PREPACKED: e->prepacked(p->ain, p->packed, p->c[side]); break;
  case PLAIN: e->plain(p->ain, p->bin, p->c[side]); break;
  case REORDERED: {
    dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, p->srcMem},
                               {DNNL_ARG_WEIGHTS, p->weightsMem},
                               {DNNL_ARG_DST, p->dstMem}};
    dnnl_primitive_execute(p->matmul, p->stream, 3, args);
    dnnl_stream_wait(p->stream);
    break;
  }
  case SGEMM:
    dnnl_sgemm('N', 'N', e->m, e->n, e->k, 1.0f, p->a, e->k, p->b, e->n, 0.0f,
               p->c[side], e->n);
    break;
  }
}

/* 0 when every element is within the bound. */
static long verify(const struct problem *p, const float *c) {
  const struct entry *e = p->e;
  long bad = 0;
  for (long i = 0; i < e->m; ++i)
    for (long j = 0; j < e->n; ++j) {
      double r = 0, mag = 0;
      for (long k = 0; k < e->k; ++k) {
        double x = (double)p->a[i * e->k + k] * p->b[k * e->n + j];
        r += x;
        mag += fabs(x);
      }
      double bound = 2.0 * e->k * 6e-8 * mag + 6e-8 * fabs(r);
      double v = c[i * e->n + j];
      bad += !(fabs(v - r) <= bound);
    }
  return bad;
}

static int setup(struct problem *p, dnnl_engine_t engine) {
  const struct entry *e = p->e;
  p->a = malloc(sizeof(float) * e->m * e->k);
  p->b = malloc(sizeof(float) * e->k * e->n);
  p->ain = malloc(sizeof(in_t) * e->m * e->k);
  p->bin = malloc(sizeof(in_t) * e->k * e->n);
  for (long i = 0; i < e->m * e->k; ++i) {
    p->ain[i] = toIn(uniform());
    p->a[i] = fromIn(p->ain[i]);
  }
  for (long i = 0; i < e->k * e->n; ++i) {
    p->bin[i] = toIn(uniform());
    p->b[i] = fromIn(p->bin[i]);
  }
  for (int s = 0; s < SIDES; ++s) {
    p->c[s] = malloc(sizeof(float) * e->m * e->n);
    for (long i = 0; i < e->m * e->n; ++i) p->c[s][i] = NAN;
  }
  in_t *copy = malloc(sizeof(in_t) * e->k * e->n);
  memcpy(copy, p->bin, sizeof(in_t) * e->k * e->n);
  p->packed = malloc(e->packedSize());
  e->pack(copy, p->packed);
  for (long i = 0; i < e->k * e->n; ++i) copy[i] = toIn(NAN);
  free(copy);
  dnnl_memory_desc_t src, weights, weightsAny, dst;
  dnnl_dims_t ds = {e->m, e->k}, dw = {e->k, e->n}, dd = {e->m, e->n};
  dnnl_memory_desc_init_by_tag(&src, 2, ds, IN_DT, dnnl_ab);
  dnnl_memory_desc_init_by_tag(&weights, 2, dw, IN_DT, dnnl_ab);
  dnnl_memory_desc_init_by_tag(&weightsAny, 2, dw, IN_DT,
                               dnnl_format_tag_any);
  dnnl_memory_desc_init_by_tag(&dst, 2, dd, dnnl_f32, dnnl_ab);
  dnnl_matmul_desc_t md;
  dnnl_primitive_desc_t pd, rpd;
  if (dnnl_matmul_desc_init(&md, &src, &weightsAny, NULL, &dst) ||
      dnnl_primitive_desc_create(&pd, &md, NULL, engine, NULL))
    return 1;
  const dnnl_memory_desc_t *chosen =
      dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  dnnl_memory_t plainWeights;
  dnnl_stream_create(&p->stream, engine, dnnl_stream_default_flags);
  dnnl_memory_create(&p->srcMem, &src, engine, p->ain);
  dnnl_memory_create(&plainWeights, &weights, engine, p->bin);
  dnnl_memory_create(&p->weightsMem, chosen, engine, DNNL_MEMORY_ALLOCATE);
  dnnl_memory_create(&p->dstMem, &dst, engine, p->c[REORDERED]);
  dnnl_primitive_t reorder;
  if (dnnl_reorder_primitive_desc_create(&rpd, &weights, engine, chosen,
                                         engine, NULL) ||
      dnnl_primitive_create(&reorder, rpd))
    return 1;
  dnnl_exec_arg_t rargs[2] = {{DNNL_ARG_FROM, plainWeights},
                              {DNNL_ARG_TO, p->weightsMem}};
  dnnl_primitive_execute(reorder, p->stream, 2, rargs);
  dnnl_stream_wait(p->stream);
  return dnnl_primitive_create(&p->matmul, pd) != dnnl_success;
}

static int cmp(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

int main(void) {
  dnnl_engine_t engine;
  dnnl_engine_create(&engine, dnnl_cpu, 0);
  const dnnl_version_t *v = dnnl_version();
  printf("1 thread, %d rounds of >= %.2f s per side, median GFLOP/s; oneDNN "
         "%d.%d.%d\n\n",
         ROUNDS, ROUND_SECONDS, v->major, v->minor, v->patch);
  printf("%s inputs\n\n| MxNxK | packed B bytes |",
         IN_DT == dnnl_bf16 ? "bf16" : "fp32");
  for (int s = 0; s < SIDES; ++s)
    printf(" %s |", kSides[s]);
  printf(" prepacked / reordered | prepacked / plain | verified |\n| --- | "
         "---: |");
  for (int s = 0; s < SIDES; ++s)
    printf(" ---: |");
  printf(" ---: | ---: | --- |\n");
  double logSum = 0;
  int counted = 0;
  for (size_t i = 0; i < sizeof(kEntries) / sizeof(kEntries[0]); ++i) {
    struct problem p = {&kEntries[i]};
    const struct entry *e = p.e;
    if (setup(&p, engine)) {
      printf("| %ldx%ldx%ld | oneDNN setup failed |\n", e->m, e->n, e->k);
      continue;
    }
    int ok[SIDES];
    for (int s = 0; s < SIDES; ++s) {
      run(&p, s);
      ok[s] = verify(&p, p.c[s]) == 0;
    }
    double samples[SIDES][ROUNDS];
    double flop = 2.0 * e->m * e->n * e->k;
    for (int r = 0; r < ROUNDS; ++r)
      for (int s = 0; s < SIDES; ++s) {
        long calls = 0;
        double t0 = now(), t;
        do {
          run(&p, s);
          ++calls;
        } while ((t = now() - t0) < ROUND_SECONDS);
        samples[s][r] = flop * calls / t * 1e-9;
      }
    double med[SIDES];
    for (int s = 0; s < SIDES; ++s) {
      ok[s] = ok[s] && verify(&p, p.c[s]) == 0;
      qsort(samples[s], ROUNDS, sizeof(double), cmp);
      med[s] = samples[s][ROUNDS / 2];
    }
    int all = 1;
    printf("| %ldx%ldx%ld | %zu |", e->m, e->n, e->k, e->packedSize());
    for (int s = 0; s < SIDES; ++s) {
      all = all && ok[s];
      printf(" %.1f |", med[s]);
    }
    printf(" %.2fx | %.2fx | %s |\n", med[0] / med[2], med[0] / med[1],
           all ? "yes" : "NO");
    if (all) {
      logSum += log(med[0] / med[2]);
      ++counted;
    }
  }
  if (counted)
    printf("\nprepacked vs oneDNN reordered: geomean %.3fx over %d shapes\n",
           exp(logSum / counted), counted);
  return 0;
}
