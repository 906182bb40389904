#!/bin/bash
# bench/cpu/unseen-shapes.sh [SEED]
# Prints 30 fp32 GEMM shapes as CLASS:MxNxK, drawn by a fixed-seed generator
# (a 31-bit LCG, so bash alone reproduces them anywhere) across the shape
# classes of docs/benchmarks/cpu-gemm-classes.md, none of them a shape of
# its class table or of the independent check quoted in issue 17: shapes
# nobody tuned the builtin advisor on. The set was fixed (seed 1517) before
# anything was measured on it; use it as
#   ROUNDS=9 ROUND_SECONDS=0.05 bash bench/cpu/run.sh build 1 \
#     $(bash bench/cpu/unseen-shapes.sh)
#
#   small     (6) every dimension 8..160; odd-numbered shapes prime in all
#                 three, the others odd in one
#   skinny    (6) M (or N, alternately) 1..16, the other two 512..8192
#   irregular (6) every dimension 150..1500, odd; every other shape prime
#   tall      (4) M (or N, alternately) 2048..8192, the other two 64..512
#   square    (4) M = N = K in 384..3000, not a power of two
#   fewrows   (4) M (or N, alternately) 17..64, the other two 512..6000
#                 (added in session 34, drawn after the others, so a
#                 seed's first 26 shapes are the ones it gave before: few
#                 rows with B past L2 had run at 0.3-0.6x unseen)
set -e
seed=${1:-1517}

# The class table's 26 shapes and the independent check's (issue 17).
seen=" 16x16x16 32x32x32 64x64x64 100x100x100 128x128x128 37x53x71 24x120x96
  80x48x112 8x4096x4096 4096x8x4096 16x2048x2048 1x4096x4096 2048x16x2048
  4x1024x4096 200x300x100 333x777x555 127x1000x513 600x500x700 256x256x256
  512x512x512 1024x1024x1024 2048x2048x2048 4096x1024x1024 2048x256x2048
  8192x128x512 33x777x1027 33x77x1027 "

state=$seed
# draw LO HI: sets r to a uniform integer in [LO, HI].
draw() {
  state=$(((state * 1103515245 + 12345) % 2147483648))
  r=$(($1 + (state >> 8) % ($2 - $1 + 1)))
}
is_prime() {
  local n=$1 d=2
  ((n >= 2)) || return 1
  while ((d * d <= n)); do
    ((n % d)) || return 1
    d=$((d + 1))
  done
}
# prime_near N MAX: sets r to the least prime >= N, or the greatest below
# N where that one would pass MAX.
prime_near() {
  r=$1
  until is_prime "$r"; do r=$((r + 1)); done
  ((r <= $2)) && return
  r=$1
  until is_prime "$r"; do r=$((r - 1)); done
}

out=()
# emit CLASS M N K: keeps the shape unless it was seen or drawn already;
# sets kept=1 when it was kept.
emit() {
  local s="$2x$3x$4"
  kept=0
  case "$seen" in *" $s "*) return ;; esac
  out+=("$1:$s")
  seen="$seen $s "
  kept=1
}

i=0
while ((i < 6)); do # small
  draw 8 160; m=$r; draw 8 160; n=$r; draw 8 160; k=$r
  if ((i % 2 == 0)); then
    prime_near $m 160; m=$r; prime_near $n 160; n=$r; prime_near $k 160; k=$r
  else
    k=$((k | 1))
  fi
  emit small $m $n $k; i=$((i + kept))
done
i=0
while ((i < 6)); do # skinny
  draw 1 16; s=$r; draw 512 8192; a=$r; draw 512 8192; k=$r
  if ((i % 2 == 0)); then emit skinny $s $a $k; else emit skinny $a $s $k; fi
  i=$((i + kept))
done
i=0
while ((i < 6)); do # irregular
  draw 150 1500; m=$((r | 1)); draw 150 1500; n=$((r | 1))
  draw 150 1500; k=$((r | 1))
  if ((i % 2 == 0)); then
    prime_near $m 1500; m=$r; prime_near $n 1500; n=$r
    prime_near $k 1500; k=$r
  fi
  emit irregular $m $n $k; i=$((i + kept))
done
i=0
while ((i < 4)); do # tall / wide
  draw 2048 8192; l=$r; draw 64 512; a=$r; draw 64 512; k=$r
  if ((i % 2 == 0)); then emit tall $l $a $k; else emit tall $a $l $k; fi
  i=$((i + kept))
done
i=0
while ((i < 4)); do # square, not a power of two
  draw 384 3000; s=$r
  ((s & (s - 1))) || continue
  emit square $s $s $s; i=$((i + kept))
done
i=0
while ((i < 4)); do # few rows / few columns, more than skinny's 16
  draw 17 64; s=$r; draw 512 6000; a=$r; draw 512 6000; k=$r
  if ((i % 2 == 0)); then emit fewrows $s $a $k; else emit fewrows $a $s $k; fi
  i=$((i + kept))
done
echo "${out[@]}"
