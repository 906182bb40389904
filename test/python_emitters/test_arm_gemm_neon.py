"""Tests for python_emitters/arm_gemm_neon.py (AArch64 NEON fp32 GEMM).

Run from the repository root:
    python3 -m unittest discover -s test/python_emitters -v

Needs: python3; optional llvm-mc-22 / llc-22 (assembly and LLVM IR checks),
clang-22 with the arm64 cross sysroot (gcc-aarch64-linux-gnu,
libc6-dev-arm64-cross) and qemu-aarch64 (qemu-user) for the numeric checks.
Missing tools skip the affected tests with a message.
"""

import concurrent.futures
import json
import os
import re
import shutil
import tempfile
import unittest

import cross_common as cc
from cross_common import common

EMITTER = "arm_gemm_neon.py"
FUNCTION_REGS = ["x0", "x1", "x2", "x3", "x4", "x5", "x6"]
TARGET = "aarch64"


def spec(**kw):
    s = {"kernel": "gemm_f32", "isa": "neon"}
    s.update(kw)
    return s


def run_emitter(stdin_text, *args, env=None):
    return cc.run_emitter(EMITTER, stdin_text, *args, env=env)


def emit_json(s):
    return cc.emit_json(EMITTER, s)


def emit_function(s, symbol="ukernel"):
    return cc.emit_function(EMITTER, s, symbol)


STATIC_SPECS = [
    spec(mr=8, nr=12),
    spec(mr=12, nr=8),
    spec(mr=6, nr=16),
    spec(mr=7, nr=8, k_unroll=3, prefetch_b=4),
    spec(mr=5, nr=20, k_unroll=1),
    spec(mr=1, nr=4),
    spec(mr=4, nr=16, k_unroll=16),
    spec(mr=1, nr=60, k_unroll=2),
    spec(mr=13, nr=8, k_unroll=5),
    spec(mr=3, nr=4, k_unroll=16, prefetch_b=1024),  # prefetch distance > 4095
    spec(mr=24, nr=4, k_unroll=16),
]


def registers_in_asm(asm):
    """Registers an asm body names (operands $N excluded): GPRs as xN, SIMD&FP
    registers (v/q/d/s/b/h views) as vN, plus nzcv for flag-setting code."""
    regs = set()
    for line in asm.split("\n"):
        code = line.split("//")[0].strip()
        if not code or code.endswith(":") or code.startswith("."):
            continue
        mnem, _, ops = code.partition(" ")
        if mnem in ("cmp", "subs", "adds", "cmn", "tst", "ands") or mnem.startswith("b."):
            regs.add("nzcv")
        for tok in re.findall(r"(?<![\w$#])([a-z]+[0-9]+)(?![\w])", ops):
            m = re.fullmatch(r"([xw])([0-9]+)", tok)
            if m:
                regs.add("x" + m.group(2))
                continue
            m = re.fullmatch(r"([vqdsbh])([0-9]+)", tok)
            if m:
                regs.add("v" + m.group(2))
    return regs


