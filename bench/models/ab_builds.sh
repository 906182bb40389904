#!/bin/bash
# bench/models/ab_builds.sh OUT BUILD_A BUILD_B THREADS DTYPE "T D H"
#
# Builds OUT, a same-process A/B of two builds on one FFN row: the plain
# block and the prepacked block (gen_ffn.py, as build_one.sh writes them),
# each compiled by BUILD_A (with BUILD_A's checkout's gen_ffn.py when it has
# one, else this one) and by BUILD_B (this directory's gen_ffn.py), and
# oneDNN with post-ops, all verified against the fp64 reference and timed in
# alternating rounds (ffn_vs_onednn.c). In its JSON line "unfused" is
# BUILD_A's plain block (not an unfused build), "ours" BUILD_B's,
# "prepacked" BUILD_A's prepacked block and "prepacked_b" BUILD_B's. Run it
# as
#   OMP_NUM_THREADS=THREADS OUT T D H ROUNDS
# GEN_A (environment): the gen_ffn.py for BUILD_A's modules.
set -euo pipefail
OUT=$1; A=$(cd "$2" && pwd); B=$(cd "$3" && pwd); THREADS=$4; DTYPE=$5
SHAPE=$6
HERE=$(cd "$(dirname "$0")" && pwd)
GEN_A=${GEN_A:-$(cd "$A/.." && pwd)/bench/models/gen_ffn.py}
[ -f "$GEN_A" ] || GEN_A=$HERE/gen_ffn.py
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
set -- $SHAPE
one() { # NAME BUILD GEN [--prepacked --threads N]
  local name=$1 build=$2 gen=$3; shift 3
  python3 "$gen" --tokens $T --model $D --hidden $H --dtype "$DTYPE" \
      --name "ffn_$name" --workspace "$@" | "$build/bin/tensorop-opt" \
      --tensorop-pipeline="target=host threads=$THREADS bare-ptr-abi=1" \
      2>"$TMP/$name.remarks" | mlir-translate-22 --mlir-to-llvmir > "$TMP/$name.ll"
  clang-22 -O3 -march=native -w -c "$TMP/$name.ll" -o "$TMP/$name.o"
}
T=$1; D=$2; H=$3
one unfused "$A" "$GEN_A"
one ours "$B" "$HERE/gen_ffn.py"
one prepacked "$A" "$GEN_A" --prepacked --threads "$THREADS"
one prepacked_b "$B" "$HERE/gen_ffn.py" --prepacked --threads "$THREADS"
flags=(-DNO_UPSTREAM -DHAVE_UNFUSED -DHAVE_PREPACKED -DHAVE_PREPACKED_B)
[ "$DTYPE" = bf16 ] && flags+=(-DFFN_BF16)
clang-22 -O2 "${flags[@]}" "$HERE/ffn_vs_onednn.c" "$TMP"/{ours,unfused,prepacked,prepacked_b}.o \
    -fopenmp -ldnnl -lm -o "$OUT"
