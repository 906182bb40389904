"""Unit and numeric tests of the NVIDIA emitters (python_emitters/nvidia_*).

The numeric tests run the printed kernels in test/GPU/ptx_sim.py on tiny
shapes chosen to hit every edge path: M, N, K not multiples of the tiles,
rows that are not 16-byte aligned (element loads), K = 1, a single element,
accumulation into C, bf16/f16/tf32/f32, 16-bit outputs.  Inputs are small
integers, so every correct result is exact.
"""

import json
import os
import random
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EMITTERS = os.path.join(HERE, "..", "..", "python_emitters")
sys.path.insert(0, HERE)
sys.path.insert(0, EMITTERS)

import ptx_sim as S  # noqa: E402


def run_emitter(name, spec, fmt=None):
    args = [sys.executable, os.path.join(EMITTERS, name + ".py")]
    if fmt:
        args.append("--format=" + fmt)
    return subprocess.run(args, input=json.dumps(spec), capture_output=True, text=True)


def answer(name, spec):
    r = run_emitter(name, spec)
    if r.returncode != 0:
        raise AssertionError("%s refused %s: %s" % (name, spec, r.stderr))
    return json.loads(r.stdout)


def encode(x, t):
    if t == "bf16":
        return S.bf16_bits(x)
    if t == "f16":
        return S.f16_bits(x)
    return S.f32_bits(x)


def decode(bits, t):
    if t == "bf16":
        return S.bits_bf16(bits)
    if t == "f16":
        return S.bits_f16(bits)
    return S.bits_f32(bits)


def simulate(emitter, spec, seed=7):
    """Runs the kernel on small integers; returns the number of wrong elements."""
    spec = dict(spec)
    ans = answer(emitter, spec)
    m, n, k = spec["m"], spec["n"], spec["k"]
    at, ct = spec["a_dtype"], spec.get("c_dtype", "f32")
    es = 2 if at in ("bf16", "f16") else 4
    oes = 2 if ct in ("bf16", "f16") else 4
    rnd = random.Random(seed)
    A = [[rnd.randint(-4, 4) for _ in range(k)] for _ in range(m)]
    B = [[rnd.randint(-4, 4) for _ in range(n)] for _ in range(k)]
    C0 = [[rnd.randint(-4, 4) for _ in range(n)] for _ in range(m)]
    acc = spec.get("accumulate", False)
    mem = S.Memory()

    def pack(rows, t, size):
        out = bytearray()
        for row in rows:
            for x in row:
                out.extend(encode(x, t).to_bytes(size, "little"))
        return out

    pa = mem.alloc(pack(A, at, es))
    pb = mem.alloc(pack(B, at, es))
    if acc:
        pc = mem.alloc(pack(C0, ct, oes))
    else:
        nan = 0x7FC00000 if oes == 4 else 0x7FC0
        pc = mem.alloc(bytearray(nan.to_bytes(oes, "little") * (m * n)))
    S.run_kernel(ans, mem, [pa, pb, pc])
    bad = 0
    for i in range(m):
        for j in range(n):
            want = sum(A[i][l] * B[l][j] for l in range(k)) + (C0[i][j] if acc else 0)
            got = decode(mem.read(pc + (i * n + j) * oes, oes), ct)
            if got != want:
                bad += 1
    return bad


