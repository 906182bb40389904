"""Tests of the pad copies of unaligned GEMMs on the wgmma kernel.

The pad kernel (nvidia_pad.py) runs in the PTX interpreter
(test/GPU/ptx_sim.py): every element of the padded copy is compared with
the source (the pad columns must be zero), on shapes with a grid-stride
tail, odd and even source strides, 2- and 4-byte elements. The wgmma
kernel's side (spec fields lda / ldb, and N odd stored column by column)
cannot run here (no wgmma or TMA in the interpreter): its answer and PTX
are checked, and ptxas takes it (ptxas.test); the numbers are checked on
the GPU (gpu_bench.py).
"""

import os
import random
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import ptx_sim as S  # noqa: E402
from test_nvidia_emitters import answer, run_emitter  # noqa: E402


def pad_and_check(spec, seed=3):
    """Runs the pad kernel of `spec` on random bits; returns the number of
    wrong elements of the destination (all of its rows x dst_ld)."""
    ans = answer("nvidia_pad", spec)
    rows, cols, sld, dld = ans["rows"], ans["cols"], ans["src_ld"], ans["dst_ld"]
    es = 2 if ans["dtype"] in ("bf16", "f16") else 4
    rnd = random.Random(seed)
    src = [rnd.randrange(1, 1 << (8 * es)) for _ in range(rows * sld)]
    mem = S.Memory()
    psrc = mem.alloc(bytearray(b"".join(v.to_bytes(es, "little") for v in src)))
    # the destination starts as garbage: the kernel must write every element
    pdst = mem.alloc(bytearray([0xA5]) * (rows * dld * es))
    S.run_kernel(ans, mem, [psrc, pdst])
    wrong = 0
    for r in range(rows):
        for c in range(dld):
            want = src[r * sld + c] if c < cols else 0
            if mem.read(pdst + (r * dld + c) * es, es) != want:
                wrong += 1
    return wrong


class PadKernelTests(unittest.TestCase):
    def test_odd_rows_bf16(self):
        # K = 13: rows of 26 bytes to rows of 16 elements (two chunks)
        self.assertEqual(pad_and_check({"rows": 5, "cols": 13, "dtype": "bf16"}), 0)

    def test_chunks_past_the_end_f16(self):
        # 300 x 9 in chunks of 8: 600 chunks on 3 CTAs of 256 threads (the
        # last 168 threads predicated off), B's copy
        spec = {"rows": 300, "cols": 9, "dtype": "f16", "sms": 1, "src": "B", "dst": "B_pad"}
        ans = answer("nvidia_pad", spec)
        self.assertEqual(ans["grid"], [3, 1, 1])
        self.assertEqual([p["name"] for p in ans["params"]], ["B", "B_pad"])
        self.assertEqual(pad_and_check(spec), 0)

    def test_grid_stride_loop(self):
        # more chunks than 8 CTAs per SM x 256 threads (sms = 1: 2048): 2100
        # rows of 2 chunks loop 3 times, the last iteration partly past the end
        spec = {"rows": 2100, "cols": 9, "dtype": "bf16", "sms": 1}
        ans = answer("nvidia_pad", spec)
        self.assertEqual(ans["grid"], [8, 1, 1])
        self.assertIn("3 iteration(s)", ans["asm"])
        self.assertEqual(pad_and_check(spec), 0)

    def test_source_stride_and_wide_destination(self):
        # a source with its own stride (a slice), a destination wider than needed
        self.assertEqual(pad_and_check({"rows": 4, "cols": 10, "src_ld": 11, "dst_ld": 24,
                                        "dtype": "bf16"}), 0)

    def test_four_byte_elements(self):
        self.assertEqual(pad_and_check({"rows": 6, "cols": 5, "dtype": "tf32"}), 0)

    def test_refusals(self):
        for spec, field in (({"rows": 2, "cols": 5, "dtype": "bf16", "dst_ld": 12}, "dst_ld"),
                            ({"rows": 2, "cols": 5, "dtype": "bf16", "src_ld": 4}, "src_ld"),
                            ({"rows": 2, "cols": 5, "dtype": "bf16", "dst": "A"}, "dst"),
                            ({"rows": 2, "cols": 5, "dtype": "i8"}, "dtype"),
                            ({"rows": 2, "cols": 5, "dtype": "bf16", "lda": 8}, "lda")):
            r = run_emitter("nvidia_pad", spec)
            self.assertNotEqual(r.returncode, 0, spec)
            self.assertIn(field, r.stderr, spec)


