#!/bin/sh
# On the GPU machine: the cases staged by bench/gpu/stage-splitk-gemv.sh
# (STAGE/run.sh: verified, timed against cuBLAS and cuBLASLt's best of 8)
# and, when given, a `tensorop tune --gpu-batch` batch directory run with the
# stage's runner (cut off after TUNE_S seconds); results in $OUT
# (splitk-gemv.jsonl/.log, tune-run.log, tune-results.tgz).
#   sh bench/gpu/run-streamk-device.sh STAGE [BATCH_DIR [TUNE_S]]
STAGE=$(cd "$1" && pwd); BATCH=$2; TUNE_S=${3:-200}
OUTD=${OUT:-/tmp/out}; mkdir -p "$OUTD"
ROUNDS=${ROUNDS:-5} BUDGET_S=${BUDGET_S:-200} sh "$STAGE/run.sh"
[ -n "$BATCH" ] || exit 0
CUBLAS_PY=$(python3 -c 'import nvidia.cublas,os;print(os.path.dirname(nvidia.cublas.__file__)+"/lib")' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$CUBLAS_PY:$LD_LIBRARY_PATH
export TENSOROP_GPU_RUNNER=$STAGE/tensorop-gpu-runner
start=$(date +%s)
timeout "$TUNE_S" sh "$BATCH/run.sh" > "$OUTD/tune-run.log" 2>&1
echo "tune batch: exit $? after $(( $(date +%s) - start )) s" >> "$OUTD/tune-run.log"
tar czf "$OUTD/tune-results.tgz" -C "$BATCH" --exclude='*.cubin' --exclude='*.fatbin' \
  --exclude='*.ptx' --exclude='*.launch.json' .
