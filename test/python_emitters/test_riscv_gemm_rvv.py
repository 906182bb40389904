"""Tests for python_emitters/riscv_gemm_rvv.py (RISC-V RVV 1.0 fp32 GEMM).

Run from the repository root:
    python3 -m unittest discover -s test/python_emitters -v

Needs: python3; optional llvm-mc-22 / llc-22 (assembly and LLVM IR checks),
clang-22 with the riscv64 cross sysroot (gcc-riscv64-linux-gnu,
libc6-dev-riscv64-cross) and qemu-riscv64 (qemu-user) for the numeric checks,
which run every kernel at VLEN 128 and VLEN 256.  Missing tools skip the
affected tests with a message.
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

EMITTER = "riscv_gemm_rvv.py"
FUNCTION_REGS = ["a0", "a1", "a2", "a3", "a4", "a5", "a6"]
TARGET = "riscv64"


def spec(**kw):
    s = {"kernel": "gemm_f32", "isa": "rvv"}
    s.update(kw)
    return s


def run_emitter(stdin_text, *args, env=None):
    return cc.run_emitter(EMITTER, stdin_text, *args, env=env)


def emit_json(s):
    return cc.emit_json(EMITTER, s)


def emit_function(s, symbol="ukernel"):
    return cc.emit_function(EMITTER, s, symbol)


STATIC_SPECS = [
    spec(mr=6, nr=16),
    spec(mr=7, nr=16),
    spec(mr=14, nr=8),
    spec(mr=15, nr=8, k_unroll=3),
    spec(mr=1, nr=4, k_unroll=1),
    spec(mr=3, nr=5, k_unroll=2, prefetch_b=4),
    spec(mr=2, nr=32, k_unroll=16),
    spec(mr=3, nr=24, prefetch_b=8),
    spec(mr=31, nr=4, k_unroll=5),
    spec(mr=31, nr=4, k_unroll=16),  # body > 4 KiB: long-branch forms
    spec(mr=6, nr=32, vlen_min=256),
    spec(mr=14, nr=16, vlen_min=256, k_unroll=2),
    spec(mr=1, nr=512, vlen_min=2048, k_unroll=2, prefetch_b=2),  # 4*nr > 2047
]

# ABI names -> LLVM's architectural clobber names
GPR_NAMES = {"zero": "x0", "ra": "x1", "sp": "x2", "gp": "x3", "tp": "x4", "t0": "x5",
             "t1": "x6", "t2": "x7", "s0": "x8", "fp": "x8", "s1": "x9"}
for _i in range(8):
    GPR_NAMES["a%d" % _i] = "x%d" % (10 + _i)
for _i in range(2, 12):
    GPR_NAMES["s%d" % _i] = "x%d" % (16 + _i)
for _i in range(3, 7):
    GPR_NAMES["t%d" % _i] = "x%d" % (25 + _i)
FPR_NAMES = {}
for _i in range(8):
    FPR_NAMES["ft%d" % _i] = "f%d" % _i
    FPR_NAMES["fa%d" % _i] = "f%d" % (10 + _i)
for _i in range(4):
    FPR_NAMES["ft%d" % (8 + _i)] = "f%d" % (28 + _i)
FPR_NAMES["fs0"], FPR_NAMES["fs1"] = "f8", "f9"
for _i in range(2, 12):
    FPR_NAMES["fs%d" % _i] = "f%d" % (16 + _i)


def registers_in_asm(asm):
    """Architectural names of every register an asm body names (operands
    $N excluded), with vector register groups expanded by their LMUL."""
    regs = set()
    lmul = 1
    for line in asm.split("\n"):
        code = line.split("#")[0]
        m = re.search(r"\bvset[i]?vli\s+\w+,\s*\w+,\s*e32,\s*m([1248])", code)
        if m:
            lmul = int(m.group(1))
            regs |= {"vl", "vtype"}
        for tok in re.findall(r"(?<![\w$.])([a-z][a-z0-9]*)(?![\w.])", code.split(None, 1)[-1]
                              if code.strip() else ""):
            if tok in GPR_NAMES:
                regs.add(GPR_NAMES[tok])
            elif tok in FPR_NAMES:
                regs.add(FPR_NAMES[tok])
            elif re.fullmatch(r"v([0-9]|[12][0-9]|3[01])", tok):
                base = int(tok[1:])
                regs |= {"v%d" % (base + i) for i in range(lmul)}
            elif re.fullmatch(r"x([0-9]|[12][0-9]|3[01])|f([0-9]|[12][0-9]|3[01])", tok):
                regs.add(tok)
    return regs


class TestSpecValidation(unittest.TestCase):
    BAD = [
        ('{"kernel": "gemm_f32", "isa": "rvv", "mr": 6', "JSON"),
        ('[1, 2]', "object"),
        (json.dumps({"isa": "rvv", "mr": 6, "nr": 16}), "kernel"),
        (json.dumps({"kernel": "gemm_f32", "mr": 6, "nr": 16}), "isa"),
        (json.dumps(spec(nr=16)), "mr"),
        (json.dumps(spec(mr=6)), "nr"),
        (json.dumps(spec(mr=6, nr=16, kernel="gemm_f16")), "kernel"),
        (json.dumps(spec(mr=6, nr=16, isa="neon")), "isa"),
        (json.dumps(spec(mr=6, nr=16, isa="avx512")), "isa"),
        (json.dumps(spec(mr=0, nr=16)), "mr"),
        (json.dumps(spec(mr="6", nr=16)), "mr"),
        (json.dumps(spec(mr=6.0, nr=16)), "mr"),
        (json.dumps(spec(mr=True, nr=16)), "mr"),
        (json.dumps(spec(mr=6, nr=0)), "nr"),
        (json.dumps(spec(mr=1, nr=33)), "nr"),  # > VLMAX(m8) at VLEN 128
        (json.dumps(spec(mr=6, nr=16, k_unroll=0)), "k_unroll"),
        (json.dumps(spec(mr=6, nr=16, k_unroll=17)), "k_unroll"),
        (json.dumps(spec(mr=6, nr=16, k_unroll=None)), "k_unroll"),
        (json.dumps(spec(mr=6, nr=16, broadcast="embedded")), "broadcast"),
        (json.dumps(spec(mr=6, nr=16, prefetch_b=-1)), "prefetch_b"),
        (json.dumps(spec(mr=6, nr=16, prefetch_b=1025)), "prefetch_b"),
        (json.dumps(spec(mr=6, nr=16, vlen_min=64)), "vlen_min"),
        (json.dumps(spec(mr=6, nr=16, vlen_min=192)), "vlen_min"),
        (json.dumps(spec(mr=6, nr=16, vlen_min="128")), "vlen_min"),
        (json.dumps(spec(mr=6, nr=16, k_unrol=4)), "k_unrol"),
        (json.dumps(spec(mr=6, nr=16, format="elf")), "format"),
        # register budget: (8 + 1) * 4 = 36 > 32; (16 + 1) * 2 = 34; (32 + 1) * 1
        (json.dumps(spec(mr=8, nr=16)), "mr"),
        (json.dumps(spec(mr=16, nr=8)), "mr"),
        (json.dumps(spec(mr=32, nr=4)), "mr"),
        (json.dumps(spec(mr=4, nr=32)), "mr"),
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
        rc, out, err = run_emitter(json.dumps(spec(mr=1, nr=8, k_unroll=99)),
                                   "--format=function")
        self.assertEqual(rc, 2)
        self.assertIn("k_unroll", err)
        rc, out, err = run_emitter("", "--spec", "/nonexistent/spec.json")
        self.assertEqual(rc, 2)
        self.assertIn("spec", json.loads(out)["error"])
        rc, out, err = run_emitter("", "--format=pdf")
        self.assertEqual(rc, 2)
        self.assertIn("format", err)
        rc, out, err = run_emitter(json.dumps(spec(mr=1, nr=8)), "--format=function",
                                   "--symbol", "1bad name")
        self.assertEqual(rc, 2)
        self.assertIn("symbol", err)

    def test_legal_edge_specs(self):
        # (mr + 1) * LMUL == 32 exactly: single B buffer; (mr + 2) * LMUL: two
        for s, lmul, nbuf, nvec in [(spec(mr=7, nr=16), 4, 1, 32),
                                    (spec(mr=6, nr=16), 4, 2, 32),
                                    (spec(mr=15, nr=8), 2, 1, 32),
                                    (spec(mr=14, nr=8), 2, 2, 32),
                                    (spec(mr=31, nr=4), 1, 1, 32),
                                    (spec(mr=3, nr=32), 8, 1, 32),
                                    (spec(mr=5, nr=4), 1, 2, 7),
                                    (spec(mr=3, nr=5), 2, 2, 10),
                                    (spec(mr=6, nr=32, vlen_min=256), 4, 2, 32),
                                    (spec(mr=14, nr=16, vlen_min=256), 2, 2, 32)]:
            with self.subTest(spec=s):
                o = emit_json(s)
                self.assertEqual((o["lmul"], o["b_buffers"], o["vector_registers_used"]),
                                 (lmul, nbuf, nvec))

    def test_help(self):
        rc, out, err = run_emitter("", "--help")
        self.assertEqual(rc, 0)
        for word in ("k_unroll", "broadcast", "prefetch_b", "vlen_min", "m_rem", "n_rem",
                     "ldc_bytes", "LMUL", "--format", "--symbol", "vfmacc.vf"):
            self.assertIn(word, out)


class TestOutputContract(unittest.TestCase):
    def test_default_6x16(self):
        o = emit_json(spec(mr=6, nr=16))
        self.assertEqual(o["name"], "rvv_f32_6x16_u4_m4_vlen128")
        self.assertEqual(o["isa"], "rvv")
        self.assertEqual((o["mr"], o["nr"]), (6, 16))
        self.assertEqual(o["dialect"], "att")
        self.assertEqual(o["operands"], ["a_panel", "b_panel", "c", "kc", "ldc_bytes",
                                         "m_rem", "n_rem"])
        self.assertEqual(o["accumulators"], 6)
        self.assertEqual(o["flops_per_k"], 192)
        self.assertEqual(o["emitter"], "riscv_gemm_rvv.py")
        self.assertEqual(o["emitter_version"], 1)
        self.assertEqual(o["vector_registers_used"], 32)
        self.assertEqual((o["k_unroll"], o["broadcast"], o["prefetch_b"], o["vlen_min"]),
                         (4, "explicit", 0, 128))
        self.assertEqual(list(o.keys())[:14],
                         ["name", "isa", "mr", "nr", "dialect", "asm", "operands",
                          "constraints", "clobbers", "vector_registers_used", "accumulators",
                          "flops_per_k", "emitter", "emitter_version"])
        o2 = emit_json(spec(mr=6, nr=16, k_unroll=8, prefetch_b=8, vlen_min=256))
        self.assertEqual(o2["name"], "rvv_f32_6x16_u8_m2_vlen256_pf8")

    def test_determinism(self):
        for s in STATIC_SPECS[:4] + STATIC_SPECS[-3:]:
            with self.subTest(spec=s):
                text = json.dumps(s)
                env1 = dict(os.environ, PYTHONHASHSEED="1")
                env2 = dict(os.environ, PYTHONHASHSEED="12345")
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
            self.assertRegex(c, r"^(v([0-9]|[12][0-9]|3[01])|f([0-9]|[12][0-9]|3[01])|"
                                r"x(5|6|7|2[89]|3[01])|vl|vtype)$")
        vclob = [c for c in o["clobbers"] if re.fullmatch(r"v[0-9]+", c)]
        self.assertEqual(len(vclob), o["vector_registers_used"])
        self.assertIn("vl", o["clobbers"])
        self.assertIn("vtype", o["clobbers"])
        # every register the body names is clobbered; none is reserved
        used = registers_in_asm(asm) - {"x0"}  # "zero" is no register to save
        for reg in used:
            self.assertNotIn(reg, ("x1", "x2", "x3", "x4", "x8"),
                             "reserved register %s used" % reg)
            self.assertIn(reg, set(o["clobbers"]), "%s used but not clobbered" % reg)
        code = "\n".join(line.split("#")[0] for line in asm.split("\n"))
        self.assertNotRegex(code, r"\b(sp|ra|gp|tp|s0|fp|x1|x2|x3|x4|x8)\b")
        # operands $0..$6 ($4, ldc_bytes, unused when mr == 1)
        expected = set(range(7)) if s["mr"] > 1 else {0, 1, 2, 3, 5, 6}
        self.assertEqual(common.referenced_operands(asm), expected)
        self.assertNotIn("$", re.sub(r"\$[0-9]+", "", asm))
        for line in asm.split("\n"):
            m = re.match(r"^\s*([^\s#:]+):", line)
            if m:
                self.assertRegex(m.group(1), r"^[0-9]+$", line)
            self.assertNotRegex(line, r"\.(globl|type|size|section|text|data)\b")
        self.assertNotRegex(asm, r"\b(ret|call|jalr|jal|tail)\b")
        # VLEN agnosticism: every vsetvli asks for nr or n_rem at the LMUL
        # that holds nr at vlen_min
        lmul = o["lmul"]
        self.assertGreaterEqual(lmul * o["vlen_min"] // 32, s["nr"])
        self.assertTrue(lmul == 1 or (lmul // 2) * o["vlen_min"] // 32 < s["nr"])
        for m in re.finditer(r"vset(i?)vli\s+zero,\s*(\S+),\s*e32,\s*m([1248]),\s*ta,\s*ma", asm):
            self.assertEqual(int(m.group(3)), lmul)
            if m.group(1):
                self.assertEqual(int(m.group(2)), s["nr"])
            else:
                self.assertIn(m.group(2), ("$6", "t0"))
        self.assertEqual(len(re.findall(r"vset", asm)), 2)
        self.assertNotRegex(asm, r"vlenb|vsetvl\s")  # never reads VLEN

    def test_static_properties(self):
        for s in STATIC_SPECS:
            with self.subTest(spec=s):
                self.check_static(s, emit_json(s))

    def test_function_format(self):
        for s in STATIC_SPECS[:3] + [spec(mr=31, nr=4)]:
            with self.subTest(spec=s):
                o = emit_json(s)
                text = emit_function(s, "my_kernel")
                body = common.substitute_operands(o["asm"], FUNCTION_REGS)
                self.assertIn(body, text)
                self.assertIn("my_kernel:", text)
                self.assertRegex(text, r"\n\s*ret\n")
                saved = re.findall(r"fsd (fs[0-9]+)", text)
                restored = re.findall(r"fld (fs[0-9]+)", text)
                self.assertEqual(saved, restored)
                used_fs = sorted({r for r in re.findall(r"\bfs[0-9]+\b", body)})
                self.assertEqual(sorted(saved), used_fs)
        s = dict(STATIC_SPECS[0], format="function", symbol="via_spec")
        rc, out, err = run_emitter(json.dumps(s))
        self.assertEqual(rc, 0, err)
        self.assertIn("via_spec:", out)


class TestCommonHelpers(unittest.TestCase):
    def test_constraints_for(self):
        self.assertEqual(common.llvm_constraints_for(2, ["v0", "vl"]),
                         "=r,=r,0,1,~{v0},~{vl},~{memory}")
        with self.assertRaises(ValueError):
            common.llvm_constraints_for(1, ["v0", "v0"])

    def test_comment_writer_and_pow2(self):
        w = common.CommentAsmWriter(comment_prefix="//")
        w.comment("hello")
        w.ins("nop")
        self.assertEqual(w.text(), "  // hello\n  nop")
        with self.assertRaises(ValueError):
            w.comment("costs $5")
        self.assertEqual(common.get_pow2({"v": 256}, "v"), 256)
        with self.assertRaises(common.SpecError):
            common.get_pow2({"v": 96}, "v")
        with self.assertRaises(common.SpecError):
            common.check_symbol("9x")


class TestHints(unittest.TestCase):
    def test_hints_file(self):
        h = cc.check_hints_schema(self, os.path.join(cc.HINTS_DIR, "riscv-rvv.json"),
                                  "riscv-rvv")
        self.assertEqual(h["vector"]["isa"], "rvv")
        self.assertEqual(h["triple"], "riscv64-unknown-linux-gnu")
        # the code must not assume VLEN > 128
        self.assertIn("-zvl256b", h["features"])
        self.assertEqual(h["vector"]["bits"], 128)
        d = h["ukernel_default"]
        o = emit_json(spec(mr=d["mr"], nr=d["nr"], k_unroll=d["k_unroll"],
                           vlen_min=d["vlen_min"]))
        self.assertEqual(o["vlen_min"], 128)

    @unittest.skipIf(cc.LLVM_MC is None, "llvm-mc-22 not found")
    def test_default_kernel_assembles_for_hints_cpu(self):
        # what lib/Emitters/AsmChecker.cpp does with the hints' cpu/features
        with open(os.path.join(cc.HINTS_DIR, "riscv-rvv.json")) as f:
            h = json.load(f)
        d = h["ukernel_default"]
        o = emit_json(spec(mr=d["mr"], nr=d["nr"], prefetch_b=4))
        text = common.substitute_operands(o["asm"], FUNCTION_REGS)
        rc, err = cc.assemble(TARGET, text, ["-mcpu=" + h["cpu"], "-mattr=" + h["features"]])
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

    def test_prefetch_hint_is_zicbop_prefetch_r(self):
        # "ori zero, rs1, off|1" is the encoding of prefetch.r off(rs1)
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "p.s")
            with open(src, "w") as f:
                f.write("prefetch.r 64(t2)\nori zero, t2, 65\n")
            p = cc.subprocess.run([cc.LLVM_MC, "-triple=riscv64", "-mattr=+zicbop",
                                   "-show-encoding", src], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        enc = re.findall(r"encoding: (\[[^\]]*\])", p.stdout)
        self.assertEqual(len(enc), 2)
        self.assertEqual(enc[0], enc[1])


@unittest.skipIf(cc.LLC is None, "llc-22 not found: LLVM IR inline-asm checks skipped")
class TestLLVMInlineAsm(unittest.TestCase):
    SPECS = [spec(mr=6, nr=16), spec(mr=15, nr=8, k_unroll=3), spec(mr=31, nr=4),
             spec(mr=3, nr=5, prefetch_b=2), spec(mr=31, nr=4, k_unroll=16)]

    def test_clobbers_understood_by_llvm(self):
        """Each clobber name becomes a physical-register clobber in LLVM
        (unknown names would be dropped silently)."""
        for s in self.SPECS:
            with self.subTest(spec=s):
                o = emit_json(s)
                per_asm = cc.mir_clobbers(TARGET, cc.ir_module(o, cc.TARGETS[TARGET]
                                                              ["ir_features"]))
                self.assertEqual(len(per_asm), 2)
                for regs in per_asm:
                    want = []
                    for c in o["clobbers"]:
                        m = re.fullmatch(r"f([0-9]+)", c)
                        want.append("f%s_d" % m.group(1) if m else c)
                    self.assertEqual(regs, want)

    def test_ir_with_two_blocks_compiles(self):
        for s in self.SPECS:
            with self.subTest(spec=s):
                o = emit_json(s)
                rc, err = cc.llc_object(TARGET, cc.ir_module(o, cc.TARGETS[TARGET]
                                                             ["ir_features"]))
                self.assertEqual(rc, 0, err)


# --------------------------------------------------------------------------
# Numeric tests under qemu-riscv64 at VLEN 128 and 256
# --------------------------------------------------------------------------

KC_LIST = [0, 1, 2, 3, 5, 17, 64]

NUMERIC_SPECS = [
    spec(mr=6, nr=16),
    spec(mr=7, nr=16),
    spec(mr=14, nr=8),
    spec(mr=15, nr=8, k_unroll=3),
    spec(mr=1, nr=4, k_unroll=1),
    spec(mr=3, nr=5, k_unroll=2, prefetch_b=4),
    spec(mr=2, nr=32, k_unroll=16),
    spec(mr=3, nr=24, prefetch_b=8),
    spec(mr=31, nr=4, k_unroll=5),
    spec(mr=31, nr=4, k_unroll=16),
    spec(mr=6, nr=32, vlen_min=256),
    spec(mr=14, nr=16, vlen_min=256, k_unroll=2),
]


def vlens(s):
    return [v for v in (128, 256) if v >= s.get("vlen_min", 128)]


def n_list(nr):
    return sorted(v for v in {1, 2, 3, nr // 2, nr // 2 + 1, nr - 1, nr} if 1 <= v <= nr)


@unittest.skipIf(cc.cross_missing(TARGET) is not None,
                 "RVV numeric tests skipped: %s" % cc.cross_missing(TARGET))
class TestNumeric(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="riscv_gemm_rvv_test_")
        cls.builder = cc.Builder(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _job(self, i, s):
        exe = self.builder.build(TARGET, "k%d" % i, emit_function(s), ".s")
        results = []
        for vlen in vlens(s):
            rc, out = cc.run_check(cc.qemu_cmd(TARGET, vlen), exe, s["mr"], s["nr"], KC_LIST,
                                   range(1, s["mr"] + 1), n_list(s["nr"]), seed=i + 1)
            results.append((vlen, rc, out))
        return results

    def test_kernels_numeric(self):
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            results = list(ex.map(lambda js: (js[1], self._job(*js)),
                                  enumerate(NUMERIC_SPECS)))
        for s, runs in results:
            for vlen, rc, out in runs:
                with self.subTest(spec=s, vlen=vlen):
                    self.assertEqual(rc, 0, out)
                    self.assertRegex(out, r"^OK [0-9]+")

    def test_inline_asm_through_llvm(self):
        """The JSON asm + constraints as LLVM IR inline asm (twice in one
        function, kc split in halves) compile and compute the right result."""
        for i, s in enumerate([spec(mr=6, nr=16), spec(mr=15, nr=8, k_unroll=3),
                               spec(mr=31, nr=4, prefetch_b=2)]):
            with self.subTest(spec=s):
                o = emit_json(s)
                exe = self.builder.build(TARGET, "ir%d" % i,
                                         cc.ir_module(o, cc.TARGETS[TARGET]["ir_features"]),
                                         ".ll")
                for vlen in (128, 256):
                    rc, out = cc.run_check(cc.qemu_cmd(TARGET, vlen), exe, s["mr"], s["nr"],
                                           [0, 1, 3, 9, 64], range(1, s["mr"] + 1),
                                           n_list(s["nr"]), seed=99, c_roundings=2)
                    self.assertEqual(rc, 0, "VLEN %d: %s" % (vlen, out))

    def test_harness_detects_broken_kernels(self):
        """Mutated kernels must be caught (the harness can fail)."""
        s = spec(mr=6, nr=16)
        good = emit_function(s)
        mutations = {
            # early row exit removed: rows >= m_rem are written
            "no_row_exit": lambda t: t.replace("beqz a5, 9f", "nop", 1),
            # remainder loop runs once at most
            "remainder_once": lambda t: t.replace("bnez a3, 3b", "nop"),
            # no accumulation onto C
            "no_c_load": lambda t: re.sub(r"vfadd\.vv (v[0-9]+), (v[0-9]+), (v[0-9]+)",
                                          r"vmv.v.v \1, \2", t, count=1),
            # C update with vl = nr instead of n_rem: writes past the tile
            "vl_nr": lambda t: t.replace("vsetvli zero, a6,", "vsetivli zero, 16,"),
            # wrong A advance in the unrolled loop
            "a_stride": lambda t: re.sub(r"addi a0, a0, ([0-9]+)\n",
                                         lambda m: "addi a0, a0, %d\n" % (int(m.group(1)) - 4),
                                         t, count=2),
            # B double buffer swapped: a k step uses a stale B row
            "stale_b": lambda t: t.replace("vfmacc.vf v20, ft5, v28",
                                           "vfmacc.vf v20, ft5, v24", 1),
        }
        for name, mut in sorted(mutations.items()):
            with self.subTest(mutation=name):
                bad = mut(good)
                self.assertNotEqual(bad, good, "mutation %s did not apply" % name)
                exe = self.builder.build(TARGET, "mut_" + name, bad, ".s")
                rc, out = cc.run_check(cc.qemu_cmd(TARGET, 128), exe, 6, 16, KC_LIST,
                                       range(1, 7), n_list(16))
                self.assertNotEqual(rc, 0, "broken kernel %s passed:\n%s" % (name, out))

    def test_vlen256_kernel_needs_vlen256(self):
        """Sanity check of the VLEN dependence: a vlen_min 256 kernel is wrong
        at VLEN 128 (vl is capped at VLMAX), so the VLEN 128 runs above test
        something."""
        s = spec(mr=6, nr=32, vlen_min=256)
        exe = self.builder.build(TARGET, "v256", emit_function(s), ".s")
        rc, out = cc.run_check(cc.qemu_cmd(TARGET, 128), exe, 6, 32, [5], [6], [32])
        self.assertNotEqual(rc, 0, out)


if __name__ == "__main__":
    unittest.main()
