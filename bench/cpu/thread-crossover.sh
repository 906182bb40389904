#!/bin/bash
# bench/cpu/thread-crossover.sh BUILD_DIR MxNxK ...
# Generates each fp32 GEMM with `tensorop gen --threads=1` and
# `--threads=2 min-flops-per-thread=0` (always two threads) and times the
# two objects alternately (thread_crossover.c): where a second thread
# starts to pay, and what the OpenMP team costs a call.
set -e
BUILD=$(cd "$1" && pwd); shift
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=${KEEP:-$(mktemp -d)}
mkdir -p "$TMP"
[ -n "$KEEP" ] || trap 'rm -rf "$TMP"' EXIT
: > "$TMP/crossover.inc"
OBJS=()
for shape in "$@"; do
  name=g${shape//x/_}
  for t in 1 2; do
    [ -f "$TMP/${name}_t$t/${name}_t$t.o" ] ||
      "$BUILD/bin/tensorop" gen "$shape fp32 GEMM" --name="${name}_t$t" \
        --threads=$t --min-flops-per-thread=0 --no-bench \
        -o "$TMP/${name}_t$t" > "$TMP/${name}_t$t.log"
    OBJS+=("$TMP/${name}_t$t/${name}_t$t.o")
  done
  IFS=x read -r m n k <<< "$shape"
  echo "SHAPE($name, $m, $n, $k)" >> "$TMP/crossover.inc"
done
clang-22 -O2 ${ROUNDS:+-DROUNDS=$ROUNDS} -I"$TMP" "$HERE/thread_crossover.c" \
  "${OBJS[@]}" -o "$TMP/crossover" -L/usr/lib/llvm-22/lib \
  -Wl,-rpath,/usr/lib/llvm-22/lib -lomp -lm
uptime
OMP_NUM_THREADS=2 "$TMP/crossover"
uptime
