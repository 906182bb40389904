#!/usr/bin/env python3
"""Emitter cases for the TF32 comparison on the H200 (issue 16 item 3):
for each shape the mma.sync kernel the builtin advisor chose before (tile
as lib/GPU/GpuAdvisor.cpp picked it for tf32: 128x128 2x4 warps, or 64x64
2x2 for 128x4096x4096; block_k 16, 4 stages, cvt.rna) next to the new
wgmma tf32 kernel with several tiles, plus untimed edge cases (tiles cut by
M, N and K, accumulate, one consumer). Writes CASES.json for
test/GPU/make_emitter_bundle.py.

  tf32_variants.py OUT.json
"""
import json
import sys

SHAPES = [(4096, 4096, 4096), (8192, 8192, 8192), (2048, 2048, 2048),
          (2000, 3000, 1504), (128, 4096, 4096)]
OLD = {(128, 4096, 4096): (64, 64, 2, 2)}
NEW = {(4096, 4096, 4096): [(256, 128, 2), (128, 256, 2), (128, 128, 2)],
       (8192, 8192, 8192): [(256, 128, 2), (128, 256, 2)],
       (2048, 2048, 2048): [(256, 128, 2), (128, 128, 2)],
       (2000, 3000, 1504): [(256, 128, 2), (128, 128, 2)],
       (128, 4096, 4096): [(128, 128, 2), (128, 64, 1), (64, 64, 1)]}
EDGES = [((100, 36, 20), (256, 128, 2), False), ((300, 260, 132), (128, 128, 2), True),
         ((1, 4, 4), (128, 64, 1), False), ((333, 196, 68), (256, 64, 1), False),
         ((520, 392, 1000), (128, 256, 2), True)]


def base(m, n, k):
    return {"m": m, "n": n, "k": k, "a_dtype": "tf32", "c_dtype": "f32"}


def main():
    cases = []
    for (m, n, k) in SHAPES:
        bm, bn, wm, wn = OLD.get((m, n, k), (128, 128, 2, 4))
        spec = dict(base(m, n, k), block_m=bm, block_n=bn, block_k=16, warps_m=wm, warps_n=wn,
                    stages=4, group_m=8)
        cases.append({"id": "old_mma_%dx%dx%d" % (m, n, k), "emitter": "nvidia_gemm_mma",
                      "spec": spec, "time": True})
        for bm, bn, nc in NEW[(m, n, k)]:
            # as many stages as shared memory holds, at most 6 (the advisor's rule)
            stages = min(6, (232448 - 1024) // ((bm + bn) * 128))
            spec = dict(base(m, n, k), block_m=bm, block_n=bn, consumers=nc, stages=stages,
                        group_m=8)
            cases.append({"id": "wg_%dx%dx%d_%dx%d" % (m, n, k, bm, bn),
                          "emitter": "nvidia_gemm_wgmma", "spec": spec, "time": True})
    for (m, n, k), (bm, bn, nc), acc in EDGES:
        spec = dict(base(m, n, k), block_m=bm, block_n=bn, consumers=nc, stages=3,
                    accumulate=acc)
        cases.append({"id": "edge_%dx%dx%d_%dx%d%s" % (m, n, k, bm, bn, "_acc" if acc else ""),
                      "emitter": "nvidia_gemm_wgmma", "spec": spec, "time": False})
    json.dump(cases, open(sys.argv[1], "w"), indent=1)


if __name__ == "__main__":
    main()
