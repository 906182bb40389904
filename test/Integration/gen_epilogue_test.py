#!/usr/bin/env python3
"""Writes a self-checking MLIR program for a GEMM with an elementwise
consumer (an epilogue the TensorOp pipeline fuses into the microkernel).

@gemm computes E(A*B) where E is a chain of steps written the way models
spell them in a linalg.generic (x + bias, max(x, 0), 0.5x(1 + erf(x/sqrt2)),
x / (1 + exp(-x)), ...); main fills A, B, the bias and the residual R with
seeded values in [-1, 1), calls @gemm, recomputes every element in f64 (the
same steps on the exact product) and checks

    |C - ref| <= L * (2 K u (|A||B|)_ij + u |acc|) + 2e-6 (1 + |acc| + |ref|)

where L = max(1, |scale|) * 1.2 bounds how the steps amplify the GEMM's
rounding and the second term covers the kernel's fp32 tanh/erf
approximations (<= 4.2e-7 absolute) and the steps' own roundings. It prints
"failures: N".

Steps (--steps, comma-separated): bias_n, bias_m, residual, relu,
relu_select (the cmp+select spelling), gelu_tanh, gelu_erf, silu, sigmoid,
tanh, clamp:LO:HI, scale:S, exp (not an epilogue: stays a separate op).
With --split each step is its own linalg.generic, one consuming the other
(as importers emit a bias add, a GELU and a residual add), instead of one
generic computing them all.

With --out bf16 (or f16) @gemm's output is 16-bit: the matmul accumulates
into an f32 C of its own and the consumer narrows its result with one
arith.truncf (with --split: a last generic that only narrows), as importers
write bf16 models; the check then adds the one rounding to the bound,
u16 (|ref| + bound) with u16 = 2^-8 (bf16) or 2^-11 (f16).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seeded_fill import fill_seeded  # noqa: E402

U = 6.0e-08


# main's check of each element, shared with gen_batch_epilogue_test.py: the
# MEASURE.md bound for fp32 accumulation, amplified by the scale steps, plus
# the epilogue approximations' 2e-6 (1 + |acc| + |ref|).


def bound_constants(k, scale):
    """The bound's constants: u, 2*K*u, 1.2 * the largest |scale|, 2e-6."""
    return f"""  %c0i = arith.constant 0 : i64
  %c1i = arith.constant 1 : i64
  %zero = arith.constant 0.0 : f64
  %u = arith.constant {U:.17e} : f64
  %twoKu = arith.constant {2.0 * k * U:.17e} : f64
  %amp = arith.constant {1.2 * scale:.17e} : f64
  %approx = arith.constant 2.0e-06 : f64
  %oned = arith.constant 1.0 : f64
"""


def bound_terms(ref_out):
    """%err = |%cd - ref| and %bound0, the bound before any output rounding,
    from the accumulator %accd and the |A||B| sum %acc#1."""
    return f"""    %d = arith.subf %cd, {ref_out} : f64
    %err = math.absf %d : f64
    %acca = math.absf %accd : f64
    %refa = math.absf {ref_out} : f64
    %g1 = arith.mulf %twoKu, %acc#1 : f64
    %g2 = arith.mulf %u, %acca : f64
    %g3 = arith.addf %g1, %g2 : f64
    %g4 = arith.mulf %amp, %g3 : f64
    %q1 = arith.addf %oned, %acca : f64
    %q2 = arith.addf %q1, %refa : f64
    %q3 = arith.mulf %approx, %q2 : f64
    %bound0 = arith.addf %g4, %q3 : f64
"""


def count_failure():
    """Adds 1 to the count %f2 when %err is over %bound; yields %f3."""
    return """    // NaN compares false with "ole", so a NaN counts as a failure.
    %ok = arith.cmpf ole, %err, %bound : f64
    %one = arith.select %ok, %c0i, %c1i : i64
    %f3 = arith.addi %f2, %one : i64
    scf.yield %f3 : i64
"""


