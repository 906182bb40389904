#!/bin/bash
# bench/models/ab_prepacked.sh OUT OPT_A OPT_B THREADS DTYPE "T D H"
#
# Builds OUT, an A/B of the prepacked FFN block (gen_ffn.py --prepacked)
# compiled by two tensorop-opt binaries (OPT_A: variant "prepacked", OPT_B:
# variant "prepacked_b"; e.g. main's build and a branch's), with oneDNN
# with post-ops as the third, in one process (MEASURE.md: the variants
# alternate in rounds, all verified against the fp64 reference). Run it as
#   OMP_NUM_THREADS=THREADS OUT T D H ROUNDS
# DTYPE f32 or bf16. FILTER_A / FILTER_B (environment, default cat): a
# command each module is piped through before its pipeline, e.g. a sed
# that writes a #tensorop.sketch onto its matmuls to try a sketch by hand.
# GEN_A / GEN_B (environment, default this directory's gen_ffn.py): the
# gen_ffn.py that writes each side's module, for an A/B of a change to the
# module itself (e.g. GEN_A=/work/main/bench/models/gen_ffn.py).
# TIMING_CLOCK=CLOCK_THREAD_CPUTIME_ID (environment) times thread CPU time:
# for a 1-thread A/B on a loaded machine (harness.h says what it leaves in).
set -euo pipefail
OUT=$1; OPT_A=$2; OPT_B=$3; THREADS=$4; DTYPE=$5; SHAPE=$6
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
set -- $SHAPE
one() { # T D H NAME OPT FILTER GEN
  python3 "$7" --tokens $1 --model $2 --hidden $3 \
      --dtype "$DTYPE" --name "ffn_$4" --workspace --prepacked \
      --threads "$THREADS" | sh -c "${6:-cat}" | "$5" \
      --tensorop-pipeline="target=host threads=$THREADS bare-ptr-abi=1" \
      2>"$TMP/$4.remarks" | mlir-translate-22 --mlir-to-llvmir > "$TMP/$4.ll"
  clang-22 -O3 -march=native -w -c "$TMP/$4.ll" -o "$TMP/$4.o"
}
one $SHAPE prepacked "$OPT_A" "${FILTER_A:-cat}" "${GEN_A:-$HERE/gen_ffn.py}"
one $SHAPE prepacked_b "$OPT_B" "${FILTER_B:-cat}" "${GEN_B:-$HERE/gen_ffn.py}"
flags=(-DNO_OURS -DNO_UPSTREAM -DHAVE_PREPACKED -DHAVE_PREPACKED_B)
[ "$DTYPE" = bf16 ] && flags+=(-DFFN_BF16)
[ -n "${TIMING_CLOCK:-}" ] && flags+=(-DTIMING_CLOCK="$TIMING_CLOCK")
clang-22 -O2 "${flags[@]}" "$HERE/ffn_vs_onednn.c" "$TMP/prepacked.o" \
    "$TMP/prepacked_b.o" -fopenmp -ldnnl -lm -o "$OUT"
cp "$TMP/prepacked.remarks" "$OUT.a.remarks"
cp "$TMP/prepacked_b.remarks" "$OUT.b.remarks"
