#!/usr/bin/env python3
"""Writes a transformer FFN block in linalg, as a model compiler hands it over:

    out = (GELU(x . W1 + b1)) . W2 + b2 + x

x: T x D, W1: D x H, b1: H, W2: H x D, b2: D; fp32, row-major. Each matmul
is a linalg.matmul on a zero-filled tensor; the bias add, GELU (tanh form,
the one oneDNN's gelu_tanh computes) and the residual add are separate
elementwise linalg.generic ops, the way torch-mlir and IREE's importers emit
them. One function, destination-passing on memrefs (the bare-pointer ABI):

    void NAME(const float *x, const float *w1, const float *b1,
              const float *w2, const float *b2, float *out);

With --dtype bf16, mixed precision as a bf16 inference model runs it: x, W1
and W2 are bf16 (uint16_t bits), both matmuls accumulate in fp32 into an
fp32 result, bias and GELU are fp32, and GELU's output is rounded to bf16
by its own elementwise op (arith.truncf) to feed the second matmul; the
residual is the fp32 residual stream r (x is r rounded to bf16) and out is
fp32:

    void NAME(const uint16_t *x, const uint16_t *w1, const float *b1,
              const uint16_t *w2, const float *b2, const float *r,
              float *out);

With --workspace the function takes a last argument, a caller-provided
workspace (`void *ws`, marked tensorop.workspace), and the module defines
`long NAME_workspace_size(void)` (marked tensorop.workspace_size): the
TensorOp pipeline (tensorop-bind-workspace) places every buffer of the block
(packing panels, the T x H intermediate) in it and fills in the size, so a
call allocates nothing, as a framework runs a model with its own allocator
and as oneDNN's primitives run with their scratchpads. (Upstream MLIR's
lowering ignores both marks: it allocates per call, the size function
returns 0.)

    gen_ffn.py --tokens T --model D --hidden H [--dtype bf16] [--name NAME]
               [--workspace]
"""
import argparse

p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
p.add_argument("--tokens", type=int, required=True)
p.add_argument("--model", type=int, required=True)
p.add_argument("--hidden", type=int, required=True)
p.add_argument("--name", default="ffn")
p.add_argument("--dtype", choices=("f32", "bf16"), default="f32")
p.add_argument("--workspace", action="store_true",
               help="take a caller-provided workspace (no allocation per call)")
a = p.parse_args()
T, D, H = a.tokens, a.model, a.hidden


BF = a.dtype == "bf16"
IN = "bf16" if BF else "f32"  # x, W1, W2 and the intermediate fed to W2


def mt(r, c, e="f32"):
    return f"memref<{r}x{c}x{e}>"


def tt(r, c, e="f32"):
    return f"tensor<{r}x{c}x{e}>"


# bf16: GELU's output rounded to bf16 for the second matmul (its own op),
# and the residual read from the fp32 stream r.
if BF:
    RES_ARG = f", %rm: {mt(T, D)}"
    RES_TENSOR = (f"\n  %res = bufferization.to_tensor %rm restrict : {mt(T, D)} "
                  f"to {tt(T, D)}")
    RES = "%res"
    ROUND = f"""
  %eb = tensor.empty() : {tt(T, H, IN)}
  %gb = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%g : {tt(T, H)}) outs(%eb : {tt(T, H, IN)}) {{
  ^bb0(%v: f32, %o: bf16):
    %t = arith.truncf %v : f32 to bf16
    linalg.yield %t : bf16
  }} -> {tt(T, H, IN)}"""
    G2 = "%gb"
else:
    RES_ARG, RES_TENSOR, RES, ROUND, G2 = "", "", "%x", "", "%g"


WS_ARG, WS_SIZE = "", ""
if a.workspace:
    WS_ARG = ",\n                    %ws: memref<1xi8> {tensorop.workspace}"
    WS_SIZE = f"""
// The bytes of the workspace (filled in by tensorop-bind-workspace).
func.func @{a.name}_workspace_size() -> index attributes {{tensorop.workspace_size}} {{
  %c0 = arith.constant 0 : index
  return %c0 : index
}}"""

print(f"""// FFN block: T={T} D={D} H={H} {a.dtype} (bench/models/gen_ffn.py)
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @{a.name}(%xm: {mt(T, D, IN)}, %w1m: {mt(D, H, IN)}, %b1m: memref<{H}xf32>,
                    %w2m: {mt(H, D, IN)}, %b2m: memref<{D}xf32>{RES_ARG}, %outm: {mt(T, D)}{WS_ARG}) {{
  %zero = arith.constant 0.0 : f32
  %x = bufferization.to_tensor %xm restrict : {mt(T, D, IN)} to {tt(T, D, IN)}
  %w1 = bufferization.to_tensor %w1m restrict : {mt(D, H, IN)} to {tt(D, H, IN)}
  %b1 = bufferization.to_tensor %b1m restrict : memref<{H}xf32> to tensor<{H}xf32>
  %w2 = bufferization.to_tensor %w2m restrict : {mt(H, D, IN)} to {tt(H, D, IN)}
  %b2 = bufferization.to_tensor %b2m restrict : memref<{D}xf32> to tensor<{D}xf32>{RES_TENSOR}
  %e1 = tensor.empty() : {tt(T, H)}
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : {tt(T, H)}) -> {tt(T, H)}
  %h = linalg.matmul ins(%x, %w1 : {tt(T, D, IN)}, {tt(D, H, IN)}) outs(%z1 : {tt(T, H)}) -> {tt(T, H)}
  %hb = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%h, %b1 : {tt(T, H)}, tensor<{H}xf32>) outs(%e1 : {tt(T, H)}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }} -> {tt(T, H)}
  %g = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%hb : {tt(T, H)}) outs(%e1 : {tt(T, H)}) {{
  ^bb0(%s: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.797884583 : f32
    %c = arith.constant 0.044715 : f32
    %s2 = arith.mulf %s, %s : f32
    %s3 = arith.mulf %s2, %s : f32
    %t0 = arith.mulf %c, %s3 : f32
    %t1 = arith.addf %s, %t0 : f32
    %t2 = arith.mulf %k, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %one, %t3 : f32
    %t5 = arith.mulf %half, %s : f32
    %r = arith.mulf %t5, %t4 : f32
    linalg.yield %r : f32
  }} -> {tt(T, H)}{ROUND}
  %e2 = tensor.empty() : {tt(T, D)}
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : {tt(T, D)}) -> {tt(T, D)}
  %y = linalg.matmul ins({G2}, %w2 : {tt(T, H, IN)}, {tt(H, D, IN)}) outs(%z2 : {tt(T, D)}) -> {tt(T, D)}
  %yb = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%y, %b2 : {tt(T, D)}, tensor<{D}xf32>) outs(%e2 : {tt(T, D)}) {{
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }} -> {tt(T, D)}
  %out = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%yb, {RES} : {tt(T, D)}, {tt(T, D)}) outs(%e2 : {tt(T, D)}) {{
  ^bb0(%a: f32, %r: f32, %o: f32):
    %s = arith.addf %a, %r : f32
    linalg.yield %s : f32
  }} -> {tt(T, D)}
  bufferization.materialize_in_destination %out in restrict writable %outm : ({tt(T, D)}, {mt(T, D)}) -> ()
  return
}}{WS_SIZE}""")
