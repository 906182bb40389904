#!/usr/bin/env python3
"""Markdown tables of session 16's GPU calls (docs/benchmarks/gpu-gemm.md,
"Session 16"), with times in microseconds besides TFLOP/s: `var FILE` for
emitter variants (make_emitter_bundle.py ids, shape after the last "_"),
`cmp FILE` for main's builtin (base_*) against the branch's (new_*)."""
import json
import math
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gpu15_table import best, rows, tile  # noqa: E402


def flops(shape):
    m, n, k = (int(x) for x in shape.split("x"))
    return 2.0 * m * n * k


def var(path):
    print("| variant | grid | TensorOp | us | cuBLAS | cuBLASLt best-of-8 | best library us "
          "| vs best library | verified |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows(path):
        t = r["timing"]
        f = flops(r["id"].rsplit("_", 1)[1])
        o, b = t["tensorop_tflops_median"], best(t)
        print("| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.2f | %s |" % (
            r["id"], r["launch"]["grid"][0], o, f / o / 1e6, t.get("cublas_tflops_median", 0),
            t.get("cublaslt_tflops_median", 0), f / b / 1e6, o / b,
            "yes" if r.get("verified") else "NO"))


def cmp(path):
    by = {}
    for r in rows(path):
        kind, shape = r["id"].split("_", 1)
        by.setdefault(shape, {})[kind] = r
    print("| shape | main: kernel | main us | branch: kernel | branch us | best library us "
          "(branch's run) | main vs best | branch vs best | branch / main | verified |")
    print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    ratios = {"base": [], "new": [], "gain": []}
    for shape, d in by.items():
        b, n = d.get("base"), d.get("new")
        if not b or not n or "timing" not in b or "timing" not in n:
            print("| %s | missing or failed | | | | | | | | |" % shape)
            continue
        f = flops(shape.split("_")[0])
        tb, tn = b["timing"], n["timing"]
        ob, on = tb["tensorop_tflops_median"], tn["tensorop_tflops_median"]
        rb, rn = ob / best(tb), on / best(tn)
        ratios["base"].append(rb)
        ratios["new"].append(rn)
        ratios["gain"].append(on / ob)
        print("| %s | %s | %.1f | %s | %.1f | %.1f | %.2f | %.2f | %.2f | %s |" % (
            shape.replace("_", " "), tile(b), f / ob / 1e6, tile(n), f / on / 1e6,
            f / best(tn) / 1e6, rb, rn, on / ob,
            "yes" if b.get("verified") and n.get("verified") else "NO"))
    g = {k: math.exp(sum(math.log(x) for x in v) / len(v)) for k, v in ratios.items() if v}
    print()
    print("Geomean over %d shapes: main %.2fx the best library, branch %.2fx; branch / main "
          "%.2fx." % (len(ratios["gain"]), g["base"], g["new"], g["gain"]))


if __name__ == "__main__":
    {"var": var, "cmp": cmp}[sys.argv[1]](sys.argv[2])
