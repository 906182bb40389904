#!/bin/bash
# bench/models/run.sh BUILD_DIR TARGET THREADS ROUNDS "SHAPE" ...
#
# Per shape, builds the block's benchmark (build_one.sh: ours through
# --tensorop-pipeline, unfused with fuse-epilogues=0, upstream MLIR's
# lowering, oneDNN with post-ops) and runs it with OMP_NUM_THREADS=THREADS:
# one JSON line per shape on stdout, with "fused" (the epilogues our
# kernels apply) added. BLOCK (environment) picks the block: ffn-f32
# (default; SHAPE "T D H"), ffn-bf16, bottleneck (SHAPE "N HW CIN C");
# UPSTREAM=0 leaves the upstream lowering out. OPENBLAS_CORETYPE does not
# matter here (no OpenBLAS).
set -euo pipefail
BUILD=$1; TARGET=$2; THREADS=$3; ROUNDS=$4; shift 4
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for shape in "$@"; do
  bash "$HERE/build_one.sh" "$TMP/bench" "$BUILD" "$TARGET" "$THREADS" \
      "${BLOCK:-ffn-f32}" "$shape" "${UPSTREAM:-1}"
  OMP_NUM_THREADS=$THREADS "$TMP/bench" $shape "$ROUNDS" |
    python3 "$HERE/annotate.py" "$TMP/bench.fused" "$THREADS"
done
