#!/bin/bash
# Batch matmul + elementwise consumers, fused vs unfused in ONE process:
# @fused has the consumers right after the linalg.batch_matmul (run per
# slice and fused into each slice's microkernel), @unfused the same ops with
# a store to a dummy buffer in between (the decomposition does not see the
# consumers: one separate pass over C, as before they fused); 21 rounds
# (2 dropped as warm-up) of REPS calls of each, alternately; prints medians,
# the median of the per-round ratios and max |fused - unfused| (both C
# NaN-prefilled). AA=1: both functions unfused (an A/A check of the harness).
# usage: bench/epilogue/batch_ab.sh BATCH M N K relu|gelu|gelu_res REPS
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$HERE/../..
T=${TENSOROP_OPT:-$ROOT/build/bin/tensorop-opt}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
python3 "$HERE/mkbatchab.py" "$@" > "$TMP/ab.mlir"
$T --tensorop-pipeline="target=x86-avx512" "$TMP/ab.mlir" 2>"$TMP/remarks" > "$TMP/ab.ll"
echo "epilogues applied: $(grep -c 'applies the epilogue' "$TMP/remarks")"
/usr/lib/llvm-22/bin/mlir-runner -e main -entry-point-result=void -O3 \
  -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so "$TMP/ab.ll" > "$TMP/ab.out"
python3 - "$TMP/ab.out" "$@" <<'PY'
import sys, statistics as st
out = open(sys.argv[1]).read().split()
bs, m, n, k = map(int, sys.argv[2:6]); reps = int(sys.argv[7])
rounds, i = [], 0
while i < len(out):
    if out[i] == "round":
        rounds.append((float(out[i + 1]) / reps, float(out[i + 2]) / reps)); i += 3
    else:
        i += 1
rounds = rounds[2:]
f = [r[0] for r in rounds]; u = [r[1] for r in rounds]
fl = 2.0 * bs * m * n * k
print(f"batch {bs} of {m}x{n}x{k} {sys.argv[6]}: {len(rounds)} rounds x {reps} calls, 1 thread")
print(f"  fused   median {st.median(f)*1e6:8.1f} us  min {min(f)*1e6:8.1f} us  ({fl/st.median(f)/1e9:.0f} GFLOP/s)")
print(f"  unfused median {st.median(u)*1e6:8.1f} us  min {min(u)*1e6:8.1f} us  ({fl/st.median(u)/1e9:.0f} GFLOP/s)")
print(f"  unfused/fused: median of round ratios {st.median([b / a for a, b in zip(f, u)]):.3f}")
print(f"  max |fused - unfused| {out[out.index('max_abs_diff') + 1]}")
PY
