// One convolution layer, TensorOp's kernel against oneDNN's convolution
// primitive, in one process (MEASURE.md): fp32, NHWC source and destination,
// oneDNN's weights in the layout it prefers (reordered once, outside the
// timing), both verified against an fp64 reference on NaN-prefilled outputs
// before and after timing, then timed alternately (A B A B ...), median and
// best of the rounds, warm caches.
//
// Build: conv_kernel.o (tensorop-opt --tensorop-pipeline="target=...
// bare-ptr-abi=1" | mlir-translate --mlir-to-llvmir | clang -c) defines
// void conv(const float *in, const float *flt, float *out), input NHWC,
// filter HWCF, output NHWC.
//   clang -O2 -I../../tools/tensorop/harness conv_vs_onednn.c conv_kernel.o \
//     -ldnnl -lm
//   ./a.out N H W C F R S stride pad dilation
// With -DNCHW the layer is PyTorch's layout (a module from gen_nchw.py,
// linalg.conv_2d_nchw_fchw): input NCHW, filter FCHW (OIHW), output NCHW on
// both sides: oneDNN's source and destination are plain nchw (it picks its
// implementation for them; its weights are still reordered once, outside
// the timing), ours gets the tensors as they are. The reference runs on
// NHWC copies.
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

void conv(const float *in, const float *flt, float *out);

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
  if (argc != 11) {
    fprintf(stderr, "usage: %s N H W C F R S stride pad dilation\n", argv[0]);
    return 2;
  }
  long *v[] = {&N, &H, &W, &C, &F, &R, &S, &SD, &P, &DL};
  for (int i = 0; i < 10; ++i)
    *v[i] = atol(argv[i + 1]);
  OH = (H + 2 * P - DL * (R - 1) - 1) / SD + 1;
  OW = (W + 2 * P - DL * (S - 1) - 1) / SD + 1;
  size_t nin = N * H * W * C, nflt = R * S * C * F, nout = N * OH * OW * F;
  uint64_t st = 12345;
  float *in = randoms(nin, &st, 1.0f), *flt = randoms(nflt, &st, 1.0f);
  float *ours = malloc(4 * nout), *theirs = malloc(4 * nout);

#ifdef NCHW
  // PyTorch's layouts for both sides: NCHW input and output, OIHW filter.
  float *inP = malloc(4 * nin), *fltP = malloc(4 * nflt);
  for (long n = 0; n < N; ++n)
    for (long y = 0; y < H; ++y)
      for (long x = 0; x < W; ++x)
        for (long c = 0; c < C; ++c)
          inP[((n * C + c) * H + y) * W + x] = in[((n * H + y) * W + x) * C + c];
  for (long r = 0; r < R; ++r)
    for (long q = 0; q < S; ++q)
      for (long c = 0; c < C; ++c)
        for (long f = 0; f < F; ++f)
          fltP[((f * C + c) * R + r) * S + q] = flt[((r * S + q) * C + c) * F + f];
  float *oursP = malloc(4 * nout), *theirsP = malloc(4 * nout);
  const dnnl_format_tag_t actTag = dnnl_nchw, fltTag = dnnl_oihw;
  float *inArg = inP, *fltArg = fltP, *oursArg = oursP, *theirsArg = theirsP;
#else
  const dnnl_format_tag_t actTag = dnnl_nhwc, fltTag = dnnl_hwio;
  float *inArg = in, *fltArg = flt, *oursArg = ours, *theirsArg = theirs;
#endif
  // Back to NHWC for the reference check (a no-op for NHWC layers).
  void toNhwc(const float *from, float *to);

  // oneDNN: src/dst in the layer's layout, weights format_tag_any,
  // reordered once from the layer's filter layout.
  const struct onednn_conv_layer layer = {
      .weightDims = 4, .src = {N, C, H, W}, .weights = {F, C, R, S},
      .dst = {N, F, OH, OW}, .actTag = actTag, .weightTag = fltTag,
      .strides = {SD, SD}, .dilation = {DL - 1, DL - 1}, .pad = {P, P}};
  struct onednn_conv onednn;
  onednnConvCreate(&onednn, &layer, inArg, fltArg, NULL, theirsArg);

  for (size_t i = 0; i < nout; ++i)
    oursArg[i] = theirsArg[i] = NAN;
  conv(inArg, fltArg, oursArg);
  onednnConvRun(&onednn, 1);
  toNhwc(oursArg, ours);
  toNhwc(theirsArg, theirs);
  double r1, r2;
  long b1 = verify(in, flt, ours, &r1), b2 = verify(in, flt, theirs, &r2);
  if (b1 || b2) {
    printf("VERIFY FAILED: tensorop %ld bad (max ratio %g), onednn %ld bad\n",
           b1, r1, b2);
    return 1;
  }
  double flops = 2.0 * N * OH * OW * F * R * S * C;
  int reps = 1;
  double t0 = now();
  conv(inArg, fltArg, oursArg);
  double one = now() - t0;
  if (one < 0.02)
    reps = (int)(0.02 / (one > 1e-7 ? one : 1e-7)) + 1;
  enum { ROUNDS = 11 };
  double ta[ROUNDS], tb[ROUNDS];
  for (int round = 0; round < ROUNDS; ++round) {
    t0 = now();
    for (int i = 0; i < reps; ++i)
      conv(inArg, fltArg, oursArg);
    ta[round] = (now() - t0) / reps;
    t0 = now();
    onednnConvRun(&onednn, reps);
    tb[round] = (now() - t0) / reps;
  }
  toNhwc(oursArg, ours);
  toNhwc(theirsArg, theirs);
  b1 = verify(in, flt, ours, &r1);
  b2 = verify(in, flt, theirs, &r2);
  if (b1 || b2) {
    printf("VERIFY FAILED after timing: tensorop %ld, onednn %ld\n", b1, b2);
    return 1;
  }
  double bestA = ta[0], bestB = tb[0];
  for (int i = 0; i < ROUNDS; ++i) {
    if (ta[i] < bestA) bestA = ta[i];
    if (tb[i] < bestB) bestB = tb[i];
  }
  qsort(ta, ROUNDS, sizeof(double), cmpd);
  qsort(tb, ROUNDS, sizeof(double), cmpd);
  double ga = flops / ta[ROUNDS / 2] * 1e-9, gb = flops / tb[ROUNDS / 2] * 1e-9;
  printf("%sN=%ld H=%ld W=%ld C=%ld F=%ld %ldx%ld stride=%ld pad=%ld dil=%ld | "
         "tensorop %.1f (best %.1f) | onednn %.1f (best %.1f) [%s] | ratio %.2f | "
         "max err/bound %.3g %.3g\n",
         actTag == dnnl_nchw ? "NCHW " : "", N, H, W, C, F, R, S, SD, P, DL,
         ga, flops / bestA * 1e-9, gb,
         flops / bestB * 1e-9, onednn.impl, ga / gb, r1, r2);
  return 0;
}

void toNhwc(const float *from, float *to) {
#ifdef NCHW
  for (long n = 0; n < N; ++n)
    for (long f = 0; f < F; ++f)
      for (long y = 0; y < OH; ++y)
        for (long x = 0; x < OW; ++x)
          to[((n * OH + y) * OW + x) * F + f] =
              from[((n * F + f) * OH + y) * OW + x];
#else
  if (from != to)
    memcpy(to, from, 4 * (size_t)(N * OH * OW * F));
#endif
}
