// A ResNet bottleneck block (identity shortcut, stride 1), NHWC fp32,
//   a = ReLU(conv1x1(x, W1) + b1); b = ReLU(conv3x3(pad(a, 1), W2) + b2);
//   out = ReLU(conv1x1(b, W3) + b3 + x),
// computed by the module of gen_bottleneck.py compiled two or three ways
// (each an object defining one function with the bare-pointer ABI) and by
// oneDNN's convolution primitives with post-ops, in one process
// (MEASURE.md):
//   bn_ours      --tensorop-pipeline (whatever it fuses)
//   bn_unfused   --tensorop-pipeline with epilogue fusion off (optional:
//                -DHAVE_UNFUSED)
//   bn_upstream  upstream MLIR's lowering of the same module (optional:
//                left out with -DNO_UPSTREAM)
//   onednn       three convolution primitives (forward_inference, direct),
//                NHWC source and destination, fp32 bias, post-ops eltwise
//                ReLU (conv1, conv2) and binary add of x then eltwise ReLU
//                (conv3: the residual read in place; a sum post-op would
//                need x copied into the destination first); weights in the
//                layout oneDNN prefers, reordered once outside the timing.
// Every output is NaN-prefilled and checked against an fp64 reference of
// the whole block, before and after timing, with a bound carried through
// the three convolutions (below). Timing: rounds alternate the variants,
// each sample repeating one variant for about 20 ms; medians, one JSON line.
//
//   bottleneck_vs_onednn N HW CIN C ROUNDS
#include "../common/harness.h"

#include <string.h>

#define BN_ARGS                                                                \
  const float *, const float *, const float *, const float *, const float *,   \
      const float *, const float *, float *
typedef void (*bn_fn)(BN_ARGS);
void bn_ours(BN_ARGS);
#ifdef HAVE_UNFUSED
void bn_unfused(BN_ARGS);
#endif
#ifndef NO_UPSTREAM
void bn_upstream(BN_ARGS);
#endif


static long N, S, CI, C, P; // P = N*S*S pixels
static float *x, *w1, *b1, *w2, *b2, *w3, *b3;


// One layer in fp64: out[p][f] = b[f] + sum over the window of in * w
// (+ res[p][f]), then ReLU, with the bound carried: e_out = 2*K*u*sum|in w|
// + sum e_in*|w| + 2*u*(|b| + |res| + |s|) (ReLU is 1-Lipschitz). in: P x
// cin (NHWC), w: r x r x cin x f (HWCF), padding (r-1)/2.
static void layer(const double *in, const double *ein, long cin, long r,
                  const float *w, const float *b, long f, const float *res,
                  double *out, double *eout) {
  const double u = 6e-8;
  long pad = (r - 1) / 2, K = r * r * cin;
  double *acc = malloc(sizeof(double) * f), *mag = malloc(sizeof(double) * f),
         *car = malloc(sizeof(double) * f);
  for (long n = 0; n < N; ++n)
    for (long h = 0; h < S; ++h)
      for (long wc = 0; wc < S; ++wc) {
        for (long o = 0; o < f; ++o)
          acc[o] = mag[o] = car[o] = 0;
        for (long kh = 0; kh < r; ++kh)
          for (long kw = 0; kw < r; ++kw) {
            long ih = h + kh - pad, iw = wc + kw - pad;
            if (ih < 0 || ih >= S || iw < 0 || iw >= S)
              continue;
            const double *iv = in + ((n * S + ih) * S + iw) * cin;
            const double *ev = ein ? ein + ((n * S + ih) * S + iw) * cin : 0;
            for (long c = 0; c < cin; ++c) {
              const float *wr = w + ((kh * r + kw) * cin + c) * f;
              double a = iv[c], ae = fabs(a), e = ev ? ev[c] : 0;
              for (long o = 0; o < f; ++o) {
                double p = a * wr[o];
                acc[o] += p;
                mag[o] += ae * fabs(wr[o]);
                car[o] += e * fabs(wr[o]);
              }
            }
          }
        long p = (n * S + h) * S + wc;
        for (long o = 0; o < f; ++o) {
          double rv = res ? res[p * f + o] : 0;
          double s = acc[o] + b[o] + rv;
          out[p * f + o] = s > 0 ? s : 0;
          eout[p * f + o] = 2 * K * u * mag[o] + car[o] +
                            2 * u * (fabs(b[o]) + fabs(rv) + fabs(s)) + 1e-30;
        }
      }
  free(acc);
  free(mag);
  free(car);
}

