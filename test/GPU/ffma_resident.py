#!/usr/bin/env python3
"""Checks the builtin advisor's table of FFMA CTAs per SM (kFfmaResident in
lib/GPU/GpuAdvisor.cpp, one per kFfmaTiles tile) against ptxas: for each
tile, split_k 1 and 4 (2 has 4's registers and shared bytes), the emitter's PTX through `ptxas -v` (sm_90a)
gives registers per thread and the answer gives shared bytes; an SM holds
the fewer of the two of min(65536 registers in warps of 256-register
units, 233472 shared bytes with 1 KiB reserved per CTA, 2048 threads, 32
CTAs). Prints one line per tile and exits 1 where the table disagrees.

  ffma_resident.py PTXAS SRC_ROOT
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def table(src):
    text = open(os.path.join(src, "lib", "GPU", "GpuAdvisor.cpp")).read()
    tiles = re.search(r"kFfmaTiles\[\] = \{(.*?)\};", text, re.S).group(1)
    tiles = [(int(a), int(b)) for a, b in re.findall(r"\{(\d+), (\d+), 0, 0, 0, [\d.]+\}", tiles)]
    res = re.search(r"kFfmaResident\[\] = \{([\d, ]+)\};", text).group(1)
    return tiles, [int(x) for x in res.split(",")]


def resident(ptxas, src, bm, bn, sk, tmp):
    spec = {"m": 3000, "n": 500, "k": 1500, "a_dtype": "f32", "c_dtype": "f32",
            "block_m": bm, "block_n": bn, "stages": 3 if bn == 256 else 4, "name": "k"}
    if sk > 1:
        spec["split_k"] = sk
    emitter = os.path.join(src, "python_emitters", "nvidia_gemm_ffma.py")
    text = json.dumps(spec)
    launch = json.loads(subprocess.run([sys.executable, emitter], input=text, check=True,
                                       capture_output=True, text=True).stdout)
    ptx = os.path.join(tmp, "k.ptx")
    with open(ptx, "w") as f:
        f.write(subprocess.run([sys.executable, emitter, "--format=ptx"], input=text,
                               check=True, capture_output=True, text=True).stdout)
    err = subprocess.run([ptxas, "-arch=sm_90a", "-v", ptx, "-o", os.path.join(tmp, "k.cubin")],
                         check=True, capture_output=True, text=True).stderr
    regs = int(re.search(r"Used (\d+) registers", err).group(1))
    threads, smem = launch["threads"], launch["shared_bytes"]
    warps = -(-threads // 32)
    warp_regs = -(-regs * 32 // 256) * 256
    by_regs = 65536 // (warps * warp_regs)
    by_smem = 233472 // (smem + 1024)
    return min(by_regs, by_smem, 2048 // threads, 32), regs, smem


def main():
    ptxas, src = sys.argv[1], sys.argv[2]
    tiles, res = table(src)
    if len(tiles) != len(res):
        print("kFfmaTiles has %d tiles, kFfmaResident %d entries" % (len(tiles), len(res)))
        return 1
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (bm, bn), want in zip(tiles, res):
            got = [resident(ptxas, src, bm, bn, sk, tmp) for sk in (1, 4)]
            n = min(g[0] for g in got)
            ok = n == want
            bad += not ok
            print("%dx%d: %d CTAs per SM (table %d) %s; registers %s, shared bytes %s" % (
                bm, bn, n, want, "ok" if ok else "MISMATCH",
                "/".join(str(g[1]) for g in got), "/".join(str(g[2]) for g in got)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
