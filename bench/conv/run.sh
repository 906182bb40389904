#!/bin/bash
# bench/conv/run.sh BUILD_DIR TARGET "N H W C F R S stride pad dilation" ...
# Builds TensorOp's kernel for each layer (the module form `tensorop gen`
# uses, from test/Integration/gen_conv_test.py's @conv) and times it against
# oneDNN in one process, at 1 thread unless THREADS (conv_vs_onednn.c).
# LAYOUT=nchw: the layer in PyTorch's layout instead (gen_nchw.py's
# linalg.conv_2d_nchw_fchw module, as torch-mlir emits it; oneDNN on plain
# nchw tensors).
# LAYOUT=depthwise: layers "N H W C R S stride pad dilation" of
# linalg.depthwise_conv_2d_nhwc_hwc (gen_depthwise.py) against oneDNN's
# grouped convolution (depthwise_vs_onednn.c, one JSON line per layer).
# THREADS=2: both sides on 2 threads (the pipeline's threads= option for
# ours, with LLVM's libomp; OMP_NUM_THREADS for oneDNN's OpenMP runtime).
set -e
BUILD=$1; TARGET=$2; shift 2
THREADS=${THREADS:-1}
OMP=
[ "$THREADS" -gt 1 ] && OMP="-L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp"
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$HERE/../common/lower.sh"
for layer in "$@"; do
  harness="$HERE/conv_vs_onednn.c"
  if [ "${LAYOUT:-nhwc}" = nchw ]; then
    python3 "$HERE/gen_nchw.py" $layer > "$TMP/conv.mlir"
    layoutFlag=-DNCHW
  elif [ "${LAYOUT:-nhwc}" = depthwise ]; then
    python3 "$HERE/gen_depthwise.py" $layer > "$TMP/conv.mlir"
    layoutFlag=
    harness="$HERE/depthwise_vs_onednn.c"
  else
    conv_layer_module "$layer" "$TMP/conv.mlir"
    layoutFlag=
  fi
  lower_object "$BUILD" "target=$TARGET bare-ptr-abi=1 threads=$THREADS" "$TMP/conv.mlir" "$TMP/conv.o"
  clang-22 -O2 $layoutFlag -I"$HERE/../../tools/tensorop/harness" "$harness" "$TMP/conv.o" -o "$TMP/bench" -ldnnl -lm $OMP
  OMP_NUM_THREADS=$THREADS "$TMP/bench" $layer
done
