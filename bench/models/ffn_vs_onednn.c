// A transformer FFN block, out = GELU_tanh(x.W1 + b1).W2 + b2 + x, computed
// by the module of gen_ffn.py compiled two or three ways (each an object
// defining one function with the bare-pointer ABI) and by oneDNN's matmul
// primitive with post-ops, in one process (MEASURE.md):
//   ffn_ours      --tensorop-pipeline (whatever it fuses; left out with
//                 -DNO_OURS)
//   ffn_unfused   --tensorop-pipeline with epilogue fusion off (optional:
//                 -DHAVE_UNFUSED)
//   ffn_prepacked the module of gen_ffn.py --prepacked through
//                 --tensorop-pipeline: W1 and W2 packed once into panels
//                 (bf16: of k pairs) by its ffn_prepacked_pack_w1/_w2,
//                 outside the timing, as oneDNN's reorder), optional:
//                 -DHAVE_PREPACKED
//   ffn_prepacked_b  a second prepacked object (its own NAME_pack_w1/_w2
//                 and panels), for an A/B of two compilations in one
//                 process (ab_prepacked.sh), optional: -DHAVE_PREPACKED_B
//   ffn_upstream  upstream MLIR's lowering of the same module (bufferize,
//                 linalg to loops, LLVM; clang -O3 -march=native)
//   onednn        matmul(x, W1) + bias + eltwise gelu_tanh post-op, then
//                 matmul(h, W2) + bias + binary-add post-op of x (the
//                 residual, read in place: no copy); weights in the layout
//                 oneDNN prefers, reordered once outside the timing (an
//                 inference model's constants).
// With -DFFN_BF16 the bf16 form of gen_ffn.py --dtype bf16: x, W1, W2 bf16
// (x is the fp32 residual stream r rounded), fp32 accumulation, bias and
// GELU; oneDNN's first matmul writes its GELU output as bf16 (dst bf16), the
// second reads it and writes fp32 out = . + b2 + r; ours rounds GELU's fp32
// output to bf16 in a separate op (the module's truncf), as gen_ffn.py
// writes it.
// Every output is NaN-prefilled and checked against an fp64 reference of the
// whole block, before and after timing, with a bound carried through both
// matmuls (below). Timing: rounds alternate the variants (A B C A B C ...),
// each sample repeating one variant for about 20 ms; the median of the
// rounds is reported, as one JSON line.
//
//   ffn_vs_onednn T D H ROUNDS
#include "../common/harness.h"

#include <string.h>

#ifdef FFN_BF16
typedef uint16_t act_t; // bf16 bits
#define ACT_DT dnnl_bf16
#define DTYPE "bf16"
#define FFN_ARGS                                                               \
  const act_t *, const act_t *, const float *, const act_t *, const float *,   \
      const float *, float *, void *
#else
typedef float act_t;
#define ACT_DT dnnl_f32
#define DTYPE "f32"
#define FFN_ARGS                                                               \
  const act_t *, const act_t *, const float *, const act_t *, const float *,   \
      float *, void *
#endif
typedef void (*ffn_fn)(FFN_ARGS);
// The workspace (gen_ffn.py --workspace): each of our variants places its
// buffers in one caller-provided block of NAME_workspace_size() bytes,
// allocated once outside the timing (as oneDNN's scratchpads are), so a call
// allocates nothing. Upstream's lowering ignores it (it mallocs per call).
#ifndef NO_OURS
void ffn_ours(FFN_ARGS);
long ffn_ours_workspace_size(void);
#endif
void ffn_upstream(FFN_ARGS);
#ifdef HAVE_UNFUSED
void ffn_unfused(FFN_ARGS);
long ffn_unfused_workspace_size(void);
#endif
#ifdef HAVE_PREPACKED
void ffn_prepacked(FFN_ARGS);
long ffn_prepacked_workspace_size(void);
void ffn_prepacked_pack_w1(const act_t *w1, act_t *w1p);
void ffn_prepacked_pack_w2(const act_t *w2, act_t *w2p);
// The weights in the prepacked module's panels (packed once in main); the
// panels divide H and D exactly (bf16: and D and H are even, whole pairs),
// so each holds as many elements as W.
static act_t *w1p, *w2p;
#endif
#ifdef HAVE_PREPACKED_B
void ffn_prepacked_b(FFN_ARGS);
long ffn_prepacked_b_workspace_size(void);
void ffn_prepacked_b_pack_w1(const act_t *w1, act_t *w1p);
void ffn_prepacked_b_pack_w2(const act_t *w2, act_t *w2p);
static act_t *w1pb, *w2pb;
#endif

