#!/usr/bin/env python3
"""Writes a self-checking MLIR program for a batch matmul with elementwise
consumers (one linalg.generic per step over batch x M x N, as importers emit
a bias add, an activation and a residual add after a batched GEMM), which
tensorop-decompose-batch-matmul runs per slice and tensorop-fuse-epilogues
fuses into each slice's microkernel.

@bmm fills C with 0, runs linalg.batch_matmul and the consumers (on tensors,
or on memrefs in place on C); main prefills C with NaN (so an element no
kernel writes fails), fills A, B, the bias (along N or M, broadcast over the
batch) and the batch x M x N residual with seeded values in [-1, 1),
recomputes every element in f64 (the same steps, gen_epilogue_test.py's
step_code, on the exact product) and checks gen_epilogue_test.py's bound

    |C - ref| <= L * (2 K u (|A||B|)_ij + u |acc|) + 2e-6 (1 + |acc| + |ref|)

It prints "failures: N" (NaNs count). With --narrow=bf16|f16 a last
consumer rounds C into a bf16 / f16 O (arith.truncf, as a bf16 model writes
it; on tensors into a tensor.empty then written to the O argument), which
is what main checks, the bound plus O's one rounding: u16 * (|ref| +
bound).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_epilogue_test import (bound_constants, bound_terms, chain,  # noqa: E402
                               count_failure, step_code)
from seeded_fill import fill_seeded  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    for d in ("batch", "m", "n", "k"):
        ap.add_argument(d, type=int)
    ap.add_argument("--steps", required=True,
                    help="bias_n, bias_m, residual, relu, gelu_tanh, gelu_erf, scale:S, "
                         "exp, ... (gen_epilogue_test.py)")
    ap.add_argument("--memrefs", action="store_true",
                    help="@bmm on memrefs (consumers in place on C) instead of tensors")
    ap.add_argument("--dynamic-b", action="store_true", help="@bmm sees the batch as ?")
    ap.add_argument("--narrow", choices=("bf16", "f16"),
                    help="a last consumer rounds C into a bf16 / f16 O (memrefs: a buffer; "
                         "tensors: a tensor.empty, written to O), which is checked")
    a = ap.parse_args()
    bs, m, n, k = a.batch, a.m, a.n, a.k
    steps = a.steps.split(",")
    blen = m if "bias_m" in steps else n
    bmap = "(d1)" if "bias_m" in steps else "(d2)"
    b0 = "?" if a.dynamic_b else str(bs)
    at, bt, ct = f"{b0}x{m}x{k}xf32", f"{b0}x{k}x{n}xf32", f"{b0}x{m}x{n}xf32"
    vt = f"{blen}xf32"
    idm = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"
    vm = f"affine_map<(d0, d1, d2) -> {bmap}>"
    par = '["parallel", "parallel", "parallel"]'

    # One generic per step, each consuming the one before.
    consumers, prev = "", "%mm"
    for i, st in enumerate(steps):
        operand = {"bias_n": ("%v", "%bias", vt, vm), "bias_m": ("%v", "%bias", vt, vm),
                   "residual": ("%res", "%R", ct, idm)}.get(st)
        code, res = step_code(st, "%x", "f32", "%p", "%p", i)
        if a.memrefs:
            ins = f"ins({operand[1]} : memref<{operand[2]}>) " if operand else ""
            gmaps = ([operand[3]] if operand else []) + [idm]
            args = "%p: f32, %x: f32" if operand else "%x: f32"
            consumers += f"""  linalg.generic {{indexing_maps = [{", ".join(gmaps)}], iterator_types = {par}}}
      {ins}outs(%C : memref<{ct}>) {{
  ^bb0({args}):
{code}    linalg.yield {res} : f32
  }}
"""
        else:
            ins_vals = [prev] + ([operand[0]] if operand else [])
            ins_types = [f"tensor<{ct}>"] + ([f"tensor<{operand[2]}>"] if operand else [])
            gmaps = [idm] + ([operand[3]] if operand else []) + [idm]
            args = "%x: f32, %p: f32, %o: f32" if operand else "%x: f32, %o: f32"
            consumers += f"""  %g{i} = linalg.generic {{indexing_maps = [{", ".join(gmaps)}], iterator_types = {par}}}
      ins({", ".join(ins_vals)} : {", ".join(ins_types)}) outs(%e2 : tensor<{ct}>) {{
  ^bb0({args}):
{code}    linalg.yield {res} : f32
  }} -> tensor<{ct}>
