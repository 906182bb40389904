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
#include <time.h>

#include "../common/harness.h"
#include "conv_reference.h"
#include "onednn_conv.h"

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
  uint64_t st = 12345;
  float *in = randoms(nin, &st, 1.0f), *flt = randoms(nflt, &st, 1.0f);
  float *ours = malloc(4 * nout), *theirs = malloc(4 * nout);
  float *oursB = malloc(4 * nout);

  // oneDNN: NHWC src/dst, weights format_tag_any, reordered once from HWIO.
  const struct onednn_conv_layer layer = {
      .weightDims = 4, .src = {N, C, H, W}, .weights = {F, C, R, S},
      .dst = {N, F, OH, OW}, .actTag = dnnl_nhwc, .weightTag = dnnl_hwio,
      .strides = {SD, SD}, .dilation = {DL - 1, DL - 1}, .pad = {P, P}};
  struct onednn_conv onednn;
  onednnConvCreate(&onednn, &layer, in, flt, NULL, theirs);

  int rounds = argc == 12 ? atoi(argv[11]) : 21;
  if (rounds < 5 || rounds > 1000)
    rounds = 21;
  for (size_t i = 0; i < nout; ++i)
    ours[i] = oursB[i] = theirs[i] = NAN;
  conv(in, flt, ours);
  conv_b(in, flt, oursB);
  onednnConvRun(&onednn, 1);
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
  conv(in, flt, ours);
  double one = now() - t0;
  if (one < 0.02)
    reps = (int)(0.02 / (one > 1e-7 ? one : 1e-7)) + 1;
  double *ta = malloc(sizeof(double) * rounds), *tb = malloc(sizeof(double) * rounds),
         *tc = malloc(sizeof(double) * rounds), *ba2 = malloc(sizeof(double) * rounds),
         *ca = malloc(sizeof(double) * rounds), *cb = malloc(sizeof(double) * rounds);
  for (int round = 0; round < rounds; ++round) {
    t0 = now();
    for (int i = 0; i < reps; ++i)
      conv(in, flt, ours);
    ta[round] = (now() - t0) / reps;
    t0 = now();
    for (int i = 0; i < reps; ++i)
      conv_b(in, flt, oursB);
    tb[round] = (now() - t0) / reps;
    t0 = now();
    onednnConvRun(&onednn, reps);
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
         flops / tb[m] * 1e-9, flops / tc[m] * 1e-9, onednn.impl, ca[m],
         cb[m], ba2[m], ba2[0], ba2[rounds - 1], rounds, ra, rb, rt);
  return 0;
}
