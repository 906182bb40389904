// Two TensorOp kernels of one convolution layer (two sketches: conv and
// conv_b) and oneDNN's convolution primitive in one process, each verified
// against an fp64 reference before and after timing, timed in alternating
// rounds (A B oneDNN A B oneDNN ...). Built by sketch_pair_ab.sh; otherwise
// as conv_vs_onednn.c (NHWC, oneDNN's weights reordered once outside the
// timing, warm caches). Prints the medians and the median over rounds of
// B's speed over A's within the round, which a load that comes and goes
// hits alike. -DTIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID at 1 thread.
//   ./a.out N H W C F R S stride pad dilation [ROUNDS]
#include <dnnl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/harness.h"
#include "conv_reference.h"

void conv(const float *in, const float *flt, float *out);
void conv_b(const float *in, const float *flt, float *out);

static long N, H, W, C, F, R, S, SD, P, DL, OH, OW;

// Elements over the MEASURE.md bound (K = R*S*C, c = 2, u = 6e-8) and the
// largest error/bound ratio.
static long verify(const float *in, const float *flt, const float *out,
                   double *maxRatio) {
  const struct conv_geometry g = {N, H, W, C, F, R, S, SD,
                                  SD, DL, DL, P, P, OH, OW};
  return conv_check_output(&g, in, flt, out, maxRatio);
}

