#!/bin/bash
# bench/cpu/onednn_kernel_ab.sh M STRIPS KC LDA [ROUNDS [LDC]]
# oneDNN 2.6's copy-based sgemm kernel against our 8 x 48 microkernel over
# the same packed buffers (onednn_kernel_ab.c): dumps oneDNN's JIT kernels
# (DNNL_JIT_DUMP=1, a 1-thread 1024^3 dnnl_sgemm, which takes the copy-based
# path), emits ours (python_emitters/x86_gemm_fma.py; the in-place one for
# A rows LDA floats apart) and runs the five sweeps. Example, the shape of
# one K block of 127x1000x513 (M 128, five 48-column strips, kc 257, A rows
# 513 floats apart): onednn_kernel_ab.sh 128 5 257 513
set -e
M=$1; NS=$2; KC=$3; LDA=$4; ROUNDS=${5:-15}; LDC=${6:-$((NS * 48))}
HERE=$(cd "$(dirname "$0")" && pwd)
EMIT=$HERE/../../python_emitters/x86_gemm_fma.py
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo '{"kernel":"gemm_f32","isa":"avx512","mr":8,"nr":48}' |
  python3 "$EMIT" --format=function --symbol uk_pk > "$TMP/uk_pk.s"
echo "{\"kernel\":\"gemm_f32\",\"isa\":\"avx512\",\"mr\":8,\"nr\":48,\"a_stride_bytes\":$((4 * LDA))}" |
  python3 "$EMIT" --format=function --symbol uk_ip > "$TMP/uk_ip.s"
clang-22 -O2 "$HERE/onednn_kernel_ab.c" "$TMP/uk_pk.s" "$TMP/uk_ip.s" \
  -o "$TMP/ab" -ldnnl -lm
(cd "$TMP" && DNNL_JIT_DUMP=1 OMP_NUM_THREADS=1 ./ab dump 1024 1024 1024)
# The beta = 1 kernel is the one that adds C.
kern=""
for f in "$TMP"/dnnl_dump_*sgemm_kern*.bin; do
  if objdump -D -b binary -m i386:x86-64 -M intel "$f" |
      grep -qE 'vaddps zmm[0-9]+,zmm[0-9]+,ZMMWORD PTR'; then kern=$f; fi
done
[ -n "$kern" ] || { echo "no oneDNN sgemm kernel dumped" >&2; exit 1; }
uptime
OMP_NUM_THREADS=1 "$TMP/ab" ab "$M" "$NS" "$KC" "$LDA" "$ROUNDS" "$LDC" "$kern"
uptime
