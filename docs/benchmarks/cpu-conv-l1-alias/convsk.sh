#!/bin/bash
# convsk.sh TENSOROP_OPT TARGET: the builtin conv sketch (annotate's remark)
# of every default `tensorop bench --conv` layer; run from the repository
# root (TENSOROP_HOST_SYSFS / TENSOROP_HOST_CPU describe another host).
OPT=$1; TGT=${2:-host}
G=test/Integration/gen_conv_test.py
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
for n in 1 8; do
while read -r hw c f k s p d; do
  /usr/bin/python3 $G --n $n --h $hw --w $hw --c $c --f $f --r $k --s $k --stride $s --pad $p --dilation $d | sed '/^func.func @main/,$d' > $TMP/csk.mlir
  echo "N$n ${hw}x$hw $c>$f ${k}x$k/$s: $($OPT --tensorop-annotate-sketch=target=$TGT $TMP/csk.mlir 2>&1 | grep -o 'sketch mr=.*\|sketch<mc[^>]*' | head -1)"
done <<'L'
224 3 64 7 2 3 1
56 64 64 1 1 0 1
56 64 64 3 1 1 1
56 64 256 1 1 0 1
56 256 64 1 1 0 1
56 256 128 1 1 0 1
56 128 128 3 2 1 1
56 256 512 1 2 0 1
28 128 128 3 1 1 1
28 128 512 1 1 0 1
28 512 128 1 1 0 1
28 512 256 1 1 0 1
28 256 256 3 2 1 1
28 512 1024 1 2 0 1
14 256 256 3 1 1 1
14 256 1024 1 1 0 1
14 1024 256 1 1 0 1
14 1024 512 1 1 0 1
14 512 512 3 2 1 1
14 1024 2048 1 2 0 1
7 512 512 3 1 1 1
7 512 2048 1 1 0 1
7 2048 512 1 1 0 1
56 3 17 3 1 1 1
28 33 47 3 2 1 1
14 24 40 5 1 2 1
28 64 64 3 1 2 2
L
done
