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


def apply_steps(steps, x, bias, res):
    """The epilogue steps in double (lib/Dialect/Epilogue.cpp's reference)."""
    import math
    for text in steps:
        name, _, rest = text.partition("(")
        args = [float(a) for a in rest.rstrip(")").split(",")] if rest else []
        if name in ("bias_n", "bias_m"):
            x += bias
        elif name == "residual":
            x += res
        elif name == "scale":
            x *= args[0]
        elif name == "clamp":
            x = min(max(x, args[0]), args[1])
        elif name == "relu":
            x = max(x, 0.0)
        elif name == "tanh":
            x = math.tanh(x)
        elif name == "sigmoid":
            x = 1 / (1 + math.exp(-x))
        elif name == "silu":
            x = x / (1 + math.exp(-x))
        elif name == "gelu_tanh":
            x = 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
        elif name == "gelu_erf":
            x = 0.5 * x * (1 + math.erf(x / math.sqrt(2)))
        else:
            raise AssertionError(text)
    return x


def simulate_epilogue(emitter, spec, ref_steps=None, seed=11):
    """Runs a kernel with a fused epilogue on small integers (exact
    accumulators) and bias / R / C0 in quarter steps (exact in every type);
    returns the number of elements off the fp64 evaluation of `ref_steps`
    (default: the spec's) by more than the approximations' error plus the
    output type's rounding."""
    spec = dict(spec)
    steps = spec["epilogue"]
    ref_steps = steps if ref_steps is None else ref_steps
    ans = answer(emitter, spec)
    m, n, k = spec["m"], spec["n"], spec["k"]
    at, ct = spec["a_dtype"], spec.get("c_dtype", "f32")
    es = 2 if at in ("bf16", "f16") else 4
    oes = 2 if ct in ("bf16", "f16") else 4
    u_out = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11, "f32": 2.0 ** -24}[ct]
    rnd = random.Random(seed)
    A = [[rnd.randint(-4, 4) for _ in range(k)] for _ in range(m)]
    B = [[rnd.randint(-4, 4) for _ in range(n)] for _ in range(k)]
    C0 = [[rnd.randint(-8, 8) / 4 for _ in range(n)] for _ in range(m)]
    Rm = [[rnd.randint(-8, 8) / 4 for _ in range(n)] for _ in range(m)]
    along_m = "bias_m" in steps
    bias = [rnd.randint(-8, 8) / 4 for _ in range(m if along_m else n)]
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
    params = [pa, pb, pc]
    names = [p["name"] for p in ans["params"]]
    if "bias" in names:
        params.append(mem.alloc(pack([bias], ct, oes)))
    if "R" in names:
        params.append(mem.alloc(pack(Rm, ct, oes)))
    S.run_kernel(ans, mem, params)
    bad = 0
    for i in range(m):
        for j in range(n):
            x = sum(A[i][l] * B[l][j] for l in range(k)) + (C0[i][j] if acc else 0)
            want = apply_steps(ref_steps, x, bias[i if along_m else j], Rm[i][j])
            got = decode(mem.read(pc + (i * n + j) * oes, oes), ct)
            tol = 2e-6 * (1 + abs(x) + abs(want)) + 1.01 * u_out * abs(want)
            if not abs(got - want) <= tol:
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

    def test_wgmma_refuses_f32_and_sm80(self):
        r = run_emitter("nvidia_gemm_wgmma", {"m": 8, "n": 8, "k": 8, "a_dtype": "f32"})
        self.assertIn("wgmma takes bf16, f16 or tf32, got f32", r.stderr)
        for dt in ("bf16", "tf32"):
            r = run_emitter("nvidia_gemm_wgmma", {"m": 8, "n": 8, "k": 8, "a_dtype": dt,
                                                  "sm": 80})
            self.assertIn("sm_90a", r.stderr)

    def test_wgmma_tf32_refusals(self):
        base = {"m": 256, "n": 256, "k": 64, "a_dtype": "tf32"}
        for bad, field, why in (
                ({"k": 66}, "k", "multiples of 4 for tf32"),
                ({"n": 258}, "n", "multiples of 4 for tf32"),
                ({"cluster_m": 2}, "cluster_m", "without clusters"),
                ({"cluster_n": 2}, "cluster_n", "without clusters"),
                ({"epilogue": ["relu"]}, "epilogue", "no fused epilogue"),
                ({"block_m": 96}, "block_m", "multiple of 64"),
                ({"block_n": 192, "consumers": 2}, "block_n", "64 * consumers"),
                ({"block_m": 256, "block_n": 256, "consumers": 2}, "block_n",
                 "256 accumulator registers"),
                ({"c_dtype": "bf16"}, "c_dtype", "f32 output"),
                ({"stages": 8, "block_m": 256, "block_n": 128}, "stages", "shared memory")):
            r = run_emitter("nvidia_gemm_wgmma", dict(base, **bad))
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn("field '%s'" % field, r.stderr, bad)
            self.assertIn(why, r.stderr, bad)

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


