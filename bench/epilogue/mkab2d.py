#!/usr/bin/env python3
"""Writes one GEMM + epilogue function on memrefs for ab_cpu.sh:
func @SYMBOL(%A: MxK, %B: KxN, %bias: N (M for bias_m), %R: MxN, %C: MxN)
{ fill C 0; C += A*B; C = steps(C) } -- the form gen's NAME has
(lib/Driver/EpilogueGemm.cpp), with every step in one linalg.generic.
usage: mkab2d.py M N K STEPS SYMBOL   (STEPS: comma-separated, e.g.
bias_n,gelu_tanh,residual; also bias_m, relu, gelu_erf, silu, tanh)"""
import sys

m, n, k = map(int, sys.argv[1:4])
steps = sys.argv[4].split(",")
sym = sys.argv[5]


def step(s, i):
    v, o = f"%v{i}", f"%v{i + 1}"
    c = lambda nm, x: f"    {o}_{nm} = arith.constant {x:e} : f32\n"
    if s in ("bias_n", "bias_m"):
        return f"    {o} = arith.addf {v}, %b : f32\n"
    if s == "residual":
        return f"    {o} = arith.addf {v}, %r : f32\n"
    if s == "relu":
        return c("z", 0) + f"    {o} = arith.maximumf {v}, {o}_z : f32\n"
    if s == "tanh":
        return f"    {o} = math.tanh {v} : f32\n"
    if s == "silu":
        return (c("one", 1) + f"    {o}_n = arith.negf {v} : f32\n"
                f"    {o}_e = math.exp {o}_n : f32\n"
                f"    {o}_d = arith.addf {o}_one, {o}_e : f32\n"
                f"    {o} = arith.divf {v}, {o}_d : f32\n")
    if s == "gelu_erf":
        return (c("h", 0.5) + c("one", 1) + c("r2", 0.7071067811865476) +
                f"    {o}_a = arith.mulf {v}, {o}_r2 : f32\n"
                f"    {o}_e = math.erf {o}_a : f32\n"
                f"    {o}_p = arith.addf {o}_e, {o}_one : f32\n"
                f"    {o}_x = arith.mulf {v}, {o}_h : f32\n"
                f"    {o} = arith.mulf {o}_x, {o}_p : f32\n")
    if s == "gelu_tanh":
        return (c("h", 0.5) + c("one", 1) + c("k0", 0.7978845608028654) +
                c("k1", 0.044715) +
                f"    {o}_x2 = arith.mulf {v}, {v} : f32\n"
                f"    {o}_x3 = arith.mulf {o}_x2, {v} : f32\n"
                f"    {o}_a = arith.mulf {o}_x3, {o}_k1 : f32\n"
                f"    {o}_b = arith.addf {v}, {o}_a : f32\n"
                f"    {o}_u = arith.mulf {o}_b, {o}_k0 : f32\n"
                f"    {o}_t = math.tanh {o}_u : f32\n"
                f"    {o}_p = arith.addf {o}_t, {o}_one : f32\n"
                f"    {o}_hx = arith.mulf {o}_h, {v} : f32\n"
                f"    {o} = arith.mulf {o}_hx, {o}_p : f32\n")
    sys.exit(f"mkab2d.py: unknown step {s}")


ct = f"memref<{m}x{n}xf32>"
blen = m if "bias_m" in steps else n
bmap = "(d0)" if "bias_m" in steps else "(d1)"
ins, types, maps, args = [], [], [], []
if "bias_n" in steps or "bias_m" in steps:
    ins.append("%bias"); types.append(f"memref<{blen}xf32>")
    maps.append(f"affine_map<(d0, d1) -> {bmap}>"); args.append("%b: f32")
if "residual" in steps:
    ins.append("%R"); types.append(ct)
    maps.append("affine_map<(d0, d1) -> (d0, d1)>"); args.append("%r: f32")
maps.append("affine_map<(d0, d1) -> (d0, d1)>")
insClause = f"ins({', '.join(ins)} : {', '.join(types)}) " if ins else ""
body = "".join(step(s, i) for i, s in enumerate(steps))
print(f"""func.func @{sym}(%A: memref<{m}x{k}xf32>, %B: memref<{k}x{n}xf32>, %bias: memref<{blen}xf32>, %R: {ct}, %C: {ct}) {{
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : {ct})
  linalg.matmul ins(%A, %B : memref<{m}x{k}xf32>, memref<{k}x{n}xf32>) outs(%C : {ct})
  linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = ["parallel", "parallel"]}} {insClause}outs(%C : {ct}) {{
  ^bb0({''.join(a + ', ' for a in args)}%v0: f32):
{body}    linalg.yield %v{len(steps)} : f32
  }}
  return
}}""")
