#!/usr/bin/env python3
"""Writes a self-checking MLIR program for one batch matmul shape.

@bmm is a linalg.batch_matmul (C[b] += A[b] * B[b]) or, with --reduce, a
linalg.batch_reduce_matmul (C += sum_b A[b] * B[b]) that the TensorOp
pipeline decomposes into slice matmuls with microkernels. The program fills
A, B and C with seeded values in [-1, 1), recomputes the result in f64 with
plain loops before the call, and checks every element against the
MEASURE.md bound over the contraction (length K, or batch*K with --reduce)

    |C - R| <= 2 * L * u * (|C0| + |A||B|)_ij + u * |R_ij|,   u = 6e-8.

It prints "failures: N" (NaNs count) and the largest error/bound ratio.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_matmul_test import element_check  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    for d in ("batch", "m", "n", "k"):
        ap.add_argument(d, type=int)
    ap.add_argument("--reduce", action="store_true")
    ap.add_argument("--transpose-b", action="store_true",
                    help="B stored batch x N x K (x . W^T per batch)")
    ap.add_argument("--tensors", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dynamic", default="",
                    help="letters of b, m, n, k that @bmm sees as dynamic (?)")
    a = ap.parse_args()
    bs, m, n, k = a.batch, a.m, a.n, a.k
    at = f"{bs}x{m}x{k}xf32"
    bt = f"{bs}x{n}x{k}xf32" if a.transpose_b else f"{bs}x{k}x{n}xf32"
    ct = f"{m}x{n}xf32" if a.reduce else f"{bs}x{m}x{n}xf32"
    op = "linalg.batch_reduce_matmul" if a.reduce else "linalg.batch_matmul"
    ext = {"b": bs, "m": m, "n": n, "k": k}

    def dyn(letters):
        return "x".join("?" if l in a.dynamic else str(ext[l]) for l in letters) + "xf32"
    st = (at, bt, ct)
    dt = (dyn("bmk"), dyn("bnk") if a.transpose_b else dyn("bkn"),
          dyn("mn") if a.reduce else dyn("bmn"))
    at, bt, ct = dt
    maps = ""
    if a.transpose_b:
        cmap = "(d0, d1, d2, d3) -> (d1, d2)" if a.reduce else "(d0, d1, d2, d3) -> (d0, d1, d2)"
        maps = (" indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, "
                "affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, "
                f"affine_map<{cmap}>]")
    if a.tensors:
        bmm = f"""
func.func @bmm(%A: memref<{at}>, %B: memref<{bt}>, %C: memref<{ct}>) {{
  %a = bufferization.to_tensor %A restrict : memref<{at}> to tensor<{at}>
  %b = bufferization.to_tensor %B restrict : memref<{bt}> to tensor<{bt}>
  %c = bufferization.to_tensor %C restrict : memref<{ct}> to tensor<{ct}>
  %r = {op}{maps} ins(%a, %b : tensor<{at}>, tensor<{bt}>) outs(%c : tensor<{ct}>) -> tensor<{ct}>
  bufferization.materialize_in_destination %r in restrict writable %C : (tensor<{ct}>, memref<{ct}>) -> ()
  return
}}"""
    else:
        bmm = f"""
func.func @bmm(%A: memref<{at}>, %B: memref<{bt}>, %C: memref<{ct}>) {{
  {op}{maps} ins(%A, %B : memref<{at}>, memref<{bt}>) outs(%C : memref<{ct}>)
  return
}}"""

    def fill(name, dims, salt):
        idx = ["%i0", "%i1", "%i2"][:len(dims)]
        lines, close = [], []
        for d, (i, ext) in enumerate(zip(idx, dims)):
            lines.append(" " * (d + 1) + f"scf.for {i} = %c0 to %c{ext} step %c1 {{")
            close.insert(0, " " * (d + 1) + "}")
        lin = "%c0"
        body = []
        for d, i in enumerate(idx):
            body.append(f"%l{d} = arith.muli {lin}, %c{dims[d]} : index")
            body.append(f"%m{d} = arith.addi %l{d}, {i} : index")
            lin = f"%m{d}"
        body += [f"%h0 = arith.addi {lin}, %c{salt * 7919} : index",
                 "%h1 = arith.addi %h0, %seed : index",
                 "%h2 = arith.muli %h1, %golden : index",
                 "%h3 = arith.remui %h2, %c65536 : index",
                 "%h4 = arith.index_cast %h3 : index to i64",
                 "%h5 = arith.sitofp %h4 : i64 to f32",
                 "%h6 = arith.mulf %h5, %inv32768 : f32",
                 "%v = arith.subf %h6, %f1 : f32",
                 f"memref.store %v, %{name}[{', '.join(idx)}] : memref<{'x'.join(map(str, dims))}xf32>"]
        pad = " " * (len(dims) + 1)
        return "\n".join(lines + [pad + b for b in body] + close)

    at, bt, ct = st
    ashape = (bs, m, k)
    bshape = (bs, n, k) if a.transpose_b else (bs, k, n)
    cshape = (m, n) if a.reduce else (bs, m, n)
    consts = sorted(set([0, 1, 65536, bs, m, n, k, 7919, 15838, 23757]))
    const_lines = "\n".join(f"  %c{v} = arith.constant {v} : index" for v in consts)
    bload = "%B[%b, %j, %kk]" if a.transpose_b else "%B[%b, %kk, %j]"
    length = bs * k if a.reduce else k
    # Reference: R = C0 + sum A*B, S = |C0| + sum |A||B| (per batch or
    # summed over it with --reduce), in f64, before @bmm overwrites C.
    cidx = "%i, %j" if a.reduce else "%b, %i, %j"
    rt = f"{m}x{n}xf64" if a.reduce else f"{bs}x{m}x{n}xf64"
    if a.reduce:
        outer_open = "  scf.for %i = %c0 to %cM step %c1 {\n   scf.for %j = %c0 to %cN step %c1 {"
        red_open = "scf.for %b = %c0 to %cBS step %c1 iter_args(%r0 = %c0d, %s0 = %c0a) -> (f64, f64) {\n     %acc:2 = scf.for %kk = %c0 to %cK step %c1 iter_args(%r = %r0, %s = %s0) -> (f64, f64) {"
        red_close = "     }\n     scf.yield %acc#0, %acc#1 : f64, f64\n    }"
        outer_close = "   }\n  }"
    else:
        outer_open = "  scf.for %b = %c0 to %cBS step %c1 {\n  scf.for %i = %c0 to %cM step %c1 {\n   scf.for %j = %c0 to %cN step %c1 {"
        red_open = "scf.for %kk = %c0 to %cK step %c1 iter_args(%r = %c0d, %s = %c0a) -> (f64, f64) {"
        red_close = "    }"
        outer_close = "   }\n  }\n  }"
    check_open = outer_open.replace("scf.for %i", "scf.for %i").replace(" {\n", " {\n")
    main = f"""
