#!/bin/sh
# gpu20's second device call (docs/benchmarks/gpu-gemm.md, "Session 20"),
# run from a stage folder STAGE that holds (staged here, no GPU needed):
#   gap/   bench/gpu/stage-search-gap.sh build STAGE/gap   (gpu20's runner:
#          every warm-up sample's rate, clock and power in the JSON)
#   tune/  call 1's tune database, and its confirmation batch written by
#          gpu20's tensorop tune (interleaved round by round)
#   pad/   bench/gpu/stage-pad.sh /work/main/build build STAGE/pad bench/gpu/gpu20-shapes2.txt
#   tensorop-gpu-runner (gpu20's build)
# (GPU machine) sh STAGE/gpu20-call2.sh -> $OUT/call2.tgz (every raw file)
S=$(cd "$(dirname "$0")" && pwd)
R=$OUT/r; mkdir -p "$R"
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
{ date -u; uptime; nvidia-smi; "$S/tensorop-gpu-runner" --device-info; } > "$R/info.txt" 2>&1
t0=$(date +%s); step() { echo "$1 at $(( $(date +%s) - t0 )) s" | tee -a "$R/steps.txt"; }
step gap; PAIRS=${PAIRS:-2} OUT=$R sh "$S/gap/run-gap.sh"
step tune
TENSOROP_GPU_RUNNER=$S/tensorop-gpu-runner TENSOROP_GPUS=0 sh "$S/tune/batch/run.sh" > "$R/tune-run.log" 2>&1
tar czf "$R/tune-results.tgz" -C "$S/tune/batch" --exclude='*.cubin' --exclude='*.launch.json' .
step pad; ROUNDS=3 BUDGET_S=${PAD_BUDGET_S:-200} OUT=$R sh "$S/pad/run.sh"
step end; date -u >> "$R/info.txt"
tar czf "$OUT/call2.tgz" -C "$OUT" r
cat "$R/steps.txt"; grep -c '"verified": true' "$R/pad.jsonl" "$R/gap.jsonl"
