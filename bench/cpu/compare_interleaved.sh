#!/bin/bash
# bench/cpu/compare_interleaved.sh BASE_BUILD NEW_BUILD THREADS MxNxK ...
# Before/after per shape with both builds' `tensorop gen` objects and the
# libraries timed in every round (variants_ab.c), so that a load that comes
# and goes hits both builds alike; compare_builds.sh times each build's row
# on its own, and on a shared machine its rows moved by +-5% between runs.
# Prints each shape's table, then one line per shape: base and new against
# the best library (median over rounds of the ratio within a round) and
# new / base. ROUNDS (default 21) / ROUND_SECONDS as run.sh; CPU_TIME=1 (1
# thread only) times with the thread's CPU clock. CPU_TIME=process (any
# thread count) times with the process CPU clock, every OpenMP runtime
# told to sleep while it waits (OMP_WAIT_POLICY=passive) and OpenBLAS's
# threads too (OPENBLAS_THREAD_TIMEOUT=4: its spinning threads were
# charged to whichever side ran next): the CPU work of all threads
# together, for 2-thread A/Bs on a loaded machine; it leaves
# out the time a thread waits for another (an uneven split) and the
# fork/join latency, which wall time on a quiet machine must confirm.
# KEEP=DIR keeps objects.
set -e
BASE=$(cd "$1" && pwd); NEW=$(cd "$2" && pwd); THREADS=$3; shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/gemm_bench.sh"
TMP=${KEEP:-$(mktemp -d)}
mkdir -p "$TMP"
[ -n "$KEEP" ] || trap 'rm -rf "$TMP"' EXIT
if [ -n "$CPU_TIME" ] && [ "$CPU_TIME" != process ] && [ "$THREADS" != 1 ]; then
  echo "CPU_TIME needs THREADS 1 (CPU_TIME=process takes any)" >&2; exit 2
fi
SUMMARY=""
uptime
for shape in "$@"; do
  d=$TMP/$shape
  mkdir -p "$d"
  : > "$d/kernels.inc"
  : > "$d/kernels_headers.inc"
  OBJS=()
  for side in base new; do
    build=$BASE; [ "$side" = new ] && build=$NEW
    add_gemm "$build" "$d" "gemm_${shape}_t${THREADS}_$side" "$shape" \
      "$THREADS" "$side"
  done
  bench_vs_libraries "$HERE/variants_ab.c" "$d" "$THREADS" | tee "$d/out.txt"
  echo
  b=$(awk -F'|' '$2 ~ /^ base / {gsub(/[ x]/, "", $4); print $4}' "$d/out.txt")
  n=$(awk -F'|' '$2 ~ /^ new / {gsub(/[ x]/, "", $4); print $4}' "$d/out.txt")
  SUMMARY+="$shape $b $n"$'\n'
done
uptime
if [ "$CPU_TIME" = process ]; then
  echo "timed with the process CPU clock, idle threads asleep (CPU_TIME=process)"
elif [ -n "$CPU_TIME" ]; then
  echo "timed with the thread CPU clock (CPU_TIME=1)"
fi
echo "| shape MxNxK | base vs best library | new vs best library | new / base |"
echo "| --- | ---: | ---: | ---: |"
echo -n "$SUMMARY" | awk '$2 > 0 && $3 > 0 {
  printf "| %s | %.3fx | %.3fx | %.3f |\n", $1, $2, $3, $3 / $2
  lb += log($2); ln += log($3); c++ }
  END { if (c) printf "| geomean (%d) | %.3fx | %.3fx | %.3f |\n", c,
    exp(lb / c), exp(ln / c), exp((ln - lb) / c) }'
