#!/bin/sh
# Stages, here (no GPU needed), what tensorop-gpu-runner measures on the GPU
# machine: the runner (static libstdc++; cuBLAS and, through dlopen, cuDNN
# come from the machine) and, per case, the cubin and launch description of
# a one-line `tensorop gen` request. Then, on the GPU machine (device tool):
#   sh STAGE/run.sh        -> $OUT/runner-conv.jsonl, $OUT/runner-conv.log
#   python3 bench/gpu/runner_conv_table.py runner-conv.jsonl
# Usage: bench/gpu/stage-runner-conv.sh BUILD STAGE [N...]   (default N: 32 1)
set -e
BUILD=$1
STAGE=$2
shift 2
BATCHES=${*:-32 1}
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$STAGE"
mkdir -p "$STAGE/cases"
cp "$BUILD/bin/tensorop-gpu-runner" "$HERE/runner_conv_table.py" "$STAGE/"
gen() { # id request
  "$BUILD/bin/tensorop" gen "$2" -o "$STAGE/gen/$1" --name="$1" > "$STAGE/gen-$1.txt" 2>&1 ||
    { echo "$1: gen refused: $(tail -1 "$STAGE/gen-$1.txt")" >> "$STAGE/refused.txt"; return 0; }
  mkdir -p "$STAGE/cases/$1"
  cp "$STAGE/gen/$1/$1.launch.json" "$STAGE/gen/$1/$1.cubin" "$STAGE/cases/$1/"
  echo "$1" >> "$STAGE/order.txt"
}
# The first batch size, then the corner cases, then the other batch sizes:
# run.sh measures in this order and stops starting cases after BUDGET_S.
first=1
for n in $BATCHES; do
  python3 - "$HERE" "$n" > "$STAGE/requests-$n.txt" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import conv_layers
n = int(sys.argv[2])
for layer in conv_layers.RESNET50:
    if layer[3] % 8 == 0:  # conv1 (C = 3) is refused by gen
        print("%s_n%d_bf16\t%s" % (layer[0], n, conv_layers.request(n, layer, "bf16")))
PY
  while IFS="$(printf '\t')" read -r id req; do gen "$id" "$req"; done < "$STAGE/requests-$n.txt"
  if [ $first = 1 ]; then
    first=0
    # The corner cases: uneven padding, strides, dilation (cuDNN's legacy
    # descriptor cannot say uneven padding: its side is refused by name),
    # the mma.sync kernel (C not a multiple of 64), and one GEMM through
    # the same runner.
    gen odd_3x5_s2x1_d1x2_bf16 "conv2d N=3 H=17 W=23 C=64 F=72 R=3 S=5 stride=2x1 dilation=1x2 pad_top=1 pad_left=2 pad_bottom=0 pad_right=1 bf16 for H200"
    gen c24_3x3_n4_f16 "conv2d N=4 H=28 W=28 C=24 F=64 R=3 S=3 pad=1 f16 for H200"
    gen gemm_2048_bf16 "2048x2048x2048 bf16 GEMM for H200"
  fi
done
rm -rf "$STAGE/gen"
cat > "$STAGE/run.sh" <<'SH'
#!/bin/sh
# On the GPU machine: every staged case through tensorop-gpu-runner.
STAGE=$(cd "$(dirname "$0")" && pwd)
OUTD=${OUT:-/tmp/out}
mkdir -p "$OUTD"
LOG=$OUTD/runner-conv.log
# cuBLAS, cuDNN (and what they load) from PyTorch's wheels.
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cudnn", torch.backends.cudnn.version())'
  "$STAGE/tensorop-gpu-runner" --version
  "$STAGE/tensorop-gpu-runner" --device-info
} > "$LOG" 2>&1
measure() { # id launch [options]
  id=$1
  launch=$2
  shift 2
  timeout 90 "$STAGE/tensorop-gpu-runner" "$launch" --rounds 10 "$@" > "$OUTD/one.json" 2>> "$LOG" < /dev/null
  rc=$?
  echo "exit $rc" >> "$LOG"
  python3 -c 'import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    r = {"error": "no JSON: %s" % e}
r["id"] = sys.argv[2]; r["rc"] = int(sys.argv[3])
print(json.dumps(r))' "$OUTD/one.json" "$id" "$rc" >> "$OUTD/runner-conv.jsonl" < /dev/null
  rm -f "$OUTD/one.json"
}
start=$(date +%s)
while read -r id; do
  if [ $(( $(date +%s) - start )) -gt "${BUDGET_S:-330}" ]; then
    echo "== $id: not run (over BUDGET_S)" >> "$LOG"
    continue
  fi
  launch=$STAGE/cases/$id/$id.launch.json
  echo "== $id" >> "$LOG"
  measure "$id" "$launch"
  # A kernel over MEASURE.md's bound (fp32 accumulation) but exact on small
  # integers and free of NaN is measured once more under the input type's
  # (looser) bound, recorded as ID+input_type_bound, never in place of it.
  if [ "$rc" = 1 ] && python3 -c 'import json, sys
v = json.loads(open(sys.argv[1]).readlines()[-1])["verification"]
sys.exit(not (v["random"]["nan"] == 0 and v["small_integers"]["mismatches"] == 0))' "$OUTD/runner-conv.jsonl" < /dev/null 2>/dev/null; then
    measure "$id+input_type_bound" "$launch" --input-type-bound
  fi
done < "$STAGE/order.txt"
date -u >> "$LOG"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$LOG" 2>&1
grep -v '^  ' "$LOG" | tail -40
python3 "$STAGE/runner_conv_table.py" "$OUTD/runner-conv.jsonl" | tee "$OUTD/runner-conv-table.md"
SH
ls "$STAGE/cases" | wc -l
cat "$STAGE/refused.txt" 2>/dev/null || true
