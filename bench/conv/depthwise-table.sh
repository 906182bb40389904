#!/bin/bash
# bench/conv/depthwise-table.sh BUILD_DIR [THREADS]
# The depthwise layers of docs/benchmarks/cpu-conv.md ("Depthwise layers"):
# MobileNet-v2's 3x3 depthwise convolutions at N=1 (and two at N=8), a 5x5
# one, a dilated one and odd channel counts, each timed against oneDNN's
# grouped convolution in one process (run.sh LAYOUT=depthwise, MEASURE.md's
# protocol), fp32, on x86-avx512. Prints the JSON lines, then a Markdown
# table and the geomean of ours/oneDNN.
set -e
BUILD=$1; THREADS=${2:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
LAYERS=(
  "1 112 112 32 3 3 1 1 1"  "1 112 112 96 3 3 2 1 1" "1 56 56 144 3 3 1 1 1"
  "1 56 56 144 3 3 2 1 1"   "1 28 28 192 3 3 1 1 1"  "1 28 28 192 3 3 2 1 1"
  "1 14 14 384 3 3 1 1 1"   "1 14 14 576 3 3 1 1 1"  "1 14 14 576 3 3 2 1 1"
  "1 7 7 960 3 3 1 1 1"     "8 56 56 144 3 3 1 1 1"  "8 14 14 576 3 3 1 1 1"
  "1 28 28 40 5 5 1 2 1"    "1 17 17 24 3 3 1 2 2"   "1 15 15 100 3 3 1 1 1"
  "1 56 56 33 3 3 1 1 1")
OUT=$(mktemp)
trap 'rm -f "$OUT"' EXIT
env -u OPENBLAS_CORETYPE LAYOUT=depthwise THREADS=$THREADS \
  bash "$HERE/run.sh" "$BUILD" x86-avx512 "${LAYERS[@]}" 2>/dev/null | tee "$OUT"
python3 - "$OUT" <<'PY'
import json, math, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print("\n| layer | TensorOp GFLOP/s | oneDNN GFLOP/s | oneDNN impl | TensorOp/oneDNN |")
print("| --- | ---: | ---: | --- | ---: |")
for r in rows:
    print(f"| {r['layer']} | {r['tensorop']['gflops']:.1f} | {r['onednn']['gflops']:.1f} "
          f"| {r['onednn_impl']} | {r['tensorop']['vs_onednn']:.2f}x |")
g = math.exp(sum(math.log(r["tensorop"]["vs_onednn"]) for r in rows) / len(rows))
print(f"\ngeomean {g:.3f}x oneDNN over {len(rows)} layers, lowest "
      f"{min(r['tensorop']['vs_onednn'] for r in rows):.2f}x")
PY
