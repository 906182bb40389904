"""Tests for python_emitters/x86_gemm_kdot.py (kernels vectorized along K).

Run from the repository root:
    python3 -m unittest discover -s test/python_emitters -p test_x86_gemm_kdot.py -v

Needs: python3; clang-22 or gcc and an AVX-512 CPU for the numeric checks
(kdot_harness.c), llvm-mc-22 for the assembly check.  Missing tools or CPU
features skip the affected tests with a message.
"""

import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EMITTER_DIR = os.path.join(ROOT, "python_emitters")
EMITTER = os.path.join(EMITTER_DIR, "x86_gemm_kdot.py")
HARNESS = os.path.join(HERE, "kdot_harness.c")

sys.path.insert(0, EMITTER_DIR)
from tensorop_emit import common  # noqa: E402
import x86_gemm_kdot  # noqa: E402

CC = shutil.which("clang-22") or shutil.which("gcc") or shutil.which("cc")
LLVM_MC = shutil.which("llvm-mc-22") or (
    "/usr/lib/llvm-22/bin/llvm-mc" if os.path.exists("/usr/lib/llvm-22/bin/llvm-mc") else None)


def have_avx512():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return {"avx512f", "avx512bw", "bmi2"} <= set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return False


HAVE_AVX512 = have_avx512()
LDA, LDBT = 200, 210  # floats; kc up to 200 (the harness skips larger)
KC_LIST = [0, 1, 5, 15, 16, 17, 31, 32, 33, 48, 49, 64, 100, 197, 200]


def spec(**kw):
    s = {"kernel": "gemm_f32", "isa": "avx512", "a_stride_bytes": 4 * LDA,
         "b_stride_bytes": 4 * LDBT}
    s.update(kw)
    return s


# Few-column tiles the advisor picks (nr = N, mr up to the register file),
# with and without prefetch, both C updates, several unrolls.
NUMERIC_SPECS = [
    spec(mr=12, nr=1, prefetch_a=128),
    spec(mr=12, nr=2, k_unroll=1),
    spec(mr=9, nr=3, k_unroll=3, c_update="store"),
    spec(mr=6, nr=4, prefetch_a=64),
    spec(mr=5, nr=5, c_update="store"),
    spec(mr=4, nr=6, prefetch_a=128),
    spec(mr=4, nr=6, c_update="store", prefetch_a=128),
    spec(mr=3, nr=7, k_unroll=4),
    spec(mr=2, nr=8),
    spec(mr=2, nr=8, c_update="store"),
    spec(mr=1, nr=15),
    # "A held" (mr*nr + nr + 1 > 32): the rows' A vectors stay, B streams
    # through two registers; the advisor's blocks for N = 9, 11, 14
    spec(mr=3, nr=9, c_update="store", prefetch_a=256),
    spec(mr=2, nr=11, prefetch_a=256),
    spec(mr=2, nr=14, k_unroll=3, c_update="store"),
    spec(mr=3, nr=8),
    spec(mr=1, nr=16),
]


