#!/bin/sh
# Stages, here (no GPU needed), the measurement of split-K (wgmma), the GEMV
# kernel (M <= 16) and the wave-model tiles (issue 16 item 2) for the GPU
# machine: the runner of RUNNER_BUILD, `tensorop gen` of BASE_BUILD (the
# builtin choice before this work) and of NEW_BUILD (after it) for each
# shape, and emitter variants straight from python_emitters
# (bench/gpu/splitk-gemv-cases.json, test/GPU/make_emitter_bundle.py).
# Every case goes through tensorop-gpu-runner: verified against cuBLAS on
# NaN-poisoned output, then timed alternating with cuBLAS in one process.
#   bench/gpu/stage-splitk-gemv.sh RUNNER_BUILD BASE_BUILD NEW_BUILD STAGE
#   (GPU machine)  sh STAGE/run.sh      -> $OUT/splitk-gemv.jsonl, .log
# BASE_BUILD or NEW_BUILD may be "-" (no base / new-builtin cases). CASES (a JSON file like
# splitk-gemv-cases.json) and SHAPES (a file of "MxNxK type" lines) replace
# the default lists (the second run: splitk-gemv-cases2.json, shapes2.txt).
set -e
RB=$1; BB=$2; NB=$3; STAGE=$4
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$STAGE"; mkdir -p "$STAGE/cases"
cp "$RB/bin/tensorop-gpu-runner" "$STAGE/"
python3 "$HERE/../../test/GPU/make_emitter_bundle.py" "$STAGE/variants" \
  "${CASES:-$HERE/splitk-gemv-cases.json}" > "$STAGE/variants.txt"
gen() { # build id request
  "$1/bin/tensorop" gen "$3" -o "$STAGE/gen/$2" --name="$2" > "$STAGE/gen-$2.txt" 2>&1 ||
    { echo "$2: gen refused: $(tail -1 "$STAGE/gen-$2.txt")" >> "$STAGE/refused.txt"; return 0; }
  mkdir -p "$STAGE/cases/$2"
  cp "$STAGE/gen/$2/$2.launch.json" "$STAGE/gen/$2/$2.cubin" "$STAGE/cases/$2/"
  echo "$2" >> "$STAGE/order.txt"
}
[ -n "$SHAPES" ] || { SHAPES=$STAGE/shapes.txt; cat > "$SHAPES" <<'LIST'
1x4096x4096 bf16
3x4096x4096 bf16
16x11008x4096 bf16
128x4096x4096 bf16
2000x3000x1504 bf16
127x1000x513 f16
1000x1000x1000 f16
4096x4096x4096 bf16
LIST
}
while read -r shape dtype; do
  [ -z "$shape" ] && continue
  [ "$BB" = "-" ] || gen "$BB" "base_${shape}_$dtype" "$shape $dtype GEMM for nvidia-sm90"
  [ "$NB" = "-" ] || gen "$NB" "new_${shape}_$dtype" "$shape $dtype GEMM for nvidia-sm90"
done < "$SHAPES"
rm -rf "$STAGE/gen"
cat > "$STAGE/run.sh" <<'SH'
#!/bin/sh
STAGE=$(cd "$(dirname "$0")" && pwd)
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
LOG=$OUTD/splitk-gemv.log; RES=$OUTD/splitk-gemv.jsonl; : > "$RES"
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
{ date -u; uptime
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,utilization.gpu --format=csv
  "$STAGE/tensorop-gpu-runner" --device-info; } > "$LOG" 2>&1
one() { # id launch timed
  args="--rounds ${ROUNDS:-5}"; [ "$3" = 1 ] || args="--no-time"
  echo "== $1" >> "$LOG"
  timeout 60 "$STAGE/tensorop-gpu-runner" "$2" $args --timeout 20 > "$OUTD/one.json" 2>> "$LOG"
  rc=$?
  python3 - "$1" $rc "$OUTD/one.json" >> "$RES" <<'PY'
import json, sys
cid, rc, path = sys.argv[1:4]
try:
    r = json.load(open(path))
except Exception as e:
    r = {"error": "no JSON: %s" % e}
r.update({"id": cid, "rc": int(rc)})
print(json.dumps(r))
PY
}
start=$(date +%s)
for id in $(cat "$STAGE/order.txt"); do
  [ $(( $(date +%s) - start )) -gt "${BUDGET_S:-200}" ] && { echo "$id: over budget" >> "$LOG"; continue; }
  one "$id" "$STAGE/cases/$id/$id.launch.json" 1
done
while read -r id t; do
  [ $(( $(date +%s) - start )) -gt "${BUDGET_S:-200}" ] && { echo "$id: over budget" >> "$LOG"; continue; }
  one "$id" "$STAGE/variants/$id.launch.json" "$t"
done < "$STAGE/variants/cases.txt"
date -u >> "$LOG"
SH
echo "staged in $STAGE: $(wc -l < "$STAGE/order.txt") gen cases, $(wc -l < "$STAGE/variants/cases.txt") variants"
