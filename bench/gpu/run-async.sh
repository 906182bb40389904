#!/bin/sh
# On the GPU machine (device tool), from the repository root, after
# bench/gpu/build-async.sh here:
#   sh .gpu-async/run-async.sh [.gpu-async]
# For each kernel: async_check (NAME_async on a cudaStream_t vs NAME vs
# cublasGemmEx, verified on NaN-poisoned output, quiet at exit), then
# tensorop-gpu-runner (full verification, timing with NVML samples). Logs go
# to $OUT (async.log, runner-*.json).
STAGE=${1:-.gpu-async}
OUTD=${OUT:-/tmp/out}
mkdir -p "$OUTD"
CUBLAS_PY=$(python3 -c 'import nvidia.cublas,os;print(os.path.dirname(nvidia.cublas.__file__)+"/lib")' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$CUBLAS_PY:$LD_LIBRARY_PATH
LOG=$OUTD/async.log
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw,power.limit --format=csv
  nvidia-smi --version | head -4
  "$STAGE/tensorop-gpu-runner" --version
} > "$LOG" 2>&1
for which in baseline new; do
  [ -x "$STAGE/exit-$which/exit_check" ] || continue
  echo "=== exit noise, $which runtime:" >> "$LOG"
  "$STAGE/exit-$which/exit_check" >> "$LOG" 2> "$OUTD/exit.err"
  echo "exit_check exit $?; stderr bytes: $(wc -c < "$OUTD/exit.err")" >> "$LOG"
  sed 's/^/  stderr: /' "$OUTD/exit.err" >> "$LOG"
done
rm -f "$OUTD/exit.err"
while IFS='|' read -r name request m n k at ct; do
  echo "=== $name: $request" >> "$LOG"
  "$STAGE/$name/async_check" 15 20 > "$OUTD/check.out" 2> "$OUTD/check.err"
  rc=$?
  cat "$OUTD/check.out" >> "$LOG"
  echo "async_check exit $rc; stderr bytes: $(wc -c < "$OUTD/check.err")" >> "$LOG"
  sed 's/^/  stderr: /' "$OUTD/check.err" >> "$LOG"
  "$STAGE/tensorop-gpu-runner" "$STAGE/$name/$name.launch.json" --rounds 15 \
    --out "$OUTD/runner-$name.json" > /dev/null 2> "$OUTD/runner.err"
  echo "tensorop-gpu-runner exit $?" >> "$LOG"
  cat "$OUTD/runner.err" >> "$LOG"
done < "$STAGE/kernels.txt"
rm -f "$OUTD/check.out" "$OUTD/check.err" "$OUTD/runner.err"
cat "$LOG"
