#!/bin/bash
# bench/models/build_one.sh OUT BUILD_DIR TARGET THREADS BLOCK "SHAPE" [UPSTREAM]
#
# Builds the benchmark executable OUT for one block:
#   BLOCK ffn-f32 | ffn-bf16   SHAPE "T D H"      (gen_ffn.py, ffn_vs_onednn.c)
#   BLOCK bottleneck           SHAPE "N HW CIN C" (gen_bottleneck.py,
#                                                  bottleneck_vs_onednn.c)
# The module goes through --tensorop-pipeline (target=TARGET
# threads=THREADS bare-ptr-abi=1), again with fuse-epilogues=0 when the
# pipeline has that option, and, when UPSTREAM=1 (default), through
# upstream MLIR's lowering (one-shot-bufferize, deallocation, linalg to
# loops, LLVM; one thread), and for the FFN the block with its weights
# packed once (gen_ffn.py --prepacked, variant "prepacked"); each object
# is compiled by clang -O3 -march=native and linked with the harness and
# oneDNN. OUT.remarks gets
# the pipeline's remarks for our build; OUT.fused the epilogues the
# microkernels apply (one line per GEMM or convolution that has one).
set -euo pipefail
OUT=$1; BUILD=$2; TARGET=$3; THREADS=$4; BLOCK=$5; SHAPE=$6; UPSTREAM=${7:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
set -- $SHAPE
case $BLOCK in
  ffn-f32|ffn-bf16)
    prefix=ffn; harness=ffn_vs_onednn.c
    gen() { python3 "$HERE/gen_ffn.py" --tokens $1 --model $2 --hidden $3 \
              --dtype "${BLOCK#ffn-}" --name "$4" --workspace; }
    # Also the block with W1 and W2 packed once (gen_ffn.py --prepacked).
    genPrepacked() { python3 "$HERE/gen_ffn.py" --tokens $1 --model $2 \
              --hidden $3 --dtype "${BLOCK#ffn-}" --name "$4" --workspace \
              --prepacked --threads "$THREADS"; }
    flags=(); [ "$BLOCK" = ffn-bf16 ] && flags+=(-DFFN_BF16) ;;
  bottleneck)
    prefix=bn; harness=bottleneck_vs_onednn.c
    gen() { python3 "$HERE/gen_bottleneck.py" --n $1 --hw $2 --cin $3 --mid $4 \
              --name "$5"; }
    flags=() ;;
  *) echo "build_one.sh: unknown block '$BLOCK' (ffn-f32, ffn-bf16, bottleneck)" >&2
     exit 2 ;;
esac
UPSTREAM_PASSES=("--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"
  --buffer-deallocation-pipeline --convert-linalg-to-loops
  --lower-affine --convert-scf-to-cf --convert-math-to-llvm
  --expand-strided-metadata --finalize-memref-to-llvm --convert-arith-to-llvm
  --convert-cf-to-llvm --convert-func-to-llvm=use-bare-ptr-memref-call-conv
  --reconcile-unrealized-casts)
# The help text is read whole first: `tensorop-opt --help | grep -q` under
# pipefail fails when grep exits at the first match and tensorop-opt gets
# SIGPIPE, which silently dropped the unfused variant.
help=$("$BUILD/bin/tensorop-opt" --help)
unfused=0
if grep -q "fuse-epilogues" <<<"$help"; then
  unfused=1
fi
pipeline() { # NAME OPTIONS
  gen $SHAPE "${prefix}_$1" | "$BUILD/bin/tensorop-opt" \
      --tensorop-pipeline="target=$TARGET threads=$THREADS bare-ptr-abi=1$2" \
      2>"$TMP/$1.remarks" | mlir-translate-22 --mlir-to-llvmir > "$TMP/$1.ll"
  clang-22 -O3 -march=native -w -c "$TMP/$1.ll" -o "$TMP/$1.o"
}
libs=()
pipeline ours ""
objs=("$TMP/ours.o")
if [ $unfused = 1 ]; then
  pipeline unfused " fuse-epilogues=0"
  objs+=("$TMP/unfused.o"); flags+=(-DHAVE_UNFUSED)
fi
if [ "$prefix" = ffn ]; then
  genPrepacked $SHAPE "${prefix}_prepacked" | "$BUILD/bin/tensorop-opt" \
      --tensorop-pipeline="target=$TARGET threads=$THREADS bare-ptr-abi=1" \
      2>"$TMP/prepacked.remarks" | mlir-translate-22 --mlir-to-llvmir > "$TMP/prepacked.ll"
  clang-22 -O3 -march=native -w -c "$TMP/prepacked.ll" -o "$TMP/prepacked.o"
  objs+=("$TMP/prepacked.o"); flags+=(-DHAVE_PREPACKED)
fi
if [ "$UPSTREAM" = 1 ]; then
  gen $SHAPE "${prefix}_upstream" | mlir-opt-22 "${UPSTREAM_PASSES[@]}" |
    mlir-translate-22 --mlir-to-llvmir > "$TMP/upstream.ll"
  clang-22 -O3 -march=native -w -c "$TMP/upstream.ll" -o "$TMP/upstream.o"
  objs+=("$TMP/upstream.o")
  # (Its tensor.pad bufferizes to a strided memref.copy: memrefCopy.)
  libs+=(-L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lmlir_c_runner_utils)
else
  flags+=(-DNO_UPSTREAM)
fi
clang-22 -O2 "${flags[@]}" "$HERE/$harness" "${objs[@]}" \
    "${libs[@]}" -fopenmp -ldnnl -lm -o "$OUT"
cp "$TMP/ours.remarks" "$OUT.remarks"
# (Matmuls and convolutions: any remark saying a kernel applies an epilogue.)
grep 'applies.*epilogue' "$TMP/ours.remarks" | grep -o '\[[^]]*\]' > "$OUT.fused" || true
