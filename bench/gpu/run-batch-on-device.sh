#!/bin/sh
# Runs a `tensorop tune --gpu-batch=DIR` batch on the GPU machine with the
# runner built here (carried as build/bin/tensorop-gpu-runner), and copies the
# results to $OUT/results.tgz (the device tool brings $OUT back).
#   sh bench/gpu/run-batch-on-device.sh DIR
DIR=${1:-.gpu-tune/batch}
CUBLAS_PY=$(python3 -c 'import nvidia.cublas,os;print(os.path.dirname(nvidia.cublas.__file__)+"/lib")' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$CUBLAS_PY:$LD_LIBRARY_PATH
export TENSOROP_GPU_RUNNER=$PWD/build/bin/tensorop-gpu-runner
OUTD=${OUT:-/tmp/out}
mkdir -p "$OUTD"
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
start=$(date +%s)
sh "$DIR/run.sh" > "$OUTD/run.log" 2>&1
rc=$?
echo "run.sh exit $rc after $(( $(date +%s) - start )) s"
# Results only, in one archive (the device tool brings back few files): the
# cubins stay behind.
tar czf "$OUTD/results.tgz" -C "$DIR" --exclude='*.cubin' --exclude='*.fatbin' \
  --exclude='*.ptx' --exclude='*.launch.json' .
tail -3 "$OUTD/run.log"
grep -c "exit 0" "$OUTD/run.log"