class EpilogueSpecTests(unittest.TestCase):
    """The epilogue field on both tensor-core kernels (the mma.sync kernel's
    numbers are checked in the interpreter below; wgmma is not modelled
    there: its PTX is checked here, by ptxas (ptxas.test) and on the GPU)."""

    SPEC = {"m": 256, "n": 512, "k": 128, "a_dtype": "bf16", "c_dtype": "bf16"}

    def test_no_epilogue_is_the_plain_kernel(self):
        for e in ("nvidia_gemm_wgmma", "nvidia_gemm_mma"):
            self.assertEqual(answer(e, self.SPEC), answer(e, dict(self.SPEC, epilogue=[])))

    def test_operands_follow_the_kernels_own(self):
        a = answer("nvidia_gemm_wgmma", dict(self.SPEC, epilogue=["bias_n", "gelu_tanh",
                                                                  "residual"]))
        self.assertEqual([p["name"] for p in a["params"]],
                         ["A", "B", "C", "tmapA", "tmapB", "bias", "R"])
        self.assertEqual(a["constraints"], "l,l,l,l,l,l,l,r")
        self.assertEqual(a["epilogue"], ["bias_n", "gelu_tanh", "residual"])
        self.assertIn("mov.u32 %qsmem, $7;", a["asm"])
        self.assertIn("mov.b64 %qzbias, $5;", a["asm"])
        self.assertIn("mov.b64 %qzres, $6;", a["asm"])
        m = answer("nvidia_gemm_mma", dict(self.SPEC, epilogue=["residual", "relu"]))
        self.assertEqual([p["name"] for p in m["params"]], ["A", "B", "C", "R"])
        self.assertIn("mov.u32 %qsmem, $4;", m["asm"])
        self.assertIn("mov.b64 %qzres, $3;", m["asm"])

    def test_each_step_in_the_ptx(self):
        # (steps, instructions the store path must then hold)
        cases = [(["bias_n"], ["add.rn.f32 %qacc0, %qacc0, %qzb0"]),
                 (["bias_m"], ["add.rn.f32 %qacc0, %qacc0, %qzbm0"]),
                 (["residual"], ["add.s64 %qzaddr, %qzres, %qzrow0",
                                 "add.rn.f32 %qacc0, %qacc0, %qzr0"]),
                 (["scale(0.5)"], ["mul.rn.f32 %qacc0, %qacc0, 0f3F000000"]),
                 (["clamp(0, 6)"], ["max.f32 %qacc0, %qacc0, 0f00000000",
                                    "min.f32 %qacc0, %qacc0, 0f40C00000"]),
                 (["relu"], ["max.f32 %qacc0, %qacc0, 0f00000000"]),
                 (["tanh"], ["div.rn.f32 %qacc0, %qzp, %qzq"]),
                 (["sigmoid"], ["mov.f32 %qacc0, %qzp"]),
                 (["silu"], ["mul.rn.f32 %qacc0, %qzp, %qacc0"]),
                 (["gelu_tanh"], ["add.rn.f32 %qzu, %qzu, 0f3F4C422A"]),   # sqrt(2/pi)
                 (["gelu_erf"], ["mul.rn.f32 %qzu, %qacc0, 0f3F3504F3"])]  # 1/sqrt(2)
        for e in ("nvidia_gemm_wgmma", "nvidia_gemm_mma"):
            plain = answer(e, self.SPEC)["asm"]
            for steps, needles in cases:
                a = answer(e, dict(self.SPEC, epilogue=steps))["asm"]
                for needle in needles:
                    self.assertIn(needle + ";", a, "%s %s" % (e, steps))
                    self.assertNotIn(needle + ";", plain)

    def test_stores_are_masked_at_the_edges(self):
        # Every global load and store of the epilogue is predicated (rows
        # and columns past M, N), for paired and single columns.
        for e, spec in (("nvidia_gemm_wgmma", dict(self.SPEC, m=200, n=264)),
                        ("nvidia_gemm_mma", dict(self.SPEC, m=200, n=263))):
            a = answer(e, dict(spec, epilogue=["bias_n", "residual", "relu"]))["asm"]
            tail = a[a.index("fused epilogue"):]
            mem = [l.strip() for l in tail.splitlines() if "ld.global" in l or "st.global" in l]
            self.assertTrue(mem)
            for line in mem:
                self.assertTrue(line.startswith("@%qzok ") or line.startswith("@%qzpc"), line)
            self.assertIn("setp.lt.u32 %%qzpc0, %%qzt, %d;" % spec["n"], tail)
            self.assertIn("setp.lt.u32 %%qzpr0, %%qzt, %d;" % spec["m"], tail)

    def test_refusals(self):
        for epi, why in ((["softmax"], "unknown step"), (["bias_n", "bias_m"], "at most one"),
                         (["scale"], "takes 1 argument"), ("relu", "must be a list")):
            for e in ("nvidia_gemm_wgmma", "nvidia_gemm_mma"):
                r = run_emitter(e, dict(self.SPEC, epilogue=epi))
                self.assertEqual(r.returncode, 2)
                self.assertIn("field 'epilogue'", r.stderr)
                self.assertIn(why, r.stderr)
        conv = {"n": 1, "h": 8, "w": 8, "c": 64, "f": 64, "r": 1, "s": 1, "stride_h": 1,
                "stride_w": 1, "dilation_h": 1, "dilation_w": 1}
        r = run_emitter("nvidia_gemm_mma", {"m": 64, "n": 64, "k": 64, "a_dtype": "bf16",
                                            "conv": conv, "epilogue": ["relu"]})
        self.assertIn("convolutions take no fused epilogue", r.stderr)


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

    def test_wgmma_tf32_launch(self):
        """C^T = B^T A^T: A's tensor map boxes 32 K x block_m rows, B's 32 x 32
        boxes (128 bytes of N); B^T fragments by ld.shared.v2, double-buffered
        (the k loop twice), wgmma with the A operand in registers."""
        a = answer("nvidia_gemm_wgmma", {"m": 4096, "n": 4096, "k": 4096, "a_dtype": "tf32"})
        self.assertEqual(a["tile"]["block_m"], 256)
        self.assertEqual(a["tile"]["block_n"], 128)
        self.assertEqual(a["tile"]["block_k"], 32)
        self.assertEqual(a["params"][3]["box"], [32, 256])
        self.assertEqual(a["params"][4]["box"], [32, 32])
        self.assertEqual(a["params"][4]["dims"], [4096, 4096])
        self.assertEqual(a["shared_bytes"], 4 * (256 + 128) * 128 + 16 * 4)
        self.assertEqual(a["threads"], 384)
        asm = a["asm"]
        # 2 buffers x 4 k8 steps x 1 block of 64 columns per consumer
        wg = "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32"
        self.assertEqual(asm.count(wg), 8)
        self.assertIn(", {%qfa0, %qfa1, %qfa2, %qfa3}, %qdB", asm)
        self.assertIn(", {%qfa16, %qfa17, %qfa18, %qfa19}, %qdB", asm)
        self.assertEqual(asm.count("ld.shared.v2.b32"), 2 * 4 * 2)
        self.assertEqual(asm.count("selp.b32"), 2 * 4 * 4)
        self.assertEqual(asm.count("cp.async.bulk.tensor.2d"), 1 + 128 // 32)
        self.assertEqual(asm.count("st.global.v2.f32"), 256 // 8 * 2)
        self.assertNotIn("k16", asm)
        # The bf16 kernel is untouched by the tf32 path.
        b = answer("nvidia_gemm_wgmma", {"m": 4096, "n": 4096, "k": 4096, "a_dtype": "bf16"})
        self.assertNotIn("tf32", b["asm"])

    def test_wgmma_tf32_few_rows(self):
        """block_m 16 and 32 (M <= 32): wgmma's N extent of 16 or 32 rows of
        A, A's box of that many rows, stages of whole 1 KiB swizzle atoms
        (B's boxes stay 1024-byte aligned), the C stores of 16 or 32 rows;
        48 rows, and convolutions with fewer than 64, are refused."""
        for bm in (16, 32):
            a = answer("nvidia_gemm_wgmma", {"m": 16, "n": 11008, "k": 4096, "a_dtype": "tf32",
                                             "block_m": bm, "block_n": 128, "consumers": 2,
                                             "stages": 8})
            self.assertEqual(a["tile"]["block_m"], bm)
            self.assertEqual(a["params"][3]["box"], [32, bm])
            stage = bm * 128 + 128 * 128
            self.assertEqual(stage % 1024, 0)
            self.assertEqual(a["shared_bytes"], 8 * stage + 16 * 8)
            self.assertEqual(a["grid"], [86, 1, 1])
            asm = a["asm"]
            wg = "wgmma.mma_async.sync.aligned.m64n%dk8.f32.tf32.tf32" % bm
            # 2 buffers x 4 k8 steps x 1 block of 64 columns per consumer
            self.assertEqual(asm.count(wg), 8)
            self.assertNotIn("m64n64k8", asm)
            self.assertIn("{%%qacc0, %s}" % ", ".join("%%qacc%d" % i for i in range(1, bm // 2)),
                          asm)
            # B's boxes after A's tile: 1024-byte aligned offsets in the stage
            for cb in range(4):
                self.assertIn("add.u32 %%qt6, %%qdst, %d" % (bm * 128 + cb * 4096), asm)
            # rows 8 i + j of m0 + 2 c: 16 rows of M (M = 16: all stored)
            self.assertEqual(asm.count("st.global.v2.f32"), min(bm, 16) // 8 * 2)
        r = run_emitter("nvidia_gemm_wgmma", {"m": 16, "n": 256, "k": 64, "a_dtype": "tf32",
                                              "block_m": 48, "block_n": 64, "consumers": 1})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("must be 16, 32 or a multiple of 64", r.stderr)
        conv = {"n": 1, "h": 8, "w": 8, "c": 32, "f": 64, "r": 1, "s": 1, "stride_h": 1,
                "stride_w": 1, "dilation_h": 1, "dilation_w": 1, "pad_top": 0, "pad_left": 0,
                "pad_bottom": 0, "pad_right": 0}
        r = run_emitter("nvidia_gemm_wgmma", {"m": 64, "n": 64, "k": 32, "a_dtype": "tf32",
                                              "block_m": 16, "block_n": 64, "consumers": 1,
                                              "conv": conv})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("convolutions take block_m of 64 or more", r.stderr)

    def test_wgmma_few_rows(self):
        """bf16/f16 block_m 8, 16, 32 (nvidia_wgmma_fewrows.py): C^T = B^T
        A^T with wgmma m64n{block_m}k16, B^T MN-major (imm-trans-a 1) and A^T
        K-major (imm-trans-b 0); A's box of block_m rows; stages of whole
        1 KiB swizzle atoms, up to 16; one scalar store per accumulator of a
        row < M; clusters, epilogues, the TMA store and convolutions
        refused (split-K: test_nvidia_splitk_gemv.py)."""
        for bm, bn, nc, stages in ((16, 64, 1, 16), (16, 128, 2, 12), (8, 128, 2, 13),
                                   (32, 256, 2, 6)):
            a = answer("nvidia_gemm_wgmma", {"m": 13, "n": 4096, "k": 14336, "a_dtype": "bf16",
                                             "c_dtype": "bf16", "block_m": bm, "block_n": bn,
                                             "consumers": nc, "stages": stages})
            self.assertEqual(a["tile"]["block_m"], bm)
            self.assertEqual(a["params"][3]["box"], [64, bm])
            self.assertEqual(a["params"][4]["box"], [64, 64])
            stage = bm * 128 + bn * 128
            self.assertEqual(stage % 1024, 0)
            self.assertEqual(a["shared_bytes"], stages * stage + 16 * stages)
            self.assertEqual(a["grid"], [min(132, -(-13 // bm) * (4096 // bn)), 1, 1])
            self.assertEqual(a["threads"], 128 * (nc + 1))
            asm = a["asm"]
            wg = "wgmma.mma_async.sync.aligned.m64n%dk16.f32.bf16.bf16" % bm
            nrep = bn // nc // 64
            # 4 k16 steps x nrep m64 blocks of C^T per consumer
            self.assertEqual(asm.count(wg), 4 * nrep)
            self.assertEqual(asm.count(", 1, 1, 1, 0"), 4 * nrep)
            self.assertNotIn("m64n64k16", asm)
            self.assertIn("{%%qacc0, %s}" % ", ".join("%%qacc%d" % i for i in range(1, bm // 2)),
                          asm)
            # B's boxes after A's: 1024-byte aligned offsets in the stage
            for cb in range(bn // 64):
                self.assertIn("add.u32 %%qt6, %%qdst, %d" % (bm * 128 + cb * 8192), asm)
            # one bf16 store per accumulator of rows 8 g + j < 13
            rows = len([moff for g in range(bm // 8) for moff in (8 * g, 8 * g + 1)
                        if moff < 13])
            self.assertEqual(asm.count("st.global.b16"), nrep * 2 * rows)
        # f16 with f32 output and C += A B
        a = answer("nvidia_gemm_wgmma", {"m": 16, "n": 256, "k": 64, "a_dtype": "f16",
                                         "accumulate": True, "block_m": 16, "block_n": 64,
                                         "consumers": 1})
        self.assertIn("m64n16k16.f32.f16.f16", a["asm"])
        self.assertEqual(a["asm"].count("ld.global.f32"), 2 * 4)
        self.assertEqual(a["asm"].count("st.global.f32"), 2 * 4)
        base = {"m": 16, "n": 256, "k": 256, "a_dtype": "bf16", "block_m": 16, "block_n": 64,
                "consumers": 1}
        for extra, field, why in (
                ({"split_k": 3}, "split_k", "must be 1, 2 or 4"),
                ({"split_k": 4, "k": 192}, "split_k", "too few for 4 non-empty ranges"),
                ({"cluster_n": 2}, "cluster_n", "without clusters"),
                ({"epilogue": ["relu"]}, "epilogue", "no fused epilogue"),
                ({"store": "smem_tma"}, "store", "stores C from registers"),
                ({"block_n": 64, "consumers": 2}, "block_n", "multiple of 64 * consumers"),
                ({"block_m": 24}, "block_m", "must be 8, 16, 32 (few rows) or a multiple of 64"),
                ({"stages": 17}, "stages", "stages")):
            spec = dict(base)
            spec.update(extra)
            r = run_emitter("nvidia_gemm_wgmma", spec)
            self.assertNotEqual(r.returncode, 0, extra)
            self.assertIn(field, r.stderr)
            self.assertIn(why, r.stderr)

    def test_wgmma_few_cols(self):
        """block_n 16 and 32 (N <= 32): B's box one MN-major atom of block_n
        columns with the 32- or 64-byte swizzle (tensor map and descriptor:
        mode 3 or 2, SBO 8 rows), wgmma n16 / n32, a k16 step of 16 rows of
        block_n columns, up to 16 stages; clusters, the TMA store and
        split_k 4 with block_n 16 refused."""
        for bn, mode in ((16, 3), (32, 2)):
            a = answer("nvidia_gemm_wgmma", {"m": 4096, "n": 16, "k": 4096, "a_dtype": "f16",
                                             "c_dtype": "f16", "block_m": 64, "block_n": bn,
                                             "consumers": 1, "stages": 16})
            # block_n 32 boxes B's 16 columns (b_box "row", its default)
            self.assertEqual(a["params"][4]["box"], [16, 64])
            self.assertEqual(a["params"][4]["swizzle"], 2 * bn)
            self.assertEqual(a["params"][3]["swizzle"], 128)
            self.assertEqual(a["shared_bytes"], 16 * (64 * 128 + bn * 128) + 16 * 16)
            asm = a["asm"]
            self.assertIn("mov.u32 %%qdhb, %d" % ((16 * bn) >> 4 | mode << 30), asm)
            self.assertEqual(asm.count("m64n%dk16.f32.f16.f16" % bn), 4)
            self.assertIn("add.u32 %%qt5, %%qdbl, %d" % ((16 * 2 * bn) >> 4), asm)
            # one B box per stage, after A's
            self.assertEqual(asm.count("[%qmapB, {%qt5, %qt4}]"), 1)
        # block_n 64 keeps the 128-byte swizzle of B (mode 1, SBO 1024)
        a = answer("nvidia_gemm_wgmma", {"m": 256, "n": 256, "k": 256, "a_dtype": "bf16",
                                         "block_m": 64, "block_n": 64, "consumers": 1})
        self.assertIn("mov.u32 %%qdhb, %d" % (64 | 1 << 30), a["asm"])
        self.assertEqual(a["params"][4]["swizzle"], 128)
        base = {"m": 256, "n": 16, "k": 256, "a_dtype": "bf16", "block_m": 64, "block_n": 16,
                "consumers": 1}
        for extra, field in (({"split_k": 8}, "split_k"), ({"cluster_m": 2}, "cluster_m"),
                             ({"store": "smem_tma"}, "store"), ({"block_n": 48}, "block_n"),
                             ({"stages": 17}, "stages")):
            spec = dict(base)
            spec.update(extra)
            r = run_emitter("nvidia_gemm_wgmma", spec)
            self.assertNotEqual(r.returncode, 0, extra)
            self.assertIn(field, r.stderr)

    def test_wgmma_narrow_b_box(self):
        """B's box of the narrow tiles (b_box): "row" (the default of block_n
        16 and 32) boxes B's ldb columns, so that no box row crosses the
        matrix edge (N = 24: 24 columns; a pad copy, N = 28 with ldb 32: all
        32; N = 8: 8), "tile" block_n columns zero-filled past N, "chunks"
        8-column unswizzled boxes in wgmma's no-swizzle MN-major layout
        (mode 0, SBO 1024 bytes to the next 8 columns, LBO 128 to the next 8
        k rows). Each stage expects exactly the bytes its loads bring; "row"
        and "tile" differ in nothing else. Refused but for narrow tiles."""
        import re
        base = {"m": 3000, "n": 24, "k": 8192, "a_dtype": "bf16", "c_dtype": "bf16",
                "block_m": 128, "block_n": 32, "consumers": 2, "stages": 11, "split_k": 4}

        def loads(a):
            box = {"%qmapA": a["params"][3]["box"], "%qmapB": a["params"][4]["box"]}
            lines = [l for l in a["asm"].splitlines() if "cp.async.bulk.tensor" in l]
            got = sum(box[mp][0] * box[mp][1] * 2 for l in lines for mp in box if mp in l)
            tx = re.findall(r"expect_tx.shared::cta.b64 %qstate, \[%qt3\], (\d+)", a["asm"])
            return got, [int(x) for x in tx], len(lines)

        row = answer("nvidia_gemm_wgmma", base)
        self.assertEqual(row["params"][4]["box"], [24, 64])
        self.assertEqual(row["params"][4]["dims"], [24, 8192])
        self.assertEqual(row["params"][4]["swizzle"], 64)
        self.assertEqual(loads(row), (128 * 128 + 24 * 128, [128 * 128 + 24 * 128], 2))
        tile = answer("nvidia_gemm_wgmma", dict(base, b_box="tile"))
        self.assertEqual(tile["params"][4]["box"], [32, 64])
        self.assertEqual(tile["params"][4]["dims"], [24, 8192])
        self.assertEqual(loads(tile), (128 * 128 + 32 * 128, [128 * 128 + 32 * 128], 2))
        self.assertEqual(row["shared_bytes"], tile["shared_bytes"])
        diff = [(x, y) for x, y in zip(row["asm"].splitlines(), tile["asm"].splitlines())
                if x != y]
        self.assertEqual(len(diff), 1)
        self.assertIn("expect_tx", diff[0][0])
        chunks = answer("nvidia_gemm_wgmma", dict(base, b_box="chunks"))
        self.assertEqual(chunks["params"][4]["box"], [8, 64])
        self.assertEqual(chunks["params"][4]["swizzle"], 0)
        self.assertEqual(loads(chunks), (128 * 128 + 3 * 8 * 128, [128 * 128 + 3 * 8 * 128], 4))
        asm = chunks["asm"]
        for g in range(3):
            load = "add.u32 %%qt5, %%qn0, %d;\n  add.u32 %%qt6, %%qdst, %d;" % (
                8 * g, 128 * 128 + 1024 * g)
            self.assertTrue(load in asm, load)
        self.assertTrue("mov.u32 %qdhb, 64;" in asm)                  # SBO 1024, mode 0
        self.assertTrue("or.b32 %%qdbl, %%qdbl, %d;" % (8 << 16) in asm)  # LBO 128
        self.assertTrue("add.u32 %qt5, %qdbl, 16;" in asm)           # k16: 2 core matrices
        # a pad copy's rows (N = 28, ldb 32; N = 20, ldb 24): the box reads
        # its zeros instead of crossing the edge
        for n, ldb in ((28, 32), (20, 24)):
            pad = answer("nvidia_gemm_wgmma", dict(base, n=n, ldb=ldb))
            self.assertEqual(pad["params"][4]["dims"], [ldb, 8192])
            self.assertEqual(pad["params"][4]["box"], [ldb, 64])
            self.assertEqual(loads(pad)[:2], (128 * 128 + ldb * 128, [128 * 128 + ldb * 128]))
        # block_n 16 (32-byte swizzle) boxes its ldb columns too: N = 8, 8
        # of the 16 ("tile": 16, those past N zero-filled); N = 12 with a
        # pad copy's ldb 16, all 16 of them
        b16 = {"m": 4096, "n": 8, "k": 8192, "a_dtype": "bf16", "c_dtype": "bf16",
               "block_m": 64, "block_n": 16, "consumers": 1, "stages": 16}
        r16 = answer("nvidia_gemm_wgmma", b16)
        self.assertEqual(r16["params"][4]["box"], [8, 64])
        self.assertEqual(r16["params"][4]["dims"], [8, 8192])
        self.assertEqual(r16["params"][4]["swizzle"], 32)
        self.assertEqual(loads(r16), (64 * 128 + 8 * 128, [64 * 128 + 8 * 128], 2))
        t16 = answer("nvidia_gemm_wgmma", dict(b16, b_box="tile"))
        self.assertEqual(t16["params"][4]["box"], [16, 64])
        self.assertEqual(loads(t16), (64 * 128 + 16 * 128, [64 * 128 + 16 * 128], 2))
        diff = [(x, y) for x, y in zip(r16["asm"].splitlines(), t16["asm"].splitlines())
                if x != y]
        self.assertEqual(len(diff), 1)
        self.assertIn("expect_tx", diff[0][0])
        a16 = answer("nvidia_gemm_wgmma", {"m": 4096, "n": 12, "k": 4096, "a_dtype": "bf16",
                                           "block_m": 64, "block_n": 16, "consumers": 1,
                                           "stages": 16, "ldb": 16})
        self.assertEqual(a16["params"][4]["box"], [16, 64])
        self.assertEqual(a16["params"][4]["dims"], [16, 4096])
        for spec, why in (
                ({"m": 256, "n": 256, "k": 256, "a_dtype": "bf16", "block_m": 128,
                  "block_n": 128}, "only the narrow tiles"),
                ({"m": 256, "n": 24, "k": 256, "a_dtype": "tf32"}, "only the narrow tiles"),
                ({"m": 16, "n": 2048, "k": 256, "a_dtype": "bf16", "block_m": 16,
                  "block_n": 64, "consumers": 1}, "only the narrow tiles"),
                (dict(base, b_box="whole"), "must be")):
            spec.setdefault("b_box", "row")
            r = run_emitter("nvidia_gemm_wgmma", spec)
            self.assertNotEqual(r.returncode, 0, spec)
            self.assertIn("b_box", r.stderr)
            self.assertIn(why, r.stderr)

    def test_wgmma_stream_hint(self):
        """stream_hint "evict_first": one createpolicy, and the streamed
        operand's TMA loads (A of the narrow tiles, B of few rows) carry it
        as an L2 cache hint; the other operand's do not. Refused for the
        plain tiles, tf32 and unknown policies."""
        load = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        hinted = load + ".L2::cache_hint"
        for spec, streamed, other in (
                ({"m": 3000, "n": 24, "k": 8192, "block_m": 128, "block_n": 32,
                  "consumers": 2, "stages": 11, "split_k": 4}, "%qmapA", "%qmapB"),
                ({"m": 24, "n": 1536, "k": 8192, "block_m": 32, "block_n": 64,
                  "consumers": 1, "stages": 16, "split_k": 4}, "%qmapB", "%qmapA")):
            spec = dict(spec, a_dtype="bf16", c_dtype="bf16")
            plain = answer("nvidia_gemm_wgmma", spec)["asm"]
            self.assertNotIn("createpolicy", plain)
            self.assertNotIn("cache_hint", plain)
            asm = answer("nvidia_gemm_wgmma", dict(spec, stream_hint="evict_first"))["asm"]
            self.assertEqual(asm.count("createpolicy.fractional.L2::evict_first.b64 %qpol, 1.0"),
                             1)
            lines = [l.strip() for l in asm.splitlines() if l.strip().startswith(load)]
            self.assertTrue(lines)
            for l in lines:
                if "[" + streamed in l:
                    self.assertTrue(l.startswith(hinted) and l.endswith("%qpol;"), l)
                else:
                    self.assertIn("[" + other, l)
                    self.assertNotIn("cache_hint", l)
            # the hint changes nothing else
            self.assertEqual(
                [l.replace(".L2::cache_hint", "").replace(", %qpol", "")
                 for l in asm.splitlines()
                 if "createpolicy" not in l and not l.strip().startswith(".reg .b64 %qpol")],
                plain.splitlines())
        for spec, why in (
                ({"m": 256, "n": 256, "k": 256, "a_dtype": "bf16", "block_m": 128,
                  "block_n": 128}, "only the narrow tiles"),
                ({"m": 256, "n": 256, "k": 256, "a_dtype": "tf32"}, "tf32"),
                ({"m": 256, "n": 16, "k": 256, "a_dtype": "bf16", "block_m": 64,
                  "block_n": 16, "consumers": 1, "stream_hint": "evict_last"}, "must be")):
            spec.setdefault("stream_hint", "evict_first")
            r = run_emitter("nvidia_gemm_wgmma", spec)
            self.assertNotEqual(r.returncode, 0, spec)
            self.assertIn("stream_hint", r.stderr)
            self.assertIn(why, r.stderr)

    def test_wgmma_tf32_fragment_loads_hit_two_wavefronts(self):
        """The fragment offsets the kernel computes (mirrored here from the
        PTX it prints: n = 16 w + 2 g, rows c / c + 4 swapped for odd c,
        128-byte swizzle) put each warp-wide 8-byte load on every bank at
        most twice (256 bytes: two wavefronts, the minimum), and the two
        loads of a thread cover exactly its k rows c and c + 4 of columns n,
        n + 1."""
        for w in range(4):
            for which in (0, 1):
                banks = {}
                for lane in range(32):
                    g, c = lane // 4, lane % 4
                    nn = 16 * w + 2 * g
                    row_x = c | ((c & 1) << 2)
                    row = row_x if which == 0 else row_x ^ 4
                    chunk = (nn % 32) // 4
                    off = (nn // 32) * 4096 + row * 128 + ((chunk ^ row) << 4) + (nn % 4) * 4
                    # the TMA swizzle, undone: logical column of this address
                    phys = (off % 128) // 16
                    self.assertEqual(((phys ^ ((off // 128) % 8)) * 4 + (off % 16) // 4
                                      + 32 * (off // 4096)), nn)
                    for word in (off // 4, off // 4 + 1):
                        banks.setdefault(word % 32, set()).add(word)
                self.assertLessEqual(max(len(v) for v in banks.values()), 2)

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

    def check_epilogue(self, spec):
        self.assertEqual(simulate_epilogue("nvidia_gemm_mma", spec), 0, str(spec))
        # The check can fail: one step left out of the reference.
        self.assertGreater(simulate_epilogue("nvidia_gemm_mma", spec,
                                             ref_steps=spec["epilogue"][:-1]), 0)

    def test_mma_epilogue_bias_gelu_residual(self):
        # bf16 out, paired stores; M and N edges inside the tile
        self.check_epilogue(dict(self.SMALL, m=33, n=40, k=24, a_dtype="bf16", c_dtype="bf16",
                                 stages=2, epilogue=["scale(0.0625)", "bias_n", "gelu_erf",
                                                     "residual"]))

    def test_mma_epilogue_odd_n_accumulate(self):
        # N odd: single-column loads and stores; C0 added first; f32 out
        self.check_epilogue(dict(self.SMALL, m=19, n=37, k=16, a_dtype="f16", c_dtype="f32",
                                 accumulate=True, stages=2,
                                 epilogue=["bias_m", "scale(0.125)", "silu", "clamp(-1, 2.5)"]))

    def test_mma_epilogue_activations(self):
        for steps, ct in ((["scale(0.1)", "tanh"], "f16"),
                          (["residual", "scale(0.2)", "sigmoid"], "f32"),
                          (["bias_n", "scale(0.0625)", "gelu_tanh"], "bf16"),
                          (["bias_m", "relu"], "bf16")):
            self.check_epilogue(dict(self.SMALL, m=20, n=24, k=32, a_dtype="bf16", c_dtype=ct,
                                     stages=2, epilogue=steps))

    def test_mma_epilogue_multiwarp_multicta(self):
        self.check_epilogue({"m": 70, "n": 72, "k": 16, "a_dtype": "bf16", "c_dtype": "bf16",
                             "block_m": 64, "block_n": 64, "warps_m": 2, "warps_n": 2,
                             "stages": 2, "epilogue": ["bias_n", "relu", "residual"]})


if __name__ == "__main__":
    unittest.main()
