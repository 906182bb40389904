#!/usr/bin/env python3
"""Tables of bench/gpu/stage-search-gap.sh's gap.jsonl: per shape and mode
(search: --rounds 5 --no-cublas; confirm: --rounds 10 with cuBLAS and
cuBLASLt alternating), our kernel's median TFLOP/s per process and the GPU
state NVML read during our samples (SM clock, power, temperature,
clock-event reasons), then confirm / search per shape.

  search_gap_table.py gap.jsonl
"""
import json
import statistics
import sys


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    print("| shape | mode | process | verified | warm-up s (settled) | reps/sample | ours TFLOP/s "
          "median | samples | SM MHz | power W | temp C | clock-event reasons | cuBLAS | cuBLASLt |")
    print("| --- | --- | ---: | --- | --- | ---: | ---: | --- | --- | --- | --- | --- | ---: | ---: |")
    per = {}
    for r in rows:
        t = r.get("timing", {})
        if not t.get("performed"):
            print("| %s | %s | %d | %s | - | - | - | - | - | - | - | - | - | - |"
                  % (r["id"], r["mode"], r["pair"], r.get("error", "rc %d" % r["rc"])))
            continue
        st = [s["tensorop_state"] for s in t["gpu_samples"] if s.get("tensorop_state")]
        clk = sorted({int(s["sm_mhz"]) for s in st})
        pw = [s["power_w"] for s in st]
        tc = [s["temp_c"] for s in st]
        reasons = sorted({hex(s.get("clock_event_reasons", 0)) for s in st})
        w = t["warmup"]
        med = t["tensorop_tflops_median"]
        per.setdefault(r["id"], {}).setdefault(r["mode"], []).append(med)
        print("| %s | %s | %d | %s | %.1f (%s) | %d | %.1f | %s | %s | %.0f-%.0f | %.0f-%.0f | %s | %s | %s |"
              % (r["id"], r["mode"], r["pair"], "yes" if r.get("verified") else "NO",
                 w["seconds"], "yes" if w["settled"] else "no", t["reps_per_sample"], med,
                 " ".join("%.0f" % x for x in t["tensorop_samples"]),
                 ",".join(str(c) for c in clk), min(pw), max(pw), min(tc), max(tc),
                 ",".join(reasons),
                 "%.1f" % t["cublas_tflops_median"] if "cublas_tflops_median" in t else "-",
                 "%.1f" % t["cublaslt_tflops_median"] if "cublaslt_tflops_median" in t else "-"))
    print()
    print("| shape | search: median of process medians | confirm: median of process medians "
          "| confirm / search |")
    print("| --- | ---: | ---: | ---: |")
    for cid, m in per.items():
        s = statistics.median(m.get("search", [0]))
        c = statistics.median(m.get("confirm", [0]))
        print("| %s | %.1f | %.1f | %.3f |" % (cid, s, c, c / s if s else 0))


if __name__ == "__main__":
    main()
