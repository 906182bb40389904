#!/bin/bash
# bench/cpu/prepacked.sh BUILD_DIR MxNxK ...     (DTYPE=bf16 for bf16 inputs)
# Generates each GEMM with `tensorop gen` (fp32 or DTYPE, host, builtin advisor, 1
# thread) and times NAME_prepacked (B packed once by NAME_pack_b) through
# its header against oneDNN's matmul with weights reordered once, NAME on
# plain B and dnnl_sgemm, in one process (prepacked_vs_onednn.c). Set
# ROUNDS / ROUND_SECONDS to change the timing; KEEP=DIR keeps the objects.
set -e
BUILD=$(cd "$1" && pwd); shift
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=${KEEP:-$(mktemp -d)}
mkdir -p "$TMP"
[ -n "$KEEP" ] || trap 'rm -rf "$TMP"' EXIT
: > "$TMP/kernels.inc"
: > "$TMP/kernels_headers.inc"
OBJS=()
for shape in "$@"; do
  IFS=x read -r m n k <<< "$shape"
  name=gemm_${m}x${n}x${k}_${DTYPE:-fp32}_pp
  if [ ! -f "$TMP/$name/$name.o" ]; then
    "$BUILD/bin/tensorop" gen "${m}x${n}x${k} ${DTYPE:-fp32} GEMM" --name="$name" \
      --no-bench -o "$TMP/$name" > "$TMP/$name.log"
  fi
  echo "KERNEL($name, $m, $n, $k)" >> "$TMP/kernels.inc"
  echo "#include \"$TMP/$name/$name.h\"" >> "$TMP/kernels_headers.inc"
  OBJS+=("$TMP/$name/$name.o")
done
clang-22 -O2 ${ROUNDS:+-DROUNDS=$ROUNDS} $([ "$DTYPE" = bf16 ] && echo -DBF16) \
  ${ROUND_SECONDS:+-DROUND_SECONDS=$ROUND_SECONDS} -I"$TMP" \
  "$HERE/prepacked_vs_onednn.c" "${OBJS[@]}" -o "$TMP/bench" -ldnnl -lm
uptime
env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS=1 "$TMP/bench"
uptime