class WgmmaStrideTests(unittest.TestCase):
    def test_padded_strides_in_tensor_maps(self):
        spec = {"m": 4093, "n": 4099, "k": 4111, "a_dtype": "bf16", "c_dtype": "bf16",
                "lda": 4112, "ldb": 4104}
        ans = answer("nvidia_gemm_wgmma", spec)
        maps = {p["name"]: p for p in ans["params"] if p["kind"] == "tensormap"}
        self.assertEqual(maps["tmapA"]["dims"], [4111, 4093])
        self.assertEqual(maps["tmapA"]["strides_bytes"], [4112 * 2])
        self.assertEqual(maps["tmapB"]["dims"], [4099, 4111])
        self.assertEqual(maps["tmapB"]["strides_bytes"], [4104 * 2])

    def test_odd_n_stores_column_by_column(self):
        # N odd: no 4-byte pair stores to C, 2-byte ones at C's own stride
        odd = answer("nvidia_gemm_wgmma", {"m": 256, "n": 129, "k": 64, "a_dtype": "bf16",
                                           "c_dtype": "bf16", "ldb": 136})["asm"]
        self.assertIn("column by column", odd)
        self.assertNotRegex(odd, r"st\.global\.b32 \[%qcrow")
        self.assertRegex(odd, r"st\.global\.b16 \[%qcrow")
        # C's row offset: row * 129 elements
        self.assertRegex(odd, r"mad\.lo\.u32 %qzt, %qzt, 129, ")
        even = answer("nvidia_gemm_wgmma", {"m": 256, "n": 130, "k": 64, "a_dtype": "bf16",
                                            "c_dtype": "bf16", "ldb": 136})["asm"]
        self.assertRegex(even, r"st\.global\.b32 \[%qcrow")
        self.assertRegex(even, r"mul\.wide\.u32 %qcrow, %qt2, 260")

    def test_tf32_padded_strides(self):
        ans = answer("nvidia_gemm_wgmma", {"m": 127, "n": 1000, "k": 513, "a_dtype": "tf32",
                                           "c_dtype": "f32", "lda": 516})
        maps = {p["name"]: p for p in ans["params"] if p["kind"] == "tensormap"}
        self.assertEqual(maps["tmapA"]["dims"], [513, 127])
        self.assertEqual(maps["tmapA"]["strides_bytes"], [516 * 4])
        self.assertEqual(maps["tmapB"]["strides_bytes"], [1000 * 4])

    def test_refusals(self):
        for spec, field in (
                ({"m": 64, "n": 64, "k": 13, "a_dtype": "tf32", "c_dtype": "f32"}, "k"),
                ({"m": 64, "n": 63, "k": 16, "a_dtype": "tf32", "c_dtype": "f32",
                  "ldb": 64}, "n"),
                ({"m": 64, "n": 64, "k": 13, "a_dtype": "bf16"}, "k"),
                ({"m": 64, "n": 13, "k": 64, "a_dtype": "bf16"}, "n"),
                ({"m": 64, "n": 64, "k": 13, "a_dtype": "bf16", "lda": 20}, "k"),
                ({"m": 64, "n": 64, "k": 13, "a_dtype": "bf16", "lda": 8}, "lda"),
                ({"m": 64, "n": 13, "k": 64, "a_dtype": "bf16", "ldb": 16,
                  "store": "smem_tma"}, "store")):
            r = run_emitter("nvidia_gemm_wgmma", spec)
            self.assertNotEqual(r.returncode, 0, spec)
            self.assertIn(field, r.stderr, spec)


if __name__ == "__main__":
    unittest.main()
