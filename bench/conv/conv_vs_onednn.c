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

  for (size_t i = 0; i < nout; ++i)
    oursArg[i] = theirsArg[i] = NAN;
  conv(inArg, fltArg, oursArg);
  CHECK(dnnl_primitive_execute(prim, strm, 3, args));
  CHECK(dnnl_stream_wait(strm));
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
    for (int i = 0; i < reps; ++i)
      CHECK(dnnl_primitive_execute(prim, strm, 3, args));
    CHECK(dnnl_stream_wait(strm));
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
         flops / bestB * 1e-9, impl, ga / gb, r1, r2);
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