static double *ref, *bound;
static void reference(void) {
  double *xd = malloc(sizeof(double) * P * CI);
  double *a = malloc(sizeof(double) * P * C),
         *ea = malloc(sizeof(double) * P * C);
  double *bb = malloc(sizeof(double) * P * C),
         *eb = malloc(sizeof(double) * P * C);
  ref = malloc(sizeof(double) * P * CI);
  bound = malloc(sizeof(double) * P * CI);
  for (long i = 0; i < P * CI; ++i)
    xd[i] = x[i];
  layer(xd, NULL, CI, 1, w1, b1, C, NULL, a, ea);
  layer(a, ea, C, 3, w2, b2, C, NULL, bb, eb);
  layer(bb, eb, C, 1, w3, b3, CI, x, ref, bound);
  free(xd);
  free(a);
  free(ea);
  free(bb);
  free(eb);
}

static long verify(const float *out, double *maxRatio) {
  return overBound(out, ref, bound, P * CI, maxRatio);
}

// oneDNN: three convolutions with post-ops, weights reordered once.
static dnnl_engine_t engine;
static dnnl_stream_t stream;
struct conv {
  dnnl_primitive_t prim;
  dnnl_memory_t src, wt, bias, dst, res;
  const char *impl;
};
static struct conv cv1, cv2, cv3;

static void md4(dnnl_memory_desc_t *md, long c, long h, dnnl_format_tag_t tag) {
  dnnl_dims_t dims = {N, c, h, h};
  CHECK(dnnl_memory_desc_init_by_tag(md, 4, dims, dnnl_f32, tag));
}

static void convolution(struct conv *cv, dnnl_memory_t src, long cin, long r,
                        const float *weights, const float *biasData, long f,
                        int residual) {
  dnnl_memory_desc_t sd, dd, wd, wplain, bd;
  md4(&sd, cin, S, dnnl_nhwc);
  md4(&dd, f, S, dnnl_nhwc);
  dnnl_dims_t wdims = {f, cin, r, r}, bdims = {f};
  CHECK(dnnl_memory_desc_init_by_tag(&wd, 4, wdims, dnnl_f32,
                                     dnnl_format_tag_any));
  CHECK(dnnl_memory_desc_init_by_tag(&wplain, 4, wdims, dnnl_f32, dnnl_hwio));
  CHECK(dnnl_memory_desc_init_by_tag(&bd, 1, bdims, dnnl_f32, dnnl_a));
  long pad = (r - 1) / 2;
  dnnl_dims_t strides = {1, 1}, dil = {0, 0}, pads = {pad, pad};
  dnnl_convolution_desc_t desc;
  CHECK(dnnl_dilated_convolution_forward_desc_init(
      &desc, dnnl_forward_inference, dnnl_convolution_direct, &sd, &wd, &bd,
      &dd, strides, dil, pads, pads));
  dnnl_post_ops_t ops;
  CHECK(dnnl_post_ops_create(&ops));
  if (residual)
    CHECK(dnnl_post_ops_append_binary(ops, dnnl_binary_add, &dd));
  CHECK(dnnl_post_ops_append_eltwise(ops, 1.f, dnnl_eltwise_relu, 0, 0));
  dnnl_primitive_attr_t attr;
  CHECK(dnnl_primitive_attr_create(&attr));
  CHECK(dnnl_primitive_attr_set_post_ops(attr, ops));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_primitive_desc_create(&pd, &desc, attr, engine, NULL));
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &cv->impl));
  const dnnl_memory_desc_t *wpref =
      dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  dnnl_memory_t plain;
  CHECK(dnnl_memory_create(&plain, &wplain, engine, (void *)weights));
  CHECK(dnnl_memory_create(&cv->wt, wpref, engine, DNNL_MEMORY_ALLOCATE));
  dnnl_primitive_desc_t rpd;
  CHECK(dnnl_reorder_primitive_desc_create(&rpd, &wplain, engine, wpref, engine,
                                           NULL));
  dnnl_primitive_t reorder;
  CHECK(dnnl_primitive_create(&reorder, rpd));
  dnnl_exec_arg_t rargs[] = {{DNNL_ARG_FROM, plain}, {DNNL_ARG_TO, cv->wt}};
  CHECK(dnnl_primitive_execute(reorder, stream, 2, rargs));
  CHECK(dnnl_stream_wait(stream));
  cv->src = src;
  if (residual)
    CHECK(dnnl_memory_create(&cv->res, &dd, engine, (void *)x));
  CHECK(dnnl_memory_create(&cv->bias, &bd, engine, (void *)biasData));
  CHECK(dnnl_memory_create(&cv->dst, &dd, engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_primitive_create(&cv->prim, pd));
}

