// oneDNN's forward convolution as the convolution benchmarks set it up
// (conv_vs_onednn.c, conv_pair_ab.c, depthwise_vs_onednn.c,
// epilogue_vs_onednn.c): source and destination in the layer's own layout,
// weights in the layout oneDNN prefers (format_tag_any), reordered once
// from the layer's filter layout here, outside any timing. Include after
// ../common/harness.h (CHECK).
#ifndef TENSOROP_BENCH_CONV_ONEDNN_CONV_H
#define TENSOROP_BENCH_CONV_ONEDNN_CONV_H

#include <dnnl.h>

// One layer in oneDNN's terms. Dimensions are oneDNN's logical ones (src
// {N, C, H, W}, weights {F, C, R, S} or {G, F/G, C/G, R, S} for grouped
// layers, dst {N, F, OH, OW}); the tags say how the buffers lie in memory.
struct onednn_conv_layer {
  int weightDims; // 4, or 5 for a grouped convolution
  dnnl_dims_t src, weights, dst;
  dnnl_format_tag_t actTag, weightTag;
  dnnl_dims_t strides, dilation, pad; // dilation as oneDNN counts it: d - 1
  long biasLen;                       // 0: no bias
  const_dnnl_primitive_attr_t attr;   // NULL: none (post-ops go here)
};

// The primitive and its arguments (SRC, WEIGHTS, [BIAS,] DST, in that
// order), ready for dnnl_primitive_execute(prim, stream, nargs, args).
struct onednn_conv {
  dnnl_engine_t engine;
  dnnl_stream_t stream;
  dnnl_primitive_t prim;
  dnnl_exec_arg_t args[4];
  int nargs;
  const char *impl; // the implementation oneDNN chose
};

// Creates the primitive for `l` on the user buffers src, weights (in
// l->weightTag), bias (l->biasLen floats, or NULL) and dst, and reorders the
// weights once. Exits through CHECK on any oneDNN error.
static inline void onednnConvCreate(struct onednn_conv *c,
                                    const struct onednn_conv_layer *l,
                                    float *src, float *weights, float *bias,
                                    float *dst) {
  CHECK(dnnl_engine_create(&c->engine, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&c->stream, c->engine, dnnl_stream_default_flags));
  dnnl_memory_desc_t srcMd, wAnyMd, wUserMd, dstMd, biasMd;
  CHECK(dnnl_memory_desc_init_by_tag(&srcMd, 4, l->src, dnnl_f32, l->actTag));
  CHECK(dnnl_memory_desc_init_by_tag(&dstMd, 4, l->dst, dnnl_f32, l->actTag));
  CHECK(dnnl_memory_desc_init_by_tag(&wAnyMd, l->weightDims, l->weights,
                                     dnnl_f32, dnnl_format_tag_any));
  CHECK(dnnl_memory_desc_init_by_tag(&wUserMd, l->weightDims, l->weights,
                                     dnnl_f32, l->weightTag));
  if (l->biasLen) {
    dnnl_dims_t bd = {l->biasLen};
    CHECK(dnnl_memory_desc_init_by_tag(&biasMd, 1, bd, dnnl_f32, dnnl_a));
  }
  dnnl_convolution_desc_t cd;
  CHECK(dnnl_dilated_convolution_forward_desc_init(
      &cd, dnnl_forward_inference, dnnl_convolution_direct, &srcMd, &wAnyMd,
      l->biasLen ? &biasMd : NULL, &dstMd, l->strides, l->dilation, l->pad,
      l->pad));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_primitive_desc_create(&pd, &cd, l->attr, c->engine, NULL));
  c->impl = "?";
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &c->impl));
  const dnnl_memory_desc_t *wMd =
      dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
  dnnl_memory_t srcM, wUserM, wM, dstM;
  CHECK(dnnl_memory_create(&srcM, &srcMd, c->engine, src));
  CHECK(dnnl_memory_create(&wUserM, &wUserMd, c->engine, weights));
  CHECK(dnnl_memory_create(&wM, wMd, c->engine, DNNL_MEMORY_ALLOCATE));
  CHECK(dnnl_memory_create(&dstM, &dstMd, c->engine, dst));
  dnnl_primitive_desc_t rpd;
  CHECK(dnnl_reorder_primitive_desc_create(&rpd, &wUserMd, c->engine, wMd,
                                           c->engine, NULL));
  dnnl_primitive_t reorder;
  CHECK(dnnl_primitive_create(&reorder, rpd));
  dnnl_exec_arg_t rargs[] = {{DNNL_ARG_FROM, wUserM}, {DNNL_ARG_TO, wM}};
  CHECK(dnnl_primitive_execute(reorder, c->stream, 2, rargs));
  CHECK(dnnl_stream_wait(c->stream));
  CHECK(dnnl_primitive_create(&c->prim, pd));
  c->nargs = 0;
  c->args[c->nargs++] = (dnnl_exec_arg_t){DNNL_ARG_SRC, srcM};
  c->args[c->nargs++] = (dnnl_exec_arg_t){DNNL_ARG_WEIGHTS, wM};
  if (l->biasLen) {
    dnnl_memory_t biasM;
    CHECK(dnnl_memory_create(&biasM, &biasMd, c->engine, bias));
    c->args[c->nargs++] = (dnnl_exec_arg_t){DNNL_ARG_BIAS, biasM};
  }
  c->args[c->nargs++] = (dnnl_exec_arg_t){DNNL_ARG_DST, dstM};
}

// Runs the primitive `times` times back to back, then waits once (a timing
// loop counts all the runs it issued).
static inline void onednnConvRun(const struct onednn_conv *c, int times) {
  for (int i = 0; i < times; ++i)
    CHECK(dnnl_primitive_execute(c->prim, c->stream, c->nargs, c->args));
  CHECK(dnnl_stream_wait(c->stream));
}

#endif // TENSOROP_BENCH_CONV_ONEDNN_CONV_H