"""
            prev = f"%g{i}"
    nt = f"{b0}x{m}x{n}x{a.narrow}" if a.narrow else ""
    if a.narrow and not a.memrefs:
        dims = "(%db)" if a.dynamic_b else "()"
        consumers += f"""  %en = tensor.empty{dims} : tensor<{nt}>
  %gn = linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = {par}}}
      ins({prev} : tensor<{ct}>) outs(%en : tensor<{nt}>) {{
  ^bb0(%x: f32, %o: {a.narrow}):
    %t = arith.truncf %x : f32 to {a.narrow}
    linalg.yield %t : {a.narrow}
  }} -> tensor<{nt}>
"""
    elif a.narrow:
        consumers += f"""  linalg.generic {{indexing_maps = [{idm}, {idm}], iterator_types = {par}}}
      ins(%C : memref<{ct}>) outs(%O : memref<{nt}>) {{
  ^bb0(%x: f32, %o: {a.narrow}):
    %t = arith.truncf %x : f32 to {a.narrow}
    linalg.yield %t : {a.narrow}
  }}
"""
    sig = f"%A: memref<{at}>, %B: memref<{bt}>, %bias: memref<{vt}>, %R: memref<{ct}>, %C: memref<{ct}>"
    if a.narrow:
        sig += f", %O: memref<{nt}>"
    materialize = (f"bufferization.materialize_in_destination %gn in restrict writable %O : "
                   f"(tensor<{nt}>, memref<{nt}>) -> ()\n" if a.narrow else
                   f"bufferization.materialize_in_destination {prev} in restrict writable %C : "
                   f"(tensor<{ct}>, memref<{ct}>) -> ()\n")
    if a.memrefs:
        bmm = f"""
func.func @bmm({sig}) {{
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<{ct}>)
  linalg.batch_matmul ins(%A, %B : memref<{at}>, memref<{bt}>) outs(%C : memref<{ct}>)
{consumers}  return
}}"""
    else:
        dims = "(%db)" if a.dynamic_b else "()"
        bmm = f"""
func.func @bmm({sig}) {{
  %c0 = arith.constant 0 : index
  %db = memref.dim %A, %c0 : memref<{at}>
  %a = bufferization.to_tensor %A restrict : memref<{at}> to tensor<{at}>
  %b = bufferization.to_tensor %B restrict : memref<{bt}> to tensor<{bt}>
  %v = bufferization.to_tensor %bias restrict : memref<{vt}> to tensor<{vt}>
  %res = bufferization.to_tensor %R restrict : memref<{ct}> to tensor<{ct}>
  %e = tensor.empty{dims} : tensor<{ct}>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{ct}>) -> tensor<{ct}>
  %mm = linalg.batch_matmul ins(%a, %b : tensor<{at}>, tensor<{bt}>) outs(%f : tensor<{ct}>) -> tensor<{ct}>
  %e2 = tensor.empty{dims} : tensor<{ct}>
{consumers}  {materialize}
  return
}}"""

    sat, sbt, sct = f"{bs}x{m}x{k}xf32", f"{bs}x{k}x{n}xf32", f"{bs}x{m}x{n}xf32"
    snt = f"{bs}x{m}x{n}x{a.narrow}" if a.narrow else ""

    ref_body, ref_out = chain(steps, "%accd", "f64", "%bd", "%rd")
    bidx = "%i" if "bias_m" in steps else "%j"
    scale = max([1.0] + [abs(float(s.split(":")[1])) for s in steps if s.startswith("scale:")])
    casts, args = "", "%A, %B, %V, %R, %C" + (", %O" if a.narrow else "")
    if a.dynamic_b:
        casts = "".join(f"  %{x}d = memref.cast %{x} : memref<{s}> to memref<{d}>\n"
                        for x, s, d in (("A", sat, at), ("B", sbt, bt), ("R", sct, ct), ("C", sct, ct)))
        args = "%Ad, %Bd, %V, %Rd, %Cd"
        if a.narrow:
            casts += f"  %Od = memref.cast %O : memref<{snt}> to memref<{nt}>\n"
            args += ", %Od"
    consts = sorted({0, 1, 65536, bs, m, n, k, blen, 1000, 2000, 3000, 4000})
    if a.narrow:
        u16 = 2.0 ** -8 if a.narrow == "bf16" else 2.0 ** -11
        narrow_alloc = (f"  %O = memref.alloc() : memref<{snt}>\n"
                        f"  %nan16 = arith.constant 0x7FC0 : {a.narrow}\n"
                        if a.narrow == "bf16" else
                        f"  %O = memref.alloc() : memref<{snt}>\n"
                        f"  %nan16 = arith.constant 0x7E00 : {a.narrow}\n")
        narrow_alloc += f"  linalg.fill ins(%nan16 : {a.narrow}) outs(%O : memref<{snt}>)\n"
        narrow_type = f", memref<{nt}>"
        load_out = (f"    %cv = memref.load %O[%bb, %i, %j] : memref<{snt}>\n"
                    f"    %cd = arith.extf %cv : {a.narrow} to f64\n")
        round_bound = (f"    %u16 = arith.constant {u16:.17e} : f64\n"
                       f"    %rb1 = arith.addf %refa, %bound0 : f64\n"
                       f"    %rb2 = arith.mulf %u16, %rb1 : f64\n"
                       f"    %bound = arith.addf %bound0, %rb2 : f64\n")
        narrow_dealloc = f"  memref.dealloc %O : memref<{snt}>\n"
    else:
        narrow_alloc = narrow_type = narrow_dealloc = ""
        load_out = (f"    %cv = memref.load %C[%bb, %i, %j] : memref<{sct}>\n"
                    f"    %cd = arith.extf %cv : f32 to f64\n")
        round_bound = "    %bound = arith.addf %bound0, %zero : f64\n"
    main = f"""
