#!/usr/bin/env python3
"""Writes a self-checking MLIR program for one GEMM shape.

The program fills A, B (and C, which linalg.matmul accumulates onto) with
seeded values, calls @gemm (a linalg.matmul that the TensorOp pipeline turns
into packed microkernels), then recomputes C in f64 with plain scf loops and
checks every element against the MEASURE.md bound

    |C - R| <= 2 * K * u * (|A||B|)_ij + u * |R_ij|,   u = 6e-8 (fp32).

It prints "failures: N" (elements over the bound, NaNs included) and the
largest error/bound ratio. Values are either seeded pseudo-random in [-1, 1)
("random") or small integers whose products and sums are exact ("ints").

With --b-guard-page, @gemm gets a copy of B that ends exactly at a 4 KiB page
boundary followed by a PROT_NONE page (mprotect), so a kernel that reads past
the last element of B crashes instead of passing. --a-guard-page does the
same for A (both may be given).

With --dtype bf16 or f16, A and B hold the seeded values rounded to that
type (C stays f32, the accumulation fp32); the f64 reference reads the same
rounded values, whose products are exact in fp32, so the bound is the fp32
one above.
"""
import argparse


def element_check(two_k_u):
    """MLIR lines judging one element %cd against the f64 reference %rv and
    its magnitude %sv with the MEASURE.md bound (`two_k_u` names the 2*K*u
    constant): %ratio = err / bound and %one = 1 if it fails (NaN fails).
    Shared with gen_batch_matmul_test.py."""
    return f"""    %d = arith.subf %cd, %rv : f64
    %err = math.absf %d : f64
    %ra = math.absf %rv : f64
    %b1 = arith.mulf {two_k_u}, %sv : f64
    %b2 = arith.mulf %u, %ra : f64
    %b3 = arith.addf %b1, %b2 : f64
    %tiny = arith.constant 1.0e-30 : f64
    %bound = arith.maximumf %b3, %tiny : f64
    %ratio = arith.divf %err, %bound : f64
    // NaN compares false with "ole", so a NaN counts as a failure.
    %ok = arith.cmpf ole, %err, %bound : f64
    %one = arith.select %ok, %c0i, %c1i : i64
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("m", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("k", type=int)
    ap.add_argument("--values", choices=["random", "ints"], default="random")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--transpose-a", action="store_true")
    ap.add_argument("--transpose-b", action="store_true")
    ap.add_argument("--tensors", action="store_true",
                    help="@gemm works on tensors (bufferized by the pipeline)")
    ap.add_argument("--sketch", default="",
                    help="a #tensorop.sketch<...> to attach instead of asking the advisor")
    ap.add_argument("--dynamic", default="",
                    help="letters of m, n, k that @gemm sees as dynamic (?) dimensions")
    ap.add_argument("--size-hint", default="",
                    help="M,N,K for a tensorop.size_hint on the matmul")
    ap.add_argument("--b-guard-page", action="store_true",
                    help="B ends at a page boundary followed by an inaccessible page")
    ap.add_argument("--a-guard-page", action="store_true",
                    help="A ends at a page boundary followed by an inaccessible page")
    ap.add_argument("--dtype", choices=["f32", "bf16", "f16"], default="f32",
                    help="element type of A and B (C is f32)")
    a = ap.parse_args()
    if (a.a_guard_page or a.b_guard_page) and a.dtype != "f32":
        ap.error("--a-guard-page and --b-guard-page work on f32 operands only")
    dt = a.dtype
    if (a.a_guard_page or a.b_guard_page) and a.tensors:
        ap.error("--a-guard-page and --b-guard-page work on memrefs only")
    if a.dynamic and (a.a_guard_page or a.b_guard_page):
        ap.error("--dynamic does not combine with guard pages")
    m, n, k = a.m, a.n, a.k
    ashape = (k, m) if a.transpose_a else (m, k)
    bshape = (n, k) if a.transpose_b else (k, n)
    amap = "affine_map<(d0, d1, d2) -> (d2, d0)>" if a.transpose_a else "affine_map<(d0, d1, d2) -> (d0, d2)>"
    bmap = "affine_map<(d0, d1, d2) -> (d1, d2)>" if a.transpose_b else "affine_map<(d0, d1, d2) -> (d2, d1)>"
    cmap = "affine_map<(d0, d1, d2) -> (d0, d1)>"
    maps = ""
    if a.transpose_a or a.transpose_b:
        maps = f" indexing_maps = [{amap}, {bmap}, {cmap}]"
    attr = f" {{tensorop.sketch = {a.sketch}}}" if a.sketch else ""
    if a.size_hint:
        attr = f" {{tensorop.size_hint = array<i64: {a.size_hint}>}}"
    at = f"{ashape[0]}x{ashape[1]}x{dt}"
    bt = f"{bshape[0]}x{bshape[1]}x{dt}"
    ct = f"{m}x{n}xf32"
    def guarded(name, shape, ty):
        """A and B as @gemm sees them: with a guard page, a view whose last
        element is the last float of a page (4 KiB = 1024 floats), and the
        code that sets it up and tears it down."""
        elems = shape[0] * shape[1]
        end = (elems + 1023) // 1024 * 1024
        gty = f"{ty}, strided<[{shape[1]}, 1], offset: {end - elems}>"
        buf = f"memref<{end + 1024}xf32>"
        n = name.lower()
        setup = f"""
  // {name} copied to the end of page-aligned memory; the next page is made
  // inaccessible (mprotect returns 0, printed and checked).
  %{n}buf = memref.alloc() {{alignment = 4096 : i64}} : {buf}
  %{name}g = memref.reinterpret_cast %{n}buf to offset: [{end - elems}], sizes: [{shape[0]}, {shape[1]}], strides: [{shape[1]}, 1] : {buf} to memref<{gty}>
  memref.copy %{name}, %{name}g : memref<{ty}> to memref<{gty}>
  %{n}base = memref.extract_aligned_pointer_as_index %{n}buf : {buf} -> index
  %{n}base64 = arith.index_cast %{n}base : index to i64
  %{n}gpage = arith.constant {end * 4} : i64
  %{n}gaddr = arith.addi %{n}base64, %{n}gpage : i64
  %{n}mp = func.call @mprotect(%{n}gaddr, %plen, %prot_none) : (i64, i64, i32) -> i32
  vector.print str "mprotect: "
  vector.print %{n}mp : i32"""
        teardown = f"""
  %{n}mp2 = func.call @mprotect(%{n}gaddr, %plen, %prot_rw) : (i64, i64, i32) -> i32
  memref.dealloc %{n}buf : {buf}"""
        return gty, setup, teardown

    def dyn(shape_letters, ty="f32"):
        return "x".join("?" if l in a.dynamic else str({"m": m, "n": n, "k": k}[l])
                        for l in shape_letters) + "x" + ty
    dat = dyn("km" if a.transpose_a else "mk", dt)
    dbt = dyn("nk" if a.transpose_b else "kn", dt)
    dct = dyn("mn")
    gat, gbt = at, bt
    guard_setup = guard_teardown = ""
    a_arg, b_arg = "%A", "%B"
    if a.a_guard_page or a.b_guard_page:
        guard_setup = """
  %plen = arith.constant 4096 : i64
  %prot_none = arith.constant 0 : i32
  %prot_rw = arith.constant 3 : i32"""
    if a.a_guard_page:
        gat, setup, teardown = guarded("A", ashape, at)
        a_arg = "%Ag"
        guard_setup += setup
        guard_teardown += teardown
    if a.b_guard_page:
        gbt, setup, teardown = guarded("B", bshape, bt)
        b_arg = "%Bg"
        guard_setup += setup
        guard_teardown += teardown

    if a.dynamic:
        # @gemm sees ? for the named dimensions; main casts its static
        # buffers to those types.
        at_s, bt_s, ct_s = at, bt, ct
        at, bt, ct = dat, dbt, dct
        gat, gbt = dat, dbt
    if a.tensors:
        gemm = f"""
