// One convolution layer with a bias and ReLU (and, with RESIDUAL=1, a
// residual add before the ReLU, as in ResNet's bottleneck: relu(conv + bias
// + residual)), three ways in one process (MEASURE.md): TensorOp's module
// with the epilogue fused into the convolution kernel (conv_fused), the same
// module with fuse-epilogues=0 (conv_unfused: the kernel writes the output,
// a loop then reads it back for the steps), and oneDNN's convolution
// primitive with the bias and post-ops (eltwise ReLU; with RESIDUAL a sum
// post-op first, the destination holding the residual). fp32, NHWC, oneDNN's
// weights reordered once outside the timing. All three are verified against
// an fp64 reference on NaN-prefilled outputs before and after timing, then
// timed alternately (A B C A B C ...), median and best of the rounds.
//
// Build (bench/conv/run-epilogue.sh): conv_fused.o and conv_unfused.o from
// tensorop-opt --tensorop-pipeline="target=... bare-ptr-abi=1
// fuse-epilogues=1|0" define
//   void conv_fused(const float *in, const float *flt, const float *bias,
//                   [const float *res,] float *out)   (and conv_unfused)
//   clang -O2 -DRESIDUAL=0|1 -I../../tools/tensorop/harness \
//     epilogue_vs_onednn.c conv_fused.o conv_unfused.o -ldnnl -lm
//   ./a.out N H W C F R S stride pad
#include <dnnl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/harness.h"
#include "conv_reference.h"
#include "onednn_conv.h"

#ifndef RESIDUAL
#define RESIDUAL 0
#endif

#if RESIDUAL
void conv_fused(const float *in, const float *flt, const float *bias,
                const float *res, float *out);
void conv_unfused(const float *in, const float *flt, const float *bias,
                  const float *res, float *out);
#define CALL(fn, out) fn(in, flt, bias, res, out)
#else
void conv_fused(const float *in, const float *flt, const float *bias,
                float *out);
void conv_unfused(const float *in, const float *flt, const float *bias,
                  float *out);
#define CALL(fn, out) fn(in, flt, bias, out)
#endif

static long N, H, W, C, F, R, S, SD, P, OH, OW;
static float *in, *flt, *bias, *res;

// Elements of relu(conv + bias [+ res]) over the bound 2*K*u*sum|products| +
// u*|ref| + u*(|bias| + |res|) (the two adds round once each), NaN counted.
static long verify(const float *out, double *maxRatio) {
  const struct conv_geometry g = {N,  H, W, C, F, R,  S, SD,
                                  SD, 1, 1, P, P, OH, OW};
  const double u = 6e-8, k = (double)R * S * C;
  long bad = 0;
  *maxRatio = 0;
  for (long n = 0; n < N; ++n)
    for (long y = 0; y < OH; ++y)
      for (long x = 0; x < OW; ++x)
        for (long f = 0; f < F; ++f) {
          long at = ((n * OH + y) * OW + x) * F + f;
          double ref, mag;
          conv_reference(&g, in, flt, n, y, x, f, &ref, &mag);
          double add = bias[f] + (RESIDUAL ? res[at] : 0.0);
          double want = ref + add > 0 ? ref + add : 0;
          double bound = 2 * k * u * mag + u * fabs(ref) +
                         2 * u * (fabs(ref) + fabs(add)) + 1e-30;
          double err = fabs(out[at] - want);
          if (!(err <= bound))
            ++bad;
          double ratio = isnan(err) ? INFINITY : err / bound;
          if (ratio > *maxRatio)
            *maxRatio = ratio;
        }
  return bad;
}

