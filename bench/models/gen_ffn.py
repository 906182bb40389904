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

With --prepacked the weights arrive packed once, as oneDNN's reordered
weights and gen's NAME_pack_b: W1 as H/W1 panels of D x W1 and W2 as D/W2
panels of H x W2 (panel widths as lib/Runtime/GemmPrepackedEntries.cpp picks
them for T rows: fp32 32 up to 32 tokens, 64 up to 64, else the whole width;
bf16 64 at every T), each matmul is a loop over
the panels with the bias, GELU and residual applied to each panel's slice
inside the loop (so the pipeline may fuse them per panel), and the module
defines the packing functions

    void NAME_pack_w1(const T *w1, T *w1p);   /* D x H -> panels */
    void NAME_pack_w2(const T *w2, T *w2p);   /* H x D -> panels */

bf16 panels hold k pairs, as gen's bf16 NAME_pack_b writes them: a K x W
panel is K/2 rows of W pairs (element (k, j) at (k/2)*2W + 2j + k%2), the
layout vdpbf16ps reads; each panel's matmul reads it through a [W, 2]-strided
view marked tensorop.b_k_pairs. That module is written on memrefs (a view
with those strides has no tensor form): per panel a zero fill, the matmul,
then the bias, GELU and rounding (first) or bias and residual (second) as
memref linalg.generic ops on the panel's slice.

