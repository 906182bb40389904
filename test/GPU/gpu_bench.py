#!/usr/bin/env python3
"""Builds the GPU benchmark/validation bundle here and tabulates its results.

The build machine has MLIR and no GPU; the GPU machine has a GPU and no MLIR.
So: (1) here, `tensorop gen` every case (cubin + launch description), build
the AOT link checks (generated object + libtensorop_cuda_runtime in an
ordinary C program) and copy tensorop-gpu-runner, all into one folder;
(2) on the GPU machine run that folder's run.sh, which writes one JSON line
per case; (3) here, turn those lines into the Markdown table.

  gpu_bench.py bundle --build build --out gpu_bundle \
      [--variants test/GPU/Inputs/variants.json]
  (GPU machine)  bash gpu_bundle/run.sh            -> $OUT/results.jsonl
  gpu_bench.py table results.jsonl > docs/benchmarks/gpu-gemm.md
"""

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.normpath(os.path.join(HERE, "..", ".."))

SHAPES = [(1024, 1024, 1024), (4096, 4096, 4096), (8192, 8192, 8192),
          (16384, 1024, 8192), (1024, 8192, 16384), (127, 1000, 513)]
DTYPES = ["bf16", "f16", "tf32", "f32"]
# --set classes: the shape-class table of docs/benchmarks/gpu-gemm.md (squares
# 1024..16384; LLM shapes, tokens x hidden 4096/11008/14336; irregular;
# skinny), each with the precisions it is measured in. bf16 and f16 take
# every shape; TF32 and fp32 a subset (their kernels are far slower, and the
# GPU time of one session is limited).
ALL4 = ["bf16", "f16", "tf32", "f32"]
HALF = ["bf16", "f16"]
CLASSES = [
    ("square", (1024, 1024, 1024), ALL4), ("square", (2048, 2048, 2048), ALL4),
    ("square", (4096, 4096, 4096), ALL4), ("square", (8192, 8192, 8192), HALF + ["tf32"]),
    ("square", (16384, 16384, 16384), ["bf16"]),
    ("llm", (1, 4096, 4096), ALL4), ("llm", (16, 11008, 4096), HALF + ["tf32"]),
    ("llm", (128, 14336, 4096), HALF + ["tf32"]), ("llm", (16, 4096, 14336), HALF),
    ("llm", (128, 4096, 11008), HALF), ("llm", (4096, 11008, 4096), HALF + ["tf32"]),
    ("llm", (4096, 4096, 14336), HALF),
    ("irregular", (2000, 3000, 1504), ALL4), ("irregular", (127, 1000, 513), ALL4),
    ("irregular", (4093, 4099, 4111), HALF),
    ("skinny", (3, 4096, 4096), HALF), ("skinny", (4096, 16, 4096), HALF),
]
# Correctness cases beyond the benchmark shapes: primes, 1, K=1, tiny tiles.
EDGES = [("1x1x1", "bf16", "nvidia-sm90"), ("97x131x67", "bf16", "nvidia-sm90"),
         ("8x8x8", "bf16", "nvidia-sm90"), ("1x8x8", "f16", "nvidia-sm90"),
         ("300x520x136", "f16", "nvidia-sm90"), ("257x136x72", "bf16", "nvidia-sm80"),
         ("1x1x1", "f32", "nvidia-sm90"), ("131x67x1", "tf32", "nvidia-sm90"),
         ("4096x4096x4096", "bf16", "nvidia-sm80"), ("8192x8192x8192", "f16", "nvidia-sm80")]
AOT = [("127x1000x513", "bf16"), ("256x384x136", "f16"), ("64x80x33", "f32"),
       ("200x136x72", "tf32")]


