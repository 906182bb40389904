#!/bin/bash
# bench/conv/sketch_ab.sh BUILD_DIR "N H W C F R S stride pad dilation" [SED] [THREADS]
# Times one layer's builtin convolution sketch, edited by the sed script
# SED (e.g. 's/loop_order = "fcp"/loop_order = "pf"/'; none: the builtin's
# own), against oneDNN in one process (conv_vs_onednn.c: both verified
# against an fp64 reference before and after timing). At 1 thread it
# counts thread CPU time (-DTIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID), so an
# A/B of two sketches on a loaded machine counts only the time the thread
# ran; cache and memory contention from other processes still count, so
# run each side twice and quote only same-process ratios. Prints the
# sketch, then the harness's line.
set -e
BUILD=$1; LAYER=$2; EDIT=${3:-}; THREADS=${4:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$HERE/../common/lower.sh"
conv_layer_module "$LAYER" "$TMP/conv.mlir"
"$BUILD/bin/tensorop-opt" --tensorop-annotate-sketch="target=x86-avx512 threads=$THREADS" \
    "$TMP/conv.mlir" 2>/dev/null | sed "${EDIT:-s/^//}" > "$TMP/sketched.mlir"
grep -o 'conv_sketch<[^>]*prefetch_b = [0-9]*>' "$TMP/sketched.mlir" | head -1
lower_object "$BUILD" "target=x86-avx512 bare-ptr-abi=1 threads=$THREADS" \
    "$TMP/sketched.mlir" "$TMP/conv.o"
flags=()
[ "$THREADS" = 1 ] && flags+=(-DTIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID)
[ "$THREADS" -gt 1 ] && flags+=(-L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp)
clang-22 -O2 -I"$HERE/../../tools/tensorop/harness" "$HERE/conv_vs_onednn.c" "$TMP/conv.o" \
    -o "$TMP/bench" -ldnnl -lm "${flags[@]}"
OMP_NUM_THREADS=$THREADS "$TMP/bench" $LAYER