func.func @gemm(%A: memref<{at}>, %B: memref<{bt}>, %C: memref<{ct}>) {{
  %a = bufferization.to_tensor %A restrict : memref<{at}> to tensor<{at}>
  %b = bufferization.to_tensor %B restrict : memref<{bt}> to tensor<{bt}>
  %c = bufferization.to_tensor %C restrict : memref<{ct}> to tensor<{ct}>
  %r = linalg.matmul{maps} ins(%a, %b : tensor<{at}>, tensor<{bt}>) outs(%c : tensor<{ct}>) -> tensor<{ct}>
  bufferization.materialize_in_destination %r in restrict writable %C : (tensor<{ct}>, memref<{ct}>) -> ()
  return
}}"""
    else:
        gemm = f"""
func.func @gemm(%A: memref<{gat}>, %B: memref<{gbt}>, %C: memref<{ct}>) {{
  linalg.matmul{maps} ins(%A, %B : memref<{gat}>, memref<{gbt}>) outs(%C : memref<{ct}>){attr}
  return
}}"""
        attr = ""
    if a.dynamic:
        at, bt, ct = at_s, bt_s, ct_s
    if a.tensors and a.sketch:
        gemm = gemm.replace(f"-> tensor<{ct}>\n", f"-> tensor<{ct}>\n", 1)
        gemm = gemm.replace(f" outs(%c : tensor<{ct}>) -> tensor<{ct}>",
                            f" outs(%c : tensor<{ct}>){{tensorop.sketch = {a.sketch}}} -> tensor<{ct}>".replace("){", ") {", 1))

    if a.values == "ints":
        # Small integers in [-4, 4]: every product and partial sum is exact.
        gen = lambda i, j, salt: f"""
    %t0 = arith.muli {i}, %c{salt}_1 : index
    %t1 = arith.muli {j}, %c{salt}_2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.remui %t2, %c9 : index
    %t4 = arith.index_cast %t3 : index to i64
    %t5 = arith.sitofp %t4 : i64 to f32
    %v = arith.subf %t5, %f4 : f32"""
    else:
        # A 32-bit multiplicative hash of (i, j, seed) mapped to [-1, 1).
        gen = lambda i, j, salt: f"""
    %t0 = arith.muli {i}, %c{salt}_1 : index
    %t1 = arith.muli {j}, %c{salt}_2 : index
    %t2 = arith.addi %t0, %t1 : index
    %t3 = arith.addi %t2, %seed : index
    %t4 = arith.muli %t3, %golden : index
    %t5 = arith.remui %t4, %c65536 : index
    %t6 = arith.index_cast %t5 : index to i64
    %t7 = arith.sitofp %t6 : i64 to f32
    %t8 = arith.mulf %t7, %inv32768 : f32
    %v = arith.subf %t8, %f1 : f32"""

    def fill(name, rows, cols, salt, ty="f32"):
        store = f"memref.store %v, %{name}[%i, %j] : memref<{rows}x{cols}xf32>"
        if ty != "f32":
            store = (f"%vt = arith.truncf %v : f32 to {ty}\n    "
                     f"memref.store %vt, %{name}[%i, %j] : memref<{rows}x{cols}x{ty}>")
        return f"""
  scf.for %i = %c0 to %c{rows} step %c1 {{
   scf.for %j = %c0 to %c{cols} step %c1 {{{gen('%i', '%j', salt)}
    {store}
   }}
  }}"""

    consts = set([0, 1, 9, 65536, m, n, k, ashape[0], ashape[1], bshape[0], bshape[1]])
    const_lines = "\n".join(f"  %c{v} = arith.constant {v} : index" for v in sorted(consts))
    salts = "\n".join(f"  %c{s}_1 = arith.constant {p} : index\n  %c{s}_2 = arith.constant {q} : index"
                      for s, p, q in [(1, 7919, 104729), (2, 15485863, 3571), (3, 2654435, 40503)])
    aload = "%A[%kk, %i]" if a.transpose_a else "%A[%i, %kk]"
    bload = "%B[%j, %kk]" if a.transpose_b else "%B[%kk, %j]"
    if a.dynamic:
        dyn_call = f"""  %Ad = memref.cast %A : memref<{at}> to memref<{dat}>
  %Bd = memref.cast %B : memref<{bt}> to memref<{dbt}>
  %Cd = memref.cast %C : memref<{ct}> to memref<{dct}>
  call @gemm(%Ad, %Bd, %Cd) : (memref<{dat}>, memref<{dbt}>, memref<{dct}>) -> ()"""
    else:
        dyn_call = f"""  call @gemm({a_arg}, {b_arg}, %C) : (memref<{gat}>, memref<{gbt}>, memref<{ct}>) -> ()"""
    main = f"""
