#!/usr/bin/env python3
"""Writes one NCHW convolution layer in linalg as torch-mlir's importer
emits it: linalg.conv_2d_nchw_fchw on tensors, a zero tensor.pad in front of
it, a zero-filled init; destination-passing on memrefs (the bare-pointer
ABI), fp32:

    void conv(const float *in, const float *flt, float *out);

in N x C x H x W, flt F x C x R x S, out N x F x OH x OW.

    gen_nchw.py N H W C F R S stride pad dilation [--name NAME]
"""
import conv_layer

a = conv_layer.parse(__doc__, ["n", "h", "w", "c", "f", "r", "s", "stride",
                               "pad", "dilation"])
N, H, W, C, F, P = a.n, a.h, a.w, a.c, a.f, a.pad
conv_layer.emit(
    a, f"NCHW convolution N={N} H={H} W={W} C={C} F={F} {a.r}x{a.s} "
    f"stride={a.stride} pad={P} dilation={a.dilation}", "gen_nchw.py",
    "linalg.conv_2d_nchw_fchw", (N, C, H, W), (F, C, a.r, a.s),
    (N, F, a.oh, a.ow), (N, C, H + 2 * P, W + 2 * P), (0, 0, P, P))
