#!/bin/sh
# Checks, here, what bench/gpu/stage-gpu-lit.sh's run-lit.sh brought back
# from the GPU machine, with the FileCheck lines of the two tests:
#   bench/gpu/check-gpu-lit.sh lit.tar
SRC=$(cd "$(dirname "$0")/../.." && pwd); T=$(mktemp -d); tar -C "$T" -xf "$1"
FC=${FILECHECK:-/usr/lib/llvm-22/bin/FileCheck}
rc=0
chk() { # file test prefix
  if $FC "$SRC/test/GPU/$2" --check-prefix="$3" < "$T/$1" > /dev/null 2> "$T/fc.err"; then
    echo "PASS $1 ($2 $3)"
  else
    echo "FAIL $1 ($2 $3)"; head -5 "$T/fc.err"; rc=1
  fi
}
for p in bmm_a bmm_b bmm_c bmm_d; do chk $p.txt batch-matmul-run.test CHECK; done
for n in ws1 ws2 ws3; do chk $n.launch.txt runner-epilogue-run.test WS; done
chk ws1.txt runner-epilogue-run.test EXACT
chk ws2.txt runner-epilogue-run.test EXACT
chk ws3.txt runner-epilogue-run.test VERIFIED
exit $rc
