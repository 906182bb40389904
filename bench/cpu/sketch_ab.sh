#!/bin/bash
# bench/cpu/sketch_ab.sh BUILD DIR MxNxK [SKETCH ...]
# Same-process A/B of sketches on one fp32 GEMM shape, 1 thread (THREADS=N:
# N threads, sketches planned and libraries run with N): row v0 is
# the builtin advisor's sketch, row vI the I-th SKETCH, each timed by
# gemm_vs_libraries.c next to OpenBLAS, oneDNN and libxsmm (verified before
# and after timing, like run.sh). A SKETCH is the inside of
# #tensorop.sketch<...> without target and source, its ukernel written as
# `ukernel = <emitter = "x86_gemm_fma", ...>`, e.g.
#   'mc = 98, nc = 96, kc = 157, mr = 7, nr = 48, loop_order = "mkn",
#    micro_order = "mn", pack_a = "none", pack_b = "none", ukernel =
#    <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit",
#    prefetch_b = 0>'
# Each variant takes `tensorop gen`'s module and header; its object is
# lowered with the sketch on every linalg.matmul (tensorop-opt
# --tensorop-pipeline, mlir-translate-22, clang-22 -O3 -march=znver4),
# v0 too, so all rows are compiled alike. Objects stay in DIR and are
# reused (delete DIR after changing BUILD). Target: x86-avx512. The rows
# run one after the other (the libraries in every row): compare each row's
# "vs best". CPU_TIME=1 times with the thread's CPU clock (loaded
# machines); ROUNDS / ROUND_SECONDS as run.sh. INTERLEAVE=1 times all
# variants and the libraries in every round instead (variants_ab.c: the
# ratio per round, for differences of a few percent on a shared machine;
# 21 rounds unless ROUNDS says otherwise). PIPE_TARGET=host lowers every
# variant with target=host (this machine's per-CPU facts, e.g. Zen 4's
# half-width last vectors, as gen's default does) instead of x86-avx512's
# file.
set -e
THREADS=${THREADS:-1}
BUILD=$(cd "$1" && pwd); mkdir -p "$2"; OUT=$(cd "$2" && pwd); SHAPE=$3
shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/../common/lower.sh"
IFS=x read -r m n k <<< "$SHAPE"
TARGET='target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "sketch_ab"'
: > "$OUT/kernels.inc"
: > "$OUT/kernels_headers.inc"
OBJS=()
i=0
for sketch in builtin "$@"; do
  name=gemm_${m}x${n}x${k}_v$i
  d=$OUT/$name
  if [ ! -f "$d/$name.o" ]; then
    "$BUILD/bin/tensorop" gen "${m}x${n}x${k} fp32 GEMM" --name="$name" \
      --threads=$THREADS --no-bench -o "$d" > "$d.log"
    cp "$d/$name.mlir" "$d/variant.mlir"
    if [ "$sketch" != builtin ]; then
      full="#tensorop.sketch<${sketch/ukernel = </ukernel = #tensorop.ukernel_spec<}, $TARGET>"
      # (Every matmul of the module: NAME and its other entry points.)
      python3 -c 'import sys; p, s = sys.argv[1:]; t = open(p).read()
open(p, "w").write(t.replace("linalg.matmul ins(",
    "linalg.matmul {tensorop.sketch = %s} ins(" % s))' "$d/variant.mlir" "$full"
    fi
    lower_object "$BUILD" \
      "target=${PIPE_TARGET:-x86-avx512} advisor=builtin threads=$THREADS bare-ptr-abi=true" \
      "$d/variant.mlir" "$d/$name.o" -O3 -march=znver4
  fi
  echo "v$i: $sketch"
  echo "KERNEL($name, $m, $n, $k, \"v$i\")" >> "$OUT/kernels.inc"
  echo "#include \"$d/$name.h\"" >> "$OUT/kernels_headers.inc"
  OBJS+=("$d/$name.o")
  i=$((i + 1))
done
CLOCK=""
[ -n "$CPU_TIME" ] && CLOCK=-DTIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID
HARNESS=$HERE/gemm_vs_libraries.c
[ -n "$INTERLEAVE" ] && HARNESS=$HERE/variants_ab.c
clang-22 -O2 -DTHREADS=$THREADS $CLOCK ${ROUNDS:+-DROUNDS=$ROUNDS} \
  ${ROUND_SECONDS:+-DROUND_SECONDS=$ROUND_SECONDS} -I"$OUT" \
  "$HARNESS" "${OBJS[@]}" -o "$OUT/bench" \
  -lxsmm -ldnnl -lopenblas -lpthread -lrt -ldl -lm \
  -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp
uptime
[ -n "$CPU_TIME" ] && echo "timed with the thread CPU clock (CPU_TIME=1)"
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
    ${BENCH_OPENBLAS_CORETYPE:+OPENBLAS_CORETYPE=$BENCH_OPENBLAS_CORETYPE} OMP_NUM_THREADS=$THREADS \
  OPENBLAS_NUM_THREADS=$THREADS "$OUT/bench"
uptime
