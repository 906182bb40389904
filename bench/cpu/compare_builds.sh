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
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
: > "$TMP/kernels.inc"
: > "$TMP/kernels_headers.inc"
OBJS=()
for shape in "$@"; do
  IFS=x read -r m n k <<< "$shape"
  for side in base new; do
    build=$BASE; [ "$side" = new ] && build=$NEW
    name=gemm_${m}x${n}x${k}_t${THREADS}_$side
    "$build/bin/tensorop" gen "${m}x${n}x${k} fp32 GEMM" --name="$name" \
      --threads="$THREADS" --no-bench -o "$TMP/$name" > "$TMP/$name.log"
    echo "KERNEL($name, $m, $n, $k, \"$side\")" >> "$TMP/kernels.inc"
    echo "#include \"$TMP/$name/$name.h\"" >> "$TMP/kernels_headers.inc"
    OBJS+=("$TMP/$name/$name.o")
  done
done
CLOCK=""
if [ -n "$CPU_TIME" ]; then
  [ "$THREADS" = 1 ] || { echo "CPU_TIME needs THREADS 1" >&2; exit 2; }
  CLOCK=-DTIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID
fi
OMP=""
[ "$THREADS" -gt 1 ] && OMP="-L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp"
clang-22 -O2 -DTHREADS="$THREADS" $CLOCK ${ROUNDS:+-DROUNDS=$ROUNDS} \
  ${ROUND_SECONDS:+-DROUND_SECONDS=$ROUND_SECONDS} -I"$TMP" \
  "$HERE/gemm_vs_libraries.c" "${OBJS[@]}" -o "$TMP/bench" \
  -lxsmm -ldnnl -lopenblas $OMP -lpthread -lrt -ldl -lm
uptime
[ -n "$CPU_TIME" ] && echo "timed with the thread CPU clock (CPU_TIME=1)"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS="$THREADS" \
  OPENBLAS_NUM_THREADS="$THREADS" "$TMP/bench"
uptime