class SpecTests(unittest.TestCase):
    def test_unknown_field(self):
        r = run_emitter("nvidia_gemm_mma", {"m": 8, "n": 8, "k": 8, "a_dtype": "bf16",
                                            "block_mm": 64})
        self.assertEqual(r.returncode, 2)
        self.assertIn("field 'block_mm': unknown field", r.stderr)
        self.assertIn("error", json.loads(r.stdout))

    def test_wgmma_needs_aligned_rows(self):
        r = run_emitter("nvidia_gemm_wgmma", {"m": 8, "n": 8, "k": 513, "a_dtype": "bf16"})
        self.assertEqual(r.returncode, 2)
        self.assertIn("16-byte aligned rows", r.stderr)

    def test_wgmma_refuses_tf32_and_sm80(self):
        r = run_emitter("nvidia_gemm_wgmma", {"m": 8, "n": 8, "k": 8, "a_dtype": "tf32"})
        self.assertIn("bf16 or f16 only", r.stderr)
        r = run_emitter("nvidia_gemm_wgmma", {"m": 8, "n": 8, "k": 8, "a_dtype": "bf16",
                                              "sm": 80})
        self.assertIn("sm_90a", r.stderr)

    def test_shared_memory_limit(self):
        r = run_emitter("nvidia_gemm_wgmma", {"m": 8, "n": 8, "k": 8, "a_dtype": "bf16",
                                              "stages": 8})
        self.assertIn("field 'stages'", r.stderr)

    def test_tf32_needs_f32_output(self):
        r = run_emitter("nvidia_gemm_mma", {"m": 8, "n": 8, "k": 8, "a_dtype": "tf32",
                                            "c_dtype": "bf16"})
        self.assertIn("field 'c_dtype'", r.stderr)

    def test_ffma_is_plain_fp32(self):
        r = run_emitter("nvidia_gemm_ffma", {"m": 8, "n": 8, "k": 8, "a_dtype": "bf16"})
        self.assertIn("plain fp32", r.stderr)

    def test_help(self):
        for name in ("nvidia_gemm_mma", "nvidia_gemm_wgmma", "nvidia_gemm_ffma"):
            r = subprocess.run([sys.executable, os.path.join(EMITTERS, name + ".py"), "--help"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0)
            self.assertIn("Spec", r.stdout)


class AnswerTests(unittest.TestCase):
    def test_deterministic(self):
        spec = {"name": "g", "m": 300, "n": 520, "k": 136, "a_dtype": "bf16"}
        self.assertEqual(run_emitter("nvidia_gemm_wgmma", spec).stdout,
                         run_emitter("nvidia_gemm_wgmma", spec).stdout)

    def test_wgmma_launch(self):
        a = answer("nvidia_gemm_wgmma", {"m": 4096, "n": 4096, "k": 4096, "a_dtype": "bf16",
                                         "c_dtype": "bf16"})
        self.assertEqual(a["grid"], [132, 1, 1])          # persistent: one CTA per SM
        self.assertEqual(a["threads"], 384)               # producer + 2 consumers
        self.assertEqual(a["constraints"], "l,l,l,l,l,r")
        kinds = [p["kind"] for p in a["params"]]
        self.assertEqual(kinds, ["ptr", "ptr", "ptr", "tensormap", "tensormap"])
        tma = a["params"][3]
        self.assertEqual(tma["box"], [64, 128])           # 64 bf16 = one 128-byte swizzle row
        self.assertEqual(tma["swizzle"], 128)
        self.assertIn("setmaxnreg.dec.sync.aligned.u32 40", a["asm"])
        self.assertIn("setmaxnreg.inc.sync.aligned.u32 232", a["asm"])
        self.assertEqual(a["asm"].count("wgmma.mma_async.sync.aligned.m64n256k16"), 4)
        # B is MN-major (row-major K x N): the transpose bit of B is set.
        self.assertIn("1, 1, 0, 1;", a["asm"])

    def cluster_bytes(self, a):
        """Bytes each CTA of a cluster receives per stage, from the TMA loads
        of every CTA (a multicast load lands in all of them; %qp4 / %qp5
        guard the loads of rank 0 / rank 1), and the bytes it expects."""
        es = 2
        box = {"%qmapA": a["params"][3]["box"], "%qmapB": a["params"][4]["box"]}
        cs = a["cluster"][0]
        received = [0] * cs
        for line in a["asm"].splitlines():
            if "cp.async.bulk.tensor" not in line:
                continue
            w, h = box["%qmapA" if "%qmapA" in line else "%qmapB"]
            ranks = range(cs)
            if line.strip().startswith("@%qp4"):
                ranks = [0]
            elif line.strip().startswith("@%qp5"):
                ranks = [1]
            for r in ranks:
                for dst in (range(cs) if "multicast::cluster" in line else [r]):
                    received[dst] += w * h * es
        expected = [int(x) for x in
                    __import__("re").findall(r"expect_tx.shared::cta.b64 %qstate, \[%qt3\], (\d+)",
                                             a["asm"])]
        return received, expected

    def test_wgmma_clusters(self):
        base = {"m": 4096, "n": 4096, "k": 4096, "a_dtype": "bf16", "c_dtype": "bf16"}
        plain = answer("nvidia_gemm_wgmma", base)
        self.assertNotIn("cluster", plain)
        self.assertNotIn("multicast", plain["asm"])
        for cm, cn in ((2, 1), (1, 2)):
            a = answer("nvidia_gemm_wgmma", dict(base, cluster_m=cm, cluster_n=cn))
            self.assertEqual(a["cluster"], [2, 1, 1])
            self.assertEqual(a["grid"], [132, 1, 1])       # 66 clusters of 2
            self.assertEqual(a["tile"]["cluster_m"], cm)
            # the shared tile is split between the two CTAs: A in halves of rows
            self.assertEqual(a["params"][3]["box"], [64, 128 // cn])
            received, expected = self.cluster_bytes(a)
            self.assertEqual(expected, [(128 + 256) * 64 * 2])
            self.assertEqual(received, expected * 2, (cm, cn))
            # a stage is free once the consumer warps of both CTAs released it
            self.assertIn("mbarrier.init.shared::cta.b64 [%qempty+0], 16", a["asm"])
            # lane r of each consumer warp releases the stage in the CTA of rank r
            self.assertEqual(a["asm"].count("mapa.shared::cluster.u32 %qt6, %qt0, %qlane"), 2)
            self.assertIn("setp.lt.u32 %qp4, %qlane, 2", a["asm"])
            self.assertIn("barrier.cluster.wait.acquire;", a["asm"])  # leave together
        # odd numbers of tiles: whole clusters; a 64-wide B tile has one box,
        # loaded by rank 0 only
        a = answer("nvidia_gemm_wgmma", {"m": 300, "n": 64, "k": 64, "a_dtype": "f16",
                                         "block_m": 64, "block_n": 64, "consumers": 1,
                                         "cluster_m": 2})
        self.assertEqual(a["grid"], [6, 1, 1])             # 5 tile rows -> 3 clusters
        received, expected = self.cluster_bytes(a)
        self.assertEqual(received, expected * 2)
        ptx = run_emitter("nvidia_gemm_wgmma", dict(base, cluster_m=2), fmt="ptx").stdout
        self.assertIn(".explicitcluster\n.reqnctapercluster 2, 1, 1\n", ptx)
        for bad, field in (({"cluster_m": 2, "cluster_n": 2}, "cluster_n"),
                           ({"cluster_m": 3}, "cluster_m"),
                           ({"cluster_n": 2, "sms": 1}, "sms")):
            r = run_emitter("nvidia_gemm_wgmma", dict(base, **bad))
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(field, r.stdout + r.stderr)

    def test_registers_never_shadow_llvm(self):
        a = answer("nvidia_gemm_mma", {"m": 64, "n": 64, "k": 64, "a_dtype": "bf16"})
        for line in a["asm"].splitlines():
            if line.strip().startswith(".reg"):
                name = line.split()[2].rstrip(";").split("<")[0]
                self.assertTrue(name.startswith("%q"), name)

    def test_whole_module(self):
        r = run_emitter("nvidia_gemm_ffma", {"name": "k", "m": 64, "n": 64, "k": 64,
                                             "a_dtype": "f32"}, fmt="ptx")
        self.assertEqual(r.returncode, 0)
        self.assertIn(".visible .entry k(", r.stdout)
        self.assertIn(".extern .shared .align 1024 .b8 tensorop_smem[];", r.stdout)
        self.assertNotIn("$", r.stdout)


class NumericTests(unittest.TestCase):
    """Kernels executed by the PTX interpreter; every result must be exact."""

    SMALL = {"block_m": 32, "block_n": 32, "warps_m": 1, "warps_n": 1}

    def check(self, emitter, spec):
        self.assertEqual(simulate(emitter, spec), 0, "%s %s" % (emitter, spec))

    def test_mma_bf16_aligned_edges(self):
        self.check("nvidia_gemm_mma", dict(self.SMALL, m=33, n=40, k=72, a_dtype="bf16",
                                           c_dtype="bf16", stages=3))

    def test_mma_f16_unaligned(self):
        self.check("nvidia_gemm_mma", dict(self.SMALL, m=33, n=41, k=37, a_dtype="f16",
                                           c_dtype="f32", stages=2))

    def test_mma_single_element(self):
        self.check("nvidia_gemm_mma", dict(self.SMALL, m=1, n=1, k=1, a_dtype="bf16",
                                           stages=2))

    def test_mma_tf32(self):
        self.check("nvidia_gemm_mma", dict(self.SMALL, m=20, n=40, k=24, a_dtype="tf32",
                                           stages=2))
        self.check("nvidia_gemm_mma", dict(self.SMALL, m=20, n=37, k=13, a_dtype="tf32",
                                           stages=3, tf32_round="truncate"))

    def test_mma_accumulate(self):
        self.check("nvidia_gemm_mma", dict(self.SMALL, m=17, n=24, k=40, a_dtype="bf16",
                                           c_dtype="f32", accumulate=True, stages=2))

    def test_mma_multiwarp_multicta(self):
        self.check("nvidia_gemm_mma", {"m": 70, "n": 72, "k": 40, "a_dtype": "bf16",
                                       "c_dtype": "bf16", "block_m": 64, "block_n": 64,
                                       "warps_m": 2, "warps_n": 2, "stages": 3})

    def test_ffma(self):
        self.check("nvidia_gemm_ffma", {"m": 20, "n": 37, "k": 13, "a_dtype": "f32"})
        self.check("nvidia_gemm_ffma", {"m": 9, "n": 8, "k": 20, "a_dtype": "f32",
                                        "accumulate": True})


if __name__ == "__main__":
    unittest.main()
