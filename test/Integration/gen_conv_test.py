#!/usr/bin/env python3
"""Writes a self-checking MLIR program for one 2-D convolution.

@conv has the form `tensorop gen` builds for a convolution (memref
arguments, a tensor body: to_tensor, a zero tensor.pad when any padding is
given, linalg.fill, linalg.conv_2d_nhwc_hwcf, materialize_in_destination),
so the pipeline sees the padding. @main fills the input and the filter with
seeded values in [-1, 1) (or small exact integers), poisons the output with
NaN, calls @conv, recomputes every output in f64 with plain loops (padding
by bounds checks) and checks it against the MEASURE.md bound

    |O - R| <= 2 * K * u * (|I||F|) + u * |R|,   K = R*S*C, u = 6e-8.

It prints "failures: N" (elements over the bound, NaNs included) and the
largest error/bound ratio. With --nchw the convolution is
linalg.conv_2d_nchw_fchw on NCHW input, FCHW filter, NCHW output.

With --steps (gen_epilogue_test.py's step names; bias_n is a bias per
output channel, residual an N x OH x OW x F tensor) @conv also takes the
bias and the residual, and an elementwise linalg.generic after the
convolution computes the steps (--split: one generic per step, as
importers write bias + ReLU); the reference applies them in f64 and the
bound becomes gen_epilogue_test.py's: L * (the bound above) + 2e-6 (1 +
|acc| + |ref|).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_epilogue_test import chain  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1)
    ap.add_argument("--h", type=int, required=True)
    ap.add_argument("--w", type=int, required=True)
    ap.add_argument("--c", type=int, required=True)
    ap.add_argument("--f", type=int, required=True)
    ap.add_argument("--r", type=int, default=3)
    ap.add_argument("--s", type=int, default=None)
    ap.add_argument("--stride", type=int, nargs="+", default=[1])
    ap.add_argument("--dilation", type=int, nargs="+", default=[1])
    ap.add_argument("--pad", type=int, nargs="+", default=[0],
                    help="1 value (all sides), 2 (h, w) or 4 (top bottom left right)")
    ap.add_argument("--values", choices=["random", "ints"], default="random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sketch", default="",
                    help="a #tensorop.conv_sketch<...> to attach instead of asking the advisor")
    ap.add_argument("--nchw", action="store_true")
    ap.add_argument("--steps", default="",
                    help="epilogue steps after the convolution, comma-separated")
    ap.add_argument("--outs-chain", action="store_true",
                    help="each consumer takes the value before it as its outs "
                         "(ins: the bias and residual only)")
    ap.add_argument("--split", action="store_true",
                    help="one linalg.generic per step instead of one for all")
    a = ap.parse_args()
    steps = a.steps.split(",") if a.steps else []
    n, h, w, c, f, r = a.n, a.h, a.w, a.c, a.f, a.r
    s = a.s if a.s is not None else r
    sh, sw = (a.stride * 2)[:2]
    dh, dw = (a.dilation * 2)[:2]
    if len(a.pad) == 1:
        pt = pb = pl = pr = a.pad[0]
    elif len(a.pad) == 2:
        pt = pb = a.pad[0]
        pl = pr = a.pad[1]
    else:
        pt, pb, pl, pr = a.pad
    oh = (h + pt + pb - dh * (r - 1) - 1) // sh + 1
    ow = (w + pl + pr - dw * (s - 1) - 1) // sw + 1
    hp, wp = h + pt + pb, w + pl + pr
    if a.nchw:
        it, ft, ot = (f"{n}x{c}x{h}x{w}xf32", f"{f}x{c}x{r}x{s}xf32", f"{n}x{f}x{oh}x{ow}xf32")
        ptt = f"{n}x{c}x{hp}x{wp}xf32"
        low, high = f"[0, 0, {pt}, {pl}]", f"[0, 0, {pb}, {pr}]"
        op = "linalg.conv_2d_nchw_fchw"
    else:
        it, ft, ot = (f"{n}x{h}x{w}x{c}xf32", f"{r}x{s}x{c}x{f}xf32", f"{n}x{oh}x{ow}x{f}xf32")
        ptt = f"{n}x{hp}x{wp}x{c}xf32"
        low, high = f"[0, {pt}, {pl}, 0]", f"[0, {pb}, {pr}, 0]"
        op = "linalg.conv_2d_nhwc_hwcf"
    padded = pt or pb or pl or pr
    pad = ""
    src = "%i"
    if padded:
        pad = f"""
  %p = tensor.pad %i low{low} high{high} {{
  ^bb0(%a0: index, %a1: index, %a2: index, %a3: index):
    tensor.yield %zero : f32
  }} : tensor<{it}> to tensor<{ptt}>"""
        src = "%p"
    attr = f" {{tensorop.sketch = {a.sketch}}}" if a.sketch else ""
    # The bias and the residual are arguments only when a step reads them.
    has_bias, has_res = "bias_n" in steps, "residual" in steps
    epi_args = ((f", %bias: memref<{f}xf32>" if has_bias else "") +
                (f", %resid: memref<{ot}>" if has_res else ""))
    result = "%r"
    consumers = ""
    if steps:
        id4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
        ch = "affine_map<(d0, d1, d2, d3) -> (d3)>"
        extra, extra_types, extra_maps, extra_args = "", "", "", ""
        if has_bias:
            consumers += f"""
  %v = bufferization.to_tensor %bias restrict : memref<{f}xf32> to tensor<{f}xf32>"""
            extra, extra_types = extra + ", %v", extra_types + f", tensor<{f}xf32>"
            extra_maps, extra_args = extra_maps + f", {ch}", extra_args + "%b: f32, "
        if has_res:
            consumers += f"""
  %rs = bufferization.to_tensor %resid restrict : memref<{ot}> to tensor<{ot}>"""
            extra, extra_types = extra + ", %rs", extra_types + f", tensor<{ot}>"
            extra_maps, extra_args = extra_maps + f", {id4}", extra_args + "%q: f32, "
        groups = [[st] for st in steps] if a.split else [steps]
        for gi, group in enumerate(groups):
            body, out = chain(group, "%x", "f32", "%b", "%q")
            if a.outs_chain:
                # The value before as the generic's outs (in place).
                ins = f"ins({extra[2:]} : {extra_types[2:]}) " if extra else ""
                consumers += f"""
  %y{gi} = linalg.generic {{indexing_maps = [{extra_maps[2:] + ", " if extra_maps else ""}{id4}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      {ins}outs({result} : tensor<{ot}>) {{
  ^bb0({extra_args}%x: f32):
{body}    linalg.yield {out} : f32
  }} -> tensor<{ot}>"""
                result = f"%y{gi}"
                continue
            consumers += f"""
  %e{gi} = tensor.empty() : tensor<{ot}>
  %y{gi} = linalg.generic {{indexing_maps = [{id4}{extra_maps}, {id4}], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}}
      ins({result}{extra} : tensor<{ot}>{extra_types}) outs(%e{gi} : tensor<{ot}>) {{
  ^bb0(%x: f32, {extra_args}%o: f32):
{body}    linalg.yield {out} : f32
  }} -> tensor<{ot}>"""
            result = f"%y{gi}"
    conv = f"""
func.func @conv(%in: memref<{it}>, %flt: memref<{ft}>{epi_args}, %out: memref<{ot}>) {{
  %zero = arith.constant 0.0 : f32
  %i = bufferization.to_tensor %in restrict : memref<{it}> to tensor<{it}>
  %f = bufferization.to_tensor %flt restrict : memref<{ft}> to tensor<{ft}>{pad}
  %e = tensor.empty() : tensor<{ot}>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<{ot}>) -> tensor<{ot}>
  %r = {op} {{dilations = dense<[{dh}, {dw}]> : tensor<2xi64>, strides = dense<[{sh}, {sw}]> : tensor<2xi64>}}
      ins({src}, %f : tensor<{ptt if padded else it}>, tensor<{ft}>) outs(%z : tensor<{ot}>){attr} -> tensor<{ot}>{consumers}
  bufferization.materialize_in_destination {result} in restrict writable %out : (tensor<{ot}>, memref<{ot}>) -> ()
  return
}}"""
    if a.values == "ints":
        gen = """
    %t0 = arith.muli %l, %csalt : index
    %t3 = arith.remui %t0, %c9 : index
    %t4 = arith.index_cast %t3 : index to i64
    %t5 = arith.sitofp %t4 : i64 to f32
    %v = arith.subf %t5, %f4 : f32"""
    else:
        gen = """
    %t0 = arith.muli %l, %csalt : index
    %t3 = arith.addi %t0, %seed : index
    %t4 = arith.muli %t3, %golden : index
    %t5 = arith.remui %t4, %c65536 : index
    %t6 = arith.index_cast %t5 : index to i64
    %t7 = arith.sitofp %t6 : i64 to f32
    %t8 = arith.mulf %t7, %inv32768 : f32
    %v = arith.subf %t8, %f1 : f32"""

    def elems(t):
        p = 1
        for d in t.split("x")[:-1]:
            p *= int(d)
        return p

    def fill(name, t, salt):
        e = elems(t)
        return f"""
  %{name}flat = memref.collapse_shape %{name} [[0, 1, 2, 3]] : memref<{t}> into memref<{e}xf32>
  %csalt{salt} = arith.constant {[7919, 15485863, 2654435, 104729][salt]} : index
  %c{name}e = arith.constant {e} : index
  scf.for %l = %c0 to %c{name}e step %c1 {{{gen.replace('%csalt', '%csalt' + str(salt))}
    memref.store %v, %{name}flat[%l] : memref<{e}xf32>
  }}"""

    def idx(kind, nn, ch, y, x):
        """Indices of an element in the layout of `kind` (in/flt/out)."""
        if a.nchw:
            return f"[{nn}, {ch}, {y}, {x}]"
        return f"[{nn}, {y}, {x}, {ch}]"

    in_idx = idx("in", "%nn", "%cc", "%ih", "%iw")
    flt_idx = f"[%ff, %cc, %rr, %ss]" if a.nchw else f"[%rr, %ss, %cc, %ff]"
    out_idx = idx("out", "%nn", "%ff", "%oy", "%ox")
    k = r * s * c
    epi_free = (f"\n  memref.dealloc %V : memref<{f}xf32>\n  memref.dealloc %Rs : memref<{ot}>"
                if steps else "")
    epi_fill = epi_call = epi_types = epi_ref = ""
    ref_out = "%acc#0"
    epi_bound = "\n    %b4 = arith.addf %b3, %zero : f64"
    if steps:
        epi_call = (", %V" if has_bias else "") + (", %Rs" if has_res else "")
        epi_types = ((f", memref<{f}xf32>" if has_bias else "") +
                     (f", memref<{ot}>" if has_res else ""))
        epi_fill = f"""
  %V = memref.alloc() : memref<{f}xf32>
  %Rs = memref.alloc() : memref<{ot}>
  %Vv = memref.expand_shape %V [[0, 1, 2, 3]] output_shape [1, 1, 1, {f}] : memref<{f}xf32> into memref<1x1x1x{f}xf32>
{fill('Vv', f"1x1x1x{f}xf32", 2)}
{fill('Rs', ot, 3)}"""
        ref_body, ref_out = chain(steps, "%accd", "f64", "%bd", "%rd")
        scale = max([1.0] + [abs(float(st.split(":")[1])) for st in steps
                             if st.startswith("scale:")])
        epi_ref = f"""
    %accd = arith.addf %acc#0, %zero : f64
    %bv32 = memref.load %V[%ff] : memref<{f}xf32>
    %bd = arith.extf %bv32 : f32 to f64
    %rv32 = memref.load %Rs{out_idx} : memref<{ot}>
    %rd = arith.extf %rv32 : f32 to f64
{ref_body.rstrip()}"""
        # Steps amplify the convolution's rounding by at most L; the
        # kernel's tanh/erf approximations and the steps' own roundings
        # stay under 2e-6 (1 + |acc| + |ref|) (gen_epilogue_test.py).
        epi_bound = f"""
    %amp = arith.constant {1.2 * scale:.17e} : f64
    %approx = arith.constant 2.0e-06 : f64
    %oned = arith.constant 1.0 : f64
    %g4 = arith.mulf %amp, %b3 : f64
    %refa = math.absf {ref_out} : f64
    %q1 = arith.addf %oned, %ra : f64
    %q2 = arith.addf %q1, %refa : f64
    %q3 = arith.mulf %approx, %q2 : f64
    %b4 = arith.addf %g4, %q3 : f64"""
    consts = sorted(set([0, 1, 9, 65536, n, c, f, r, s, h, w, oh, ow]))
    const_lines = "\n".join(f"  %c{v} = arith.constant {v} : index" for v in consts)
    main = f"""
func.func @main() {{
{const_lines}
  %seed = arith.constant {a.seed * 2654435761 % 1000003} : index
  %golden = arith.constant 2654435761 : index
  %inv32768 = arith.constant 3.0517578125e-05 : f32
  %f1 = arith.constant 1.0 : f32
  %f4 = arith.constant 4.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %zero = arith.constant 0.0 : f64
  %u = arith.constant 6.0e-08 : f64
  %twoKu = arith.constant {2.0 * k * 6.0e-08:.17e} : f64
  %In = memref.alloc() : memref<{it}>
  %Flt = memref.alloc() : memref<{ft}>
  %Out = memref.alloc() : memref<{ot}>
{fill('In', it, 0)}
{fill('Flt', ft, 1)}{epi_fill}
  linalg.fill ins(%nan : f32) outs(%Out : memref<{ot}>)
  call @conv(%In, %Flt{epi_call}, %Out) : (memref<{it}>, memref<{ft}>{epi_types}, memref<{ot}>) -> ()
  %c0i = arith.constant 0 : i64
  %c1i = arith.constant 1 : i64
  %sh = arith.constant {sh} : index
  %sw = arith.constant {sw} : index
  %dh = arith.constant {dh} : index
  %dw = arith.constant {dw} : index
  %pt = arith.constant {pt} : index
  %pl = arith.constant {pl} : index
  %res:2 = scf.for %nn = %c0 to %c{n} step %c1 iter_args(%fa = %c0i, %ma = %zero) -> (i64, f64) {{
  %rb:2 = scf.for %oy = %c0 to %c{oh} step %c1 iter_args(%fb = %fa, %mb = %ma) -> (i64, f64) {{
  %rc:2 = scf.for %ox = %c0 to %c{ow} step %c1 iter_args(%fc = %fb, %mc = %mb) -> (i64, f64) {{
  %rd:2 = scf.for %ff = %c0 to %c{f} step %c1 iter_args(%fd = %fc, %md = %mc) -> (i64, f64) {{
    %acc:2 = scf.for %rr = %c0 to %c{r} step %c1 iter_args(%x0 = %zero, %y0 = %zero) -> (f64, f64) {{
     %acc2:2 = scf.for %ss = %c0 to %c{s} step %c1 iter_args(%x1 = %x0, %y1 = %y0) -> (f64, f64) {{
      %ohs = arith.muli %oy, %sh : index
      %rdh = arith.muli %rr, %dh : index
      %ih0 = arith.addi %ohs, %rdh : index
      %ows = arith.muli %ox, %sw : index
      %sdw = arith.muli %ss, %dw : index
      %iw0 = arith.addi %ows, %sdw : index
      // Inside the image iff pt <= ih0 < pt + h (and likewise for iw).
      %okh0 = arith.cmpi uge, %ih0, %pt : index
      %ihe = arith.addi %pt, %c{h} : index
      %okh1 = arith.cmpi ult, %ih0, %ihe : index
      %okw0 = arith.cmpi uge, %iw0, %pl : index
      %iwe = arith.addi %pl, %c{w} : index
      %okw1 = arith.cmpi ult, %iw0, %iwe : index
      %ok01 = arith.andi %okh0, %okh1 : i1
      %ok23 = arith.andi %okw0, %okw1 : i1
      %inside = arith.andi %ok01, %ok23 : i1
      %sum:2 = scf.if %inside -> (f64, f64) {{
       %ih = arith.subi %ih0, %pt : index
       %iw = arith.subi %iw0, %pl : index
       %acc3:2 = scf.for %cc = %c0 to %c{c} step %c1 iter_args(%x2 = %x1, %y2 = %y1) -> (f64, f64) {{
        %iv = memref.load %In{in_idx} : memref<{it}>
        %fv = memref.load %Flt{flt_idx} : memref<{ft}>
        %id = arith.extf %iv : f32 to f64
        %fd2 = arith.extf %fv : f32 to f64
        %pp = arith.mulf %id, %fd2 : f64
        %pa = math.absf %pp : f64
        %x3 = arith.addf %x2, %pp : f64
        %y3 = arith.addf %y2, %pa : f64
        scf.yield %x3, %y3 : f64, f64
       }}
       scf.yield %acc3#0, %acc3#1 : f64, f64
      }} else {{
       scf.yield %x1, %y1 : f64, f64
      }}
      scf.yield %sum#0, %sum#1 : f64, f64
     }}
     scf.yield %acc2#0, %acc2#1 : f64, f64
    }}
    %ov = memref.load %Out{out_idx} : memref<{ot}>
    %od = arith.extf %ov : f32 to f64{epi_ref}
    %d = arith.subf %od, {ref_out} : f64
    %err = math.absf %d : f64
    %ra = math.absf %acc#0 : f64
    %b1 = arith.mulf %twoKu, %acc#1 : f64
    %b2 = arith.mulf %u, %ra : f64
    %b3 = arith.addf %b1, %b2 : f64{epi_bound}
    %tiny = arith.constant 1.0e-30 : f64
    %bound = arith.maximumf %b4, %tiny : f64
    %ratio = arith.divf %err, %bound : f64
    // NaN compares false with "ole", so a NaN (an output never written)
    // counts as a failure.
    %okv = arith.cmpf ole, %err, %bound : f64
    %one = arith.select %okv, %c0i, %c1i : i64
    %fe = arith.addi %fd, %one : i64
    %me = arith.maximumf %md, %ratio : f64
    scf.yield %fe, %me : i64, f64
  }}
  scf.yield %rd#0, %rd#1 : i64, f64
  }}
  scf.yield %rc#0, %rc#1 : i64, f64
  }}
  scf.yield %rb#0, %rb#1 : i64, f64
  }}
  vector.print str "failures: "
  vector.print %res#0 : i64
  vector.print str "max_error_ratio: "
  vector.print %res#1 : f64
  memref.dealloc %In : memref<{it}>
  memref.dealloc %Flt : memref<{ft}>
  memref.dealloc %Out : memref<{ot}>{epi_free}
  return
}}"""
    print(f"// conv n={n} h={h} w={w} c={c} f={f} r={r} s={s} stride={sh}x{sw} "
          f"dilation={dh}x{dw} pad={pt},{pb},{pl},{pr} nchw={a.nchw} values={a.values} "
          f"seed={a.seed} steps={steps}")
    print(conv)
    print(main)


if __name__ == "__main__":
    main()
