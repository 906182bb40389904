#!/usr/bin/env python3
"""Adds "threads" and "fused" (the epilogues our kernels apply, one list per
GEMM or convolution that has one, from build_one.sh's .fused file) to each
JSON line a benchmark prints on stdin.

    bench ... | annotate.py BENCH.fused THREADS
"""
import json
import sys

fused = [line.strip() for line in open(sys.argv[1]) if line.strip()]
for line in sys.stdin:
    if not line.strip():
        continue
    row = json.loads(line)
    row["threads"] = int(sys.argv[2])
    row["fused"] = fused
    print(json.dumps(row), flush=True)