With --threads N (and --prepacked) the fp32 block with small weights (W1
and W2 4 MiB or less together) at T/N <= 64 tokens a thread is one
scf.forall over N chunks of T/N rows (T % N == 0): each thread runs both
panel loops on its rows, its rows of the T x H intermediate staying in its
own caches, one OpenMP team per call; the panels are as wide as T/N rows
make them. Otherwise (bf16; fp32 with larger weights, where streaming all
of them per thread costs what the row chunks save; fp32 at more rows, whose
single panel is the matmul's own team) each panel loop is an scf.forall
over N chunks of whole panels. The pipeline runs a matmul inside a forall
on one thread. (Measurements: ROW_CHUNKS below.)

    gen_ffn.py --tokens T --model D --hidden H [--dtype bf16] [--name NAME]
               [--workspace] [--prepacked [--threads N]]
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
p.add_argument("--prepacked", action="store_true",
               help="weights packed once into panels")
p.add_argument("--threads", type=int, default=1,
               help="--prepacked: split the panel loops into this many "
                    "chunks (an scf.forall)")
a = p.parse_args()
T, D, H = a.tokens, a.model, a.hidden


def panel_width(m, n, pairs):
    """lib/Runtime/GemmPrepackedEntries.cpp's prepackedPanelWidth."""
    w = 64 if pairs else 32 if m <= 32 else 64 if m <= 64 else n
    return min(w, n)


# fp32 at --threads N > 1, at most 64 rows a thread and small weights (4
# MiB or less together): chunks of rows (above). A row chunk streams all of
# W1 and W2, a panel chunk its share. Measured (2 threads, loaded, same
# process as main's panel chunks; docs/benchmarks/models.md, twentieth
# session): rows over panels 1.23-1.27x at T = 16 and 1.36-1.41x at T = 64
# with 256/1024 (2 MiB of weights); with 768/3072 (18 MiB) 0.77-0.82x at
# T = 16 (8 rows a thread) and 0.92-1.19x, median about 1.0, at T = 64.
ROW_CHUNKS = (a.prepacked and a.dtype == "f32" and a.threads > 1
              and T // a.threads <= 64 and 2 * D * H * 4 <= 4 << 20)
if ROW_CHUNKS and T % a.threads:
    p.error(f"--prepacked --threads {a.threads}: {T} tokens do not split "
            f"into {a.threads} equal chunks of rows")
ROWS = T // a.threads if ROW_CHUNKS else T  # the rows of each matmul
W1 = panel_width(ROWS, H, a.dtype == "bf16")
W2 = panel_width(ROWS, D, a.dtype == "bf16")
if a.prepacked and a.dtype == "bf16" and (D % 2 or H % 2):
    p.error("--prepacked --dtype bf16 needs an even D and H (whole k pairs)")
if a.prepacked and (H % W1 or D % W2):
    p.error(f"--prepacked needs H % {W1} == 0 and D % {W2} == 0")
if a.prepacked and a.threads > 1 and not ROW_CHUNKS and any(
        n > 1 and n % a.threads for n in (H // W1, D // W2)):
    p.error(f"--prepacked --threads {a.threads}: the panel counts "
            f"{H // W1} and {D // W2} must divide evenly")


BF = a.dtype == "bf16"
IN = "bf16" if BF else "f32"  # x, W1, W2 and the intermediate fed to W2


def mt(r, c, e="f32"):
    return f"memref<{r}x{c}x{e}>"


def tt(r, c, e="f32"):
    return f"tensor<{r}x{c}x{e}>"


def indent(text, spaces):
    return "\n".join(" " * spaces + l if l else l for l in text.split("\n"))


def bias_add(res, src, bias, out, rows, cols):
    """res = src + bias along the columns (a linalg.generic)."""
    return f"""{res} = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}}
    ins({src}, {bias} : {tt(rows, cols)}, tensor<{cols}xf32>) outs({out} : {tt(rows, cols)}) {{
^bb0(%a: f32, %b: f32, %o: f32):
  %s = arith.addf %a, %b : f32
  linalg.yield %s : f32
}} -> {tt(rows, cols)}"""


def residual_add(res, src, other, out, rows, cols):
    """res = src + other, elementwise."""
    return f"""{res} = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}}
    ins({src}, {other} : {tt(rows, cols)}, {tt(rows, cols)}) outs({out} : {tt(rows, cols)}) {{
^bb0(%a: f32, %r: f32, %o: f32):
  %s = arith.addf %a, %r : f32
  linalg.yield %s : f32
}} -> {tt(rows, cols)}"""


def gelu_body(s, spaces):
    """The ops of GELU_tanh(s) in a linalg.generic body, yielding it."""
    return indent(f"""%half = arith.constant 0.5 : f32
%one = arith.constant 1.0 : f32
%k = arith.constant 0.797884583 : f32
%c = arith.constant 0.044715 : f32
%s2 = arith.mulf {s}, {s} : f32
%s3 = arith.mulf %s2, {s} : f32
%t0 = arith.mulf %c, %s3 : f32
%t1 = arith.addf {s}, %t0 : f32
%t2 = arith.mulf %k, %t1 : f32
%t3 = math.tanh %t2 : f32
%t4 = arith.addf %one, %t3 : f32
%t5 = arith.mulf %half, {s} : f32
%r = arith.mulf %t5, %t4 : f32
linalg.yield %r : f32""", spaces)


def gelu(res, src, out, rows, cols):
    """res = GELU(src), the tanh form oneDNN's gelu_tanh computes."""
    return f"""{res} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
    ins({src} : {tt(rows, cols)}) outs({out} : {tt(rows, cols)}) {{
^bb0(%s: f32, %o: f32):
{gelu_body("%s", 2)}
}} -> {tt(rows, cols)}"""


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


def panel_loop(res, n_panels, w, rows, cols, acc_init, body):
    """An scf loop over the panels of a T x cols result, as SSA value `res`.

    body(q, j, jl, acc) returns the ops of one panel: q the panel, j its
    first column in the result, jl its first column in `acc` (the chunk the
    loop carries), ending in `%r = tensor.insert_slice ... into acc`. With
    --threads N > 1 an scf.forall runs N chunks of whole panels (the
    pipeline gives each chunk's matmuls one thread)."""
    full = tt(rows, cols)
    if a.threads == 1 or n_panels == 1:  # (one panel: the matmul's own team)
        return f"""  {res} = scf.for %q = %c0 to %c{n_panels} step %c1 iter_args(%acc = {acc_init}) -> ({full}) {{
    %j = affine.apply affine_map<(d0) -> (d0 * {w})>(%q)
{body("%q", "%j", "%j", "%acc", full)}
    scf.yield %r : {full}
  }}
"""
    per = n_panels // a.threads
    part = tt(rows, per * w)
    return f"""  {res} = scf.forall (%t) in ({a.threads}) shared_outs(%shared = {acc_init}) -> ({full}) {{
    %p0 = affine.apply affine_map<(d0) -> (d0 * {per})>(%t)
    %col = affine.apply affine_map<(d0) -> (d0 * {per * w})>(%t)
    %part = tensor.extract_slice %shared[0, %col] [{rows}, {per * w}] [1, 1] : {full} to {part}
    %done = scf.for %ql = %c0 to %c{per} step %c1 iter_args(%acc = %part) -> ({part}) {{
      %q = arith.addi %p0, %ql : index
      %j = affine.apply affine_map<(d0) -> (d0 * {w})>(%q)
      %jl = affine.apply affine_map<(d0) -> (d0 * {w})>(%ql)
{body("%q", "%j", "%jl", "%acc", part)}
      scf.yield %r : {part}
    }}
    scf.forall.in_parallel {{
      tensor.parallel_insert_slice %done into %shared[0, %col] [{rows}, {per * w}] [1, 1] : {part} into {full}
    }}
  }}
"""


def panel_loops(np1, np2, first, second):
    """The two panel loops over all T rows (each an scf.for, or an
    scf.forall over chunks of whole panels)."""
    return f"""  %e1 = tensor.empty() : {tt(T, H)}
{panel_loop("%g", np1, W1, T, H, "%e1", first)}  %e2 = tensor.empty() : {tt(T, D)}
{panel_loop("%out", np2, W2, T, D, "%e2", second)}"""


def row_chunks(np1, np2, first, second):
    """One scf.forall over --threads chunks of ROWS rows, each running both
    panel loops on its rows (%xs; its intermediate %gs)."""
    def loop(res, n_panels, w, cols, acc_init, body):
        full = tt(ROWS, cols)
        return f"""    {res} = scf.for %q = %c0 to %c{n_panels} step %c1 iter_args(%acc = {acc_init}) -> ({full}) {{
      %j = affine.apply affine_map<(d0) -> (d0 * {w})>(%q)
{indent(body("%q", "%j", "%j", "%acc", full), 2)}
      scf.yield %r : {full}
    }}
"""
    chunk = tt(ROWS, D)
    return f"""  %e2 = tensor.empty() : {tt(T, D)}
  %out = scf.forall (%t) in ({a.threads}) shared_outs(%shared = %e2) -> ({tt(T, D)}) {{
    %row = affine.apply affine_map<(d0) -> (d0 * {ROWS})>(%t)
    %xs = tensor.extract_slice %x[%row, 0] [{ROWS}, {D}] [1, 1] : {tt(T, D)} to {chunk}
    %e1 = tensor.empty() : {tt(ROWS, H)}
{loop("%gs", np1, W1, H, "%e1", first)}    %os = tensor.extract_slice %shared[%row, 0] [{ROWS}, {D}] [1, 1] : {tt(T, D)} to {chunk}
{loop("%done", np2, W2, D, "%os", second)}    scf.forall.in_parallel {{
      tensor.parallel_insert_slice %done into %shared[%row, 0] [{ROWS}, {D}] [1, 1] : {chunk} into {tt(T, D)}
    }}
  }}
"""


def prepacked_module():
    """The fp32 block with panel-packed weights and its packing functions."""
    np1, np2 = H // W1, D // W2
    p1, p2 = f"memref<{np1}x{D}x{W1}xf32>", f"memref<{np2}x{H}x{W2}xf32>"
    q1, q2 = f"tensor<{np1}x{D}x{W1}xf32>", f"tensor<{np2}x{H}x{W2}xf32>"

    # The panels of ROWS rows: of %x and %g (T), or of a row chunk's %xs
    # and %gs (ROW_CHUNKS).
    X, G = ("%xs", "%gs") if ROW_CHUNKS else ("%x", "%g")
    R = ROWS

    def first(q, j, jl, acc, acc_type):
        return f"""    %wq = tensor.extract_slice %w1[{q}, 0, 0] [1, {D}, {W1}] [1, 1, 1] : {q1} to {tt(D, W1)}
    %bq = tensor.extract_slice %b1[{j}] [{W1}] [1] : tensor<{H}xf32> to tensor<{W1}xf32>
    %eq = tensor.extract_slice {acc}[0, {jl}] [{R}, {W1}] [1, 1] : {acc_type} to {tt(R, W1)}
    %zq = linalg.fill ins(%zero : f32) outs(%eq : {tt(R, W1)}) -> {tt(R, W1)}
    %hq = linalg.matmul ins({X}, %wq : {tt(R, D)}, {tt(D, W1)}) outs(%zq : {tt(R, W1)}) -> {tt(R, W1)}
{indent(bias_add("%hbq", "%hq", "%bq", "%eq", R, W1), 4)}
{indent(gelu("%gq", "%hbq", "%eq", R, W1), 4)}
    %r = tensor.insert_slice %gq into {acc}[0, {jl}] [{R}, {W1}] [1, 1] : {tt(R, W1)} into {acc_type}"""

    def second(q, j, jl, acc, acc_type):
        return f"""    %wq = tensor.extract_slice %w2[{q}, 0, 0] [1, {H}, {W2}] [1, 1, 1] : {q2} to {tt(H, W2)}
    %bq = tensor.extract_slice %b2[{j}] [{W2}] [1] : tensor<{D}xf32> to tensor<{W2}xf32>
    %xq = tensor.extract_slice {X}[0, {j}] [{R}, {W2}] [1, 1] : {tt(R, D)} to {tt(R, W2)}
    %eq = tensor.extract_slice {acc}[0, {jl}] [{R}, {W2}] [1, 1] : {acc_type} to {tt(R, W2)}
    %zq = linalg.fill ins(%zero : f32) outs(%eq : {tt(R, W2)}) -> {tt(R, W2)}
    %yq = linalg.matmul ins({G}, %wq : {tt(R, H)}, {tt(H, W2)}) outs(%zq : {tt(R, W2)}) -> {tt(R, W2)}
{indent(bias_add("%ybq", "%yq", "%bq", "%eq", R, W2), 4)}
{indent(residual_add("%oq", "%ybq", "%xq", "%eq", R, W2), 4)}
    %r = tensor.insert_slice %oq into {acc}[0, {jl}] [{R}, {W2}] [1, 1] : {tt(R, W2)} into {acc_type}"""

    counts = sorted({np1, np2, np1 // a.threads or 1, np2 // a.threads or 1})
    consts = "\n".join(f"  %c{n} = arith.constant {n} : index"
                        for n in counts if n > 1)
    print(f"""// FFN block, weights packed once: T={T} D={D} H={H} f32, panels {W1} / {W2}, {a.threads} thread(s){", chunks of " + str(ROWS) + " rows" if ROW_CHUNKS else ""} (bench/models/gen_ffn.py --prepacked)
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @{a.name}_pack_w1(%w: {mt(D, H)}, %wp: {p1}) {{
  %e = memref.expand_shape %w [[0], [1, 2]] output_shape [{D}, {np1}, {W1}] : {mt(D, H)} into memref<{D}x{np1}x{W1}xf32>
  linalg.transpose ins(%e : memref<{D}x{np1}x{W1}xf32>) outs(%wp : {p1}) permutation = [1, 0, 2]
  return
}}
func.func @{a.name}_pack_w2(%w: {mt(H, D)}, %wp: {p2}) {{
  %e = memref.expand_shape %w [[0], [1, 2]] output_shape [{H}, {np2}, {W2}] : {mt(H, D)} into memref<{H}x{np2}x{W2}xf32>
  linalg.transpose ins(%e : memref<{H}x{np2}x{W2}xf32>) outs(%wp : {p2}) permutation = [1, 0, 2]
  return
}}
func.func @{a.name}(%xm: {mt(T, D)}, %w1m: {p1}, %b1m: memref<{H}xf32>,
                    %w2m: {p2}, %b2m: memref<{D}xf32>, %outm: {mt(T, D)}{WS_ARG}) {{
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
{consts}
  %x = bufferization.to_tensor %xm restrict : {mt(T, D)} to {tt(T, D)}
  %w1 = bufferization.to_tensor %w1m restrict : {p1} to {q1}
  %b1 = bufferization.to_tensor %b1m restrict : memref<{H}xf32> to tensor<{H}xf32>
  %w2 = bufferization.to_tensor %w2m restrict : {p2} to {q2}
  %b2 = bufferization.to_tensor %b2m restrict : memref<{D}xf32> to tensor<{D}xf32>
{row_chunks(np1, np2, first, second) if ROW_CHUNKS else
 panel_loops(np1, np2, first, second)}  bufferization.materialize_in_destination %out in restrict writable %outm : ({tt(T, D)}, {mt(T, D)}) -> ()
  return
}}{WS_SIZE}""")


def pair_pack(name, k, n, w):
    """NAME(w: K x N bf16, wp: the pair panels), as gen's bf16 NAME_pack_b
    (scalar loops: it runs once per weight matrix)."""
    return f"""func.func @{name}(%w: {mt(k, n, "bf16")}, %wp: memref<{k * n}xbf16>) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %K = arith.constant {k} : index
  %N = arith.constant {n} : index
  scf.for %k = %c0 to %K step %c1 {{
    scf.for %n = %c0 to %N step %c1 {{
      %v = memref.load %w[%k, %n] : {mt(k, n, "bf16")}
      %at = affine.apply affine_map<(d0, d1) -> ((d1 floordiv {w}) * {k * w} + (d0 floordiv 2) * {2 * w} + (d1 mod {w}) * 2 + d0 mod 2)>(%k, %n)
      memref.store %v, %wp[%at] : memref<{k * n}xbf16>
    }}
  }}
  return
}}
"""


def prepacked_bf16_module():
    """The bf16 block on memrefs, weights packed once into k-pair panels."""
    np1, np2 = H // W1, D // W2
    g1 = f"memref<{D * H}xbf16>"
    g2 = f"memref<{H * D}xbf16>"

    def sub(e, rows, cols, ld):
        return f"memref<{rows}x{cols}x{e}, strided<[{ld}, 1], offset: ?>>"

    def vec(n):
        return f"memref<{n}xf32, strided<[1], offset: ?>>"

    def generic(maps, ins, outs, body):
        ins_v = ", ".join(v for v, _ in ins)
        ins_t = ", ".join(t for _, t in ins)
        args = ", ".join(f"%a{i}: {e}" for i, e in enumerate(body[0]))
        return f"""    linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}}
        ins({ins_v} : {ins_t}) outs({outs[0]} : {outs[1]}) {{
    ^bb0({args}):
{body[1]}
    }}"""

    add = ("      %s = arith.addf %a0, %a1 : f32\n      linalg.yield %s : f32")
    gelu_ops = gelu_body("%a0", 6)
    trunc = "      %tb = arith.truncf %a0 : f32 to bf16\n      linalg.yield %tb : bf16"

    def first(q, j):
        # (The panel's f32 result is a buffer of its own: the microkernel
        # then writes only the bf16 output, as with the tensor form's
        # bufferized intermediate; tensorop-bind-workspace places it.)
        hq, gq, bq = mt(T, W1), sub("bf16", T, W1, H), vec(W1)
        view = f"memref<{D}x{W1}xbf16, strided<[{W1}, 2], offset: ?>>"
        return f"""    %off = affine.apply affine_map<(d0) -> (d0 * {D * W1})>({q})
    %wq = memref.reinterpret_cast %w1 to offset: [%off], sizes: [{D}, {W1}], strides: [{W1}, 2] : {g1} to {view}
    %hq = memref.alloc() {{alignment = 64 : i64}} : {hq}
    %gq = memref.subview %g[0, {j}] [{T}, {W1}] [1, 1] : {mt(T, H, "bf16")} to {gq}
    %bq = memref.subview %b1[{j}] [{W1}] [1] : memref<{H}xf32> to {bq}
    linalg.fill ins(%zero : f32) outs(%hq : {hq})
    linalg.matmul ins(%x, %wq : {mt(T, D, "bf16")}, {view}) outs(%hq : {hq}) {{tensorop.b_k_pairs}}
{generic("#id, #row, #id", [("%hq", hq), ("%bq", bq)], ("%hq", hq), (["f32", "f32", "f32"], add))}
{generic("#id, #id", [("%hq", hq)], ("%hq", hq), (["f32", "f32"], gelu_ops))}
{generic("#id, #id", [("%hq", hq)], ("%gq", gq), (["f32", "bf16"], trunc))}
    memref.dealloc %hq : {hq}
"""

    def second(q, j):
        oq, rq, bq = sub("f32", T, W2, D), sub("f32", T, W2, D), vec(W2)
        view = f"memref<{H}x{W2}xbf16, strided<[{W2}, 2], offset: ?>>"
        return f"""    %off = affine.apply affine_map<(d0) -> (d0 * {H * W2})>({q})
    %wq = memref.reinterpret_cast %w2 to offset: [%off], sizes: [{H}, {W2}], strides: [{W2}, 2] : {g2} to {view}
    %oq = memref.subview %out[0, {j}] [{T}, {W2}] [1, 1] : {mt(T, D)} to {oq}
    %rq = memref.subview %res[0, {j}] [{T}, {W2}] [1, 1] : {mt(T, D)} to {rq}
    %bq = memref.subview %b2[{j}] [{W2}] [1] : memref<{D}xf32> to {bq}
    linalg.fill ins(%zero : f32) outs(%oq : {oq})
    linalg.matmul ins(%g, %wq : {mt(T, H, "bf16")}, {view}) outs(%oq : {oq}) {{tensorop.b_k_pairs}}
{generic("#id, #row, #id", [("%oq", oq), ("%bq", bq)], ("%oq", oq), (["f32", "f32", "f32"], add))}
{generic("#id, #id, #id", [("%oq", oq), ("%rq", rq)], ("%oq", oq), (["f32", "f32", "f32"], add))}
"""

    def loop(n_panels, w, body):
        """scf.for over the panels, or scf.forall over --threads chunks."""
        if a.threads == 1 or n_panels == 1:
            return f"""  scf.for %q = %c0 to %c{n_panels} step %c1 {{
    %j = affine.apply affine_map<(d0) -> (d0 * {w})>(%q)
{body("%q", "%j")}  }}
"""
        per = n_panels // a.threads
        return f"""  scf.forall (%t) in ({a.threads}) {{
    %p0 = affine.apply affine_map<(d0) -> (d0 * {per})>(%t)
    scf.for %ql = %c0 to %c{per} step %c1 {{
      %q = arith.addi %p0, %ql : index
      %j = affine.apply affine_map<(d0) -> (d0 * {w})>(%q)
{indent(body("%q", "%j"), 2)}    }}
  }}
"""

    counts = sorted({np1, np2, np1 // a.threads or 1, np2 // a.threads or 1})
    consts = "\n".join(f"  %c{n} = arith.constant {n} : index"
                       for n in counts if n > 1)
    print(f"""// FFN block, weights packed once in k pairs: T={T} D={D} H={H} bf16, panels {W1} / {W2}, {a.threads} thread(s) (bench/models/gen_ffn.py --prepacked --dtype bf16)
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
{pair_pack(a.name + "_pack_w1", D, H, W1)}{pair_pack(a.name + "_pack_w2", H, D, W2)}func.func @{a.name}(%x: {mt(T, D, "bf16")}, %w1: {g1}, %b1: memref<{H}xf32>,
                    %w2: {g2}, %b2: memref<{D}xf32>, %res: {mt(T, D)}, %out: {mt(T, D)}{WS_ARG}) {{
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
{consts}
  %g = memref.alloc() {{alignment = 64 : i64}} : {mt(T, H, "bf16")}
{loop(np1, W1, first)}{loop(np2, W2, second)}  memref.dealloc %g : {mt(T, H, "bf16")}
  return
}}{WS_SIZE}""")


if a.prepacked and BF:
    prepacked_bf16_module()
    raise SystemExit(0)
if a.prepacked:
    prepacked_module()
    raise SystemExit(0)

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
{indent(bias_add("%hb", "%h", "%b1", "%e1", T, H), 2)}
{indent(gelu("%g", "%hb", "%e1", T, H), 2)}{ROUND}
  %e2 = tensor.empty() : {tt(T, D)}
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : {tt(T, D)}) -> {tt(T, D)}
  %y = linalg.matmul ins({G2}, %w2 : {tt(T, H, IN)}, {tt(H, D, IN)}) outs(%z2 : {tt(T, D)}) -> {tt(T, D)}
{indent(bias_add("%yb", "%y", "%b2", "%e2", T, D), 2)}
{indent(residual_add("%out", "%yb", RES, "%e2", T, D), 2)}
  bufferization.materialize_in_destination %out in restrict writable %outm : ({tt(T, D)}, {mt(T, D)}) -> ()
  return
}}{WS_SIZE}""")
