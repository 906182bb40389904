#!/bin/bash
# Same-process A/B of GEMM + epilogue variants with thread CPU time (the
# loaded-machine harness: bench/epilogue/run.sh's separate processes swing
# 2-3x when other work shares the cores). Each VARIANT is
# LABEL=OPT:FUSE[:DATA_DIR] (a tensorop-opt binary, fuse-epilogues=0|1 and
# optionally the TENSOROP_DATA_DIR its emitters come from: a copy of
# build/share/tensorop with other python_emitters) compiling mkab2d.py's
# function for x86-avx512 (bare-pointer ABI); ab_cpu.c calls them in turn,
# ROUNDS rounds of REPS calls, and prints medians and per-round ratios to
# the first variant, and max |C - C_v0| (C NaN-prefilled). 1 thread.
# usage: bench/epilogue/ab_cpu.sh M N K STEPS ROUNDS REPS VARIANT...  (<= 4)
#   e.g. ... 2048 2048 16 bias_n,residual 21 5 unfused=build/bin/tensorop-opt:0 fused=build/bin/tensorop-opt:1
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
M=$1 N=$2 K=$3 STEPS=$4 ROUNDS=$5 REPS=$6
shift 6
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
BLEN=$N
case ",$STEPS," in *,bias_m,*) BLEN=$M ;; esac
objs=() labels=()
i=0
for spec in "$@"; do
  label=${spec%%=*}
  IFS=: read -r opt fuse data <<< "${spec#*=}"
  python3 "$HERE/mkab2d.py" "$M" "$N" "$K" "$STEPS" "v$i" > "$TMP/v$i.mlir"
  env ${data:+TENSOROP_DATA_DIR=$data} "$opt" --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1 fuse-epilogues=$fuse" \
    "$TMP/v$i.mlir" 2>"$TMP/v$i.remarks" | mlir-translate-22 --mlir-to-llvmir > "$TMP/v$i.ll"
  echo "v$i $label: $(grep -c 'applies the epilogue' "$TMP/v$i.remarks" || true) epilogue(s) applied by the microkernel"
  clang-22 -O2 -march=native -c "$TMP/v$i.ll" -o "$TMP/v$i.o" 2>/dev/null
  objs+=("$TMP/v$i.o") labels+=("$label")
  i=$((i + 1))
done
# Unused slots of the driver's table call v0.
cat > "$TMP/stubs.c" <<C
void v0(const float *, const float *, const float *, const float *, float *);
$(for j in $(seq $i 3); do echo "void v$j(const float *a, const float *b, const float *c, const float *d, float *e) { v0(a, b, c, d, e); }"; done)
C
clang-22 -O2 -DM=$M -DN=$N -DK=$K -DBLEN=$BLEN -DVARIANTS=$i "$HERE/ab_cpu.c" "$TMP/stubs.c" "${objs[@]}" -lm -o "$TMP/ab"
"$TMP/ab" "$ROUNDS" "$REPS" "${labels[@]}"
