#!/usr/bin/env python3
"""Markdown table of tensorop-gpu-runner convolution results (one JSON
object per line, as bench/gpu/stage-runner-conv.sh's run.sh writes them):

  runner_conv_table.py runner-conv.jsonl

Per case: verified, the worst error/bound under MEASURE.md's bound (u of the
fp32 accumulation) and under the input type's, small-integer mismatches,
TensorOp and cuDNN-legacy median TFLOP/s with their spreads replayed from
CUDA graphs (kernel against kernel), cuDNN's algorithm, the ratio of medians
(> 1: ours faster), and the same ratio timed eagerly (host cost included)."""
import json
import math
import sys


def fmt(x, spec=".1f"):
    return "-" if x is None else format(x, spec)


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    print("| case | verified | err/bound (fp32 acc.) | err/bound (input u) | int mismatches "
          "| ours TFLOP/s (spread) | cuDNN legacy TFLOP/s (spread) | cuDNN algorithm | ratio "
          "| eager: ours / cuDNN TFLOP/s, ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    ratios = {}
    for r in rows:
        if "error" in r:
            print("| %s | error: %s | | | | | | | | |" % (r["id"], r["error"]))
            continue
        v = r.get("verification", {})
        t = r.get("timing", {})
        b = r.get("baseline", {})
        rnd = v.get("random", {})
        if r.get("op") != "conv2d":  # the GEMM through the same runner
            print("| %s (GEMM, vs cuBLAS, eager) | %s | - | %s | %s | %s | %s | - | %s | - |" % (
                r["id"], "yes" if r.get("verified") else "NO",
                fmt(rnd.get("max_error_ratio"), ".1e"),
                v.get("small_integers", {}).get("mismatches"),
                fmt(t.get("tensorop_tflops_median")), fmt(t.get("cublas_tflops_median")),
                fmt(t.get("ratio_median"), ".2f")))
            continue
        acc = rnd.get("max_error_ratio") if "max_error_ratio_input_type_bound" in rnd \
            else rnd.get("max_error_ratio_accumulation_bound")
        inp = rnd.get("max_error_ratio_input_type_bound", rnd.get("max_error_ratio")) \
            if "max_error_ratio_input_type_bound" in rnd else rnd.get("max_error_ratio")

        g = t.get("graph", {})
        eager = t
        t = g if g.get("performed") else {}

        def spread(side):
            s = t.get(side + "_spread")
            return "" if not s else " (%.1f%%)" % (100 * s["relative_spread"])
        cudnn = fmt(t.get("cudnn_tflops_median")) + spread("cudnn") if "cudnn_tflops_median" in t \
            else "not run: " + b.get("reason", g.get("cudnn_reason", g.get("reason", "")))
        verified = "yes" if r.get("verified") else "NO"
        if verified == "yes" and b.get("verified") is False:
            verified += " (cuDNN's output NOT)"
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s, %s |" % (
            r["id"], verified, fmt(acc, ".2e"), fmt(inp, ".1e"),
            v.get("small_integers", {}).get("mismatches"),
            fmt(t.get("tensorop_tflops_median")) + spread("tensorop"), cudnn,
            b.get("algorithm", "-"), fmt(t.get("ratio_median"), ".2f"),
            fmt(eager.get("tensorop_tflops_median")), fmt(eager.get("cudnn_tflops_median")),
            fmt(eager.get("ratio_median"), ".2f")))
        if r.get("verified") and t.get("ratio_median"):
            group = ("N=1" if r["shape"]["n"] == 1 else "N=%d" % r["shape"]["n"]) + \
                (" 1x1" if r["shape"]["r"] == 1 else " 3x3")
            if r["id"].startswith("l"):
                ratios.setdefault(group, []).append(t["ratio_median"])
    if ratios:
        print()
        print("| group | layers | geomean ratio vs cuDNN legacy (graphs) | lowest |")
        print("| --- | --- | --- | --- |")
        for g in sorted(ratios):
            x = ratios[g]
            print("| %s | %d | %.2f | %.2f |" % (
                g, len(x), math.exp(sum(map(math.log, x)) / len(x)), min(x)))
    dev = next((r for r in rows if "device" in r), None)
    if dev:
        d = dev["device"]
        nv = dev.get("timing", {}).get("nvml", {})
        print()
        print("Device: %s (sm %s, %s SMs), CUDA driver API %s, driver %s; cuDNN library %s "
              "(headers %s); SM clock %s MHz." % (
                  d.get("name"), d.get("compute_capability"), d.get("sms"), d.get("driver"),
                  nv.get("driver", "?"), dev.get("baseline", {}).get("cudnn_library"),
                  dev.get("baseline", {}).get("cudnn_headers"),
                  "%s-%s" % (nv["sm_mhz"]["min"], nv["sm_mhz"]["max"]) if "sm_mhz" in nv else "?"))


if __name__ == "__main__":
    main()
