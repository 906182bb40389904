#!/bin/sh
# gpu20's first device call (docs/benchmarks/gpu-gemm.md, "Session 20"),
# run from a stage folder STAGE that holds (staged here, no GPU needed):
#   lit/   bench/gpu/stage-gpu-lit.sh /work/main/build STAGE/lit
#   gap/   bench/gpu/stage-search-gap.sh /work/main/build STAGE/gap
#   tune/  tensorop tune examples/matmul_bf16_4096.mlir --target=nvidia-sm90
#            --db=STAGE/tune/h200.db --budget=4 --batch-size=4 --gpu-batch=STAGE/tune/batch
#   pad/   bench/gpu/stage-pad.sh OFF_BUILD /work/main/build STAGE/pad bench/gpu/gpu20-shapes1.txt
#   var/   test/GPU/make_emitter_bundle.py STAGE/var bench/gpu/gpu20-cases1.json
#   run-variants.sh, tensorop-gpu-runner (main's build)
# (GPU machine) sh STAGE/gpu20-call1.sh -> $OUT/call1.tgz (every raw file)
S=$(cd "$(dirname "$0")" && pwd)
R=$OUT/r; mkdir -p "$R"
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
{ date -u; uptime; nvidia-smi; "$S/tensorop-gpu-runner" --device-info; } > "$R/info.txt" 2>&1
t0=$(date +%s); step() { echo "$1 at $(( $(date +%s) - t0 )) s" | tee -a "$R/steps.txt"; }
step lit; OUT=$R sh "$S/lit/run-lit.sh"
step gap; PAIRS=${PAIRS:-3} OUT=$R sh "$S/gap/run-gap.sh"
step tune
TENSOROP_GPU_RUNNER=$S/tensorop-gpu-runner TENSOROP_GPUS=0 sh "$S/tune/batch/run.sh" > "$R/tune-run.log" 2>&1
tar czf "$R/tune-results.tgz" -C "$S/tune/batch" --exclude='*.cubin' --exclude='*.launch.json' .
step pad; ROUNDS=3 BUDGET_S=${PAD_BUDGET_S:-250} OUT=$R sh "$S/pad/run.sh"
step variants; ROUNDS=3 OUT=$R sh "$S/run-variants.sh"
step end; date -u >> "$R/info.txt"
tar czf "$OUT/call1.tgz" -C "$OUT" r
cat "$R/steps.txt"; grep -c '"verified": true' "$R/pad.jsonl" "$R/var.jsonl" "$R/gap.jsonl"
