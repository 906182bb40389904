#!/usr/bin/env python3
"""Builds GPU test cases straight from the NVIDIA emitters (no MLIR).

For each case: the emitter's --format=ptx module, its cubin (ptxas from
/usr/local/cuda here), and a launch description for tensorop-gpu-runner.
Used to check the kernels on the GPU machine independently of the MLIR
pipeline (the pipeline's own cubins are checked by run_gpu_bench.sh).

  make_emitter_bundle.py OUTDIR CASES.json
CASES.json: [{"id": "...", "emitter": "nvidia_gemm_mma", "spec": {...},
              "time": true}, ...]
"""
import json
import re
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EMITTERS = os.path.join(HERE, "..", "..", "python_emitters")
PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")


def main():
    out, cases_path = sys.argv[1], sys.argv[2]
    cases = json.load(open(cases_path))
    os.makedirs(out, exist_ok=True)
    listing = []
    for case in cases:
        cid = case["id"]
        spec = dict(case["spec"])
        spec.setdefault("name", "k_" + cid)
        script = os.path.join(EMITTERS, case["emitter"] + ".py")
        text = json.dumps(spec)
        res = subprocess.run([sys.executable, script], input=text, capture_output=True,
                             text=True, check=True)
        launch = json.loads(res.stdout)
        ptx = subprocess.run([sys.executable, script, "--format=ptx"], input=text,
                             capture_output=True, text=True, check=True).stdout
        ptx_path = os.path.join(out, cid + ".ptx")
        with open(ptx_path, "w") as f:
            f.write(ptx)
        arch = launch["chip"]
        cubin = os.path.join(out, cid + ".cubin")
        r = subprocess.run([PTXAS, "-arch=" + arch, "-v", ptx_path, "-o", cubin],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("ptxas failed for %s:\n%s" % (cid, r.stderr))
        for bad in ("C7510", "C7511", "C7515", "C7508"):
            if bad in r.stderr:
                sys.exit("ptxas warned %s for %s:\n%s" % (bad, cid, r.stderr))
        if re.search(r"[1-9][0-9]* bytes spill stores", r.stderr):
            print("warning: %s spills registers" % cid, file=sys.stderr)
        del launch["asm"]
        launch["cubin"] = cid + ".cubin"
        launch["ptxas"] = [l for l in r.stderr.splitlines() if "Used" in l or "spill" in l]
        with open(os.path.join(out, cid + ".launch.json"), "w") as f:
            json.dump(launch, f, indent=1)
        listing.append({"id": cid, "time": case.get("time", False)})
        print("%-28s %s grid=%s threads=%d smem=%d %s" % (
            cid, launch["family"], launch["grid"], launch["threads"], launch["shared_bytes"],
            " ".join(launch["ptxas"])))
    with open(os.path.join(out, "cases.txt"), "w") as f:
        for c in listing:
            f.write("%s %d\n" % (c["id"], 1 if c["time"] else 0))


if __name__ == "__main__":
    main()
