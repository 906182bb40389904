#!/usr/bin/env python3
"""Markdown tables of the model benchmarks' JSON lines (all.sh, run.sh):
per row the median time of each variant, ours against oneDNN and against
our unfused build (speed ratios: > 1 means ours is faster), for fp32 FFN
rows also ours with the weights packed once ("prepacked") against oneDNN,
what our kernels fused, and the largest error/bound ratio of any variant.

    table.py results.jsonl > table.md
"""
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]


def us(r, v):
    return f"{r[v]['median_us']:.1f}" if v in r else "-"


def speed(r, a, b):
    """How much faster a runs than b."""
    if a not in r or b not in r:
        return "-"
    return f"{r[b]['median_us'] / r[a]['median_us']:.2f}x"


def fused(r):
    return "; ".join(r.get("fused", [])) or "none"


def err(r):
    vs = [v for v in ("ours", "unfused", "prepacked", "upstream", "onednn")
          if v in r]
    return f"{max(r[v]['max_error_ratio'] for v in vs):.2g}"


ffn = [r for r in rows if r["block"] == "ffn"]
if ffn:
    print("| dtype | T | D | H | threads | ours us | unfused us | upstream us "
          "| oneDNN us | ours vs oneDNN | ours vs unfused | prepacked us "
          "| prepacked vs oneDNN | ours GFLOP/s | fused (per GEMM) "
          "| max err/bound |")
    print("| --- " * 16 + "|")
    for r in sorted(ffn, key=lambda r: (r["dtype"], r["threads"], r["model"],
                                        r["tokens"])):
        print(f"| {r['dtype']} | {r['tokens']} | {r['model']} | {r['hidden']} "
              f"| {r['threads']} | {us(r, 'ours')} | {us(r, 'unfused')} "
              f"| {us(r, 'upstream')} | {us(r, 'onednn')} "
              f"| {speed(r, 'ours', 'onednn')} | {speed(r, 'ours', 'unfused')} "
              f"| {us(r, 'prepacked')} | {speed(r, 'prepacked', 'onednn')} "
              f"| {r['ours']['gflops']:.0f} | {fused(r)} | {err(r)} |")
    print()
bn = [r for r in rows if r["block"] == "bottleneck"]
if bn:
    print("| N | HxW | Cin | C | threads | ours us | unfused us | upstream us "
          "| oneDNN us | ours vs oneDNN | ours vs unfused | ours GFLOP/s "
          "| fused (per GEMM/conv) | max err/bound |")
    print("| --- " * 14 + "|")
    for r in sorted(bn, key=lambda r: (r["threads"], -r["hw"])):
        print(f"| {r['n']} | {r['hw']}x{r['hw']} | {r['cin']} | {r['mid']} "
              f"| {r['threads']} | {us(r, 'ours')} | {us(r, 'unfused')} "
              f"| {us(r, 'upstream')} | {us(r, 'onednn')} "
              f"| {speed(r, 'ours', 'onednn')} | {speed(r, 'ours', 'unfused')} "
              f"| {r['ours']['gflops']:.0f} | {fused(r)} | {err(r)} |")
