#!/usr/bin/env python3
"""Writes a ResNet bottleneck block (identity shortcut, stride 1) in linalg,
as a model compiler hands it over:

    a = ReLU(conv1x1(x, W1) + b1)           Cin -> C
    b = ReLU(conv3x3(pad(a, 1), W2) + b2)   C -> C
    out = ReLU(conv1x1(b, W3) + b3 + x)     C -> Cin

NHWC activations, HWCF filters (linalg.conv_2d_nhwc_hwcf on zero-filled
tensors), fp32; the 3x3's padding is a zero tensor.pad in front of it; each
bias add, ReLU and the residual add is its own elementwise linalg.generic,
the way torch-mlir and IREE's importers emit them. One function,
destination-passing on memrefs (the bare-pointer ABI):

    void NAME(const float *x, const float *w1, const float *b1,
              const float *w2, const float *b2, const float *w3,
              const float *b3, float *out);

x and out are N x HW x HW x Cin; W1 1x1xCinxC, W2 3x3xCxC, W3 1x1xCxCin.

    gen_bottleneck.py --n N --hw HW --cin CIN --mid C [--name NAME]
"""
import argparse

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("--n", type=int, default=1)
p.add_argument("--hw", type=int, required=True)
p.add_argument("--cin", type=int, required=True)
p.add_argument("--mid", type=int, required=True)
p.add_argument("--name", default="bottleneck")
a = p.parse_args()
N, S, CI, C = a.n, a.hw, a.cin, a.mid


def t(*d):
    return "tensor<" + "x".join(map(str, d)) + "xf32>"


def m(*d):
    return "memref<" + "x".join(map(str, d)) + "xf32>"


X, A, AP = t(N, S, S, CI), t(N, S, S, C), t(N, S + 2, S + 2, C)
F1, F2, F3 = t(1, 1, CI, C), t(3, 3, C, C), t(1, 1, C, CI)
CONV = ("{dilations = dense<1> : tensor<2xi64>, "
        "strides = dense<1> : tensor<2xi64>}")
PAR4 = '["parallel", "parallel", "parallel", "parallel"]'


def conv(name, src, srct, flt, fltt, outt):
    return f"""  %{name}e = tensor.empty() : {outt}
  %{name}z = linalg.fill ins(%zero : f32) outs(%{name}e : {outt}) -> {outt}
  %{name} = linalg.conv_2d_nhwc_hwcf {CONV}
      ins({src}, {flt} : {srct}, {fltt}) outs(%{name}z : {outt}) -> {outt}
"""


def bias(name, src, b, init, ty, ch):
    return f"""  %{name} = linalg.generic {{indexing_maps = [#id, #ch, #id], iterator_types = {PAR4}}}
      ins({src}, {b} : {ty}, tensor<{ch}xf32>) outs({init} : {ty}) {{
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %s = arith.addf %v, %bv : f32
    linalg.yield %s : f32
  }} -> {ty}
"""


def relu(name, src, init, ty):
    return f"""  %{name} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = {PAR4}}}
      ins({src} : {ty}) outs({init} : {ty}) {{
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  }} -> {ty}
"""


print(f"""// ResNet bottleneck: N={N} {S}x{S} Cin={CI} C={C} (bench/models/gen_bottleneck.py)
#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#ch = affine_map<(n, h, w, c) -> (c)>
func.func @{a.name}(%xm: {m(N, S, S, CI)}, %w1m: {m(1, 1, CI, C)}, %b1m: memref<{C}xf32>,
                    %w2m: {m(3, 3, C, C)}, %b2m: memref<{C}xf32>,
                    %w3m: {m(1, 1, C, CI)}, %b3m: memref<{CI}xf32>, %outm: {m(N, S, S, CI)}) {{
  %zero = arith.constant 0.0 : f32
  %x = bufferization.to_tensor %xm restrict : {m(N, S, S, CI)} to {X}
  %w1 = bufferization.to_tensor %w1m restrict : {m(1, 1, CI, C)} to {F1}
  %b1 = bufferization.to_tensor %b1m restrict : memref<{C}xf32> to tensor<{C}xf32>
  %w2 = bufferization.to_tensor %w2m restrict : {m(3, 3, C, C)} to {F2}
  %b2 = bufferization.to_tensor %b2m restrict : memref<{C}xf32> to tensor<{C}xf32>
  %w3 = bufferization.to_tensor %w3m restrict : {m(1, 1, C, CI)} to {F3}
  %b3 = bufferization.to_tensor %b3m restrict : memref<{CI}xf32> to tensor<{CI}xf32>
{conv("c1", "%x", X, "%w1", F1, A)}{bias("a1", "%c1", "%b1", "%c1e", A, C)}{relu("r1", "%a1", "%c1e", A)}\
  %p = tensor.pad %r1 low[0, 1, 1, 0] high[0, 1, 1, 0] {{
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  }} : {A} to {AP}
{conv("c2", "%p", AP, "%w2", F2, A)}{bias("a2", "%c2", "%b2", "%c2e", A, C)}{relu("r2", "%a2", "%c2e", A)}\
{conv("c3", "%r2", A, "%w3", F3, X)}{bias("a3", "%c3", "%b3", "%c3e", X, CI)}\
  %s3 = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = {PAR4}}}
      ins(%a3, %x : {X}, {X}) outs(%c3e : {X}) {{
  ^bb0(%v: f32, %r: f32, %o: f32):
    %s = arith.addf %v, %r : f32
    linalg.yield %s : f32
  }} -> {X}
{relu("out", "%s3", "%c3e", X)}\
  bufferization.materialize_in_destination %out in restrict writable %outm : ({X}, {m(N, S, S, CI)}) -> ()
  return
}}""")
