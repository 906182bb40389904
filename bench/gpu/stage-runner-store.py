#!/usr/bin/env python3
"""Stages the wgmma kernel's two C store paths side by side for the GPU machine.

For each case the builtin advisor's tile (the cost model of
lib/GPU/GpuAdvisor.cpp proposeGpuSketch, mirrored below for the wgmma
family) is emitted twice by python_emitters/nvidia_gemm_wgmma.py, once with
store = "global" (C from registers, the old path) and once with
store = "smem_tma" (stmatrix + TMA store), and assembled by ptxas (spills
refused). run.sh then runs tensorop-gpu-runner on every launch description,
the two variants of a case one after the other in one session: verified
(NaN-prefilled C, fp64 reference), timed against cuBLAS (plain GEMMs) or
cuBLASLt's matching epilogue (bias + ReLU / GELU), then verified again.

  bench/gpu/stage-runner-store.py RUNNER STAGE
  (GPU machine)  sh STAGE/run.sh  -> $OUT/store.jsonl, $OUT/store.log
  python3 bench/gpu/runner_store_table.py store.jsonl
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EMITTER = os.path.join(HERE, "..", "..", "python_emitters", "nvidia_gemm_wgmma.py")
PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
SMS, SMEM = 132, 232448

# id, m, n, k, input type, output type, epilogue steps, timed
CASES = [
    # correctness of the new path first (edges, f32 output, odd chunk counts,
    # clusters, C += A B, an epilogue on an edge tile); not timed
    ("chk_edge_bf16", 1000, 1048, 520, "bf16", "bf16", [], False, {}),
    ("chk_edge_f32", 1000, 1048, 520, "bf16", "f32", [], False, {}),
    ("chk_edge_f16_64x64", 333, 200, 264, "f16", "f16", [],
     False, {"block_m": 64, "block_n": 64, "consumers": 1, "stages": 4}),
    ("chk_f32_64x192", 520, 968, 136, "bf16", "f32", [],
     False, {"block_m": 64, "block_n": 192, "consumers": 1, "stages": 4}),
    ("chk_cluster", 1000, 1048, 520, "bf16", "bf16", [], False, {"cluster_m": 2}),
    ("chk_epi_edge", 1000, 1048, 520, "bf16", "bf16", ["bias_n", "residual", "relu"], False, {}),
    ("chk_epi_rowbias", 1000, 1048, 520, "bf16", "bf16", ["bias_m", "silu"], False, {}),
    # plain GEMMs against cuBLAS
    ("g4096", 4096, 4096, 4096, "bf16", "bf16", [], True, {}),
    ("g2000x3000x1504", 2000, 3000, 1504, "bf16", "bf16", [], True, {}),
    ("llm128x11008x4096", 128, 11008, 4096, "bf16", "bf16", [], True, {}),
    ("f16_6144", 6144, 6144, 6144, "f16", "f16", [], True, {}),
    ("g8192", 8192, 8192, 8192, "bf16", "bf16", [], True, {}),
    # epilogues against cuBLASLt (docs/benchmarks/gpu-epilogue.md's cases)
    ("g4096_bias_relu", 4096, 4096, 4096, "bf16", "bf16", ["bias_n", "relu"], True, {}),
    ("g4096_bias_gelutanh", 4096, 4096, 4096, "bf16", "bf16", ["bias_n", "gelu_tanh"], True, {}),
    ("llm128_bias_relu", 128, 11008, 4096, "bf16", "bf16", ["bias_n", "relu"], True, {}),
    ("llm128_bias_gelutanh", 128, 11008, 4096, "bf16", "bf16", ["bias_n", "gelu_tanh"], True, {}),
    ("g8192_bias_relu", 8192, 8192, 4096, "bf16", "bf16", ["bias_n", "relu"], True, {}),
    ("g8192_bias_gelutanh", 8192, 8192, 4096, "bf16", "bf16", ["bias_n", "gelu_tanh"], True, {}),
    ("llm4096_bias_gelutanh", 4096, 4096, 11008, "bf16", "bf16", ["bias_n", "gelu_tanh"], True, {}),
]


def builtin_tile(m, n):
    """proposeGpuSketch's wgmma choice (GEMMs): the candidate tile with the
    least persistent wave-quantized cost, stages that fit, one CTA per SM."""
    best = None
    for bm, bn, nc, eff in ((128, 256, 2, 1.0), (128, 128, 2, 0.93), (64, 128, 1, 0.62),
                            (64, 64, 1, 0.40)):
        tiles = math.ceil(m / bm) * math.ceil(n / bn)
        cost = max(1.0, tiles / SMS) * bm * bn / eff
        if best is None or cost < best[0]:
            best = (cost, bm, bn, nc, tiles)
    _, bm, bn, nc, tiles = best
    stages = min(6, (SMEM - 1024) // ((bm + bn) * 128))
    return {"block_m": bm, "block_n": bn, "consumers": nc, "stages": stages,
            "sms": min(tiles, SMS), "group_m": 8}


def emit(stage, cid, spec):
    text = json.dumps(spec)
    launch = json.loads(subprocess.run([sys.executable, EMITTER], input=text, check=True,
                                       capture_output=True, text=True).stdout)
    ptx = subprocess.run([sys.executable, EMITTER, "--format=ptx"], input=text, check=True,
                         capture_output=True, text=True).stdout
    d = os.path.join(stage, "cases")
    with open(os.path.join(d, cid + ".ptx"), "w") as f:
        f.write(ptx)
    r = subprocess.run([PTXAS, "-arch=sm_90a", "-v", os.path.join(d, cid + ".ptx"), "-o",
                        os.path.join(d, cid + ".cubin")], capture_output=True, text=True)
    if r.returncode or re.search(r"[1-9][0-9]* bytes spill", r.stderr):
        sys.exit("ptxas refused or spilled for %s:\n%s" % (cid, r.stderr))
    os.remove(os.path.join(d, cid + ".ptx"))
    del launch["asm"]
    launch["cubin"] = cid + ".cubin"
    launch["ptxas"] = [l for l in r.stderr.splitlines() if "Used" in l or "spill" in l]
    with open(os.path.join(d, cid + ".launch.json"), "w") as f:
        json.dump(launch, f, indent=1)


def main():
    runner, stage = sys.argv[1], sys.argv[2]
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(os.path.join(stage, "cases"))
    shutil.copy(runner, os.path.join(stage, "tensorop-gpu-runner"))
    order = []
    for cid, m, n, k, dt, cdt, steps, timed, extra in CASES:
        tile = builtin_tile(m, n)
        tile.update(extra)
        for store in ("global", "smem_tma"):
            vid = "%s__%s" % (cid, store)
            spec = dict(name="k_" + vid, m=m, n=n, k=k, a_dtype=dt, c_dtype=cdt, sm=90,
                        store=store, **tile)
            if steps:
                spec["epilogue"] = steps
            emit(stage, vid, spec)
            order.append("%s %d" % (vid, 1 if timed else 0))
            print(vid, json.dumps(tile))
    with open(os.path.join(stage, "order.txt"), "w") as f:
        f.write("\n".join(order) + "\n")
    with open(os.path.join(stage, "run.sh"), "w") as f:
        f.write(RUN_SH)


RUN_SH = r"""#!/bin/sh
# On the GPU machine: each variant through tensorop-gpu-runner, in order.
STAGE=$(cd "$(dirname "$0")" && pwd)
OUTD=${OUT:-/tmp/out}
mkdir -p "$OUTD"
LOG=$OUTD/store.log
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,power.limit,utilization.gpu --format=csv
  "$STAGE/tensorop-gpu-runner" --version
} > "$LOG" 2>&1
start=$(date +%s)
while read -r id timed; do
  if [ $(( $(date +%s) - start )) -gt "${BUDGET_S:-250}" ]; then
    echo "== $id: not run (over BUDGET_S)" >> "$LOG"; continue
  fi
  echo "== $id $(date +%s)" >> "$LOG"
  args="--rounds ${ROUNDS:-8}"; [ "$timed" = 1 ] || args="--no-time"
  timeout 100 "$STAGE/tensorop-gpu-runner" "$STAGE/cases/$id.launch.json" $args > "$OUTD/one.json" 2>> "$LOG" < /dev/null
  rc=$?
  echo "exit $rc" >> "$LOG"
  python3 -c 'import json, sys
try:
    r = json.load(open(sys.argv[1]))
except Exception as e:
    r = {"error": "no JSON: %s" % e}
r["id"] = sys.argv[2]; r["rc"] = int(sys.argv[3])
print(json.dumps(r))' "$OUTD/one.json" "$id" "$rc" >> "$OUTD/store.jsonl" < /dev/null
  rm -f "$OUTD/one.json"
done < "$STAGE/order.txt"
date -u >> "$LOG"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$LOG" 2>&1
grep -v '^  ' "$LOG" | tail -60
"""

if __name__ == "__main__":
    main()
