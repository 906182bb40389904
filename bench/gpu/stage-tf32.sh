#!/bin/sh
# Stages the TF32 comparison (old mma.sync vs the wgmma tf32 kernel, both
# against cuBLAS cublasGemmEx with CUBLAS_COMPUTE_32F_FAST_TF32) for the GPU
# machine: emitter cubins (test/GPU/make_emitter_bundle.py), optionally the
# cubins of `tensorop gen` requests (the whole pipeline), and the runner.
#   bench/gpu/stage-tf32.sh RUNNER STAGE [TENSOROP]
#   (GPU machine) sh STAGE/run.sh   -> $OUT/tf32.jsonl, $OUT/tf32.log
set -e
RUNNER=$1
STAGE=$2
TENSOROP=$3
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$STAGE"
mkdir -p "$STAGE/v" "$STAGE/gen"
python3 "$HERE/tf32_variants.py" "$STAGE/cases.json"
python3 "$HERE/../../test/GPU/make_emitter_bundle.py" "$STAGE/v" "$STAGE/cases.json" > "$STAGE/build.log"
rm -f "$STAGE"/v/*.ptx
cp "$RUNNER" "$STAGE/tensorop-gpu-runner"
if [ -n "$TENSOROP" ]; then
  for req in 4096x4096x4096 2000x3000x1504 128x4096x4096 131x68x20; do
    id=gen_${req}_tf32
    "$TENSOROP" gen "$req tf32 GEMM for H200" -o "$STAGE/tmp/$id" --name=$id > /dev/null
    cp "$STAGE/tmp/$id/$id.launch.json" "$STAGE/tmp/$id/$id.cubin" "$STAGE/gen/"
    t=1; [ $req = 131x68x20 ] && t=0
    echo "$id $t" >> "$STAGE/gen/cases.txt"
  done
  rm -rf "$STAGE/tmp"
fi
cat > "$STAGE/run.sh" <<'RUN'
#!/bin/sh
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
RES=$OUTD/tf32.jsonl; : > "$RES"
LOG=$OUTD/tf32.log
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv; uptime; } > "$LOG" 2>&1
one() { # dir id timed
  a="--rounds ${ROUNDS:-6} --timeout 60"; [ "$3" = 1 ] || a="--no-time --timeout 60"
  t0=$(date +%s)
  timeout 120 ./tensorop-gpu-runner "$1/$2.launch.json" $a > "$OUTD/one.json" 2> "$OUTD/one.err"
  rc=$?
  python3 -c "
import json,sys
try: r=json.load(open('$OUTD/one.json'))
except Exception as e: r={'error':str(e)}
r.update(id='$2', rc=$rc, wall_s=$(date +%s)-$t0, stderr=open('$OUTD/one.err').read()[-600:])
print(json.dumps(r))" >> "$RES"
  python3 -c "
import json
r=json.loads(open('$RES').readlines()[-1]); t=r.get('timing',{})
print('%-34s rc=%s verified=%s ours=%s cublas=%s ratio=%s wall=%s' % (r['id'], r['rc'], r.get('verified'), t.get('tensorop_tflops_median'), t.get('cublas_tflops_median'), t.get('ratio_median'), r['wall_s']))" >> "$LOG"
}
while read id t; do one v "$id" "$t"; done < v/cases.txt
[ -f gen/cases.txt ] && while read id t; do one gen "$id" "$t"; done < gen/cases.txt
date -u >> "$LOG"
cat "$LOG"
RUN
echo "staged in $STAGE: $(wc -l < "$STAGE/v/cases.txt") emitter cases"