def run_emitter(spec_obj, *args):
    p = subprocess.run([sys.executable, EMITTER] + list(args), input=json.dumps(spec_obj),
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def emit_function(s):
    rc, out, err = run_emitter(s, "--format=function", "--symbol", "ukernel")
    if rc != 0:
        raise AssertionError("emitter failed for %s: %s" % (s, err))
    return out


class TestSpec(unittest.TestCase):
    def test_bad_specs_exit_2_and_name_field(self):
        cases = [
            (spec(mr=2, nr=15), "mr"),                # B held 46, A held 34 registers
            (spec(mr=1, nr=17), "nr"),
            (spec(mr=2, nr=4, isa="avx2"), "isa"),
            (spec(mr=2, nr=4, broadcast="explicit"), "broadcast"),
            (spec(mr=2, nr=4, a_stride_bytes=6), "a_stride_bytes"),
            (dict((k, v) for k, v in spec(mr=2, nr=4).items() if k != "b_stride_bytes"),
             "b_stride_bytes"),
            (spec(mr=2, nr=4, prefetch_b=8), "prefetch_b"),
            (spec(mr=2, nr=4, kernel="gemm_bf16"), "kernel"),
            (spec(mr=2, nr=4, bogus=1), "bogus"),
        ]
        for s, field in cases:
            with self.subTest(spec=s):
                rc, out, err = run_emitter(s)
                self.assertEqual(rc, 2, err)
                self.assertIn("'%s'" % field, err)
                self.assertIn("error", json.loads(out))

    def test_answer_fields_and_determinism(self):
        s = spec(mr=4, nr=6, prefetch_a=128)
        rc, out, err = run_emitter(s)
        self.assertEqual(rc, 0, err)
        o = json.loads(out)
        self.assertEqual((o["mr"], o["nr"], o["accumulators"], o["flops_per_k"]), (4, 6, 24, 48))
        self.assertEqual(o["vector_registers_used"], 24 + 6 + 2)
        self.assertEqual(o["operands"], list(common.UKERNEL_OPERANDS))
        self.assertEqual(o["constraints"], common.llvm_constraints(7, o["clobbers"]))
        self.assertEqual(run_emitter(s)[1], out)
        # Every register the body names is clobbered; no GPR beyond the scratch ones.
        used = set(re.findall(r"%(zmm\d+|k\d|r\d+d?|[re][a-d]x)", o["asm"]))
        clob = set(o["clobbers"])
        for reg in used:
            self.assertIn(reg.rstrip("d").replace("eax", "rax"), clob, reg)

    def test_reduction_tree_places_every_slot(self):
        # The simulated tree (checked when the module loads) maps the 16
        # slots one-to-one onto the 16 lanes.
        self.assertEqual(sorted(x86_gemm_kdot.SLOT_LANE), list(range(16)))
        self.assertEqual(sorted(x86_gemm_kdot.SLOT_LANE.values()), list(range(16)))


@unittest.skipIf(LLVM_MC is None, "llvm-mc-22 not found: assembly check skipped")
class TestAssembles(unittest.TestCase):
    def test_inline_bodies_assemble(self):
        for s in NUMERIC_SPECS:
            with self.subTest(spec=s):
                rc, out, err = run_emitter(s)
                self.assertEqual(rc, 0, err)
                body = common.substitute_operands(
                    json.loads(out)["asm"],
                    ["%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9", "%r10"])
                p = subprocess.run([LLVM_MC, "-triple=x86_64", "-mattr=+avx512f,+avx512bw,+bmi2",
                                    "-filetype=null"], input=body, capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)


def build(tmp, tag, kernel_src, cflags=()):
    src = os.path.join(tmp, tag + ".s")
    with open(src, "w") as f:
        f.write(kernel_src)
    exe = os.path.join(tmp, tag)
    p = subprocess.run([CC, "-O2", "-w"] + list(cflags) + [HARNESS, src, "-o", exe, "-lm"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError("build failed: %s" % p.stderr)
    return exe


def run_check(exe, s, kcs=KC_LIST, ms=None, ns=None, seed=1, lda=LDA):
    ms = ms or list(range(1, s["mr"] + 1))
    ns = ns or sorted({1, s["nr"] // 2 or 1, s["nr"]})
    store = 1 if s.get("c_update") == "store" else 0
    args = [exe, str(s["mr"]), str(s["nr"]), ",".join(map(str, kcs)), ",".join(map(str, ms)),
            ",".join(map(str, ns)), str(seed), str(lda), str(LDBT), str(store)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


@unittest.skipIf(CC is None, "no C compiler: numeric checks skipped")
@unittest.skipUnless(HAVE_AVX512, "CPU lacks avx512f/avx512bw/bmi2: numeric checks skipped")
class TestNumeric(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="x86_gemm_kdot_test_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_runtime_lda_numeric(self):
        """Kernels taking A's row stride as an operand (a_stride_operand):
        right results at two strides from one build (200 and 57 floats),
        held-A and held-B orders, 1 to 12 rows (three row groups)."""
        specs = []
        for kw in (dict(mr=12, nr=1, prefetch_a=128), dict(mr=6, nr=4),
                   dict(mr=3, nr=9, c_update="store"), dict(mr=2, nr=13, k_unroll=1)):
            s = spec(a_stride_operand=1, **kw)
            del s["a_stride_bytes"]
            specs.append(s)

        def job(i, s):
            exe = build(self.tmp, "rl%d" % i, emit_function(s), cflags=["-DUKERNEL_LDA_OPERAND"])
            return [run_check(exe, s, seed=40 + i, lda=lda) for lda in (LDA, 57)]

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as ex:
            results = list(ex.map(lambda js: (js[1], job(*js)), enumerate(specs)))
        for s, runs in results:
            for rc, out in runs:
                with self.subTest(spec=s):
                    self.assertEqual(rc, 0, out)

    def test_kernels_numeric(self):
        """Every m_rem (each has its own K loop), n_rem, K tails of every
        length: right results, nothing read past A's last row or Bt's last
        k (guard pages), nothing outside the tile written, NaN tiles for
        "store"."""
        def job(i, s):
            return run_check(build(self.tmp, "k%d" % i, emit_function(s)), s, seed=i + 1)

        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as ex:
            results = list(ex.map(lambda js: (js[1], job(*js)), enumerate(NUMERIC_SPECS)))
        for s, (rc, out) in results:
            with self.subTest(spec=s):
                self.assertEqual(rc, 0, out)
                self.assertRegex(out, r"^OK [0-9]+")

    def test_harness_catches_broken_kernels(self):
        """Mutated kernels fail: an unmasked K tail reads past A (a fault),
        a reduction with a wrong shuffle gives wrong sums, and an M edge
        that runs the full tile's loop reads rows past A."""
        s = spec(mr=4, nr=6)
        good = emit_function(s)
        mutations = [
            ("tail", lambda t: t.replace(" {%k1} {z}", ""), 3),
            ("shuffle", lambda t: t.replace("vshufps $0xdd", "vshufps $0x77", 1), 1),
            ("m_edge", lambda t: t.replace("cmp $3, %r9\n  jge 103f", "jmp 104f", 1), 3),
        ]
        for tag, mutate, want in mutations:
            with self.subTest(mutation=tag):
                bad = mutate(good)
                self.assertNotEqual(bad, good)
                exe = build(self.tmp, "bad_" + tag, bad)
                rc, out = run_check(exe, s, kcs=[5, 17, 100], ms=[1, 3, 4], ns=[6])
                self.assertEqual(rc, want, out)


if __name__ == "__main__":
    unittest.main()
