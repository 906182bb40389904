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

void conv(const float *in, const float *flt, float *out);

static long N, H, W, C, R, S, SD, P, DL, OH, OW;
static float *in, *flt;
static double *ref, *bound;
static dnnl_primitive_t prim;
static dnnl_stream_t strm;
static dnnl_exec_arg_t args[3];
static float *theirs;

static void run(struct variant *v) {
  if (v->fn) {
    conv(in, flt, v->out);
    return;
  }
  CHECK(dnnl_primitive_execute(prim, strm, 3, args));
  CHECK(dnnl_stream_wait(strm));
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

  // oneDNN: groups = C, one input and one output channel per group.
  dnnl_engine_t eng;
  CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
  dnnl_dims_t sd = {N, C, H, W}, wd = {C, 1, 1, R, S}, dd = {N, C, OH, OW};
  dnnl_dims_t strides = {SD, SD}, dil = {DL - 1, DL - 1}, pad = {P, P};
  dnnl_memory_desc_t srcMd, wAnyMd, wUserMd, dstMd;
  CHECK(dnnl_memory_desc_init_by_tag(&srcMd, 4, sd, dnnl_f32, dnnl_nhwc));
  CHECK(dnnl_memory_desc_init_by_tag(&dstMd, 4, dd, dnnl_f32, dnnl_nhwc));
  CHECK(dnnl_memory_desc_init_by_tag(&wAnyMd, 5, wd, dnnl_f32,
                                     dnnl_format_tag_any));
  // Our filter is R x S x C: hwigo with one i and one o.
  CHECK(dnnl_memory_desc_init_by_tag(&wUserMd, 5, wd, dnnl_f32, dnnl_hwigo));
  dnnl_convolution_desc_t cd;
  CHECK(dnnl_dilated_convolution_forward_desc_init(
      &cd, dnnl_forward_inference, dnnl_convolution_direct, &srcMd, &wAnyMd,
      NULL, &dstMd, strides, dil, pad, pad));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_primitive_desc_create(&pd, &cd, NULL, eng, NULL));
  const char *impl = "?";
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
  const dnnl_memory_desc_t *wMd =
      dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  dnnl_memory_t srcM, wUserM, wM, dstM;
  CHECK(dnnl_memory_create(&srcM, &srcMd, eng, in));
  CHECK(dnnl_memory_create(&wUserM, &wUserMd, eng, flt));
  CHECK(dnnl_memory_create(&wM, wMd, eng, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&dstM, &dstMd, eng, theirs));
  dnnl_primitive_desc_t rpd;
  CHECK(dnnl_reorder_primitive_desc_create(&rpd, &wUserMd, eng, wMd, eng,
                                           NULL));
  dnnl_primitive_t reorder;
  CHECK(dnnl_primitive_create(&reorder, rpd));
  dnnl_exec_arg_t rargs[] = {{DNNL_ARG_FROM, wUserM}, {DNNL_ARG_TO, wM}};
  CHECK(dnnl_primitive_execute(reorder, strm, 2, rargs));
  CHECK(dnnl_stream_wait(strm));
  CHECK(dnnl_primitive_create(&prim, pd));
  args[0] = (dnnl_exec_arg_t){DNNL_ARG_SRC, srcM};
  args[1] = (dnnl_exec_arg_t){DNNL_ARG_WEIGHTS, wM};
  args[2] = (dnnl_exec_arg_t){DNNL_ARG_DST, dstM};

  struct variant vs[] = {{.name = "tensorop", .fn = (void (*)(void))conv},
                         {.name = "onednn"}};
  struct harness h = {nout, run, result, poison, verify};
  enum { ROUNDS = 11 };
  if (measure(&h, vs, 2, ROUNDS))
    return 1;
  double flops = 2.0 * N * OH * OW * C * R * S;
  printf("{\"layer\": \"depthwise N=%ld H=%ld W=%ld C=%ld %ldx%ld stride=%ld "
         "pad=%ld dil=%ld\", \"onednn_impl\": \"%s\", \"threads\": \"%s\"",
         N, H, W, C, R, S, SD, P, DL, impl,
         getenv("OMP_NUM_THREADS") ? getenv("OMP_NUM_THREADS") : "?");
  printVariants(vs, 2, ROUNDS, flops);
  return 0;
}