static long T, D, H;
// xf: the fp32 input (the residual); x, w1, w2: what the matmuls read (bf16
// bits or fp32); xv, w1v, w2v: their values as fp32, for the reference.
static float *xf, *b1, *b2, *xv, *w1v, *w2v;
static act_t *x, *w1, *w2;

#ifdef FFN_BF16
static uint16_t toBf16(float f) { // round to nearest even
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
#endif

// The matmul operand for `v` (rounded to bf16 in the bf16 form) and the
// value it holds, in fp32.
static act_t *operand(const float *v, long n, float **value) {
  act_t *o = malloc(sizeof(act_t) * n);
  *value = malloc(sizeof(float) * n);
  for (long i = 0; i < n; ++i) {
#ifdef FFN_BF16
    o[i] = toBf16(v[i]);
    (*value)[i] = fromBf16(o[i]);
#else
    o[i] = v[i];
    (*value)[i] = v[i];
#endif
  }
  return o;
}


static double gelu(double s) {
  return 0.5 * s * (1 + tanh(0.7978845608028654 * (s + 0.044715 * s * s * s)));
}

// fp64 reference and per-element bound, on the values the matmuls read
// (xv, w1v, w2v). u = 6e-8 (fp32). The first matmul's sum s_j is within
// e_j = 2*D*u*sum|x w1| + u*|s_j| (+ bias); GELU is 1.13-Lipschitz and its
// fp32 evaluations (libm tanhf, oneDNN's and our polynomial forms) add at
// most 1e-6 * (|s_j| + 1e-3) more; in the bf16 form GELU's output is then
// rounded to bf16 (ub*|g_j|, ub = 2^-8, with margin); the second matmul adds
// 2*H*u*sum|g w2| and carries sum_j e'_j |w2_jk|; the bias and residual
// adds u*(|b2| + |x| + |out|) each.
static double *ref, *bound;
static void reference(void) {
  const double u = 6e-8;
#ifdef FFN_BF16
  const double ub = 1.0 / 256;
#else
  const double ub = 0;
#endif
  double *g = malloc(sizeof(double) * H), *eg = malloc(sizeof(double) * H);
  ref = malloc(sizeof(double) * T * D);
  bound = malloc(sizeof(double) * T * D);
  for (long t = 0; t < T; ++t) {
    for (long j = 0; j < H; ++j) {
      double s = b1[j], mag = fabs(b1[j]);
      for (long d = 0; d < D; ++d) {
        double p = (double)xv[t * D + d] * w1v[d * H + j];
        s += p;
        mag += fabs(p);
      }
      double e = 2 * D * u * mag + u * fabs(s);
      g[j] = gelu(s);
      eg[j] = (1.13 * e + 1e-6 * (fabs(s) + 1e-3)) * (1 + ub) +
              (u + ub) * fabs(g[j]);
    }
    for (long k = 0; k < D; ++k) {
      double y = 0, mag = 0, carried = 0;
      for (long j = 0; j < H; ++j) {
        double p = g[j] * w2v[j * D + k];
        y += p;
        mag += fabs(p) * (1 + ub);
        carried += eg[j] * fabs(w2v[j * D + k]);
      }
      double out = y + b2[k] + xf[t * D + k];
      ref[t * D + k] = out;
      bound[t * D + k] =
          2 * H * u * mag + carried +
          2 * u * (fabs(b2[k]) + fabs(xf[t * D + k]) + fabs(out)) + 1e-30;
    }
  }
  free(g);
  free(eg);
}

static long verify(const float *out, double *maxRatio) {
  return overBound(out, ref, bound, T * D, maxRatio);
}

// oneDNN: two matmul primitives with post-ops, weights reordered once.
static dnnl_engine_t engine;
static dnnl_stream_t stream;
static dnnl_primitive_t mm1, mm2;
static dnnl_memory_t mx, mw1, mb1, mh, mw2, mb2, mout, mres;
static const char *impl1 = "?", *impl2 = "?";

static void md2(dnnl_memory_desc_t *md, long r, long c, dnnl_data_type_t dt,
                dnnl_format_tag_t tag) {
  dnnl_dims_t dims = {r, c};
  CHECK(dnnl_memory_desc_init_by_tag(md, 2, dims, dt, tag));
}

// A matmul primitive: src and weights of the activation type (bf16 or
// f32), fp32 bias, dst `dstType` (the first matmul's is the activation
// type: it feeds the second).
static dnnl_primitive_t matmul(long m, long k, long n, dnnl_memory_t *src,
                               dnnl_memory_t *wt, const act_t *weights,
                               dnnl_memory_t *bias, const float *biasData,
                               dnnl_memory_t *dst, dnnl_data_type_t dstType,
                               int gelu_post, int residual_post,
                               const char **impl) {
  dnnl_memory_desc_t sd, wd, bd, dd, wplain, rd;
  md2(&sd, m, k, ACT_DT, dnnl_ab);
  md2(&wd, k, n, ACT_DT, dnnl_format_tag_any);
  md2(&bd, 1, n, dnnl_f32, dnnl_ab);
  md2(&dd, m, n, dstType, dnnl_ab);
  md2(&rd, m, n, dnnl_f32, dnnl_ab);
  md2(&wplain, k, n, ACT_DT, dnnl_ab);
  dnnl_matmul_desc_t desc;
  CHECK(dnnl_matmul_desc_init(&desc, &sd, &wd, &bd, &dd));
  dnnl_post_ops_t ops;
  CHECK(dnnl_post_ops_create(&ops));
  if (gelu_post)
    CHECK(dnnl_post_ops_append_eltwise(ops, 1.f, dnnl_eltwise_gelu_tanh, 0, 0));
  if (residual_post)
    CHECK(dnnl_post_ops_append_binary(ops, dnnl_binary_add, &rd));
  dnnl_primitive_attr_t attr;
  CHECK(dnnl_primitive_attr_create(&attr));
  CHECK(dnnl_primitive_attr_set_post_ops(attr, ops));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_primitive_desc_create(&pd, &desc, attr, engine, NULL));
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, impl));
  const dnnl_memory_desc_t *wpref =
      dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  // Weights: plain row-major in, oneDNN's layout out, once.
  dnnl_memory_t plain;
  CHECK(dnnl_memory_create(&plain, &wplain, engine, (void *)weights));
  CHECK(dnnl_memory_create(wt, wpref, engine, DNNL_MEMORY_ALLOCATE));
  dnnl_primitive_desc_t rpd;
  CHECK(dnnl_reorder_primitive_desc_create(&rpd, &wplain, engine, wpref,
                                           engine, NULL));
  dnnl_primitive_t reorder;
  CHECK(dnnl_primitive_create(&reorder, rpd));
  dnnl_exec_arg_t rargs[] = {{DNNL_ARG_FROM, plain}, {DNNL_ARG_TO, *wt}};
  CHECK(dnnl_primitive_execute(reorder, stream, 2, rargs));
  CHECK(dnnl_stream_wait(stream));
  if (*src == NULL) // The input x, read in place.
    CHECK(dnnl_memory_create(src, &sd, engine, (void *)x));
  if (residual_post)
    CHECK(dnnl_memory_create(&mres, &rd, engine, (void *)xf));
  CHECK(dnnl_memory_create(bias, &bd, engine, (void *)biasData));
  CHECK(dnnl_memory_create(dst, &dd, engine, DNNL_MEMORY_ALLOCATE));
  dnnl_primitive_t p;
  CHECK(dnnl_primitive_create(&p, pd));
  return p;
}

