#!/bin/bash
# bench/cpu/packed_parts_ab.sh M N K [ROUNDS]
# Shares of the packed path's parts (pack B, C traffic, A in place vs
# packed, blocking) in a replica of gen's loop nest around the emitted 6 x 64
# microkernels (packed_parts_ab.c says what each variant changes). fp32,
# 1 thread, N a multiple of 256.
set -e
M=$1; N=$2; K=$3; ROUNDS=${4:-15}
HERE=$(cd "$(dirname "$0")" && pwd)
EMIT=$HERE/../../python_emitters/x86_gemm_fma.py
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
emit() { # SYMBOL C_UPDATE EXTRA_JSON
  echo "{\"kernel\":\"gemm_f32\",\"isa\":\"avx512\",\"mr\":6,\"nr\":64,\"c_update\":\"$2\"$3}" |
    python3 "$EMIT" --format=function --symbol "$1" > "$TMP/$1.s"
}
for cu in st add; do
  u=store; [ $cu = add ] && u=add
  emit ip_$cu $u ",\"a_stride_bytes\":$((4 * K))"
  emit ipp_$cu $u ",\"a_stride_bytes\":$((4 * (K + 16)))"
  emit pk_$cu $u ""
done
clang-22 -O2 "$HERE/packed_parts_ab.c" "$TMP"/*.s -o "$TMP/ab"
uptime
"$TMP/ab" "$M" "$N" "$K" "$ROUNDS"
uptime
