#!/bin/sh
# Stages, here (no GPU needed), the measurement of the gap between the
# tuner's search runs and its confirmation runs (issue 16 item 5,
# docs/benchmarks/gpu-tuning.md): the same cubin of each shape run by
# tensorop-gpu-runner with the search's arguments (lib/Driver/GpuTune.cpp
# measure(): --rounds 5 --no-cublas) and with the confirmation's
# (confirmHere(): --rounds 10, cuBLAS and cuBLASLt alternating), one process
# each, the two kinds alternating process by process (S C S C ...). Every
# sample carries the SM clock, power, temperature and clock-event reasons
# (NVML) the runner reads halfway through it.
#   bench/gpu/stage-search-gap.sh BUILD STAGE [SHAPES...]
#   (GPU machine)  PAIRS=4 sh STAGE/run-gap.sh   -> $OUT/gap.jsonl, gap.log
#   (here)         bench/gpu/search_gap_table.py gap.jsonl
# SHAPES: "MxNxK type" words (default: 4096x4096x4096 bf16, 8192x8192x8192 bf16).
set -e
B=$(cd "$1" && pwd); STAGE=$2; shift 2
[ $# -gt 0 ] || set -- "4096x4096x4096 bf16" "8192x8192x8192 bf16"
rm -rf "$STAGE"; mkdir -p "$STAGE/cases"
cp "$B/bin/tensorop-gpu-runner" "$STAGE/"
for s in "$@"; do
  id=$(echo "$s" | tr ' ' '_')
  "$B/bin/tensorop" gen "$s GEMM for nvidia-sm90" -o "$STAGE/gen/$id" --name="k_$id" > /dev/null
  cp "$STAGE/gen/$id/k_$id.launch.json" "$STAGE/gen/$id/k_$id.cubin" "$STAGE/cases/"
  echo "$id" >> "$STAGE/order.txt"
done
rm -rf "$STAGE/gen"
cat > "$STAGE/run-gap.sh" <<'SH'
#!/bin/sh
STAGE=$(cd "$(dirname "$0")" && pwd)
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
R=$STAGE/tensorop-gpu-runner; RES=$OUTD/gap.jsonl; LOG=$OUTD/gap.log; : > "$RES"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv >> "$LOG" 2>&1
for p in $(seq 1 "${PAIRS:-4}"); do
  for id in $(cat "$STAGE/order.txt"); do
    for mode in search confirm; do
      if [ $mode = search ]; then args="--rounds 5 --no-cublas --timeout 30"
      else args="--rounds 10 --timeout 30"; fi
      echo "== $id $mode $p $(date -u +%T)" >> "$LOG"
      timeout 120 "$R" "$STAGE/cases/k_$id.launch.json" $args > "$OUTD/one.json" 2>> "$LOG"
      python3 - "$id" $mode $p $? "$OUTD/one.json" >> "$RES" <<'PY'
import json, sys
cid, mode, pair, rc, path = sys.argv[1:6]
try:
    r = json.load(open(path))
except Exception as e:
    r = {"error": "no JSON: %s" % e}
r.update({"id": cid, "mode": mode, "pair": int(pair), "rc": int(rc)})
print(json.dumps(r))
PY
    done
  done
done
rm -f "$OUTD/one.json"
SH
echo "staged in $STAGE: $(wc -l < "$STAGE/order.txt") shapes"
