#!/usr/bin/env python3
"""Writes one depthwise convolution layer in linalg as an importer emits it:
linalg.depthwise_conv_2d_nhwc_hwc on tensors, a zero tensor.pad in front of
it, a zero-filled init; destination-passing on memrefs (the bare-pointer
ABI), fp32:

    void conv(const float *in, const float *flt, float *out);

in N x H x W x C, flt R x S x C, out N x OH x OW x C.

    gen_depthwise.py N H W C R S stride pad dilation [--name NAME]
"""
import conv_layer

a = conv_layer.parse(__doc__, ["n", "h", "w", "c", "r", "s", "stride", "pad",
                               "dilation"])
N, H, W, C, P = a.n, a.h, a.w, a.c, a.pad
conv_layer.emit(
    a, f"Depthwise convolution N={N} H={H} W={W} C={C} {a.r}x{a.s} "
    f"stride={a.stride} pad={P} dilation={a.dilation}", "gen_depthwise.py",
    "linalg.depthwise_conv_2d_nhwc_hwc", (N, H, W, C), (a.r, a.s, C),
    (N, a.oh, a.ow, C), (N, H + 2 * P, W + 2 * P, C), (0, P, P, 0))
