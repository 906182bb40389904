"""Tests of the bf16 variant of python_emitters/x86_gemm_fma.py
(kernel "gemm_bf16": vdpbf16ps on k-pair panels, fp32 C).

Its numerics are checked end to end by test/Integration/bf16-f16.mlir
(every element against an f64 reference, odd K, edges, threads); here: the
spec's refusals, the instruction, and that the code assembles.
"""

import json
import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EMITTER = os.path.join(os.path.dirname(os.path.dirname(HERE)), "python_emitters",
                       "x86_gemm_fma.py")
LLVM_MC = shutil.which("llvm-mc-22") or (
    "/usr/lib/llvm-22/bin/llvm-mc" if os.path.exists("/usr/lib/llvm-22/bin/llvm-mc") else None)


def emit(spec, *args):
    p = subprocess.run([sys.executable, EMITTER] + list(args), input=json.dumps(spec),
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def spec(**kw):
    s = {"kernel": "gemm_bf16", "isa": "avx512", "mr": 6, "nr": 64}
    s.update(kw)
    return s


class TestBf16Kernel(unittest.TestCase):
    def test_refusals_name_the_field(self):
        for bad, field in [(spec(isa="avx2", nr=16), "isa"),
                           (spec(b_stride_bytes=254), "b_stride_bytes"),
                           (spec(a_stride_bytes=254), "a_stride_bytes"),
                           (spec(kernel="gemm_bf8"), "kernel")]:
            with self.subTest(spec=bad):
                rc, out, err = emit(bad)
                self.assertEqual(rc, 2, out)
                self.assertIn("field '%s'" % field, err)

    def test_pair_dot_product_replaces_fma(self):
        for broadcast in ("explicit", "embedded"):
            rc, out, err = emit(spec(broadcast=broadcast, k_unroll=3))
            self.assertEqual(rc, 0, err)
            o = json.loads(out)
            self.assertEqual(o["kernel"], "gemm_bf16")
            self.assertTrue(o["name"].startswith("x86_avx512_bf16_6x64_u3_"))
            self.assertNotIn("vfmadd", o["asm"])
            # 6 rows x 4 vectors per k pair, in the unrolled and the tail loop
            self.assertEqual(o["asm"].count("vdpbf16ps"), 6 * 4 * (3 + 1))
            self.assertEqual(o["flops_per_k"], 4 * 6 * 64)
            if broadcast == "embedded":
                self.assertIn("{1to16}", o["asm"])

    def test_pairs_read_in_place(self):
        # B packed once into rows of pairs (gen's NAME_pack_b for bf16): the
        # loads step by b_stride_bytes per pair row and are masked to n_rem
        # pairs; numerics: test/Tools/tensorop-gen-bf16-prepacked.test.
        rc, out, err = emit(spec(mr=4, nr=64, b_stride_bytes=1024, k_unroll=2))
        self.assertEqual(rc, 0, err)
        o = json.loads(out)
        self.assertTrue(o["name"].endswith("_ldb1024"), o["name"])
        self.assertEqual(o["b_stride_bytes"], 1024)
        self.assertIn("add $$2048, $1", o["asm"])  # 2 pair rows of 1024 bytes
        self.assertIn("1024($1)", o["asm"])       # the second pair row
        self.assertIn("{z}", o["asm"])          # masked (fault-free) loads
        # a full tile's K loop (4 rows x 4 vectors) and one edge loop per
        # partial vector p (4 rows x p + 1 vectors), 2 unrolled + 1 steps
        self.assertEqual(o["asm"].count("vdpbf16ps"),
                         4 * 4 * (2 + 1) + sum(4 * (p + 1) * (2 + 1) for p in range(4)))
        # A read in place too: a row-major bf16 row holds its pairs.
        rc, out, err = emit(spec(mr=4, nr=64, b_stride_bytes=1024,
                                 a_stride_bytes=2048))
        self.assertEqual(rc, 0, err)
        o = json.loads(out)
        self.assertTrue(o["name"].endswith("_ldb1024_lda2048"), o["name"])
        self.assertIn("2048(", o["asm"])  # row 1 of A

    def test_epilogue_in_the_store_path(self):
        # Numerics: test/Integration/epilogue-bf16.mlir; here: both parts.
        rc, out, err = emit(spec(mr=4, nr=64, epilogue=["bias_n", "relu"]))
        self.assertEqual(rc, 0, err)
        o = json.loads(out)
        self.assertIn("vdpbf16ps", o["asm"])
        self.assertIn("vmaxps", o["asm"])
        self.assertIn("epilogue", o["operands"])

    def test_f32_kernels_unchanged_by_the_variant(self):
        rc, out, _ = emit({"kernel": "gemm_f32", "isa": "avx512", "mr": 6, "nr": 64})
        self.assertEqual(rc, 0)
        o = json.loads(out)
        self.assertNotIn("kernel", o)
        self.assertNotIn("vdpbf16ps", o["asm"])

    @unittest.skipIf(LLVM_MC is None, "llvm-mc-22 not found")
    def test_assembles(self):
        rc, text, err = emit(spec(mr=8, nr=48, prefetch_b=8), "--format=function",
                             "--symbol", "uk")
        self.assertEqual(rc, 0, err)
        p = subprocess.run([LLVM_MC, "-triple=x86_64", "-mattr=+avx512f,+avx512bf16",
                            "-filetype=obj", "-o", os.devnull], input=text,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    unittest.main()
