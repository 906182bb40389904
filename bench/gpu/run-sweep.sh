#!/bin/sh
STAGE=$1
OUTD=${OUT:-/tmp/out}
mkdir -p "$OUTD"
LOG=$OUTD/sweep.log
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
  echo "=== aot C checks (NAME + NAME_async, exact integers)"
  "$STAGE/check_f16"; echo "check_f16 exit $?"
  "$STAGE/check_bf16"; echo "check_bf16 exit $?"
} > "$LOG" 2>&1
PYTHONUNBUFFERED=1 python3 "$STAGE/conv_vs_torch.py" "$STAGE/cases.json" --modes graph --rounds 8 --out "$OUTD/sweep.jsonl" >> "$LOG" 2>&1
echo "harness exit $?" >> "$LOG"
cat "$LOG"
