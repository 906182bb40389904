#!/bin/bash
# bench/cpu/compare_builds.sh BASE_BUILD NEW_BUILD THREADS MxNxK ...
# Before/after in one process: each shape's `tensorop gen` object from
# BASE_BUILD (rows of class "base") and from NEW_BUILD (class "new") are
# timed by gemm_vs_libraries.c next to OpenBLAS, oneDNN and libxsmm, the
# sides alternating round by round (ROUNDS / ROUND_SECONDS as run.sh). The
# per-class geomeans then compare the two builds against the same libraries.
# CPU_TIME=1 (1 thread only) times with the thread's CPU clock instead of
# the wall clock, for runs on a loaded machine (gemm_vs_libraries.c).
set -e
BASE=$(cd "$1" && pwd); NEW=$(cd "$2" && pwd); THREADS=$3; shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/gemm_bench.sh"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
: > "$TMP/kernels.inc"
: > "$TMP/kernels_headers.inc"
OBJS=()
for shape in "$@"; do
  for side in base new; do
    build=$BASE; [ "$side" = new ] && build=$NEW
    add_gemm "$build" "$TMP" "gemm_${shape}_t${THREADS}_$side" "$shape" \
      "$THREADS" "$side"
  done
done
uptime
[ -n "$CPU_TIME" ] && echo "timed with the thread CPU clock (CPU_TIME=1)"
bench_vs_libraries "$HERE/gemm_vs_libraries.c" "$TMP" "$THREADS"
uptime
