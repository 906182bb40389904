#!/usr/bin/env python3
"""Markdown tables of bench/gpu/conv_vs_torch.py's results.jsonl.

  conv_table.py results.jsonl [--mode graph|eager]

One row per case: verification (worst error / bound, exact-integer
mismatches), TFLOP/s medians of ours and cuDNN (PyTorch) and the ratio of
medians (cuDNN time / ours: > 1 is faster than cuDNN); then the geomean and
lowest ratio per group (dtype x batch; odd shapes apart).
"""
import json
import math
import sys


def main():
    path = sys.argv[1]
    mode = sys.argv[sys.argv.index("--mode") + 1] if "--mode" in sys.argv else "graph"
    rows = [json.loads(l) for l in open(path)]
    env = rows[0].get("environment", {})
    print("cuDNN %s through PyTorch %s (CUDA %s) on %s; timing mode: %s\n"
          % (env.get("cudnn"), env.get("torch"), env.get("cuda"), env.get("device"), mode))
    print("| case | verified | max err/bound | int mismatches | ours TFLOP/s | cuDNN TFLOP/s | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    groups = {}
    for r in rows[1:]:
        t = r.get("timing", {}).get(mode, {})
        v = r.get("verify_random", {})
        if "ours_tflops_median" not in t:
            print("| %s | %s | | | | | %s |" % (r["id"], r.get("verified"), t.get("error", r.get("error", ""))))
            continue
        print("| %s | %s | %.1e | %d | %.1f | %.1f | %.2f |" % (
            r["id"], "yes" if r["verified"] else "NO", v.get("max_err_over_bound", float("nan")),
            r.get("verify_integers", {}).get("mismatches", -1), t["ours_tflops_median"],
            t["cudnn_tflops_median"], t["ratio_cudnn_time_over_ours"]))
        ratio = (t["ratio_cudnn_time_over_ours"], r["id"])
        if r["id"].startswith("odd"):
            groups.setdefault("odd shapes " + r["dtype"], []).append(ratio)
            continue
        key = "%s N=%d" % (r["dtype"], r["conv"]["n"])
        groups.setdefault(key + " all", []).append(ratio)
        groups.setdefault("%s %dx%d" % (key, r["conv"]["r"], r["conv"]["s"]), []).append(ratio)
    print("\n| group | layers | geomean ratio | lowest | below 0.8x |")
    print("| --- | --- | --- | --- | --- |")
    for key, v in sorted(groups.items()):
        g = math.exp(sum(math.log(x) for x, _ in v) / len(v))
        low = min(v)
        print("| %s | %d | %.2f | %.2f (%s) | %d |" % (key, len(v), g, low[0], low[1],
                                                     sum(1 for x, _ in v if x < 0.8)))


if __name__ == "__main__":
    main()