class TestSpecValidation(unittest.TestCase):
    BAD = [
        ('{"kernel": "gemm_f32", "isa": "neon", "mr": 8', "JSON"),
        ('[1, 2]', "object"),
        (json.dumps({"isa": "neon", "mr": 8, "nr": 12}), "kernel"),
        (json.dumps({"kernel": "gemm_f32", "mr": 8, "nr": 12}), "isa"),
        (json.dumps(spec(nr=12)), "mr"),
        (json.dumps(spec(mr=8)), "nr"),
        (json.dumps(spec(mr=8, nr=12, kernel="gemm_f64")), "kernel"),
        (json.dumps(spec(mr=8, nr=12, isa="rvv")), "isa"),
        (json.dumps(spec(mr=8, nr=12, isa="sve")), "isa"),
        (json.dumps(spec(mr=0, nr=12)), "mr"),
        (json.dumps(spec(mr="8", nr=12)), "mr"),
        (json.dumps(spec(mr=8.0, nr=12)), "mr"),
        (json.dumps(spec(mr=False, nr=12)), "mr"),
        (json.dumps(spec(mr=8, nr=10)), "nr"),
        (json.dumps(spec(mr=8, nr=0)), "nr"),
        (json.dumps(spec(mr=8, nr=12, k_unroll=0)), "k_unroll"),
        (json.dumps(spec(mr=8, nr=12, k_unroll=17)), "k_unroll"),
        (json.dumps(spec(mr=8, nr=12, broadcast="embedded")), "broadcast"),
        (json.dumps(spec(mr=8, nr=12, prefetch_b=-1)), "prefetch_b"),
        (json.dumps(spec(mr=8, nr=12, prefetch_b=True)), "prefetch_b"),
        (json.dumps(spec(mr=8, nr=12, vlen_min=128)), "vlen_min"),
        (json.dumps(spec(mr=8, nr=12, format="elf")), "format"),
        # register budget: 8*4 + 4 + 2 = 38; 12*3 ...; 9*3 + 3 + 3 = 33
        (json.dumps(spec(mr=8, nr=16)), "mr"),
        (json.dumps(spec(mr=12, nr=12)), "mr"),
        (json.dumps(spec(mr=9, nr=12)), "mr"),
        (json.dumps(spec(mr=1, nr=64)), "mr"),
        (json.dumps(spec(mr=31, nr=4)), "mr"),
        (json.dumps(spec(mr=25, nr=4)), "mr"),  # 25 + 1 + 7 A registers
    ]

    def test_bad_specs_exit_2_and_name_field(self):
        for text, field in self.BAD:
            with self.subTest(spec=text):
                rc, out, err = run_emitter(text)
                self.assertEqual(rc, 2, "exit code for %s (stderr %r)" % (text, err))
                lines = err.strip().splitlines()
                self.assertEqual(len(lines), 1, "stderr must be one line: %r" % err)
                self.assertIn(field, lines[0])
                obj = json.loads(out)
                self.assertEqual(list(obj.keys()), ["error"])
                self.assertIn(field, obj["error"])

    def test_bad_spec_function_format_and_spec_file(self):
        rc, out, err = run_emitter(json.dumps(spec(mr=8, nr=12, k_unroll=99)),
                                   "--format=function")
        self.assertEqual(rc, 2)
        self.assertIn("k_unroll", err)
        rc, out, err = run_emitter("", "--spec", "/nonexistent/spec.json")
        self.assertEqual(rc, 2)
        self.assertIn("spec", json.loads(out)["error"])
        rc, out, err = run_emitter(json.dumps(spec(mr=8, nr=12)), "--format=function",
                                   "--symbol", "no-dash")
        self.assertEqual(rc, 2)
        self.assertIn("symbol", err)

    def test_legal_edge_specs(self):
        for s, nvec in [(spec(mr=8, nr=12), 29), (spec(mr=12, nr=8), 29),
                        (spec(mr=6, nr=16), 30), (spec(mr=7, nr=12), 27),
                        (spec(mr=13, nr=8), 32), (spec(mr=1, nr=60), 31),
                        (spec(mr=24, nr=4), 31)]:
            with self.subTest(spec=s):
                self.assertEqual(emit_json(s)["vector_registers_used"], nvec)

    def test_help(self):
        rc, out, err = run_emitter("", "--help")
        self.assertEqual(rc, 0)
        for word in ("k_unroll", "broadcast", "prefetch_b", "m_rem", "n_rem", "ldc_bytes",
                     "--format", "--symbol", "fmla", "8x12"):
            self.assertIn(word, out)