def gen(tensorop, request, out, name):
    r = subprocess.run([tensorop, "gen", request, "-o", out, "--name", name],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("tensorop gen failed for %r:\n%s%s" % (request, r.stdout, r.stderr))
    return json.load(open(os.path.join(out, "report.json")))


def bundle(args):
    build = os.path.abspath(args.build)
    tensorop = os.path.join(build, "bin", "tensorop")
    runner = os.path.join(build, "bin", "tensorop-gpu-runner")
    runtime = os.path.join(build, "lib", "libtensorop_cuda_runtime.a")
    out = os.path.abspath(args.out)
    cases_dir = os.path.join(out, "cases")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(cases_dir)
    cases = []
    bench = ([(m, n, k, dt) for (m, n, k) in SHAPES for dt in DTYPES]
             if args.set == "default" else
             [(m, n, k, dt) for (_, (m, n, k), dts) in CLASSES for dt in dts])
    if args.only:
        # A subset (e.g. the rows a merge changed): "MxNxK type" must match.
        bench = [c for c in bench if re.search(args.only, "%dx%dx%d %s" % c)]
    for (m, n, k, dt) in bench:
        cid = "gemm_%dx%dx%d_%s" % (m, n, k, dt)
        request = "%dx%dx%d %s GEMM for nvidia-sm90" % (m, n, k, dt)
        gen(tensorop, request, os.path.join(cases_dir, cid), cid)
        cases.append({"id": cid, "time": True, "kind": "bench", "request": request})
    for shape, dt, target in (EDGES if args.set == "default" else []):
        cid = "edge_%s_%s_%s" % (shape, dt, target.split("-")[1])
        request = "%s %s GEMM for %s" % (shape, dt, target)
        gen(tensorop, request, os.path.join(cases_dir, cid), cid)
        big = shape.startswith("4096") or shape.startswith("8192")
        cases.append({"id": cid, "time": big, "kind": "edge", "request": request})
    aot_dir = os.path.join(out, "aot")
    os.makedirs(aot_dir)
    for shape, dt in (AOT if args.set == "default" else []):
        m, n, k = shape.split("x")
        name = "aot_%s_%s" % (shape, dt)
        d = os.path.join(aot_dir, name)
        gen(tensorop, "%s %s GEMM for nvidia-sm90" % (shape, dt), d, name)
        at = "f32" if dt == "tf32" else dt
        subprocess.run(["gcc", "-O2", "-I" + d, "-I" + os.path.join(SRC, "include"),
                        "-DNAME=" + name, "-DM=" + m, "-DN=" + n, "-DK=" + k,
                        "-DAT=" + at, "-DCT=" + at,
                        os.path.join(HERE, "Inputs", "aot_gemm_check.c"),
                        os.path.join(d, name + ".o"), runtime,
                        "-L/usr/local/cuda/lib64/stubs", "-L/usr/local/cuda/lib/stubs",
                        "-lcuda", "-lm", "-static-libstdc++", "-static-libgcc",
                        "-Wl,-Bstatic", "-lstdc++", "-Wl,-Bdynamic", "-lpthread",
                        "-o", os.path.join(aot_dir, "check_" + name)], check=True)
    if args.variants:
        # Emitter variants of the same GEMMs (tile, stages, order...), built
        # straight from the emitters: the measurements behind docs' gap notes.
        subprocess.run([sys.executable, os.path.join(HERE, "make_emitter_bundle.py"),
                        os.path.join(out, "variants"), args.variants], check=True)
    shutil.copy(runner, os.path.join(out, "tensorop-gpu-runner"))
    with open(os.path.join(out, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1)
    shutil.copy(os.path.join(HERE, "run_gpu_bundle.sh"), os.path.join(out, "run.sh"))
    print("bundle in %s: %d cases, %d AOT checks" % (out, len(cases), len(AOT)))


def fmt(x, spec=".1f"):
    return format(x, spec) if isinstance(x, (int, float)) else "-"


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def gemm_rows(by_id, cases, timing_cells):
    """The one row format of both tables: a row for each case (first cells,
    (m, n, k), dtype) whose result `by_id` holds: the first cells, the shape,
    the type, the kernel, TensorOp's TFLOP/s, the cells (timing key, format)
    of `timing_cells`, the error ratio and whether it was verified. Returns
    the (dtype, result) of the rows printed."""
    printed = []
    for first, (m, n, k), dt in cases:
        r = by_id.get("gemm_%dx%dx%d_%s" % (m, n, k, dt))
        if not r:
            continue
        t = r.get("timing", {})
        v = r.get("verification", {}).get("random", {})
        tile = r.get("tile", {})
        kern = "%s %sx%s" % (r.get("family", "?").replace("nvidia_gemm_", ""),
                             tile.get("block_m", "?"), tile.get("block_n", "?"))
        cells = (first + ["%dx%dx%d" % (m, n, k), dt, kern,
                          fmt(t.get("tensorop_tflops_median"))] +
                 [fmt(t.get(key), spec) for key, spec in timing_cells] +
                 [fmt(v.get("max_error_ratio"), ".2g"), "yes" if r.get("verified") else "NO"])
        print("| %s |" % " | ".join(cells))
        printed.append((dt, r))
    return printed


def class_table(by_id):
    """The --set classes table: ours against cuBLAS (cublasGemmEx) and
    cuBLASLt's best of its top-8, per shape and precision, with geomeans."""
    print("| class | shape MxNxK | type | kernel | TensorOp | cuBLAS | cuBLASLt best-of-8 | "
          "vs cuBLAS | vs best library | max err/bound | verified |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    printed = gemm_rows(by_id, [([cls], shape, dt) for (cls, shape, dts) in CLASSES for dt in dts],
                        [("cublas_tflops_median", ".1f"), ("cublaslt_tflops_median", ".1f"),
                         ("ratio_median", ".2f"), ("ratio_best_library_median", ".2f")])
    ratios = {}
    for dt, r in printed:
        best = r.get("timing", {}).get("ratio_best_library_median")
        if r.get("verified") and isinstance(best, (int, float)):
            ratios.setdefault(dt, []).append(best)
    print()
    for dt, rs in sorted(ratios.items()):
        print("- %s: geomean %.2fx the faster library over %d shapes, lowest %.2fx"
              % (dt, geomean(rs), len(rs), min(rs)))


def table(args):
    rows = [json.loads(l) for l in open(args.results) if l.strip()]
    if args.set == "classes":
        class_table({r.get("id"): r for r in rows})
        return
    by_id = {r.get("id"): r for r in rows}
    dev = next((r.get("device") for r in rows if r.get("device")), {})
    print("| shape MxNxK | type | kernel (sketch) | TensorOp TFLOP/s | cuBLAS TFLOP/s | ratio | "
          "max err/bound | verified |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    gemm_rows(by_id, [([], shape, dt) for shape in SHAPES for dt in DTYPES],
              [("cublas_tflops_median", ".1f"), ("ratio_median", ".2f")])
    print()
    print("Device: %s, driver %s, cuBLAS %s." % (dev.get("name"), dev.get("driver"),
                                                 dev.get("cublas")))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bundle")
    b.add_argument("--build", default=os.path.join(SRC, "build"))
    b.add_argument("--out", default=os.path.join(SRC, "gpu_bundle"))
    b.add_argument("--set", choices=["default", "classes"], default="default",
                   help="default: the benchmark shapes, edge cases and AOT checks; "
                        "classes: the shape-class table (squares, LLM, irregular, "
                        "skinny) in the precisions listed in CLASSES")
    b.add_argument("--variants", default=None,
                   help="also build the emitter variants listed in this JSON file "
                        "(test/GPU/Inputs/variants.json)")
    b.add_argument("--only", default=None,
                   help="bundle only the benchmark cases whose 'MxNxK type' "
                        "matches this regular expression")
    t = sub.add_parser("table")
    t.add_argument("results")
    t.add_argument("--set", choices=["default", "classes"], default="default")
    args = ap.parse_args()
    bundle(args) if args.cmd == "bundle" else table(args)


if __name__ == "__main__":
    main()
