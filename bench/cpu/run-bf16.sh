#!/bin/bash
# bench/cpu/run-bf16.sh BUILD_DIR "M N K" ... ("M N K bt": B stored N x K)
# Builds TensorOp's bf16 GEMM for each shape through --tensorop-pipeline
# (target x86-avx512, builtin advisor, 1 thread; the module `tensorop gen`
# builds: C zeroed, then C = A*B with bf16 A and B and an fp32 C) and times
# it against oneDNN's bf16 matmul in one process (bf16_vs_onednn.c).
set -e
BUILD=$1; shift
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "# malloc M N K ours-median ours-best onednn-median onednn-best ratio max-err/bound(ours) (onednn) onednn-impl"
for shape in "$@"; do
  set -- $shape
  M=$1 N=$2 K=$3 BT=$4
  BTYPE="memref<${K}x${N}xbf16>" MAPS=""
  if [ "$BT" = bt ]; then
    BTYPE="memref<${N}x${K}xbf16>"
    MAPS=" indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]"
  fi
  cat > "$TMP/gemm.mlir" <<MLIR
func.func @gemm(%A: memref<${M}x${K}xbf16>, %B: $BTYPE, %C: memref<${M}x${N}xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<${M}x${N}xf32>)
  linalg.matmul${MAPS} ins(%A, %B : memref<${M}x${K}xbf16>, $BTYPE)
                outs(%C : memref<${M}x${N}xf32>)${SKETCH:+ {tensorop.sketch = $SKETCH\}}
  return
}
MLIR
  "$BUILD/bin/tensorop-opt" --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" "$TMP/gemm.mlir" \
      2>"$TMP/remarks" | /usr/lib/llvm-22/bin/mlir-translate --mlir-to-llvmir > "$TMP/gemm.ll"
  clang-22 -O2 -c "$TMP/gemm.ll" -o "$TMP/gemm.o"
  clang-22 -O2 "$HERE/bf16_vs_onednn.c" "$TMP/gemm.o" -o "$TMP/bench" -ldnnl -lm
  # The generated code allocates its packing buffers in every call; glibc's
  # default malloc hands large freed blocks back to the kernel, so each call
  # page-faults them in again. Each shape runs as shipped ("default") and
  # with malloc keeping freed memory ("no-trim": what a caller-provided
  # workspace would give).
  echo -n "default  "
  OMP_NUM_THREADS=1 "$TMP/bench" $M $N $K $BT
  echo -n "no-trim  "
  OMP_NUM_THREADS=1 GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864 \
    "$TMP/bench" $M $N $K $BT
done
