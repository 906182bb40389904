#!/bin/bash
# Fused vs unfused epilogue, same module through --tensorop-pipeline with
# fuse-epilogues=1 and =0, 1 thread, x86-avx512, ROUNDS interleaved runs
# (fused, unfused, fused, ...), each the best of 5 batches of REPS calls;
# prints the medians. Not a verification: test/Integration/epilogue.mlir
# checks both forms' results.
# usage: bench/epilogue/run.sh M N K STEPS REPS ROUNDS   (build in ./build)
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$HERE/../..
T=${TENSOROP_OPT:-$ROOT/build/bin/tensorop-opt}
RUN="/usr/lib/llvm-22/bin/mlir-runner -e main -entry-point-result=void -O3 -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
python3 "$HERE/mkbench.py" $1 $2 $3 $4 $5 > "$TMP/b.mlir"
$T --tensorop-pipeline="target=x86-avx512 fuse-epilogues=1" "$TMP/b.mlir" 2>/dev/null > "$TMP/fused.mlir"
$T --tensorop-pipeline="target=x86-avx512 fuse-epilogues=0" "$TMP/b.mlir" 2>/dev/null > "$TMP/unfused.mlir"
f=(); u=()
for r in $(seq $6); do f+=($($RUN "$TMP/fused.mlir")); u+=($($RUN "$TMP/unfused.mlir")); done
python3 - "${f[*]}" "${u[*]}" "$1x$2x$3 $4" <<'PY'
import sys, statistics as st
f = [float(x) for x in sys.argv[1].split()]
u = [float(x) for x in sys.argv[2].split()]
fm, um = st.median(f), st.median(u)
print("%-40s fused %8.2f us  unfused %8.2f us  speedup %.2fx" % (sys.argv[3], fm * 1e6, um * 1e6, um / fm))
PY