static void execute(struct conv *cv) {
  dnnl_exec_arg_t args[] = {
      {DNNL_ARG_SRC, cv->src},
      {DNNL_ARG_WEIGHTS, cv->wt},
      {DNNL_ARG_BIAS, cv->bias},
      {DNNL_ARG_DST, cv->dst},
      {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, cv->res}};
  CHECK(dnnl_primitive_execute(cv->prim, stream, cv->res ? 5 : 4, args));
}

static void onednn_setup(void) {
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  dnnl_memory_desc_t xd;
  md4(&xd, CI, S, dnnl_nhwc);
  dnnl_memory_t mx;
  CHECK(dnnl_memory_create(&mx, &xd, engine, (void *)x));
  convolution(&cv1, mx, CI, 1, w1, b1, C, 0);
  convolution(&cv2, cv1.dst, C, 3, w2, b2, C, 0);
  convolution(&cv3, cv2.dst, C, 1, w3, b3, CI, 1);
}

static float *onednn_out(void) {
  void *h;
  CHECK(dnnl_memory_get_data_handle(cv3.dst, &h));
  return h;
}

static void onednn_bn(void) {
  execute(&cv1);
  execute(&cv2);
  execute(&cv3);
  CHECK(dnnl_stream_wait(stream));
}


static void run(struct variant *v) {
  if (v->fn)
    ((bn_fn)v->fn)(x, w1, b1, w2, b2, w3, b3, v->out);
  else
    onednn_bn();
}

static float *result(struct variant *v) {
  return v->fn ? v->out : onednn_out();
}

static void poison(struct variant *v) {
  float *o = result(v);
  for (long j = 0; j < P * CI; ++j)
    o[j] = NAN;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s N HW CIN C ROUNDS\n", argv[0]);
    return 2;
  }
  N = atol(argv[1]);
  S = atol(argv[2]);
  CI = atol(argv[3]);
  C = atol(argv[4]);
  int rounds = atoi(argv[5]);
  P = N * S * S;
  uint64_t st = 11;
  x = randoms(P * CI, &st, 1.f);
  w1 = randoms(CI * C, &st, sqrtf(3.f / CI));
  b1 = randoms(C, &st, 0.1f);
  w2 = randoms(9 * C * C, &st, sqrtf(3.f / (9 * C)));
  b2 = randoms(C, &st, 0.1f);
  w3 = randoms(C * CI, &st, sqrtf(3.f / C));
  b3 = randoms(CI, &st, 0.1f);
  reference();
  onednn_setup();
  struct variant vs[] = {
      {"ours", (void (*)(void))bn_ours, 0, 0, 0, 0, 0},
#ifdef HAVE_UNFUSED
      {"unfused", (void (*)(void))bn_unfused, 0, 0, 0, 0, 0},
#endif
#ifndef NO_UPSTREAM
      {"upstream", (void (*)(void))bn_upstream, 0, 0, 0, 0, 0},
#endif
      {"onednn", NULL, 0, 0, 0, 0, 0},
  };
  int nv = sizeof(vs) / sizeof(vs[0]);
  struct harness h = {P * CI, run, result, poison, verify};
  if (measure(&h, vs, nv, rounds))
    return 1;
  double flops = 2.0 * P * (CI * C + 9 * C * C + C * CI);
  printf("{\"block\": \"bottleneck\", \"dtype\": \"f32\", \"n\": %ld, "
         "\"hw\": %ld, \"cin\": %ld, \"mid\": %ld, \"rounds\": %d, "
         "\"onednn_impl\": [\"%s\", \"%s\", \"%s\"]",
         N, S, CI, C, rounds, cv1.impl, cv2.impl, cv3.impl);
  printVariants(vs, nv, rounds, flops);
  return 0;
}
