#!/usr/bin/env python3
"""Markdown table of tensorop-gpu-runner's fused-epilogue results (JSON lines
written by bench/gpu/stage-runner-epilogue.sh's run.sh)."""

import json
import sys


def fmt(x, spec="%.1f"):
    return spec % x if isinstance(x, (int, float)) else "-"


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    print("| case | M x N x K | kernel | epilogue | verified (max err/bound) | ours fused | "
          "cuBLASLt fused | ours/cuBLASLt | ours plain | cuBLASLt plain | ours fused/plain | "
          "cuBLASLt fused/plain |")
    print("|" + "---|" * 12)
    notes = []
    for r in rows:
        if "error" in r:
            print("| %s | | | | error: %s | | | | | | | |" % (r.get("id"), r["error"]))
            continue
        s = r.get("shape", {})
        t = r.get("timing", {})
        v = r.get("verification", {})
        med = lambda side: t.get(side, {}).get("median")
        base = r.get("baseline", {})
        if not base.get("available"):
            notes.append("%s: %s" % (r.get("id"), base.get("reason", "")))
        print("| %s | %sx%sx%s | %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s |" % (
            r.get("id"), s.get("m"), s.get("n"), s.get("k"),
            r.get("family", "").replace("nvidia_gemm_", ""),
            ", ".join(r.get("epilogue", {}).get("steps", [])),
            "yes" if r.get("verified") else "NO",
            fmt(v.get("random", {}).get("max_error_ratio"), "%.2f"),
            fmt(med("tensorop_fused")), fmt(med("cublaslt_fused")),
            fmt(t.get("ratio_fused_vs_cublaslt_fused"), "%.3f"),
            fmt(med("tensorop_plain")), fmt(med("cublaslt_plain")),
            fmt(t.get("ratio_fused_vs_our_plain"), "%.3f"),
            fmt(t.get("ratio_cublaslt_fused_vs_cublaslt_plain"), "%.3f")))
    print()
    print("TFLOP/s medians (2*M*N*K per call); fused/plain: the epilogue's cost "
          "(1.0 = free).")
    for n in notes:
        print("- " + n)


if __name__ == "__main__":
    main(sys.argv[1])
