"""Numeric tests of the NVIDIA FFMA kernel (python_emitters/nvidia_gemm_ffma.py)
in test/GPU/ptx_sim.py, and its answer's tile and split-K fields.

A module of its own (moved out of test_nvidia_emitters.py, whose helpers it
uses) so that lit runs it beside the others: the interpreter takes most of
the NVIDIA emitter tests' time here.
"""

import unittest

from test_nvidia_emitters import answer, run_emitter, simulate


class FfmaNumericTests(unittest.TestCase):
    """Kernels executed by the PTX interpreter; every result must be exact."""

    def check(self, emitter, spec):
        self.assertEqual(simulate(emitter, spec), 0, "%s %s" % (emitter, spec))

    def test_ffma(self):
        self.check("nvidia_gemm_ffma", {"m": 20, "n": 37, "k": 13, "a_dtype": "f32"})
        self.check("nvidia_gemm_ffma", {"m": 9, "n": 8, "k": 20, "a_dtype": "f32",
                                        "accumulate": True})

    def test_ffma_tiles(self):
        # 8x8, 8x4, 4x8 and 4x4 C elements per thread; edges of M and N in
        # a second tile, element loads (odd N, K = 21) and 16-byte loads.
        for bm, bn, m, n in ((32, 32, 37, 35), (64, 64, 69, 35), (128, 32, 100, 35),
                             (32, 128, 37, 100)):
            self.check("nvidia_gemm_ffma", {"m": m, "n": n, "k": 21, "a_dtype": "f32",
                                            "block_m": bm, "block_n": bn})
        self.check("nvidia_gemm_ffma", {"m": 100, "n": 36, "k": 24, "a_dtype": "f32",
                                        "block_m": 64, "block_n": 32, "group_m": 2,
                                        "accumulate": True})

    def test_ffma_cp_async_stages(self):
        # 3 and 4 buffers filled by cp.async: A element by element into its
        # k-major place, B in 16-byte chunks or elements, zero-filled edges,
        # fewer k-tiles than buffers (K = 16), accumulation. (The simulator
        # copies at once: the barrier that guards a buffer's reuse is
        # checked by ptxas-splitk-gemv.test's order and on the GPU.)
        for bm, bn, m, n, k, st, acc in ((32, 32, 37, 35, 21, 3, False),
                                         (32, 32, 37, 36, 40, 4, True),
                                         (64, 32, 70, 36, 16, 3, False)):
            self.check("nvidia_gemm_ffma", {"m": m, "n": n, "k": k, "a_dtype": "f32",
                                            "block_m": bm, "block_n": bn, "stages": st,
                                            "accumulate": acc})

    def test_ffma_warp_layout_and_k_tiles(self):
        # 4 x 8 threads per warp, k-tiles of 8 and 32, the 128x256 tile (8x16
        # per thread); each with M, N and K edges (a partial last k-tile
        # copied with zero fill, also where M and N fill the tiles), element B
        # copies (odd N) and 16-byte ones.
        for bm, bn, bk, lay, m, n, k in ((32, 32, 8, "warps", 37, 35, 21),
                                         (64, 128, 32, "warps", 70, 136, 40),
                                         (128, 64, 16, "warps", 130, 68, 37),
                                         (128, 256, 8, "rows", 129, 260, 20),
                                         (128, 256, 16, "warps", 128, 257, 32),
                                         (32, 64, 32, "rows", 32, 64, 40),
                                         (32, 32, 8, "rows", 32, 40, 64)):
            self.check("nvidia_gemm_ffma", {"m": m, "n": n, "k": k, "a_dtype": "f32",
                                            "block_m": bm, "block_n": bn, "block_k": bk,
                                            "layout": lay, "stages": 3})

    def test_ffma_fragment_pipeline(self):
        # frags = 2: fragments read one step ahead, across k-tiles (the
        # barrier before a k-tile's last step, copies after it): 3 and 4
        # buffers, one k-tile only, fewer k-tiles than buffers, a partial
        # last k-tile, M and N edges, accumulation.
        for bm, bn, bk, st, m, n, k, acc in ((32, 32, 8, 3, 37, 35, 45, False),
                                             (32, 64, 16, 4, 40, 64, 80, True),
                                             (32, 32, 16, 4, 32, 32, 16, False),
                                             (64, 32, 8, 3, 64, 36, 20, True),
                                             (128, 128, 8, 3, 128, 128, 24, False)):
            self.check("nvidia_gemm_ffma", {"m": m, "n": n, "k": k, "a_dtype": "f32",
                                            "block_m": bm, "block_n": bn, "block_k": bk,
                                            "layout": "warps", "stages": st, "frags": 2,
                                            "accumulate": acc})

    def test_ffma_split_k(self):
        # Split-K on clusters (the simulator runs a cluster's CTAs in turns
        # between cluster barriers and reads peers' shared memory): 2 and 4
        # ranks, both pipelines (registers; cp.async with 1 and 2 fragment
        # buffers), a partial last k-tile (the last rank's only), a rank
        # range shorter than the stages, M and N edges, accumulation, and
        # every tile width (a rank's share: chunks of 4 dealt round-robin).
        for bm, bn, st, fr, sk, m, n, k, acc in ((32, 32, 2, 1, 2, 30, 35, 45, False),
                                                 (32, 64, 4, 2, 4, 30, 60, 52, True),
                                                 (64, 32, 3, 1, 2, 50, 30, 100, False),
                                                 (32, 32, 4, 2, 4, 20, 32, 64, True)):
            self.check("nvidia_gemm_ffma", {"m": m, "n": n, "k": k, "a_dtype": "f32",
                                            "block_m": bm, "block_n": bn, "stages": st,
                                            "frags": fr, "split_k": sk, "accumulate": acc})

    def test_ffma_split_k_answer_and_refusal(self):
        ans = answer("nvidia_gemm_ffma", {"m": 600, "n": 700, "k": 3000, "a_dtype": "f32",
                                          "block_m": 64, "block_n": 64, "stages": 4,
                                          "split_k": 2})
        self.assertEqual((ans["grid"][0], ans["cluster"], ans["tile"]["split_k"]),
                         (10 * 11 * 2, [2, 1, 1], 2))
        self.assertIn("barrier.cluster.wait", ans["asm"])
        for extra, why in (({"split_k": 3}, "1, 2 or 4"), ({"split_k": 2, "sm": 80}, "sm 90"),
                           ({"split_k": 4, "k": 48}, "non-empty")):
            spec = dict({"m": 64, "n": 64, "k": 64, "a_dtype": "f32"}, **extra)
            r = run_emitter("nvidia_gemm_ffma", spec)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("split_k", r.stderr)
            self.assertIn(why, r.stderr)

    def test_ffma_tile_answer_and_refusal(self):
        ans = answer("nvidia_gemm_ffma", {"m": 1024, "n": 1024, "k": 1024, "a_dtype": "f32",
                                          "block_m": 64, "block_n": 64})
        self.assertEqual((ans["grid"][0], ans["threads"], ans["tile"]["thread_tile"]),
                         (256, 64, "8x8"))
        ans = answer("nvidia_gemm_ffma", {"m": 127, "n": 1000, "k": 513, "a_dtype": "f32",
                                          "block_m": 32, "block_n": 32})
        self.assertEqual((ans["grid"][0], ans["threads"], ans["tile"]["thread_tile"]),
                         (128, 64, "4x4"))
        for field, value in (("block_m", 96), ("stages", 5)):
            r = run_emitter("nvidia_gemm_ffma", {"m": 64, "n": 64, "k": 64, "a_dtype": "f32",
                                                 field: value})
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(field, r.stderr)



if __name__ == "__main__":
    unittest.main()
