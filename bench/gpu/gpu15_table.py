#!/usr/bin/env python3
"""Markdown tables of session 15's GPU calls (docs/benchmarks/gpu-gemm.md,
"Session 15"): `var FILE` for emitter variants (make_emitter_bundle.py ids),
`cmp FILE` for main's builtin (base_*) against the branch's (new_*)."""
import json
import sys


def rows(path):
    return [json.loads(line) for line in open(path) if line.strip()]


def best(t):
    libs = [x for x in (t.get("cublas_tflops_median"), t.get("cublaslt_tflops_median")) if x]
    return max(libs) if libs else None


def tile(r):
    t = r.get("tile", {})
    s = "%sx%s" % (t.get("block_m"), t.get("block_n"))
    if t.get("consumers", 1) == 2:
        s += " c2"
    if t.get("split_k", 1) > 1:
        s += " split %d" % t["split_k"]
    return s


def var(path):
    print("| variant | grid | TensorOp | cuBLAS | cuBLASLt best-of-8 | vs best library | verified |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows(path):
        t = r.get("timing", {})
        b = best(t)
        print("| %s | %s | %.1f | %.1f | %.1f | %.2f | %s |" % (
            r["id"], r["launch"]["grid"][0], t["tensorop_tflops_median"],
            t.get("cublas_tflops_median", 0), t.get("cublaslt_tflops_median", 0),
            t["tensorop_tflops_median"] / b, "yes" if r.get("verified") else "NO"))


def cmp(path):
    by = {}
    for r in rows(path):
        kind, shape = r["id"].split("_", 1)
        by.setdefault(shape, {})[kind] = r
    print("| shape | main: kernel | main TFLOP/s | branch: kernel | branch TFLOP/s | best library (branch's run) | main vs best | branch vs best | verified |")
    print("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | --- |")
    for shape, d in by.items():
        b, n = d.get("base"), d.get("new")
        if not b or not n or "timing" not in b or "timing" not in n:
            print("| %s | missing or failed | | | | | | | |" % shape)
            continue
        tb, tn = b["timing"], n["timing"]
        print("| %s | %s | %.1f | %s | %.1f | %.1f | %.2f | %.2f | %s |" % (
            shape.replace("_", " "), tile(b), tb["tensorop_tflops_median"], tile(n),
            tn["tensorop_tflops_median"], best(tn), tb["tensorop_tflops_median"] / best(tb),
            tn["tensorop_tflops_median"] / best(tn),
            "yes" if b.get("verified") and n.get("verified") else "NO"))


if __name__ == "__main__":
    {"var": var, "cmp": cmp}[sys.argv[1]](sys.argv[2])