static void onednn_setup(void) {
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  mm1 = matmul(T, D, H, &mx, &mw1, w1, &mb1, b1, &mh, ACT_DT, 1, 0, &impl1);
  mm2 = matmul(T, H, D, &mh, &mw2, w2, &mb2, b2, &mout, dnnl_f32, 0, 1, &impl2);
}

static float *onednn_out;
static void onednn_ffn(void) {
  void *outs;
  CHECK(dnnl_memory_get_data_handle(mout, &outs));
  dnnl_exec_arg_t a1[] = {{DNNL_ARG_SRC, mx}, {DNNL_ARG_WEIGHTS, mw1},
                          {DNNL_ARG_BIAS, mb1}, {DNNL_ARG_DST, mh}};
  CHECK(dnnl_primitive_execute(mm1, stream, 4, a1));
  dnnl_exec_arg_t a2[] = {
      {DNNL_ARG_SRC, mh},
      {DNNL_ARG_WEIGHTS, mw2},
      {DNNL_ARG_BIAS, mb2},
      {DNNL_ARG_DST, mout},
      {DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, mres}};
  CHECK(dnnl_primitive_execute(mm2, stream, 5, a2));
  CHECK(dnnl_stream_wait(stream));
  onednn_out = outs;
}


static void run(struct variant *v) {
#ifdef HAVE_PREPACKED_B
  if (v->fn == (void (*)(void))ffn_prepacked_b) {
#ifdef FFN_BF16
    ffn_prepacked_b(x, w1pb, b1, w2pb, b2, xf, v->out, v->ws);
#else
    ffn_prepacked_b(x, w1pb, b1, w2pb, b2, v->out, v->ws);
#endif
    return;
  }
#endif
#ifdef HAVE_PREPACKED
  if (v->fn == (void (*)(void))ffn_prepacked) {
#ifdef FFN_BF16
    ffn_prepacked(x, w1p, b1, w2p, b2, xf, v->out, v->ws);
#else
    ffn_prepacked(x, w1p, b1, w2p, b2, v->out, v->ws);
#endif
    return;
  }
#endif
  if (v->fn) {
#ifdef FFN_BF16
    ((ffn_fn)v->fn)(x, w1, b1, w2, b2, xf, v->out, v->ws);
#else
    ((ffn_fn)v->fn)(x, w1, b1, w2, b2, v->out, v->ws);
#endif
  } else {
    onednn_ffn();
  }
}