def step_code(kind, v, ty, bias, res, uid):
    """MLIR lines computing step `kind` on %v (type ty); returns (text, out)."""
    o = f"%s{uid}"
    c = lambda name, val: f"    {o}_{name} = arith.constant {val:.17e} : {ty}\n"
    if kind in ("bias_n", "bias_m"):
        return f"    {o} = arith.addf {v}, {bias} : {ty}\n", o
    if kind == "residual":
        return f"    {o} = arith.addf {v}, {res} : {ty}\n", o
    if kind == "relu":
        return c("z", 0.0) + f"    {o} = arith.maximumf {v}, {o}_z : {ty}\n", o
    if kind == "relu_select":
        return (c("z", 0.0) + f"    {o}_p = arith.cmpf ogt, {v}, {o}_z : {ty}\n"
                f"    {o} = arith.select {o}_p, {v}, {o}_z : {ty}\n"), o
    if kind.startswith("clamp:"):
        lo, hi = (float(x) for x in kind.split(":")[1:])
        return (c("lo", lo) + c("hi", hi) + f"    {o}_a = arith.maximumf {v}, {o}_lo : {ty}\n"
                f"    {o} = arith.minimumf {o}_a, {o}_hi : {ty}\n"), o
    if kind.startswith("scale:"):
        return c("s", float(kind.split(":")[1])) + f"    {o} = arith.mulf {v}, {o}_s : {ty}\n", o
    if kind == "tanh":
        return f"    {o} = math.tanh {v} : {ty}\n", o
    if kind == "exp":
        return f"    {o} = math.exp {v} : {ty}\n", o
    if kind in ("sigmoid", "silu"):
        t = (c("one", 1.0) + f"    {o}_n = arith.negf {v} : {ty}\n"
             f"    {o}_e = math.exp {o}_n : {ty}\n"
             f"    {o}_d = arith.addf {o}_one, {o}_e : {ty}\n")
        if kind == "sigmoid":
            return t + f"    {o} = arith.divf {o}_one, {o}_d : {ty}\n", o
        return t + f"    {o} = arith.divf {v}, {o}_d : {ty}\n", o
    if kind == "gelu_erf":
        return (c("h", 0.5) + c("one", 1.0) + c("r2", 0.7071067811865476) +
                f"    {o}_a = arith.mulf {v}, {o}_r2 : {ty}\n"
                f"    {o}_e = math.erf {o}_a : {ty}\n"
                f"    {o}_b = arith.addf {o}_e, {o}_one : {ty}\n"
                f"    {o}_c = arith.mulf {v}, {o}_h : {ty}\n"
                f"    {o} = arith.mulf {o}_c, {o}_b : {ty}\n"), o
    if kind == "gelu_tanh":
        return (c("h", 0.5) + c("one", 1.0) + c("k0", 0.7978845608028654) + c("k1", 0.044715) +
                f"    {o}_x2 = arith.mulf {v}, {v} : {ty}\n"
                f"    {o}_x3 = arith.mulf {o}_x2, {v} : {ty}\n"
                f"    {o}_a = arith.mulf {o}_x3, {o}_k1 : {ty}\n"
                f"    {o}_b = arith.addf {v}, {o}_a : {ty}\n"
                f"    {o}_u = arith.mulf {o}_b, {o}_k0 : {ty}\n"
                f"    {o}_t = math.tanh {o}_u : {ty}\n"
                f"    {o}_p = arith.addf {o}_t, {o}_one : {ty}\n"
                f"    {o}_hx = arith.mulf {o}_h, {v} : {ty}\n"
                f"    {o} = arith.mulf {o}_hx, {o}_p : {ty}\n"), o
    raise SystemExit("unknown step " + kind)


