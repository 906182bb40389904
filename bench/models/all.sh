#!/bin/bash
# bench/models/all.sh BUILD_DIR [TARGET] [RESULTS_DIR]
#
# Every row of docs/benchmarks/models.md, in one go (about 10 minutes on an
# idle 2-core machine): the FFN block in fp32 and bf16 at T = 16, 64, 256
# tokens for D/H = 256/1024 and 768/3072, and the ResNet bottleneck at two
# stages (N=1), each at 1 and 2 threads; ours, ours unfused, upstream MLIR
# (1 thread, the smaller shapes only: its loops take seconds on the large
# ones) and oneDNN with post-ops. All executables are built first (two at a
# time), then run one after the other on an otherwise idle machine.
# RESULTS_DIR (default ./models-results) gets results.jsonl (one line per
# row), env.txt (machine, load, versions) and table.md (table.py).
# ROUNDS (environment, default 9): timing rounds per row; ONLY (a grep -E
# pattern) keeps the rows whose id matches, e.g. ONLY='ffn-f32-16-'.
set -euo pipefail
BUILD=$(cd "$1" && pwd); TARGET=${2:-host}; RES=${3:-models-results}
ROUNDS=${ROUNDS:-9}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$RES"
RES=$(cd "$RES" && pwd)
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT

# id threads block "shape" upstream
configs=()
for th in 1 2; do
  for dt in f32 bf16; do
    for dh in "256 1024" "768 3072"; do
      for t in 16 64 256; do
        up=0
        if [ $th = 1 ] && [ "$dh" = "256 1024" ] && [ $t -le 64 ]; then up=1; fi
        configs+=("ffn-$dt-$t-${dh// /-}-${th}t $th ffn-$dt '$t $dh' $up")
      done
    done
  done
  for stage in "1 56 256 64" "1 14 1024 256"; do
    up=0; [ $th = 1 ] && up=1
    configs+=("bottleneck-${stage// /-}-${th}t $th bottleneck '$stage' $up")
  done
done

if [ -n "${ONLY:-}" ]; then
  mapfile -t configs < <(printf '%s\n' "${configs[@]}" | grep -E -- "^[^ ]*($ONLY)")
fi

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git -C "$HERE" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
  echo "onednn: $(dpkg-query -W -f='${Version}' libdnnl2 2>/dev/null || echo '?')"
  echo "compiler: $(clang-22 --version | head -1)"
  echo "target: $TARGET, rounds: $ROUNDS"
  echo "load before building: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$RES/env.txt"

echo "building ${#configs[@]} executables" >&2
# xargs appends a config's words (it honours the quotes) after HERE BIN
# BUILD TARGET: $4 id, $5 threads, $6 block, $7 shape, $8 upstream.
printf '%s\n' "${configs[@]}" | xargs -P 2 -L 1 sh -c \
  'bash "$0/build_one.sh" "$1/$4" "$2" "$3" "$5" "$6" "$7" "$8"' \
  "$HERE" "$BIN" "$BUILD" "$TARGET" 2>"$RES/build.log" ||
  { echo "a build failed: see $RES/build.log" >&2; exit 1; }

echo "load before running: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES/env.txt"
: > "$RES/results.jsonl"
for c in "${configs[@]}"; do
  eval "set -- $c"
  echo "running $1" >&2
  OMP_NUM_THREADS=$2 "$BIN/$1" $4 "$ROUNDS" |
    python3 "$HERE/annotate.py" "$BIN/$1.fused" "$2" >> "$RES/results.jsonl"
done
echo "load after running: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$RES/env.txt"
python3 "$HERE/table.py" "$RES/results.jsonl" > "$RES/table.md"
cat "$RES/env.txt" "$RES/table.md"
