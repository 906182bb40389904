#!/bin/sh
# Runs emitter variants staged by test/GPU/make_emitter_bundle.py: copy
# this script and tensorop-gpu-runner into STAGE, the bundle into STAGE/var;
# on the GPU machine `ROUNDS=5 sh STAGE/run-variants.sh` writes one JSON
# line per case to $OUT/var.jsonl (log: var.log, clocks before: smi-before.txt).
STAGE=$(cd "$(dirname "$0")" && pwd)
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
R=$STAGE/tensorop-gpu-runner
nvidia-smi --query-gpu=name,clocks.sm,utilization.gpu,temperature.gpu,power.draw --format=csv > "$OUTD/smi-before.txt" 2>&1
: > "$OUTD/var.jsonl"
while read -r id t; do
  echo "== $id" >> "$OUTD/var.log"
  timeout 90 "$R" "$STAGE/var/$id.launch.json" --rounds "${ROUNDS:-5}" --timeout 30 \
    > "$OUTD/one.json" 2>> "$OUTD/var.log"
  python3 -c 'import json,sys
try: r=json.load(open(sys.argv[1]))
except Exception as e: r={"error":str(e)}
r["id"]=sys.argv[2]; r["rc"]=int(sys.argv[3]); print(json.dumps(r))' "$OUTD/one.json" "$id" $? >> "$OUTD/var.jsonl"
  date -u +%T >> "$OUTD/var.log"
done < "$STAGE/var/cases.txt"
rm -f "$OUTD/one.json"
