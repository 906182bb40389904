#!/usr/bin/env python3
"""Markdown tables of bench/gpu/stage-gpu12.sh's results.

  gpu12_table.py pad.jsonl [var.jsonl]

pad.jsonl: base_/new_ pairs per shape (main's builtin and the branch's),
side by side; var.jsonl: emitter variants, one row each. TFLOP/s medians;
ratios are of the same process (ours against cuBLAS and cuBLASLt
best-of-8 alternating); "verified" is the runner's verdict (NaN-prefilled
C, random and small-integer inputs, after timing, repeatable bits).
"""
import json
import sys


def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]


def tile(r):
    t = r.get("tile", {})
    s = "%sx%s" % (t.get("block_m", "?"), t.get("block_n", "?"))
    if t.get("split_k"):
        s += " split %d" % t["split_k"]
    if r.get("launch", {}).get("before"):
        s += " +pad"
    return s


def cols(r):
    t = r.get("timing", {})
    if not t.get("performed"):
        return None
    return (t["tensorop_tflops_median"], t.get("cublas_tflops_median", 0),
            t.get("cublaslt_tflops_median", 0), t.get("ratio_median", 0),
            t.get("ratio_best_library_median", 0))


def err(r):
    return "%.2g" % r.get("verification", {}).get("random", {}).get("max_error_ratio", float("nan"))


def main():
    rows = load(sys.argv[1])
    by = {}
    order = []
    for r in rows:
        cid = r["id"]
        which, shape = cid.split("_", 1)
        if shape not in by:
            by[shape] = {}
            order.append(shape)
        by[shape][which] = r
    print("| shape | type | main: tile | TFLOP/s | vs best lib | branch: tile | TFLOP/s | "
          "cuBLAS | cuBLASLt best-of-8 | vs cuBLAS | vs best library | max err/bound | "
          "verified (main / branch) |")
    print("| --- | --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for shape in order:
        d = by[shape]
        b, n = d.get("base"), d.get("new")
        dims, dt = shape.rsplit("_", 1)
        cb = cols(b) if b else None
        cn = cols(n) if n else None
        bt = ("%s | %.1f | %.2f" % (tile(b), cb[0], cb[4])) if cb else \
             ("%s | - | -" % (tile(b) if b else "-"))
        if cn:
            nt = "%s | %.1f | %.1f | %.1f | %.2f | %.2f | %s" % (
                tile(n), cn[0], cn[1], cn[2], cn[3], cn[4], err(n))
        else:
            nt = "%s | - | - | - | - | - | %s" % (tile(n) if n else "-",
                                                 (n or {}).get("error", "-"))
        ver = "%s / %s" % ("yes" if b and b.get("verified") else ("-" if not b else "NO"),
                           "yes" if n and n.get("verified") else ("-" if not n else "NO"))
        print("| %s | %s | %s | %s | %s |" % (dims, dt, bt, nt, ver))
    if len(sys.argv) > 2:
        print()
        print("| variant | grid | TensorOp | cuBLAS | cuBLASLt best-of-8 | vs cuBLAS | "
              "vs best library | verified | SM MHz |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
        for r in load(sys.argv[2]):
            c = cols(r)
            mhz = r.get("timing", {}).get("nvml", {}).get("sm_mhz", {}).get("median", 0)
            if c:
                print("| %s | %s | %.1f | %.1f | %.1f | %.2f | %.2f | %s | %.0f |" % (
                    r["id"], r.get("launch", {}).get("grid", ["?"])[0], c[0], c[1], c[2],
                    c[3], c[4], "yes" if r.get("verified") else "NO", mhz))
            else:
                print("| %s | - | - | - | - | - | - | %s | - |" % (
                    r["id"], "NO" if "verified" in r else r.get("error", "no result")))


if __name__ == "__main__":
    main()
