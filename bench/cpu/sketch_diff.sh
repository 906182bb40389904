#!/bin/bash
# bench/cpu/sketch_diff.sh BASE_BUILD NEW_BUILD [THREADS ...]
# Which shapes a change moves: the builtin advisor's sketch (x86-avx512) of
# the class table's shapes (docs/benchmarks/cpu-gemm-classes.md) and of the
# unseen set (unseen-shapes.sh), printed by both builds' tensorop-opt
# --tensorop-annotate-sketch and diffed per thread count (default 1 and 2):
# "<" base, ">" new, one line per function. No output under a thread count:
# no sketch changed. TARGET=host compares target=host instead (with
# TENSOROP_HOST_SYSFS / TENSOROP_HOST_CPU set: a fake Zen 4 or Zen 5 host,
# docs/Hints.md; a build without target=host's overlay ignores them).
set -e
BASE=$(cd "$1" && pwd); NEW=$(cd "$2" && pwd); shift 2
THREADS=${*:-1 2}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
CLASSES="16x16x16 32x32x32 64x64x64 100x100x100 128x128x128 37x53x71 24x120x96
80x48x112 8x4096x4096 4096x8x4096 16x2048x2048 1x4096x4096 2048x16x2048
4x1024x4096 200x300x100 333x777x555 127x1000x513 600x500x700 256x256x256
512x512x512 1024x1024x1024 2048x2048x2048 4096x1024x1024 2048x256x2048
8192x128x512 33x777x1027 33x77x1027"
UNSEEN=$(bash "$HERE/unseen-shapes.sh" | tr ' ' '\n' | cut -d: -f2)
n=0
for s in $CLASSES $UNSEEN; do
  IFS=x read -r m nn k <<< "$s"
  n=$((n + 1))
  cat >> "$TMP/shapes.mlir" <<EOT
func.func @g_${s}(%A: memref<${m}x${k}xf32>, %B: memref<${k}x${nn}xf32>, %C: memref<${m}x${nn}xf32>) {
  linalg.matmul ins(%A, %B : memref<${m}x${k}xf32>, memref<${k}x${nn}xf32>) outs(%C : memref<${m}x${nn}xf32>)
  return
}
EOT
done
for t in $THREADS; do
  echo "== threads $t: $n shapes"
  for side in base new; do
    build=$BASE; [ "$side" = new ] && build=$NEW
    "$build/bin/tensorop-opt" "$TMP/shapes.mlir" \
      --tensorop-annotate-sketch="target=${TARGET:-x86-avx512} threads=$t" 2>/dev/null |
      grep -E "func.func|tensorop.sketch" |
      sed -E 's/\(%arg0.*//; s/.*(#tensorop.sketch<[^>]*>[^>]*>).*/\1/' |
      paste - - > "$TMP/$side.txt"
  done
  diff "$TMP/base.txt" "$TMP/new.txt" | grep '^[<>]' || true
done
