#!/bin/sh
# Stages, here (no GPU needed), the measurement of unaligned GEMMs on the
# wgmma kernel with pad copies (docs/benchmarks/gpu-gemm.md, "Unaligned
# rows"): `tensorop gen` of BASE_BUILD (the builtin choice before: mma.sync
# with element loads) and of NEW_BUILD (after) for each shape, the runner of
# NEW_BUILD (it launches a case's "before" pad kernels ahead of the GEMM).
# Every case goes through tensorop-gpu-runner: verified against cuBLAS on
# NaN-poisoned output, then timed alternating with cuBLAS and cuBLASLt in
# one process.
#   bench/gpu/stage-pad.sh BASE_BUILD NEW_BUILD STAGE [SHAPES]
#   (GPU machine)  sh STAGE/run.sh      -> $OUT/pad.jsonl, pad.log
# SHAPES: a file of "MxNxK type [base|new|both]" lines (default: both).
set -e
BB=$1; NB=$2; STAGE=$3; SHAPES=${4:-$(dirname "$0")/pad-shapes.txt}
rm -rf "$STAGE"; mkdir -p "$STAGE/cases"
cp "$NB/bin/tensorop-gpu-runner" "$STAGE/"
gen() { # build id request
  "$1/bin/tensorop" gen "$3" -o "$STAGE/gen/$2" --name="$2" > "$STAGE/gen-$2.txt" 2>&1 ||
    { echo "$2: gen refused: $(tail -1 "$STAGE/gen-$2.txt")" >> "$STAGE/refused.txt"; return 0; }
  mkdir -p "$STAGE/cases/$2"
  cp "$STAGE/gen/$2/$2.launch.json" "$STAGE/gen/$2/$2.cubin" "$STAGE/cases/$2/"
  echo "$2" >> "$STAGE/order.txt"
}
while read -r shape dtype which; do
  [ -z "$shape" ] && continue
  case "$shape" in \#*) continue ;; esac
  [ "${which:-both}" = new ] || gen "$BB" "base_${shape}_$dtype" "$shape $dtype GEMM for nvidia-sm90"
  [ "${which:-both}" = base ] || gen "$NB" "new_${shape}_$dtype" "$shape $dtype GEMM for nvidia-sm90"
done < "$SHAPES"
rm -rf "$STAGE/gen"
cat > "$STAGE/run.sh" <<'SH'
#!/bin/sh
STAGE=$(cd "$(dirname "$0")" && pwd)
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
LOG=$OUTD/pad.log; RES=$OUTD/pad.jsonl; : > "$RES"
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
{ date -u; uptime
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,utilization.gpu --format=csv
  "$STAGE/tensorop-gpu-runner" --device-info; } > "$LOG" 2>&1
start=$(date +%s)
for id in $(cat "$STAGE/order.txt"); do
  [ $(( $(date +%s) - start )) -gt "${BUDGET_S:-300}" ] && { echo "$id: over budget" >> "$LOG"; continue; }
  echo "== $id" >> "$LOG"
  timeout 90 "$STAGE/tensorop-gpu-runner" "$STAGE/cases/$id/$id.launch.json" \
    --rounds "${ROUNDS:-5}" --timeout 30 > "$OUTD/one.json" 2>> "$LOG"
  rc=$?
  python3 - "$id" $rc "$OUTD/one.json" >> "$RES" <<'PY'
import json, sys
cid, rc, path = sys.argv[1:4]
try:
    r = json.load(open(path))
except Exception as e:
    r = {"error": "no JSON: %s" % e}
r.update({"id": cid, "rc": int(rc)})
print(json.dumps(r))
PY
done
rm -f "$OUTD/one.json"
date -u >> "$LOG"
SH
echo "staged in $STAGE: $(wc -l < "$STAGE/order.txt") cases"
