#!/usr/bin/env python3
"""Writes one depthwise convolution layer in linalg as an importer emits it:
linalg.depthwise_conv_2d_nhwc_hwc on tensors, a zero tensor.pad in front of
it, a zero-filled init; destination-passing on memrefs (the bare-pointer
ABI), fp32:

    void conv(const float *in, const float *flt, float *out);

in N x H x W x C, flt R x S x C, out N x OH x OW x C.

    gen_depthwise.py N H W C R S stride pad dilation [--name NAME]
"""
import argparse

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
for d in ["n", "h", "w", "c", "r", "s", "stride", "pad", "dilation"]:
    p.add_argument(d, type=int)
p.add_argument("--name", default="conv")
a = p.parse_args()
N, H, W, C, R, S = a.n, a.h, a.w, a.c, a.r, a.s
SD, P, DL = a.stride, a.pad, a.dilation
OH = (H + 2 * P - DL * (R - 1) - 1) // SD + 1
OW = (W + 2 * P - DL * (S - 1) - 1) // SD + 1


def t(*d):
    return "tensor<" + "x".join(map(str, d)) + "xf32>"


def m(*d):
    return "memref<" + "x".join(map(str, d)) + "xf32>"


IN, FL, OUT = (N, H, W, C), (R, S, C), (N, OH, OW, C)
PADDED = (N, H + 2 * P, W + 2 * P, C)
print(f"""// Depthwise convolution N={N} H={H} W={W} C={C} {R}x{S} stride={SD} pad={P} dilation={DL} (bench/conv/gen_depthwise.py)
func.func @{a.name}(%inm: {m(*IN)}, %fm: {m(*FL)}, %outm: {m(*OUT)}) {{
  %zero = arith.constant 0.0 : f32
  %in = bufferization.to_tensor %inm restrict : {m(*IN)} to {t(*IN)}
  %flt = bufferization.to_tensor %fm restrict : {m(*FL)} to {t(*FL)}""")
src, srct = "%in", t(*IN)
if P:
    print(f"""  %padded = tensor.pad %in low[0, {P}, {P}, 0] high[0, {P}, {P}, 0] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  }} : {t(*IN)} to {t(*PADDED)}""")
    src, srct = "%padded", t(*PADDED)
print(f"""  %e = tensor.empty() : {t(*OUT)}
  %z = linalg.fill ins(%zero : f32) outs(%e : {t(*OUT)}) -> {t(*OUT)}
  %r = linalg.depthwise_conv_2d_nhwc_hwc {{dilations = dense<{DL}> : tensor<2xi64>, strides = dense<{SD}> : tensor<2xi64>}}
         ins({src}, %flt : {srct}, {t(*FL)}) outs(%z : {t(*OUT)}) -> {t(*OUT)}
  bufferization.materialize_in_destination %r in restrict writable %outm : ({t(*OUT)}, {m(*OUT)}) -> ()
  return
}}""")