func.func @main() {{
{chr(10).join(f"  %c{v} = arith.constant {v} : index" for v in consts)}
  %golden = arith.constant 2654435761 : index
  %inv32768 = arith.constant 3.0517578125e-05 : f32
  %f1 = arith.constant 1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %A = memref.alloc() : memref<{sat}>
  %B = memref.alloc() : memref<{sbt}>
  %V = memref.alloc() : memref<{vt}>
  %R = memref.alloc() : memref<{sct}>
  %C = memref.alloc() : memref<{sct}>
  linalg.fill ins(%nan : f32) outs(%C : memref<{sct}>)
{narrow_alloc}{fill_seeded("A", (bs, m, k), 1)}{fill_seeded("B", (bs, k, n), 2)}{fill_seeded("V", (blen,), 3)}{fill_seeded("R", (bs, m, n), 4)}
{casts}  call @bmm({args}) : (memref<{at}>, memref<{bt}>, memref<{vt}>, memref<{ct}>, memref<{ct}>{narrow_type}) -> ()
{bound_constants(k, scale)}  %res = scf.for %bb = %c0 to %c{bs} step %c1 iter_args(%f0 = %c0i) -> (i64) {{
  %rows = scf.for %i = %c0 to %c{m} step %c1 iter_args(%f = %f0) -> (i64) {{
   %inner = scf.for %j = %c0 to %c{n} step %c1 iter_args(%f2 = %f) -> (i64) {{
    %acc:2 = scf.for %kk = %c0 to %c{k} step %c1 iter_args(%r0 = %zero, %s0 = %zero) -> (f64, f64) {{
     %av = memref.load %A[%bb, %i, %kk] : memref<{sat}>
     %bv = memref.load %B[%bb, %kk, %j] : memref<{sbt}>
     %ad = arith.extf %av : f32 to f64
     %bdd = arith.extf %bv : f32 to f64
     %p = arith.mulf %ad, %bdd : f64
     %pa = math.absf %p : f64
     %r2 = arith.addf %r0, %p : f64
     %s2 = arith.addf %s0, %pa : f64
     scf.yield %r2, %s2 : f64, f64
    }}
    %accd = arith.addf %acc#0, %zero : f64
    %bv32 = memref.load %V[{bidx}] : memref<{vt}>
    %bd = arith.extf %bv32 : f32 to f64
    %rv32 = memref.load %R[%bb, %i, %j] : memref<{sct}>
    %rd = arith.extf %rv32 : f32 to f64
{ref_body}{load_out}
{bound_terms(ref_out)}{round_bound}
{count_failure()}   }}
   scf.yield %inner : i64
  }}
  scf.yield %rows : i64
  }}
  vector.print str "failures: "
  vector.print %res : i64
  memref.dealloc %A : memref<{sat}>
  memref.dealloc %B : memref<{sbt}>
  memref.dealloc %V : memref<{vt}>
  memref.dealloc %R : memref<{sct}>
  memref.dealloc %C : memref<{sct}>
{narrow_dealloc}  return
}}"""
    print(f"// batch matmul batch={bs} {m}x{n}x{k} with consumers {steps}, "
          f"memrefs={a.memrefs}, dynamic_b={a.dynamic_b}, narrow={a.narrow}")
    print(bmm)
    print(main)


if __name__ == "__main__":
    main()
