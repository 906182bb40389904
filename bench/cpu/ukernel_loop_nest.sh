#!/bin/bash
# bench/cpu/ukernel_loop_nest.sh N MC NC KC MR NR VARIANT...
# Times x86_gemm_fma.py kernels inside an N^3 GEMM's packed loop nest
# (ukernel_loop_nest.c: K blocks of KC, M blocks of MC, N blocks of NC,
# MR x NR tiles, C in place), all variants and three reference rows in
# every round, in one process: differences of 1% show where whole GEMMs on
# a shared machine move by several. A VARIANT is NAME=JSON, the JSON
# merged into {"kernel": "gemm_f32", "isa": "avx512", "mr": MR, "nr": NR},
# or NAME@EMITTER=JSON to emit it with another copy of x86_gemm_fma.py
# (e.g. one extracted from an earlier commit). The first variant is the
# baseline of the ratios. ROUNDS (default 11). Example:
#   bash bench/cpu/ukernel_loop_nest.sh 2111 1056 128 423 6 64 \
#     add='{}' store='{"c_update": "store"}'
set -e
if [ $# -lt 7 ]; then
  sed -n '2,13p' "$0" >&2
  exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
N=$1 MC=$2 NC=$3 KC=$4 MR=$5 NR=$6
shift 6
CC=${CC:-clang-22}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
header=$TMP/ukernel_loop_nest_variants.h
fns=() names=()
i=0
for v in "$@"; do
  if [[ $v != ?*=* ]]; then
    echo "ukernel_loop_nest.sh: a variant is NAME=JSON, got '$v'" >&2
    exit 2
  fi
  name=${v%%=*} json=${v#*=}
  emitter=$ROOT/python_emitters/x86_gemm_fma.py
  if [[ $name == *@* ]]; then
    emitter=${name#*@}
    name=${name%%@*}
  fi
  spec=$(python3 -c 'import json, sys
s = {"kernel": "gemm_f32", "isa": "avx512", "mr": int(sys.argv[1]),
     "nr": int(sys.argv[2])}
s.update(json.loads(sys.argv[3]))
print(json.dumps(s))' "$MR" "$NR" "$json")
  python3 "$emitter" --format=function --symbol "uk_v$i" <<<"$spec" \
    > "$TMP/v$i.s"
  fns+=("uk_v$i")
  names+=("\"$name\"")
  i=$((i + 1))
done
{
  for f in "${fns[@]}"; do
    echo "void $f(const float *, const float *, float *, long, long, long, long);"
  done
  echo "static const ukernel_fn kVariants[] = {$(IFS=,; echo "${fns[*]}")};"
  echo "static const char *const kVariantNames[] = {$(IFS=,; echo "${names[*]}")};"
} > "$header"
$CC -O2 -I"$TMP" "$HERE/ukernel_loop_nest.c" "$TMP"/v*.s -o "$TMP/nest"
uptime
"$TMP/nest" "$N" "$MC" "$NC" "$KC" "$MR" "$NR" "${ROUNDS:-11}"
