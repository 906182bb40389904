#!/usr/bin/env python3
"""Markdown table of gpu17c's confirmation call (docs/benchmarks/gpu-gemm.md,
"Session 17 confirmation"): main's builtin alone (stage-pad.sh ids new_*),
one row per shape with times in microseconds, grouped by the "# (x)" comment
heading each part of the shapes file, with a geomean per group and the
shapes below 0.95x the faster library.

  gpu17c_table.py RESULTS.jsonl bench/gpu/gpu17c-shapes.txt
  gpu17c_table.py --classes-low c-classes.jsonl   (the classes rows below 0.95x)

(The classes table of the same call: `test/GPU/gpu_bench.py table --set
classes c-classes.jsonl`.)"""
import math
import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from gpu15_table import best, rows, tile  # noqa: E402
from gpu16_table import flops  # noqa: E402


def groups(shapes_path):
    """(shape type) -> the first word of the "# (x) ..." comment above it."""
    group, out = "?", {}
    for line in open(shapes_path):
        s = line.strip()
        m = re.match(r"# (\([a-z0-9]+\))", s)
        if m:
            group = m.group(1)
        elif s and not s.startswith("#"):
            shape, dtype = s.split()[:2]
            out["%s_%s" % (shape, dtype)] = group
    return out


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(results, shapes_path):
    grp = groups(shapes_path)
    print("| part | shape | kernel | TensorOp us | cuBLAS us | cuBLASLt best-of-8 us "
          "| vs best library | verified |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |")
    ratios, low, seen = {}, [], set()
    for r in rows(results):
        key = r["id"].split("_", 1)[1]
        seen.add(key)
        g = grp.get(key, "?")
        t = r.get("timing")
        if not t or "tensorop_tflops_median" not in t:
            print("| %s | %s | failed (rc %s) | | | | | %s |" % (
                g, key.replace("_", " "), r.get("rc"), "yes" if r.get("verified") else "NO"))
            continue
        f = flops(key.split("_")[0])
        us = lambda tf: "%.1f" % (f / tf / 1e6) if tf else "-"  # noqa: E731
        ratio = t["tensorop_tflops_median"] / best(t)
        if r.get("verified"):
            ratios.setdefault(g, []).append(ratio)
            if ratio < 0.95:
                low.append((ratio, key.replace("_", " ")))
        print("| %s | %s | %s | %s | %s | %s | %.2f | %s |" % (
            g, key.replace("_", " "), tile(r), us(t["tensorop_tflops_median"]),
            us(t.get("cublas_tflops_median")), us(t.get("cublaslt_tflops_median")), ratio,
            "yes" if r.get("verified") else "NO"))
    print()
    for g, rs in sorted(ratios.items()):
        print("- %s: geomean %.2fx the faster library over %d verified shapes, lowest %.2fx"
              % (g, geomean(rs), len(rs), min(rs)))
    allr = [x for rs in ratios.values() for x in rs]
    print("- all: geomean %.2fx over %d verified shapes" % (geomean(allr), len(allr)))
    missing = [k for k in grp if k not in seen]
    if missing:
        print("- not run (over the call's time budget): %s" % ", ".join(
            k.replace("_", " ") for k in missing))
    print("- below 0.95x: %s" % (", ".join("%s (%.2f)" % (s, x) for x, s in sorted(low))
                                 or "none"))


def classes_low(results):
    """The classes rows (gpu_bench.py ids gemm_MxNxK_type) under 0.95x the
    faster library, or not verified: the list the issue's goals are read on."""
    for r in rows(results):
        t = r.get("timing", {})
        ratio = t.get("ratio_best_library_median")
        if not r.get("verified") or ratio is None or ratio < 0.95:
            print("- %s: %s%s" % (r["id"][5:].replace("_", " "),
                                  "%.2fx" % ratio if ratio is not None else "no timing",
                                  "" if r.get("verified") else ", NOT verified"))


if __name__ == "__main__":
    if sys.argv[1] == "--classes-low":
        classes_low(sys.argv[2])
    else:
        main(sys.argv[1], sys.argv[2])
