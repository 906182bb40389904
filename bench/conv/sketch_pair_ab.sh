#!/bin/bash
# bench/conv/sketch_pair_ab.sh BUILD_DIR "N H W C F R S stride pad dilation" SED_A SED_B [ROUNDS]
# Two edits of one layer's builtin convolution sketch (target x86-avx512;
# an empty SED keeps the builtin's own) timed against each other and
# oneDNN in one process (conv_pair_ab.c: A B oneDNN rounds, all verified
# before and after timing), 1 thread, thread CPU time: an A/B of two
# sketches on a loaded machine (cache contention from other processes
# still counts). Prints both sketches, then the harness's line, whose B/A
# is the median over rounds of B's speed over A's within the round.
set -e
BUILD=$1; LAYER=$2; EDIT_A=$3; EDIT_B=$4; ROUNDS=${5:-21}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
source "$HERE/../common/lower.sh"
conv_layer_module "$LAYER" "$TMP/conv.mlir"
"$BUILD/bin/tensorop-opt" --tensorop-annotate-sketch="target=x86-avx512" \
    "$TMP/conv.mlir" 2>/dev/null > "$TMP/sketched.mlir"
for side in a b; do
  edit=$EDIT_A; name=conv
  [ $side = b ] && edit=$EDIT_B && name=conv_b
  sed "${edit:-s/^//}" "$TMP/sketched.mlir" | sed "s/func.func @conv(/func.func @$name(/" > "$TMP/$side.mlir"
  echo "$side: $(grep -o 'conv_sketch<[^>]*prefetch_b = [0-9]*>' "$TMP/$side.mlir" | head -1)"
  lower_object "$BUILD" "target=x86-avx512 bare-ptr-abi=1" "$TMP/$side.mlir" "$TMP/$side.o"
done
clang-22 -O2 -DTIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID -I"$HERE/../../tools/tensorop/harness" \
    "$HERE/conv_pair_ab.c" "$TMP/a.o" "$TMP/b.o" -o "$TMP/bench" -ldnnl -lm
OMP_NUM_THREADS=1 "$TMP/bench" $LAYER $ROUNDS
