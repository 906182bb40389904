#!/bin/bash
# bench/cpu/run.sh BUILD_DIR THREADS CLASS:MxNxK ...
# Generates each GEMM with `tensorop gen` (the object and header a user
# gets; fp32, host target, builtin advisor, THREADS threads) and times them
# through their headers' entry points against OpenBLAS, oneDNN and libxsmm
# in one process (gemm_vs_libraries.c; every side once per round, the
# order rotated from round to round). OPENBLAS_CORETYPE is unset so that
# OpenBLAS picks its own kernels; BENCH_OPENBLAS_CORETYPE=NAME sets it for
# the timed process alone, for CPUs OpenBLAS 0.3.21 does not recognise
# (Emerald Rapids: it falls back to Prescott's SSE3 kernels, about 35
# GFLOP/s; SkylakeX is its AVX-512 sgemm). Set ROUNDS / ROUND_SECONDS to
# change the timing; KEEP=DIR keeps the generated objects there (and
# reuses them).
# CPU_TIME=1 (1 thread only) times with the thread's CPU clock instead of
# the wall clock, for runs on a loaded machine (gemm_vs_libraries.c).
# At 1 thread each row's "ours % peak" divides by the register-only FMA
# peak timed in the same rounds (the clock moves by about 10% within a run;
# not at 2 threads, see gemm_vs_libraries.c). The last line is the core
# clock and one core's peak measured right after the table
# (python_emitters/bench_ukernel.py --peak-only).
set -e
BUILD=$(cd "$1" && pwd); THREADS=$2; shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/gemm_bench.sh"
TMP=${KEEP:-$(mktemp -d)}
mkdir -p "$TMP"
[ -n "$KEEP" ] || trap 'rm -rf "$TMP"' EXIT
: > "$TMP/kernels.inc"
: > "$TMP/kernels_headers.inc"
OBJS=()
for item in "$@"; do
  cls=${item%%:*}; shape=${item#*:}
  add_gemm "$BUILD" "$TMP" "gemm_${shape}_t${THREADS}" "$shape" "$THREADS" "$cls"
done
uptime
[ -n "$CPU_TIME" ] && echo "timed with the thread CPU clock (CPU_TIME=1)"
bench_vs_libraries "$HERE/gemm_vs_libraries.c" "$TMP" "$THREADS"
uptime
python3 "$HERE/../../python_emitters/bench_ukernel.py" --peak-only ||
  echo "run.sh: the peak measurement failed (python_emitters/bench_ukernel.py)" >&2