func.func @main() {{
{const_lines}
  %cBS = arith.constant {bs} : index
  %cM = arith.constant {m} : index
  %cN = arith.constant {n} : index
  %cK = arith.constant {k} : index
  %seed = arith.constant {a.seed * 2654435761 % 1000003} : index
  %golden = arith.constant 2654435761 : index
  %inv32768 = arith.constant 3.0517578125e-05 : f32
  %f1 = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f64
  %u = arith.constant 6.0e-08 : f64
  %twoLu = arith.constant {2.0 * length * 6.0e-08:.17e} : f64
  %A = memref.alloc() : memref<{at}>
  %B = memref.alloc() : memref<{bt}>
  %C = memref.alloc() : memref<{ct}>
  %R = memref.alloc() : memref<{rt}>
  %S = memref.alloc() : memref<{rt}>
{fill('A', ashape, 1)}
{fill('B', bshape, 2)}
{fill('C', cshape, 3)}
{outer_open}
    %c0v = memref.load %C[{cidx}] : memref<{ct}>
    %c0d = arith.extf %c0v : f32 to f64
    %c0a = math.absf %c0d : f64
    %res:2 = {red_open}
     %av = memref.load %A[%b, %i, %kk] : memref<{at}>
     %bv = memref.load {bload} : memref<{bt}>
     %ad = arith.extf %av : f32 to f64
     %bd = arith.extf %bv : f32 to f64
     %p = arith.mulf %ad, %bd : f64
     %pa = math.absf %p : f64
     %r2 = arith.addf %r, %p : f64
     %s2 = arith.addf %s, %pa : f64
     scf.yield %r2, %s2 : f64, f64
{red_close}
    memref.store %res#0, %R[{cidx}] : memref<{rt}>
    memref.store %res#1, %S[{cidx}] : memref<{rt}>
{outer_close}
  %Ad = memref.cast %A : memref<{at}> to memref<{dt[0]}>
  %Bd = memref.cast %B : memref<{bt}> to memref<{dt[1]}>
  %Cd = memref.cast %C : memref<{ct}> to memref<{dt[2]}>
  call @bmm(%Ad, %Bd, %Cd) : (memref<{dt[0]}>, memref<{dt[1]}>, memref<{dt[2]}>) -> ()
  %fails = memref.alloca() : memref<i64>
  %worst = memref.alloca() : memref<f64>
  %c0i = arith.constant 0 : i64
  %c1i = arith.constant 1 : i64
  memref.store %c0i, %fails[] : memref<i64>
  memref.store %zero, %worst[] : memref<f64>
{check_open}
    %cv = memref.load %C[{cidx}] : memref<{ct}>
    %cd = arith.extf %cv : f32 to f64
    %rv = memref.load %R[{cidx}] : memref<{rt}>
    %sv = memref.load %S[{cidx}] : memref<{rt}>
{element_check("%twoLu")}    %f0 = memref.load %fails[] : memref<i64>
    %f2 = arith.addi %f0, %one : i64
    memref.store %f2, %fails[] : memref<i64>
    %w0 = memref.load %worst[] : memref<f64>
    %w1 = arith.maximumf %w0, %ratio : f64
    memref.store %w1, %worst[] : memref<f64>
{outer_close}
  %nf = memref.load %fails[] : memref<i64>
  %mx = memref.load %worst[] : memref<f64>
  vector.print str "failures: "
  vector.print %nf : i64
  vector.print str "max_error_ratio: "
  vector.print %mx : f64
  memref.dealloc %A : memref<{at}>
  memref.dealloc %B : memref<{bt}>
  memref.dealloc %C : memref<{ct}>
  memref.dealloc %R : memref<{rt}>
  memref.dealloc %S : memref<{rt}>
  return
}}"""
    print(f"// {op} batch={bs} {m}x{n}x{k} transpose_b={a.transpose_b} "
          f"tensors={a.tensors} seed={a.seed}")
    print(bmm)
    print(main)


if __name__ == "__main__":
    main()
