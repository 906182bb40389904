#!/bin/sh
# On the GPU machine (device tool), from the repository root, after
# bench/gpu/build-conv.py here:
#   sh STAGE/run-conv.sh STAGE [--rounds N]
# Environment (GPU, driver, clocks, versions) and the harness's JSON lines
# go to $OUT (conv.log, results.jsonl).
STAGE=$1
shift
OUTD=${OUT:-/tmp/out}
mkdir -p "$OUTD"
LOG=$OUTD/conv.log
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit --format=csv
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version())'
} > "$LOG" 2>&1
PYTHONUNBUFFERED=1 python3 "$STAGE/conv_vs_torch.py" "$STAGE/cases.json" --out "$OUTD/results.jsonl" "$@" >> "$LOG" 2>&1
echo "harness exit $?" >> "$LOG"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$LOG" 2>&1
cat "$LOG"