func.func @main() {{
{const_lines}
{salts}
  %seed = arith.constant {a.seed * 2654435761 % 1000003} : index
  %golden = arith.constant 2654435761 : index
  %inv32768 = arith.constant 3.0517578125e-05 : f32
  %f1 = arith.constant 1.0 : f32
  %f4 = arith.constant 4.0 : f32
  %zero = arith.constant 0.0 : f64
  %u = arith.constant 6.0e-08 : f64
  %twoKu = arith.constant {2.0 * k * 6.0e-08:.17e} : f64
  %A = memref.alloc() : memref<{at}>
  %B = memref.alloc() : memref<{bt}>
  %C = memref.alloc() : memref<{ct}>
{fill('A', ashape[0], ashape[1], 1, dt)}
{fill('B', bshape[0], bshape[1], 2, dt)}
{fill('C', m, n, 3)}
  // R = C0 + A*B and S = |C0| + |A||B| in f64, before @gemm overwrites C.
  %R = memref.alloc() : memref<{m}x{n}xf64>
  %S = memref.alloc() : memref<{m}x{n}xf64>
  scf.for %i = %c0 to %c{m} step %c1 {{
   scf.for %j = %c0 to %c{n} step %c1 {{
    %c0v = memref.load %C[%i, %j] : memref<{ct}>
    %c0d = arith.extf %c0v : f32 to f64
    %c0a = math.absf %c0d : f64
    %acc:2 = scf.for %kk = %c0 to %c{k} step %c1 iter_args(%r = %c0d, %s = %c0a) -> (f64, f64) {{
     %av = memref.load {aload} : memref<{at}>
     %bv = memref.load {bload} : memref<{bt}>
     %ad = arith.extf %av : {dt} to f64
     %bd = arith.extf %bv : {dt} to f64
     %p = arith.mulf %ad, %bd : f64
     %pa = math.absf %p : f64
     %r2 = arith.addf %r, %p : f64
     %s2 = arith.addf %s, %pa : f64
     scf.yield %r2, %s2 : f64, f64
    }}
    memref.store %acc#0, %R[%i, %j] : memref<{m}x{n}xf64>
    memref.store %acc#1, %S[%i, %j] : memref<{m}x{n}xf64>
   }}
  }}
{guard_setup}
{dyn_call}
{guard_teardown}
  %c0i = arith.constant 0 : i64
  %c1i = arith.constant 1 : i64
  %res:2 = scf.for %i = %c0 to %c{m} step %c1 iter_args(%f = %c0i, %mx = %zero) -> (i64, f64) {{
   %inner:2 = scf.for %j = %c0 to %c{n} step %c1 iter_args(%f2 = %f, %mx2 = %mx) -> (i64, f64) {{
    %cv = memref.load %C[%i, %j] : memref<{ct}>
    %cd = arith.extf %cv : f32 to f64
    %rv = memref.load %R[%i, %j] : memref<{m}x{n}xf64>
    %sv = memref.load %S[%i, %j] : memref<{m}x{n}xf64>
{element_check("%twoKu")}    %f3 = arith.addi %f2, %one : i64
    %mx3 = arith.maximumf %mx2, %ratio : f64
    scf.yield %f3, %mx3 : i64, f64
   }}
   scf.yield %inner#0, %inner#1 : i64, f64
  }}
  vector.print str "failures: "
  vector.print %res#0 : i64
  vector.print str "max_error_ratio: "
  vector.print %res#1 : f64
  memref.dealloc %A : memref<{at}>
  memref.dealloc %B : memref<{bt}>
  memref.dealloc %C : memref<{ct}>
  memref.dealloc %R : memref<{m}x{n}xf64>
  memref.dealloc %S : memref<{m}x{n}xf64>
  return
}}"""
    print(f"// gemm {m}x{n}x{k}{' ' + dt if dt != 'f32' else ''} values={a.values} seed={a.seed} "
          f"transpose_a={a.transpose_a} transpose_b={a.transpose_b} tensors={a.tensors}")
    print(gemm)
    if a.a_guard_page or a.b_guard_page:
        print("func.func private @mprotect(i64, i64, i32) -> i32")
    print(main)


if __name__ == "__main__":
    main()