class TestOutputContract(unittest.TestCase):
    def test_default_8x12(self):
        o = emit_json(spec(mr=8, nr=12))
        self.assertEqual(o["name"], "neon_f32_8x12_u4")
        self.assertEqual(o["isa"], "neon")
        self.assertEqual((o["mr"], o["nr"]), (8, 12))
        self.assertEqual(o["dialect"], "att")
        self.assertEqual(o["operands"], ["a_panel", "b_panel", "c", "kc", "ldc_bytes",
                                         "m_rem", "n_rem"])
        self.assertEqual(o["accumulators"], 24)
        self.assertEqual(o["flops_per_k"], 192)
        self.assertEqual(o["vector_registers_used"], 29)
        self.assertEqual(o["emitter"], "arm_gemm_neon.py")
        self.assertEqual(o["emitter_version"], 1)
        self.assertEqual(list(o.keys())[:14],
                         ["name", "isa", "mr", "nr", "dialect", "asm", "operands",
                          "constraints", "clobbers", "vector_registers_used", "accumulators",
                          "flops_per_k", "emitter", "emitter_version"])
        self.assertEqual(emit_json(spec(mr=8, nr=12, k_unroll=2, prefetch_b=6))["name"],
                         "neon_f32_8x12_u2_pf6")

    def test_determinism(self):
        for s in STATIC_SPECS[:5]:
            with self.subTest(spec=s):
                text = json.dumps(s)
                env1 = dict(os.environ, PYTHONHASHSEED="1")
                env2 = dict(os.environ, PYTHONHASHSEED="4242")
                self.assertEqual(run_emitter(text, env=env1), run_emitter(text, env=env2))
                fa = run_emitter(text, "--format=function", "--symbol", "f", env=env1)
                fb = run_emitter(text, "--format=function", "--symbol", "f", env=env2)
                self.assertEqual(fa, fb)
                with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                    f.write(text)
                try:
                    c = run_emitter("", "--spec", f.name, env=env1)
                finally:
                    os.unlink(f.name)
                self.assertEqual(run_emitter(text, env=env1), c)

    def check_static(self, s, o):
        asm = o["asm"]
        outs, ins, clob = common.parse_constraints(o["constraints"])
        self.assertEqual(outs, ["r"] * 7)
        self.assertEqual(ins, [str(i) for i in range(7)])
        self.assertEqual(clob, o["clobbers"] + ["memory"])
        self.assertEqual(len(set(clob)), len(clob), "duplicate clobbers")
        self.assertEqual(o["constraints"], common.llvm_constraints_for(7, o["clobbers"]))
        for c in o["clobbers"]:
            self.assertRegex(c, r"^(v([0-9]|[12][0-9]|3[01])|x(9|1[0-5])|nzcv)$")
        vclob = [c for c in o["clobbers"] if c.startswith("v")]
        self.assertEqual(len(vclob), o["vector_registers_used"])
        used = registers_in_asm(asm)
        self.assertEqual(used, set(o["clobbers"]), "registers named vs clobbered")
        for reg in ("x18", "x29", "x30", "x31", "sp", "fp", "lr"):
            self.assertNotIn(reg, used)
        code = "\n".join(line.split("//")[0] for line in asm.split("\n"))
        self.assertNotRegex(code, r"\b(sp|wsp|fp|lr|x18|w18|x29|w29|x30|w30)\b")
        expected = set(range(7)) if s["mr"] > 1 else {0, 1, 2, 3, 5, 6}
        self.assertEqual(common.referenced_operands(asm), expected)
        self.assertNotIn("$", re.sub(r"\$[0-9]+", "", asm))
        for line in asm.split("\n"):
            m = re.match(r"^\s*([^\s/:]+):", line)
            if m:
                self.assertRegex(m.group(1), r"^[0-9]+$", line)
            self.assertNotRegex(line, r"\.(globl|type|size|section|text|data)\b")
            self.assertNotRegex(line, r"^\s*#")  # comments are // on AArch64
        self.assertNotRegex(code, r"\b(ret|bl|blr|br|svc)\b")
        # 4-lane FMAs by element only
        fmla = re.findall(r"fmla (v[0-9]+)\.4s, (v[0-9]+)\.4s, (v[0-9]+)\.s\[([0-3])\]", asm)
        self.assertEqual(len(re.findall(r"\bfmla\b", asm)), len(fmla))
        self.assertEqual(len(fmla) % (s["mr"] * s["nr"] // 4), 0)

    def test_static_properties(self):
        for s in STATIC_SPECS:
            with self.subTest(spec=s):
                self.check_static(s, emit_json(s))

    def test_function_format(self):
        for s in STATIC_SPECS[:3] + [spec(mr=1, nr=4)]:
            with self.subTest(spec=s):
                o = emit_json(s)
                text = emit_function(s, "my_kernel")
                body = common.substitute_operands(o["asm"], FUNCTION_REGS)
                self.assertIn(body, text)
                self.assertIn("my_kernel:", text)
                self.assertRegex(text, r"\n\s*ret\n")
                callee = sorted({int(c[1:]) for c in o["clobbers"]
                                 if re.fullmatch(r"v([89]|1[0-5])", c)})
                saved = sorted(int(n) for pair in re.findall(r"stp d([0-9]+), d([0-9]+)", text)
                               for n in pair)
                restored = sorted(int(n) for pair in re.findall(r"ldp d([0-9]+), d([0-9]+)",
                                                                text) for n in pair)
                self.assertTrue(set(callee) <= set(saved), (callee, saved))
                self.assertEqual(saved, restored)
                self.assertTrue(all(8 <= d <= 15 for d in saved))
        s = dict(STATIC_SPECS[0], format="function", symbol="via_spec")
        rc, out, err = run_emitter(json.dumps(s))
        self.assertEqual(rc, 0, err)
        self.assertIn("via_spec:", out)


class TestHints(unittest.TestCase):
    def test_hints_file(self):
        h = cc.check_hints_schema(self, os.path.join(cc.HINTS_DIR, "arm-neon.json"),
                                  "arm-neon")
        self.assertEqual(h["vector"]["isa"], "neon")
        self.assertEqual(h["vector"]["bits"], 128)
        self.assertEqual(h["triple"], "aarch64-unknown-linux-gnu")
        a72 = [c for c in h["other_cpus"] if c["cpu"] == "cortex-a72"]
        self.assertEqual(len(a72), 1)
        self.assertTrue(a72[0]["source"])
        d = h["ukernel_default"]
        o = emit_json(spec(mr=d["mr"], nr=d["nr"], k_unroll=d["k_unroll"]))
        self.assertLessEqual(o["vector_registers_used"], h["vector"]["registers"])

    @unittest.skipIf(cc.LLVM_MC is None, "llvm-mc-22 not found")
    def test_default_kernel_assembles_for_hints_cpu(self):
        with open(os.path.join(cc.HINTS_DIR, "arm-neon.json")) as f:
            h = json.load(f)
        d = h["ukernel_default"]
        for cpu in [h["cpu"]] + [c["cpu"] for c in h["other_cpus"]]:
            o = emit_json(spec(mr=d["mr"], nr=d["nr"], prefetch_b=4))
            text = common.substitute_operands(o["asm"], FUNCTION_REGS)
            rc, err = cc.assemble(TARGET, text, ["-mcpu=" + cpu, "-mattr=" + h["features"]])
            self.assertEqual(rc, 0, err)


@unittest.skipIf(cc.LLVM_MC is None, "llvm-mc-22 not found: assembly checks skipped")
class TestAssembles(unittest.TestCase):
    def test_inline_bodies_assemble(self):
        for s in STATIC_SPECS:
            with self.subTest(spec=s):
                o = emit_json(s)
                text = common.substitute_operands(o["asm"], FUNCTION_REGS)
                rc, err = cc.assemble(TARGET, text)
                self.assertEqual(rc, 0, err)
                self.assertNotIn("warning", err)
                rc, err = cc.assemble(TARGET, text + "\n" + text)
                self.assertEqual(rc, 0, err)

    def test_function_files_assemble(self):
        for s in STATIC_SPECS:
            with self.subTest(spec=s):
                rc, err = cc.assemble(TARGET, emit_function(s))
                self.assertEqual(rc, 0, err)


@unittest.skipIf(cc.LLC is None, "llc-22 not found: LLVM IR inline-asm checks skipped")
class TestLLVMInlineAsm(unittest.TestCase):
    SPECS = [spec(mr=8, nr=12), spec(mr=7, nr=8, k_unroll=3, prefetch_b=4),
             spec(mr=1, nr=60), spec(mr=13, nr=8)]

    def test_clobbers_understood_by_llvm(self):
        """Each clobber name becomes a physical-register clobber in LLVM
        (v<N> -> q<N>, the whole register; unknown names would be dropped
        silently)."""
        for s in self.SPECS:
            with self.subTest(spec=s):
                o = emit_json(s)
                per_asm = cc.mir_clobbers(TARGET, cc.ir_module(o, cc.TARGETS[TARGET]
                                                              ["ir_features"]))
                self.assertEqual(len(per_asm), 2)
                want = [("q" + c[1:]) if c.startswith("v") else c for c in o["clobbers"]]
                for regs in per_asm:
                    self.assertEqual(regs, want)

    def test_ir_with_two_blocks_compiles(self):
        for s in self.SPECS:
            with self.subTest(spec=s):
                o = emit_json(s)
                rc, err = cc.llc_object(TARGET, cc.ir_module(o, cc.TARGETS[TARGET]
                                                             ["ir_features"]))
                self.assertEqual(rc, 0, err)


# --------------------------------------------------------------------------
# Numeric tests under qemu-aarch64
# --------------------------------------------------------------------------

KC_LIST = [0, 1, 2, 3, 5, 17, 64]

NUMERIC_SPECS = [
    spec(mr=8, nr=12),
    spec(mr=12, nr=8),
    spec(mr=6, nr=16),
    spec(mr=7, nr=8, k_unroll=3, prefetch_b=4),
    spec(mr=5, nr=20, k_unroll=1),
    spec(mr=1, nr=4),
    spec(mr=4, nr=16, k_unroll=16),
    spec(mr=1, nr=60, k_unroll=2),
    spec(mr=13, nr=8, k_unroll=5),
    spec(mr=3, nr=4, k_unroll=16, prefetch_b=1024),
    spec(mr=24, nr=4, k_unroll=16),
]


def n_list(nr):
    vals = {1, 2, 3, nr // 2, nr // 2 + 1, nr - 1, nr}
    if nr > 4:
        vals |= {4, 5, 6, 7}
    return sorted(v for v in vals if 1 <= v <= nr)


@unittest.skipIf(cc.cross_missing(TARGET) is not None,
                 "NEON numeric tests skipped: %s" % cc.cross_missing(TARGET))
class TestNumeric(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="arm_gemm_neon_test_")
        cls.builder = cc.Builder(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _job(self, i, s):
        exe = self.builder.build(TARGET, "k%d" % i, emit_function(s), ".s")
        return cc.run_check(cc.qemu_cmd(TARGET), exe, s["mr"], s["nr"], KC_LIST,
                            range(1, s["mr"] + 1), n_list(s["nr"]), seed=i + 1)

    def test_kernels_numeric(self):
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            results = list(ex.map(lambda js: (js[1], self._job(*js)),
                                  enumerate(NUMERIC_SPECS)))
        for s, (rc, out) in results:
            with self.subTest(spec=s):
                self.assertEqual(rc, 0, out)
                self.assertRegex(out, r"^OK [0-9]+")

    def test_inline_asm_through_llvm(self):
        """The JSON asm + constraints as LLVM IR inline asm (twice in one
        function, kc split in halves) compile and compute the right result."""
        for i, s in enumerate([spec(mr=8, nr=12), spec(mr=7, nr=8, k_unroll=3, prefetch_b=4),
                               spec(mr=13, nr=8)]):
            with self.subTest(spec=s):
                o = emit_json(s)
                exe = self.builder.build(TARGET, "ir%d" % i,
                                         cc.ir_module(o, cc.TARGETS[TARGET]["ir_features"]),
                                         ".ll")
                rc, out = cc.run_check(cc.qemu_cmd(TARGET), exe, s["mr"], s["nr"],
                                       [0, 1, 3, 9, 64], range(1, s["mr"] + 1),
                                       n_list(s["nr"]), seed=99, c_roundings=2)
                self.assertEqual(rc, 0, out)

    def test_harness_detects_broken_kernels(self):
        """Mutated kernels must be caught (the harness can fail)."""
        s = spec(mr=8, nr=12)
        good = emit_function(s)
        mutations = {
            "no_row_exit": lambda t: t.replace("b.eq 9f", "nop", 1),
            "remainder_once": lambda t: t.replace("b.ne 3b", "nop"),
            "no_c_load": lambda t: re.sub(r"fadd (v[0-9]+)\.4s, (v[0-9]+)\.4s, (v[0-9]+)\.4s",
                                          r"mov \1.16b, \2.16b", t, count=1),
            # edge path: a full 16-byte store for the last 2 columns
            "tail_store_q": lambda t: t.replace("str d", "str q", 1),
            # edge path: 1 column left is dropped
            "tail_bit0": lambda t: t.replace("tbz x10, #0", "tbz x10, #2"),
            # edge path: rows not shifted
            "no_row_shift": lambda t: re.sub(r"\n  mov v5\.16b, v16\.16b", "", t),
            "a_lane": lambda t: t.replace("v0.s[3]", "v0.s[2]", 1),
            "unroll_overrun": lambda t: t.replace("b.ge 1b", "b.ge 1b\n  b 1b", 1),
        }
        for name, mut in sorted(mutations.items()):
            with self.subTest(mutation=name):
                bad = mut(good)
                self.assertNotEqual(bad, good, "mutation %s did not apply" % name)
                exe = self.builder.build(TARGET, "mut_" + name, bad, ".s")
                rc, out = cc.run_check(cc.qemu_cmd(TARGET), exe, 8, 12, KC_LIST,
                                       range(1, 9), n_list(12))
                self.assertNotEqual(rc, 0, "broken kernel %s passed:\n%s" % (name, out))


if __name__ == "__main__":
    unittest.main()
