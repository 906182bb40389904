#!/bin/bash
# bench/cpu/shared_b_ab.sh BUILD_DIR THREADS MxNxK ...
# A/B of the two threaded GEMM forms in one process (shared_b_ab.c): for
# each shape the builtin advisor's sketch at THREADS threads (as
# --tensorop-annotate-sketch gives it, team size and all) with pack_b =
# "kmajor_nr" and the same sketch with pack_b = "kmajor_nr_shared", both
# compiled by the tensorop pipeline (bare-pointer ABI, as gen's objects),
# timed alternating with oneDNN's dnnl_sgemm, wall and process CPU time.
# Where the builtin sketch reads B in place (pack_b "none", its choice for
# skinny GEMMs such as 16x2048x2048), the shared side packs B shared
# instead (and drops the B row prefetch, which needs B in place): the A/B
# is then B in place against one shared packed copy. A shape whose builtin
# sketch runs on one thread (min-flops-per-thread) is skipped with a note.
# ROUNDS / ROUND_SECONDS change the timing. Needs clang-22, mlir-translate,
# libomp, OpenBLAS and oneDNN (as bench/cpu/run.sh).
set -euo pipefail
BUILD=$(cd "$1" && pwd); THREADS=$2; shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
OPT="$BUILD/bin/tensorop-opt"
: > "$TMP/kernels.inc"
: > "$TMP/kernels_headers.inc"
OBJS=()
for shape in "$@"; do
  IFS=x read -r m n k <<< "$shape"
  name=ab_${m}x${n}x${k}
  cat > "$TMP/$name.mlir" <<MLIR
func.func @${name}_base(%A: memref<${m}x${k}xf32>, %B: memref<${k}x${n}xf32>, %C: memref<${m}x${n}xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<${m}x${n}xf32>)
  linalg.matmul ins(%A, %B : memref<${m}x${k}xf32>, memref<${k}x${n}xf32>) outs(%C : memref<${m}x${n}xf32>)
  return
}
MLIR
  "$OPT" "$TMP/$name.mlir" \
    --tensorop-annotate-sketch="target=host threads=$THREADS" \
    > "$TMP/$name.base.mlir" 2> "$TMP/$name.log"
  if ! grep -q "threads = $THREADS>" "$TMP/$name.base.mlir"; then
    echo "$shape: skipped, the builtin sketch runs on one thread:" \
      "$(grep -o 'remark: tensorop: [^:]*' "$TMP/$name.log" | head -1)"
    continue
  fi
  sed -E -e 's/pack_b = "(kmajor_nr|none)"/pack_b = "kmajor_nr_shared"/' \
      -e 's/, prefetch_b_cols = [0-9]+//' \
      -e "s/@${name}_base/@${name}_shared/" \
      "$TMP/$name.base.mlir" > "$TMP/$name.shared.mlir"
  echo "$shape: base $(grep -o '#tensorop.sketch<mc[^t]*' "$TMP/$name.base.mlir" | sed 's/, ukernel = .*//')," \
    "$(grep -o 'ukernel = <[^>]*>' "$TMP/$name.base.mlir"), threads = $THREADS;" \
    "shared: the same with pack_b = \"kmajor_nr_shared\""
  for side in base shared; do
    "$OPT" "$TMP/$name.$side.mlir" \
      --tensorop-pipeline="target=host bare-ptr-abi=1" 2>> "$TMP/$name.log" |
      /usr/lib/llvm-22/bin/mlir-translate --mlir-to-llvmir > "$TMP/$name.$side.ll"
    clang-22 -O3 -march=native -c -Wno-override-module "$TMP/$name.$side.ll" \
      -o "$TMP/$name.$side.o"
    OBJS+=("$TMP/$name.$side.o")
    echo "void ${name}_${side}(const float *, const float *, float *);" \
      >> "$TMP/kernels_headers.inc"
  done
  echo "KERNEL(${name}_base, ${name}_shared, $m, $n, $k)" >> "$TMP/kernels.inc"
done
clang-22 -O2 -DTHREADS="$THREADS" ${ROUNDS:+-DROUNDS=$ROUNDS} \
  ${ROUND_SECONDS:+-DROUND_SECONDS=$ROUND_SECONDS} -I"$TMP" \
  "$HERE/shared_b_ab.c" "${OBJS[@]}" -o "$TMP/bench" \
  -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp \
  -ldnnl -lopenblas -lpthread -lm
echo "load before: $(uptime)"
env OMP_NUM_THREADS="$THREADS" OPENBLAS_NUM_THREADS=1 "$TMP/bench"
echo "load after: $(uptime)"
