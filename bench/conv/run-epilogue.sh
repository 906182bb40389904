#!/bin/bash
# bench/conv/run-epilogue.sh BUILD_DIR TARGET RESIDUAL "N H W C F R S stride pad" ...
# Per layer: the convolution with a bias and ReLU (RESIDUAL=1: bias,
# residual, ReLU) written as models write it (test/Integration/
# gen_conv_test.py's @conv with --steps), built twice through
# --tensorop-pipeline (fuse-epilogues=1 and =0), timed with oneDNN's
# convolution primitive with the same post-ops in one process at 1 thread
# (epilogue_vs_onednn.c: verified before and after timing, interleaved
# rounds).
set -e
BUILD=$1; TARGET=$2; RES=$3; shift 3
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$HERE/../common/lower.sh"
STEPS=bias_n,relu
[ "$RES" = 1 ] && STEPS=bias_n,residual,relu
for layer in "$@"; do
  conv_layer_module "$layer" "$TMP/conv.mlir" --steps $STEPS
  for fuse in 1 0; do
    name=conv_fused; [ $fuse = 0 ] && name=conv_unfused
    sed "s/func.func @conv(/func.func @$name(/" "$TMP/conv.mlir" > "$TMP/$name.mlir"
    lower_object "$BUILD" "target=$TARGET bare-ptr-abi=1 fuse-epilogues=$fuse" \
        "$TMP/$name.mlir" "$TMP/$name.o"
  done
  if [ "$RES" = 1 ]; then want="epilogue \[bias_n, residual, relu\]"; else want="epilogue \[bias_n, relu\]"; fi
  grep -q "$want" "$TMP/conv_fused.remarks" || { echo "not fused: $layer"; cat "$TMP/conv_fused.remarks"; exit 1; }
  clang-22 -O2 -DRESIDUAL=$RES -I"$HERE/../../tools/tensorop/harness" "$HERE/epilogue_vs_onednn.c" \
      "$TMP/conv_fused.o" "$TMP/conv_unfused.o" -o "$TMP/bench" -ldnnl -lm
  OMP_NUM_THREADS=1 DNNL_CPU_RUNTIME=SEQ "$TMP/bench" $layer
done
