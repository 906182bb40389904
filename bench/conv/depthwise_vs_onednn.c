// One depthwise convolution layer, TensorOp's module (gen_depthwise.py
// through --tensorop-pipeline) against oneDNN's grouped convolution (groups =
// channels), in one process, MEASURE.md's protocol through
// bench/common/harness.h: fp32, NHWC source and destination, oneDNN's
// weights in the layout it prefers (reordered once, outside the timing),
// every variant verified against an fp64 reference on NaN-prefilled output
// before and after timing, variants alternating round by round.
//
//   clang -O2 depthwise_vs_onednn.c conv_kernel.o -ldnnl -lm
//   ./a.out N H W C R S stride pad dilation
// prints one JSON line (GFLOP/s count 2 flops per multiply-add).
#include <string.h>

#include "../common/harness.h"
#include "onednn_conv.h"

void conv(const float *in, const float *flt, float *out);

static long N, H, W, C, R, S, SD, P, DL, OH, OW;
static float *in, *flt;
static double *ref, *bound;
static struct onednn_conv onednn;
static float *theirs;

static void run(struct variant *v) {
  if (v->fn) {
    conv(in, flt, v->out);
    return;
  }
  onednnConvRun(&onednn, 1);
}
static float *result(struct variant *v) { return v->fn ? v->out : theirs; }
static void poison(struct variant *v) {
  float *o = result(v);
  for (long i = 0; i < N * OH * OW * C; ++i)
    o[i] = NAN;
}
static long verify(const float *out, double *maxRatio) {
  return overBound(out, ref, bound, N * OH * OW * C, maxRatio);
}

int main(int argc, char **argv) {
  if (argc != 10) {
    fprintf(stderr, "usage: %s N H W C R S stride pad dilation\n", argv[0]);
    return 2;
  }
  long *v[] = {&N, &H, &W, &C, &R, &S, &SD, &P, &DL};
  for (int i = 0; i < 9; ++i)
    *v[i] = atol(argv[i + 1]);
  OH = (H + 2 * P - DL * (R - 1) - 1) / SD + 1;
  OW = (W + 2 * P - DL * (S - 1) - 1) / SD + 1;
  long nout = N * OH * OW * C;
  uint64_t st = 12345;
  in = randoms(N * H * W * C, &st, 1.0f);
  flt = randoms(R * S * C, &st, 1.0f);
  theirs = malloc(sizeof(float) * nout);

  // fp64 reference and the MEASURE.md bound (K = R*S, c = 2, u = 6e-8).
  ref = malloc(sizeof(double) * nout);
  bound = malloc(sizeof(double) * nout);
  const double u = 6e-8, k = (double)R * S;
  for (long n = 0; n < N; ++n)
    for (long y = 0; y < OH; ++y)
      for (long x = 0; x < OW; ++x)
        for (long c = 0; c < C; ++c) {
          double r = 0, m = 0;
          for (long p = 0; p < R; ++p)
            for (long q = 0; q < S; ++q) {
              long iy = y * SD + p * DL - P, ix = x * SD + q * DL - P;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W)
                continue;
              double t = (double)in[((n * H + iy) * W + ix) * C + c] *
                         flt[(p * S + q) * C + c];
              r += t;
              m += fabs(t);
            }
          long i = ((n * OH + y) * OW + x) * C + c;
          ref[i] = r;
          bound[i] = 2 * k * u * m + u * fabs(r) + 1e-30;
        }

  // oneDNN: groups = C, one input and one output channel per group; our
  // filter is R x S x C: hwigo with one i and one o.
  const struct onednn_conv_layer layer = {
      .weightDims = 5, .src = {N, C, H, W}, .weights = {C, 1, 1, R, S},
      .dst = {N, C, OH, OW}, .actTag = dnnl_nhwc, .weightTag = dnnl_hwigo,
      .strides = {SD, SD}, .dilation = {DL - 1, DL - 1}, .pad = {P, P}};
  onednnConvCreate(&onednn, &layer, in, flt, NULL, theirs);

  struct variant vs[] = {{.name = "tensorop", .fn = (void (*)(void))conv},
                         {.name = "onednn"}};
  struct harness h = {nout, run, result, poison, verify};
  enum { ROUNDS = 11 };
  if (measure(&h, vs, 2, ROUNDS))
    return 1;
  double flops = 2.0 * N * OH * OW * C * R * S;
  printf("{\"layer\": \"depthwise N=%ld H=%ld W=%ld C=%ld %ldx%ld stride=%ld "
         "pad=%ld dil=%ld\", \"onednn_impl\": \"%s\", \"threads\": \"%s\"",
         N, H, W, C, R, S, SD, P, DL, onednn.impl,
         getenv("OMP_NUM_THREADS") ? getenv("OMP_NUM_THREADS") : "?");
  printVariants(vs, 2, ROUNDS, flops);
  return 0;
}