def chain(steps, v, ty, bias, res):
    text = ""
    for i, s in enumerate(steps):
        t, v = step_code(s, v, ty, bias, res, i)
        text += t
    return text, v


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("m", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("k", type=int)
    ap.add_argument("--steps", required=True)
    ap.add_argument("--memrefs", action="store_true",
                    help="@gemm on memrefs (consumer in place on C) instead of tensors")
    ap.add_argument("--dynamic-m", action="store_true", help="@gemm sees M as ?")
    ap.add_argument("--outs-chain", action="store_true",
                    help="with --split on tensors: each generic takes the value "
                         "before it as its outs (ins: the step's operand only)")
    ap.add_argument("--split", action="store_true",
                    help="one linalg.generic per step, each consuming the one before")
    ap.add_argument("--dtype", choices=("f32", "bf16", "f16"), default="f32",
                    help="element type of A and B (C, bias and R stay f32); bf16/f16 "
                         "inputs are the f32 values rounded, the reference reads them")
    ap.add_argument("--out", choices=("f32", "bf16", "f16"), default="f32",
                    help="element type of @gemm's output (C stays f32 inside)")
    ap.add_argument("--sketch", default="",
                    help="a #tensorop.sketch<...> to attach to the matmul instead of "
                         "asking the advisor (the pipeline fuses the epilogue into it)")
    a = ap.parse_args()
    m, n, k = a.m, a.n, a.k
    steps = a.steps.split(",")
    blen = m if "bias_m" in steps else n
    bmap = "(d0)" if "bias_m" in steps else "(d1)"
    ms = "?" if a.dynamic_m else str(m)
    et = a.dtype
    at, bt, ct, rt = f"{ms}x{k}x{et}", f"{k}x{n}x{et}", f"{ms}x{n}xf32", f"{ms}x{n}xf32"
    narrow = a.out != "f32"
    ot = f"{ms}x{n}x{a.out}"  # @gemm's output (== ct without --out)
    if narrow and a.memrefs and a.split:
        raise SystemExit("--out with --memrefs --split is not written")
    vt = f"{'?' if a.dynamic_m and 'bias_m' in steps else blen}xf32"
    body, out = chain(steps, "%x", "f32", "%b", "%r")
    if narrow:
        body += f"    %narrow = arith.truncf {out} : f32 to {a.out}\n"
        out = "%narrow"
    maps = ("affine_map<(d0, d1) -> (d0, d1)>", f"affine_map<(d0, d1) -> {bmap}>",
            "affine_map<(d0, d1) -> (d0, d1)>", "affine_map<(d0, d1) -> (d0, d1)>")
    dims = "%dm = memref.dim %A, %c0 : memref<" + at + ">\n" if a.dynamic_m else ""
    empty_args = "(%dm)" if a.dynamic_m else "()"
    def split_generics():
        """One generic per step: on memrefs in place on C, on tensors each
        reading the one before (as an input, or with --outs-chain as its
        outs); returns (text, result)."""
        text, prev = "", "%mm"
        for i, st in enumerate(steps):
            operand = {"bias_n": ("%v", "%bias", vt, maps[1]),
                       "bias_m": ("%v", "%bias", vt, maps[1]),
                       "residual": ("%res", "%R", rt, maps[2])}.get(st)
            code, res = step_code(st, "%x", "f32", "%p", "%p", i)
            if a.memrefs:
                ins = f"ins({operand[1]} : memref<{operand[2]}>) " if operand else ""
                gmaps = ([operand[3]] if operand else []) + [maps[0]]
                args = "%p: f32, %x: f32" if operand else "%x: f32"
                text += f"""  linalg.generic {{indexing_maps = [{", ".join(gmaps)}], iterator_types = ["parallel", "parallel"]}}
      {ins}outs(%C : memref<{ct}>) {{
  ^bb0({args}):
{code}    linalg.yield {res} : f32
  }}
"""
            elif a.outs_chain:
                ins = (f"ins({operand[0]} : tensor<{operand[2]}>) "
                       if operand else "")
                gmaps = ([operand[3]] if operand else []) + [maps[0]]
                args = "%p: f32, %x: f32" if operand else "%x: f32"
                text += f"""  %g{i} = linalg.generic {{indexing_maps = [{", ".join(gmaps)}], iterator_types = ["parallel", "parallel"]}}
      {ins}outs({prev} : tensor<{ct}>) {{
  ^bb0({args}):
{code}    linalg.yield {res} : f32
  }} -> tensor<{ct}>
"""
                prev = f"%g{i}"
            else:
                ins_vals = [prev] + ([operand[0]] if operand else [])
                ins_types = [f"tensor<{ct}>"] + ([f"tensor<{operand[2]}>"] if operand else [])
                gmaps = [maps[0]] + ([operand[3]] if operand else []) + [maps[0]]
                args = "%x: f32, %p: f32, %o: f32" if operand else "%x: f32, %o: f32"
                text += f"""  %g{i} = linalg.generic {{indexing_maps = [{", ".join(gmaps)}], iterator_types = ["parallel", "parallel"]}}
      ins({", ".join(ins_vals)} : {", ".join(ins_types)}) outs(%e2 : tensor<{ct}>) {{
  ^bb0({args}):
{code}    linalg.yield {res} : f32
  }} -> tensor<{ct}>
"""
                prev = f"%g{i}"
        return text, prev

    if a.memrefs and a.split:
        gemm = f"""
func.func @gemm(%A: memref<{at}>, %B: memref<{bt}>, %bias: memref<{vt}>, %R: memref<{rt}>, %C: memref<{ct}>) {{
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<{ct}>)
  linalg.matmul ins(%A, %B : memref<{at}>, memref<{bt}>) outs(%C : memref<{ct}>)
{split_generics()[0]}  return
}}"""
    elif a.memrefs and not narrow:
        gemm = f"""
func.func @gemm(%A: memref<{at}>, %B: memref<{bt}>, %bias: memref<{vt}>, %R: memref<{rt}>, %C: memref<{ct}>) {{
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<{ct}>)
  linalg.matmul ins(%A, %B : memref<{at}>, memref<{bt}>) outs(%C : memref<{ct}>)
  linalg.generic {{indexing_maps = [{maps[1]}, {maps[2]}, {maps[3]}], iterator_types = ["parallel", "parallel"]}}
      ins(%bias, %R : memref<{vt}>, memref<{rt}>) outs(%C : memref<{ct}>) {{
  ^bb0(%b: f32, %r: f32, %x: f32):
{body}    linalg.yield {out} : f32
  }}
  return
}}"""
    elif a.memrefs and narrow:
        # The f32 C is the GEMM's own buffer; the consumer reads it and
        # writes the 16-bit output.
        gemm = f"""
func.func @gemm(%A: memref<{at}>, %B: memref<{bt}>, %bias: memref<{vt}>, %R: memref<{rt}>, %O: memref<{ot}>) {{
  %z = arith.constant 0.0 : f32
  %C = memref.alloc() : memref<{ct}>
  linalg.fill ins(%z : f32) outs(%C : memref<{ct}>)
  linalg.matmul ins(%A, %B : memref<{at}>, memref<{bt}>) outs(%C : memref<{ct}>)
  linalg.generic {{indexing_maps = [{maps[0]}, {maps[1]}, {maps[2]}, {maps[3]}], iterator_types = ["parallel", "parallel"]}}
      ins(%C, %bias, %R : memref<{ct}>, memref<{vt}>, memref<{rt}>) outs(%O : memref<{ot}>) {{
  ^bb0(%x: f32, %b: f32, %r: f32, %o: {a.out}):
{body}    linalg.yield {out} : {a.out}
  }}
  memref.dealloc %C : memref<{ct}>
  return
}}"""
    else:
        if a.split:
            consumers, y = split_generics()
            if narrow:
                consumers += f"""  %e3 = tensor.empty{empty_args} : tensor<{ot}>
  %y = linalg.generic {{indexing_maps = [{maps[0]}, {maps[0]}], iterator_types = ["parallel", "parallel"]}}
      ins({y} : tensor<{ct}>) outs(%e3 : tensor<{ot}>) {{
  ^bb0(%x: f32, %o: {a.out}):
    %t = arith.truncf %x : f32 to {a.out}
    linalg.yield %t : {a.out}
  }} -> tensor<{ot}>
"""
                y = "%y"
        else:
            consumers, y = f"""  %y = linalg.generic {{indexing_maps = [{maps[0]}, {maps[1]}, {maps[2]}, {maps[3]}], iterator_types = ["parallel", "parallel"]}}
      ins(%mm, %v, %res : tensor<{ct}>, tensor<{vt}>, tensor<{rt}>) outs(%e2o : tensor<{ot}>) {{
  ^bb0(%x: f32, %b: f32, %r: f32, %o: {a.out}):
{body}    linalg.yield {out} : {a.out}
  }} -> tensor<{ot}>
""", "%y"
        gemm = f"""
func.func @gemm(%A: memref<{at}>, %B: memref<{bt}>, %bias: memref<{vt}>, %R: memref<{rt}>, %C: memref<{ot}>) {{
  %c0 = arith.constant 0 : index
  {dims}  %a = bufferization.to_tensor %A restrict : memref<{at}> to tensor<{at}>
  %bt = bufferization.to_tensor %B restrict : memref<{bt}> to tensor<{bt}>
  %v = bufferization.to_tensor %bias restrict : memref<{vt}> to tensor<{vt}>
  %res = bufferization.to_tensor %R restrict : memref<{rt}> to tensor<{rt}>
  %e = tensor.empty{empty_args} : tensor<{ct}>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<{ct}>) -> tensor<{ct}>
  %mm = linalg.matmul ins(%a, %bt : tensor<{at}>, tensor<{bt}>) outs(%f : tensor<{ct}>) -> tensor<{ct}>
  %e2 = tensor.empty{empty_args} : tensor<{ct}>
  %e2o = tensor.empty{empty_args} : tensor<{ot}>
{consumers}  bufferization.materialize_in_destination {y} in restrict writable %C : (tensor<{ot}>, memref<{ot}>) -> ()
  return
}}"""
    sat, sct, svt = f"{m}x{k}x{et}", f"{m}x{n}xf32", f"{blen}xf32"
    sot = f"{m}x{n}x{a.out}"
    sbt = f"{k}x{n}x{et}"

    ref_body, ref_out = chain(steps, "%accd", "f64", "%bd", "%rd")
    bidx = "%i" if "bias_m" in steps else "%j"
    scale = max([1.0] + [abs(float(s.split(":")[1])) for s in steps if s.startswith("scale:")])
    call_args = "%A, %B, %V, %R, %C"
    call_types = f"memref<{sat}>, memref<{sbt}>, memref<{svt}>, memref<{sct}>, memref<{sot}>"
    cast = ""
    if a.dynamic_m:
        cast = f"""  %Ad = memref.cast %A : memref<{sat}> to memref<{at}>
  %Rd = memref.cast %R : memref<{sct}> to memref<{rt}>
  %Cd = memref.cast %C : memref<{sot}> to memref<{ot}>
  %Vd = memref.cast %V : memref<{svt}> to memref<{vt}>
"""
        call_args = "%Ad, %B, %Vd, %Rd, %Cd"
        call_types = f"memref<{at}>, memref<{sbt}>, memref<{vt}>, memref<{rt}>, memref<{ot}>"
    consts = sorted({0, 1, 65536, m, n, k, blen, 1000, 2000, 3000, 4000})
    main = f"""
func.func @main() {{
{chr(10).join(f"  %c{v} = arith.constant {v} : index" for v in consts)}
  %golden = arith.constant 2654435761 : index
  %inv32768 = arith.constant 3.0517578125e-05 : f32
  %f1 = arith.constant 1.0 : f32
  %A = memref.alloc() : memref<{sat}>
  %B = memref.alloc() : memref<{sbt}>
  %V = memref.alloc() : memref<{svt}>
  %R = memref.alloc() : memref<{sct}>
  %C = memref.alloc() : memref<{sot}>
{fill_seeded("A", (m, k), 1, et)}{fill_seeded("B", (k, n), 2, et)}{fill_seeded("V", (blen,), 3)}{fill_seeded("R", (m, n), 4)}
{cast}  call @gemm({call_args}) : ({call_types}) -> ()
{bound_constants(k, scale)}  %res = scf.for %i = %c0 to %c{m} step %c1 iter_args(%f = %c0i) -> (i64) {{
   %inner = scf.for %j = %c0 to %c{n} step %c1 iter_args(%f2 = %f) -> (i64) {{
    %acc:2 = scf.for %kk = %c0 to %c{k} step %c1 iter_args(%r0 = %zero, %s0 = %zero) -> (f64, f64) {{
     %av = memref.load %A[%i, %kk] : memref<{sat}>
     %bv = memref.load %B[%kk, %j] : memref<{sbt}>
     %ad = arith.extf %av : {et} to f64
     %bdd = arith.extf %bv : {et} to f64
     %p = arith.mulf %ad, %bdd : f64
     %pa = math.absf %p : f64
     %r2 = arith.addf %r0, %p : f64
     %s2 = arith.addf %s0, %pa : f64
     scf.yield %r2, %s2 : f64, f64
    }}
    %accd = arith.addf %acc#0, %zero : f64
    %bv32 = memref.load %V[{bidx}] : memref<{svt}>
    %bd = arith.extf %bv32 : f32 to f64
    %rv32 = memref.load %R[%i, %j] : memref<{sct}>
    %rd = arith.extf %rv32 : f32 to f64
{ref_body}    %cv = memref.load %C[%i, %j] : memref<{sot}>
    %cd = arith.extf %cv : {a.out} to f64
{bound_terms(ref_out)}    %u16 = arith.constant {0.0 if not narrow else (2.0 ** -8 if a.out == "bf16" else 2.0 ** -11):.17e} : f64
    %q4 = arith.addf %refa, %bound0 : f64
    %q5 = arith.mulf %u16, %q4 : f64
    %bound = arith.addf %bound0, %q5 : f64
{count_failure()}   }}
   scf.yield %inner : i64
  }}
  vector.print str "failures: "
  vector.print %res : i64
  memref.dealloc %A : memref<{sat}>
  memref.dealloc %B : memref<{sbt}>
  memref.dealloc %V : memref<{svt}>
  memref.dealloc %R : memref<{sct}>
  memref.dealloc %C : memref<{sot}>
  return
}}"""
    print(f"// gemm {m}x{n}x{k} {et} with epilogue steps {steps}, memrefs={a.memrefs}, "
          f"split={a.split}, out={a.out}")
    if a.sketch:
        attr = f"{{tensorop.sketch = {a.sketch}}}"
        gemm = re.sub(r"(linalg\.matmul ins\([^\n]*outs\([^\n)]*\))",
                      lambda mt: mt.group(1) + " " + attr, gemm)
    print(gemm)
    print(main)


if __name__ == "__main__":
    main()