static float *result(struct variant *v) { return v->fn ? v->out : onednn_out; }

// NaN in every output element the variant writes.
static void poison(struct variant *v) {
  for (long j = 0; j < T * D; ++j)
    v->out[j] = NAN;
  if (!v->fn) {
    void *h;
    CHECK(dnnl_memory_get_data_handle(mout, &h));
    for (long j = 0; j < T * D; ++j)
      ((float *)h)[j] = NAN;
  }
}

#if defined(HAVE_PREPACKED) || defined(HAVE_PREPACKED_B)
// W1 and W2 packed by a module's NAME_pack_w1/_w2 into fresh panels.
// Packed from copies that are then poisoned: the timed calls can only read
// the packed weights.
static void prepack(void (*pack1)(const act_t *, act_t *),
                    void (*pack2)(const act_t *, act_t *), act_t **p1,
                    act_t **p2) {
  act_t *c1 = malloc(sizeof(act_t) * D * H), *c2 = malloc(sizeof(act_t) * H * D);
  memcpy(c1, w1, sizeof(act_t) * D * H);
  memcpy(c2, w2, sizeof(act_t) * H * D);
  *p1 = malloc(sizeof(act_t) * D * H);
  *p2 = malloc(sizeof(act_t) * H * D);
  pack1(c1, *p1);
  pack2(c2, *p2);
  for (long i = 0; i < D * H; ++i)
#ifdef FFN_BF16
    c1[i] = c2[i] = 0x7fc0; // a bf16 NaN
#else
    c1[i] = c2[i] = NAN;
#endif
  free(c1);
  free(c2);
}
#endif

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s T D H ROUNDS\n", argv[0]);
    return 2;
  }
  T = atol(argv[1]);
  D = atol(argv[2]);
  H = atol(argv[3]);
  int rounds = atoi(argv[4]);
  uint64_t st = 7;
  xf = randoms(T * D, &st, 1.f);
  float *w1f = randoms(D * H, &st, 1.f / sqrtf((float)D));
  b1 = randoms(H, &st, 0.1f);
  float *w2f = randoms(H * D, &st, 1.f / sqrtf((float)H));
  b2 = randoms(D, &st, 0.1f);
  x = operand(xf, T * D, &xv);
  w1 = operand(w1f, D * H, &w1v);
  w2 = operand(w2f, H * D, &w2v);
  reference();
  onednn_setup();
