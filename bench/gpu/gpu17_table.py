#!/usr/bin/env python3
"""Markdown tables of session 17's GPU calls (docs/benchmarks/gpu-gemm.md,
"Session 17"): gpu16_table.py's `var FILE` and `cmp FILE`, with variant ids
whose shape may end in a type letter ("_2048x24x8192h": f16)."""
import re
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import gpu16_table  # noqa: E402

_flops = gpu16_table.flops
gpu16_table.flops = lambda shape: _flops(re.sub(r"[a-z]+$", "", shape))

if __name__ == "__main__":
    {"var": gpu16_table.var, "cmp": gpu16_table.cmp}[sys.argv[1]](sys.argv[2])
