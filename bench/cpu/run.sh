#!/bin/bash
# bench/cpu/run.sh BUILD_DIR THREADS CLASS:MxNxK ...
# Generates each GEMM with `tensorop gen` (the object and header a user
# gets; fp32, host target, builtin advisor, THREADS threads) and times them
# through their headers' entry points against OpenBLAS, oneDNN and libxsmm
# in one process (gemm_vs_libraries.c). OPENBLAS_CORETYPE is unset so that
# OpenBLAS picks its own kernels. Set ROUNDS / ROUND_SECONDS to change the
# timing; KEEP=DIR keeps the generated objects there (and reuses them).
# CPU_TIME=1 (1 thread only) times with the thread's CPU clock instead of
# the wall clock, for runs on a loaded machine (gemm_vs_libraries.c).
set -e
BUILD=$(cd "$1" && pwd); THREADS=$2; shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=${KEEP:-$(mktemp -d)}
mkdir -p "$TMP"
[ -n "$KEEP" ] || trap 'rm -rf "$TMP"' EXIT
: > "$TMP/kernels.inc"
: > "$TMP/kernels_headers.inc"
OBJS=()
for item in "$@"; do
  cls=${item%%:*}; shape=${item#*:}
  IFS=x read -r m n k <<< "$shape"
  name=gemm_${m}x${n}x${k}_t${THREADS}
  if [ ! -f "$TMP/$name/$name.o" ]; then
    "$BUILD/bin/tensorop" gen "${m}x${n}x${k} fp32 GEMM" --name="$name" \
      --threads="$THREADS" --no-bench -o "$TMP/$name" > "$TMP/$name.log"
  fi
  echo "KERNEL($name, $m, $n, $k, \"$cls\")" >> "$TMP/kernels.inc"
  echo "#include \"$TMP/$name/$name.h\"" >> "$TMP/kernels_headers.inc"
  OBJS+=("$TMP/$name/$name.o")
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
