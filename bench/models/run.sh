#!/bin/bash
# bench/models/run.sh BUILD_DIR TARGET THREADS ROUNDS "T D H" ...
#
# The FFN block of gen_ffn.py, per shape: through --tensorop-pipeline
# (target=TARGET threads=THREADS bare-ptr-abi=1), through it with epilogue
# fusion off when the pipeline has that option (fuse-epilogues=0), and
# through upstream MLIR's lowering (one-shot-bufferize, deallocation, linalg
# to loops, LLVM; clang -O3 -march=native; one thread), linked into
# ffn_vs_onednn.c with oneDNN (OMP_NUM_THREADS=THREADS); one JSON line per
# shape on stdout. OPENBLAS_CORETYPE does not matter here (no OpenBLAS).
set -euo pipefail
BUILD=$1; TARGET=$2; THREADS=$3; ROUNDS=$4; shift 4
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
UPSTREAM="--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map"
UPSTREAM_REST=(--buffer-deallocation-pipeline --convert-linalg-to-loops
  --lower-affine --convert-scf-to-cf --convert-math-to-llvm
  --expand-strided-metadata --finalize-memref-to-llvm --convert-arith-to-llvm
  --convert-cf-to-llvm --convert-func-to-llvm=use-bare-ptr-memref-call-conv
  --reconcile-unrealized-casts)
unfused=0
if "$BUILD/bin/tensorop-opt" --help | grep -q "fuse-epilogues"; then
  unfused=1
fi
for shape in "$@"; do
  set -- $shape
  gen() { python3 "$HERE/gen_ffn.py" --tokens $1 --model $2 --hidden $3 --name $4; }
  gen $1 $2 $3 ffn_ours | "$BUILD/bin/tensorop-opt" \
      --tensorop-pipeline="target=$TARGET threads=$THREADS bare-ptr-abi=1" |
    mlir-translate-22 --mlir-to-llvmir > "$TMP/ours.ll"
  objs=("$TMP/ours.o")
  clang-22 -O3 -march=native -w -c "$TMP/ours.ll" -o "$TMP/ours.o"
  flags=()
  if [ $unfused = 1 ]; then
    gen $1 $2 $3 ffn_unfused | "$BUILD/bin/tensorop-opt" \
        --tensorop-pipeline="target=$TARGET threads=$THREADS bare-ptr-abi=1 fuse-epilogues=0" |
      mlir-translate-22 --mlir-to-llvmir > "$TMP/unfused.ll"
    clang-22 -O3 -march=native -w -c "$TMP/unfused.ll" -o "$TMP/unfused.o"
    objs+=("$TMP/unfused.o"); flags+=(-DHAVE_UNFUSED)
  fi
  gen $1 $2 $3 ffn_upstream | mlir-opt-22 "$UPSTREAM" "${UPSTREAM_REST[@]}" |
    mlir-translate-22 --mlir-to-llvmir > "$TMP/upstream.ll"
  clang-22 -O3 -march=native -w -c "$TMP/upstream.ll" -o "$TMP/upstream.o"
  objs+=("$TMP/upstream.o")
  clang-22 -O2 "${flags[@]}" "$HERE/ffn_vs_onednn.c" "${objs[@]}" \
      -L"$BUILD/lib" -fopenmp -ldnnl -lm -o "$TMP/bench"
  OMP_NUM_THREADS=$THREADS "$TMP/bench" $1 $2 $3 "$ROUNDS"
done