int main(int argc, char **argv) {
  if (argc != 11 && argc != 12) {
    fprintf(stderr, "usage: %s N H W C F R S stride pad dilation [ROUNDS]\n", argv[0]);
    return 2;
  }
  long *v[] = {&N, &H, &W, &C, &F, &R, &S, &SD, &P, &DL};
  for (int i = 0; i < 10; ++i)
    *v[i] = atol(argv[i + 1]);
  OH = (H + 2 * P - DL * (R - 1) - 1) / SD + 1;
  OW = (W + 2 * P - DL * (S - 1) - 1) / SD + 1;
  size_t nin = N * H * W * C, nflt = R * S * C * F, nout = N * OH * OW * F;
  float *in = malloc(4 * nin), *flt = malloc(4 * nflt);
  float *ours = malloc(4 * nout), *theirs = malloc(4 * nout);
  uint64_t st = 12345;
  for (size_t i = 0; i < nin; ++i) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    in[i] = (float)((st >> 40) / 8388608.0 - 1.0);
  }
  for (size_t i = 0; i < nflt; ++i) {
    st = st * 6364136223846793005ull + 1442695040888963407ull;
    flt[i] = (float)((st >> 40) / 8388608.0 - 1.0);
  }

  const dnnl_format_tag_t actTag = dnnl_nhwc, fltTag = dnnl_hwio;
  float *inArg = in, *fltArg = flt, *oursArg = ours, *theirsArg = theirs;
  float *oursB = malloc(4 * nout);
  // Back to NHWC for the reference check (a no-op for NHWC layers).
  void toNhwc(const float *from, float *to);

  // oneDNN: src/dst in the layer's layout, weights format_tag_any,
  // reordered once from the layer's filter layout.
  dnnl_engine_t eng;
  dnnl_stream_t strm;
  CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
  dnnl_dims_t sd = {N, C, H, W}, wd = {F, C, R, S}, dd = {N, F, OH, OW};
  dnnl_dims_t strides = {SD, SD}, dil = {DL - 1, DL - 1}, pad = {P, P};
  dnnl_memory_desc_t srcMd, wAnyMd, wUserMd, dstMd;
  CHECK(dnnl_memory_desc_init_by_tag(&srcMd, 4, sd, dnnl_f32, actTag));
  CHECK(dnnl_memory_desc_init_by_tag(&dstMd, 4, dd, dnnl_f32, actTag));
  CHECK(dnnl_memory_desc_init_by_tag(&wAnyMd, 4, wd, dnnl_f32, dnnl_format_tag_any));
  CHECK(dnnl_memory_desc_init_by_tag(&wUserMd, 4, wd, dnnl_f32, fltTag));
  dnnl_convolution_desc_t cd;
  CHECK(dnnl_dilated_convolution_forward_desc_init(
      &cd, dnnl_forward_inference, dnnl_convolution_direct, &srcMd, &wAnyMd,
      NULL, &dstMd, strides, dil, pad, pad));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_primitive_desc_create(&pd, &cd, NULL, eng, NULL));
  const char *impl = "?";
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
  const dnnl_memory_desc_t *wMd = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  dnnl_memory_t srcM, wUserM, wM, dstM;
  CHECK(dnnl_memory_create(&srcM, &srcMd, eng, inArg));
  CHECK(dnnl_memory_create(&wUserM, &wUserMd, eng, fltArg));
  CHECK(dnnl_memory_create(&wM, wMd, eng, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&dstM, &dstMd, eng, theirsArg));
  dnnl_primitive_desc_t rpd;
  CHECK(dnnl_reorder_primitive_desc_create(&rpd, &wUserMd, eng, wMd, eng, NULL));
  dnnl_primitive_t reorder, prim;
  CHECK(dnnl_primitive_create(&reorder, rpd));
  dnnl_exec_arg_t rargs[] = {{DNNL_ARG_FROM, wUserM}, {DNNL_ARG_TO, wM}};
  CHECK(dnnl_primitive_execute(reorder, strm, 2, rargs));
  CHECK(dnnl_primitive_create(&prim, pd));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, srcM}, {DNNL_ARG_WEIGHTS, wM},
                            {DNNL_ARG_DST, dstM}};

  int rounds = argc == 12 ? atoi(argv[11]) : 21;
  if (rounds < 5 || rounds > 1000)
    rounds = 21;
  for (size_t i = 0; i < nout; ++i)
    oursArg[i] = oursB[i] = theirsArg[i] = NAN;
  conv(inArg, fltArg, oursArg);
  conv_b(inArg, fltArg, oursB);
  CHECK(dnnl_primitive_execute(prim, strm, 3, args));
  CHECK(dnnl_stream_wait(strm));
  double ra, rb, rt;
  long ba = verify(in, flt, ours, &ra), bb = verify(in, flt, oursB, &rb),
       bt = verify(in, flt, theirs, &rt);
  if (ba || bb || bt) {
    printf("VERIFY FAILED: A %ld bad (max ratio %g), B %ld bad (%g), onednn "
           "%ld bad\n", ba, ra, bb, rb, bt);
    return 1;
  }
  double flops = 2.0 * N * OH * OW * F * R * S * C;
  int reps = 1;
  double t0 = now();
  conv(inArg, fltArg, oursArg);
  double one = now() - t0;
  if (one < 0.02)
    reps = (int)(0.02 / (one > 1e-7 ? one : 1e-7)) + 1;
  double *ta = malloc(sizeof(double) * rounds), *tb = malloc(sizeof(double) * rounds),
         *tc = malloc(sizeof(double) * rounds), *ba2 = malloc(sizeof(double) * rounds),
         *ca = malloc(sizeof(double) * rounds), *cb = malloc(sizeof(double) * rounds);
  for (int round = 0; round < rounds; ++round) {
    t0 = now();
    for (int i = 0; i < reps; ++i)
      conv(inArg, fltArg, oursArg);
    ta[round] = (now() - t0) / reps;
    t0 = now();
    for (int i = 0; i < reps; ++i)
      conv_b(inArg, fltArg, oursB);
    tb[round] = (now() - t0) / reps;
    t0 = now();
    for (int i = 0; i < reps; ++i)
      CHECK(dnnl_primitive_execute(prim, strm, 3, args));
    CHECK(dnnl_stream_wait(strm));
    tc[round] = (now() - t0) / reps;
    ba2[round] = ta[round] / tb[round]; // B's speed over A's
    ca[round] = tc[round] / ta[round];  // A's speed over oneDNN's
    cb[round] = tc[round] / tb[round];
  }
  ba = verify(in, flt, ours, &ra);
  bb = verify(in, flt, oursB, &rb);
  bt = verify(in, flt, theirs, &rt);
  if (ba || bb || bt) {
    printf("VERIFY FAILED after timing: A %ld, B %ld, onednn %ld\n", ba, bb, bt);
    return 1;
  }
  qsort(ta, rounds, sizeof(double), cmpd);
  qsort(tb, rounds, sizeof(double), cmpd);
  qsort(tc, rounds, sizeof(double), cmpd);
  qsort(ba2, rounds, sizeof(double), cmpd);
  qsort(ca, rounds, sizeof(double), cmpd);
  qsort(cb, rounds, sizeof(double), cmpd);
  int m = rounds / 2;
  printf("N=%ld H=%ld W=%ld C=%ld F=%ld %ldx%ld stride=%ld pad=%ld dil=%ld | "
         "A %.1f B %.1f onednn %.1f GFLOP/s (medians) [%s] | A/onednn %.3f "
         "B/onednn %.3f | B/A %.3f (rounds %.3f-%.3f) | %d rounds | max "
         "err/bound %.3g %.3g %.3g\n",
         N, H, W, C, F, R, S, SD, P, DL, flops / ta[m] * 1e-9,
         flops / tb[m] * 1e-9, flops / tc[m] * 1e-9, impl, ca[m], cb[m],
         ba2[m], ba2[0], ba2[rounds - 1], rounds, ra, rb, rt);
  return 0;
}

void toNhwc(const float *from, float *to) {
  if (from != to)
    memcpy(to, from, 4 * (size_t)(N * OH * OW * F));
}