int main(int argc, char **argv) {
  if (argc != 10) {
    fprintf(stderr, "usage: %s N H W C F R S stride pad\n", argv[0]);
    return 2;
  }
  long *v[] = {&N, &H, &W, &C, &F, &R, &S, &SD, &P};
  for (int i = 0; i < 9; ++i)
    *v[i] = atol(argv[i + 1]);
  OH = (H + 2 * P - (R - 1) - 1) / SD + 1;
  OW = (W + 2 * P - (S - 1) - 1) / SD + 1;
  size_t nin = N * H * W * C, nflt = R * S * C * F, nout = N * OH * OW * F;
  uint64_t st = 12345;
  in = randoms(nin, &st, 1.0f);
  flt = randoms(nflt, &st, 1.0f);
  bias = randoms(F, &st, 1.0f);
  res = randoms(nout, &st, 1.0f);
  float *outs[3];
  for (int i = 0; i < 3; ++i)
    outs[i] = malloc(4 * nout);

  // oneDNN: NHWC src/dst, weights format_tag_any reordered once from HWIO,
  // the bias as the primitive's bias, post-ops [sum,] eltwise ReLU.
  dnnl_post_ops_t po;
  CHECK(dnnl_post_ops_create(&po));
  if (RESIDUAL)
    CHECK(dnnl_post_ops_append_sum(po, 1.0f));
  CHECK(dnnl_post_ops_append_eltwise(po, 1.0f, dnnl_eltwise_relu, 0.f, 0.f));
  dnnl_primitive_attr_t attr;
  CHECK(dnnl_primitive_attr_create(&attr));
  CHECK(dnnl_primitive_attr_set_post_ops(attr, po));
  const struct onednn_conv_layer layer = {
      .weightDims = 4, .src = {N, C, H, W}, .weights = {F, C, R, S},
      .dst = {N, F, OH, OW}, .actTag = dnnl_nhwc, .weightTag = dnnl_hwio,
      .strides = {SD, SD}, .dilation = {0, 0}, .pad = {P, P}, .biasLen = F,
      .attr = attr};
  struct onednn_conv onednn;
  onednnConvCreate(&onednn, &layer, in, flt, bias, outs[2]);

  // Runs kernel `which` (0 fused, 1 unfused, 2 oneDNN) once; oneDNN's sum
  // post-op reads the residual from the destination.
  const char *names[3] = {"fused", "unfused", "onednn"};
  long bad[3];
  double ratio[3];
  for (int which = 0; which < 3; ++which) {
    for (size_t i = 0; i < nout; ++i)
      outs[which][i] = NAN;
    if (which == 0)
      CALL(conv_fused, outs[0]);
    else if (which == 1)
      CALL(conv_unfused, outs[1]);
    else {
      if (RESIDUAL)
        memcpy(outs[2], res, 4 * nout);
      onednnConvRun(&onednn, 1);
    }
    bad[which] = verify(outs[which], &ratio[which]);
  }
  if (bad[0] || bad[1] || bad[2]) {
    printf("VERIFY FAILED: fused %ld, unfused %ld, onednn %ld bad\n", bad[0],
           bad[1], bad[2]);
    return 1;
  }
  double flops = 2.0 * N * OH * OW * F * R * S * C;
  int reps = 1;
  double t0 = now();
  CALL(conv_fused, outs[0]);
  double one = now() - t0;
  if (one < 0.02)
    reps = (int)(0.02 / (one > 1e-7 ? one : 1e-7)) + 1;
  enum { ROUNDS = 11 };
  double t[3][ROUNDS];
  for (int round = 0; round < ROUNDS; ++round)
    for (int which = 0; which < 3; ++which) {
      t0 = now();
      if (which == 0)
        for (int i = 0; i < reps; ++i)
          CALL(conv_fused, outs[0]);
      else if (which == 1)
        for (int i = 0; i < reps; ++i)
          CALL(conv_unfused, outs[1]);
      else
        onednnConvRun(&onednn, reps);
      t[which][round] = (now() - t0) / reps;
    }
  // After timing: ours on the buffers the timed runs wrote; oneDNN's
  // destination accumulated the sum post-op over the reps, so it is run
  // again once on the residual.
  if (RESIDUAL) {
    memcpy(outs[2], res, 4 * nout);
    onednnConvRun(&onednn, 1);
  }
  for (int which = 0; which < 3; ++which)
    bad[which] = verify(outs[which], &ratio[which]);
  if (bad[0] || bad[1] || bad[2]) {
    printf("VERIFY FAILED after timing: fused %ld, unfused %ld, onednn %ld\n",
           bad[0], bad[1], bad[2]);
    return 1;
  }
  double med[3], best[3];
  for (int which = 0; which < 3; ++which) {
    qsort(t[which], ROUNDS, sizeof(double), cmpd);
    med[which] = t[which][ROUNDS / 2];
    best[which] = t[which][0];
  }
  printf("N=%ld H=%ld W=%ld C=%ld F=%ld %ldx%ld stride=%ld pad=%ld %s | ", N, H,
         W, C, F, R, S, SD, P, RESIDUAL ? "bias+res+relu" : "bias+relu");
  for (int which = 0; which < 3; ++which)
    printf("%s %.1f us (%.1f GF/s, best %.1f us) | ", names[which],
           med[which] * 1e6, flops / med[which] * 1e-9, best[which] * 1e6);
  printf("unfused/fused %.2f | onednn/fused %.2f [%s] | max err/bound %.3g "
         "%.3g %.3g\n",
         med[1] / med[0], med[2] / med[0], onednn.impl, ratio[0], ratio[1],
         ratio[2]);
  return 0;
}