#ifdef HAVE_PREPACKED
  prepack(ffn_prepacked_pack_w1, ffn_prepacked_pack_w2, &w1p, &w2p);
#endif
#ifdef HAVE_PREPACKED_B
  prepack(ffn_prepacked_b_pack_w1, ffn_prepacked_b_pack_w2, &w1pb, &w2pb);
#endif
  struct variant vs[] = {
#ifndef NO_OURS
      {"ours", (void (*)(void))ffn_ours, 0, 0, 0, 0, 0},
#endif
#ifdef HAVE_UNFUSED
      {"unfused", (void (*)(void))ffn_unfused, 0, 0, 0, 0, 0},
#endif
#ifdef HAVE_PREPACKED
      {"prepacked", (void (*)(void))ffn_prepacked, 0, 0, 0, 0, 0},
#endif
#ifdef HAVE_PREPACKED_B
      {"prepacked_b", (void (*)(void))ffn_prepacked_b, 0, 0, 0, 0, 0},
#endif
#ifndef NO_UPSTREAM
      {"upstream", (void (*)(void))ffn_upstream, 0, 0, 0, 0, 0},
#endif
      {"onednn", NULL, 0, 0, 0, 0, 0},
  };
  int nv = sizeof(vs) / sizeof(vs[0]);
  // Each variant's workspace, allocated once outside the timing.
  for (int i = 0; i < nv; ++i) {
    long bytes = 64; // upstream ignores it; oneDNN has its scratchpads
#ifndef NO_OURS
    if (vs[i].fn == (void (*)(void))ffn_ours)
      bytes = ffn_ours_workspace_size();
#endif
#ifdef HAVE_UNFUSED
    if (vs[i].fn == (void (*)(void))ffn_unfused)
      bytes = ffn_unfused_workspace_size();
#endif
#ifdef HAVE_PREPACKED
    if (vs[i].fn == (void (*)(void))ffn_prepacked)
      bytes = ffn_prepacked_workspace_size();
#endif
#ifdef HAVE_PREPACKED_B
    if (vs[i].fn == (void (*)(void))ffn_prepacked_b)
      bytes = ffn_prepacked_b_workspace_size();
#endif
    vs[i].ws = malloc((size_t)bytes);
  }
  struct harness h = {T * D, run, result, poison, verify};
  if (measure(&h, vs, nv, rounds))
    return 1;
  double flops = 2.0 * T * D * H * 2;
  printf("{\"block\": \"ffn\", \"dtype\": \"%s\", \"tokens\": %ld, "
         "\"model\": %ld, \"hidden\": %ld, \"rounds\": %d, "
         "\"onednn_impl\": [\"%s\", \"%s\"]",
         DTYPE, T, D, H, rounds, impl1, impl2);
  printVariants(vs, nv, rounds, flops);
  return 0;
}
