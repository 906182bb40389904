#!/bin/sh
# Stages, here (no GPU needed), what tensorop-gpu-runner measures on the GPU
# machine for fused GEMM epilogues: the runner (static libstdc++; cuBLAS and
# cuBLASLt come from the machine) and, per case, the cubin and launch
# description of a `tensorop gen` request with an epilogue and of the same
# GEMM without one (timed alongside: what the epilogue costs). Then, on the
# GPU machine (device tool):
#   sh STAGE/run.sh        -> $OUT/runner-epilogue.jsonl, $OUT/runner-epilogue.log
#   python3 bench/gpu/runner_epilogue_table.py runner-epilogue.jsonl
# Usage: bench/gpu/stage-runner-epilogue.sh BUILD STAGE
set -e
BUILD=$1
STAGE=$2
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$STAGE"
mkdir -p "$STAGE/cases"
cp "$BUILD/bin/tensorop-gpu-runner" "$HERE/runner_epilogue_table.py" "$STAGE/"
gen() { # id request
  "$BUILD/bin/tensorop" gen "$2" -o "$STAGE/gen/$1" --name="$1" > "$STAGE/gen-$1.txt" 2>&1 ||
    { echo "$1: gen refused: $(tail -1 "$STAGE/gen-$1.txt")" >> "$STAGE/refused.txt"; return 0; }
  mkdir -p "$STAGE/cases/$1"
  for f in "$STAGE/gen/$1/$1".launch.json "$STAGE/gen/$1/$1".cubin "$STAGE/gen/$1/$1".fatbin; do
    if [ -f "$f" ]; then cp "$f" "$STAGE/cases/$1/"; fi
  done
}
# Case id, shape, type, words (_ for spaces), target; first three small edge
# cases (M, N off the tiles, N odd, the integer test). The plain GEMM of each
# shape, type and target is staged once.
while read -r id shape dtype words target; do
  [ -z "$id" ] && continue
  plain="plain_${shape}_${dtype}_$(echo "$target" | tr -c "a-zA-Z0-9\n" "_")"
  [ -d "$STAGE/cases/$plain" ] || gen "$plain" "$shape $dtype GEMM for $target"
  gen "$id" "$shape $dtype GEMM with $(echo "$words" | tr '_' ' ') for $target"
  echo "$id $plain" >> "$STAGE/order.txt"
done <<'CASES'
edge_bias_res_relu     1000x1048x520    bf16 bias,_residual_and_ReLU  H200
edge_rowbias_silu      1000x1048x520    bf16 row_bias_and_SiLU        H200
edge_s80_rowbias_gelu  1000x1001x520    f16  row_bias,_GELU_and_residual nvidia-sm80
g4096_bias_gelutanh    4096x4096x4096   bf16 bias_and_GELU-tanh       H200
g4096_bias_relu        4096x4096x4096   bf16 bias_and_ReLU            H200
g8192_bias_gelutanh    8192x8192x4096   bf16 bias_and_GELU-tanh       H200
g8192_bias_relu        8192x8192x4096   bf16 bias_and_ReLU            H200
llm128_bias_gelutanh   128x11008x4096   bf16 bias_and_GELU-tanh       H200
llm128_bias_relu       128x11008x4096   bf16 bias_and_ReLU            H200
llm4096_bias_gelutanh  4096x4096x11008  bf16 bias_and_GELU-tanh       H200
llm4096_bias_relu      4096x4096x11008  bf16 bias_and_ReLU            H200
g4096_bias_gelu        4096x4096x4096   bf16 bias_and_GELU            H200
g4096_bias_res_relu    4096x4096x4096   bf16 bias,_residual_and_ReLU  H200
g4096_rowbias_silu     4096x4096x4096   bf16 row_bias_and_SiLU        H200
s80_4096_bias_relu     4096x4096x4096   bf16 bias_and_ReLU            nvidia-sm80
CASES
rm -rf "$STAGE/gen"
cat > "$STAGE/run.sh" <<'SH'
#!/bin/sh
# On the GPU machine: every staged case through tensorop-gpu-runner, with
# its plain GEMM as --unfused.
STAGE=$(cd "$(dirname "$0")" && pwd)
OUTD=${OUT:-/tmp/out}
mkdir -p "$OUTD"
LOG=$OUTD/runner-epilogue.log
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit --format=csv
  "$STAGE/tensorop-gpu-runner" --version
  "$STAGE/tensorop-gpu-runner" --device-info
} > "$LOG" 2>&1
start=$(date +%s)
while read -r id plain; do
  if [ $(( $(date +%s) - start )) -gt "${BUDGET_S:-420}" ]; then
    echo "== $id: not run (over BUDGET_S)" >> "$LOG"
    continue
  fi
  echo "== $id (unfused: $plain)" >> "$LOG"
  launch=$STAGE/cases/$id/$id.launch.json
  if [ ! -f "$launch" ]; then echo "no launch description" >> "$LOG"; continue; fi
  unf=""
  [ -f "$STAGE/cases/$plain/$plain.launch.json" ] && unf="--unfused $STAGE/cases/$plain/$plain.launch.json"
  timeout 120 "$STAGE/tensorop-gpu-runner" "$launch" --rounds 10 $unf > "$OUTD/one.json" 2>> "$LOG" < /dev/null
  rc=$?
  echo "exit $rc" >> "$LOG"
  python3 -c 'import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    r = {"error": "no JSON: %s" % e}
r["id"] = sys.argv[2]; r["rc"] = int(sys.argv[3])
print(json.dumps(r))' "$OUTD/one.json" "$id" "$rc" >> "$OUTD/runner-epilogue.jsonl" < /dev/null
  rm -f "$OUTD/one.json"
done < "$STAGE/order.txt"
date -u >> "$LOG"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$LOG" 2>&1
grep -v '^  ' "$LOG" | tail -40
python3 "$STAGE/runner_epilogue_table.py" "$OUTD/runner-epilogue.jsonl" | tee "$OUTD/runner-epilogue-table.md"
SH
ls "$STAGE/cases" | wc -l
cat "$STAGE/refused.txt" 2>/dev/null || true
