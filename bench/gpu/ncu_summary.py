#!/usr/bin/env python3
"""One Markdown row per kernel of an `ncu --csv --page details` report (the
runner's own output may precede it): name, grid, block, cluster, duration,
DRAM throughput, L2 hit rate. Used for docs/benchmarks/gpu-gemm.md,
"Session 16".

  ncu_summary.py REPORT.csv [NAME_SUBSTRING ...]   (only kernels whose name has one)
"""
import csv
import io
import sys

COLS = ["Grid Size", "Block Size", "Cluster Size", "Duration", "DRAM Throughput",
        "Memory Throughput", "L2 Hit Rate"]


def main():
    text = open(sys.argv[1]).read()
    rows = list(csv.reader(io.StringIO(text[text.find('"ID"'):])))
    hdr = rows[0]
    ii, ki = hdr.index("ID"), hdr.index("Kernel Name")
    mi, ui, vi = hdr.index("Metric Name"), hdr.index("Metric Unit"), hdr.index("Metric Value")
    kernels = {}
    for r in rows[1:]:
        if len(r) <= vi:
            continue
        k = kernels.setdefault(r[ii], {"name": r[ki]})
        if r[mi] in COLS and r[mi] not in k:
            k[r[mi]] = "%s %s" % (r[vi], r[ui])
    want = sys.argv[2:]
    print("| launch | kernel | " + " | ".join(COLS) + " |")
    print("| ---: | --- |" + " ---: |" * len(COLS))
    for i, k in kernels.items():
        if want and not any(w in k["name"] for w in want):
            continue
        print("| %s | %s | %s |" % (i, k["name"].split("(")[0][:60],
                                     " | ".join(k.get(c, "") for c in COLS)))


if __name__ == "__main__":
    main()
