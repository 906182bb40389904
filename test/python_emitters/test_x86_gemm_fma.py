"""Tests for python_emitters/x86_gemm_fma.py and python_emitters/tensorop_emit.

Run from the repository root:
    python3 -m unittest discover -s test/python_emitters -v

Needs: python3; optional llvm-mc-22 (assembly checks), clang-22 or gcc
(numeric checks with ukernel_harness.c).  Missing tools or CPU features skip
the affected tests with a message.
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
EMITTER = os.path.join(EMITTER_DIR, "x86_gemm_fma.py")
HARNESS = os.path.join(HERE, "ukernel_harness.c")
BPANEL_HARNESS = os.path.join(HERE, "bpanel_harness.c")

sys.path.insert(0, EMITTER_DIR)
from tensorop_emit import common  # noqa: E402
import cross_common as cc  # noqa: E402

FUNCTION_REGS = ["%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9", "%r10"]
AVX512_ATTRS = "+avx512f,+avx512bw,+avx512vl,+avx512dq,+bmi2"
AVX2_ATTRS = "+avx2,+fma,+bmi2"


def which(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


LLVM_MC = which("llvm-mc-22", "/usr/lib/llvm-22/bin/llvm-mc")
CLANG = which("clang-22", "/usr/lib/llvm-22/bin/clang")
CC = CLANG or which("gcc", "cc")


def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


FLAGS = cpu_flags()
HAVE_AVX512 = {"avx512f", "avx512bw", "bmi2"} <= FLAGS
HAVE_AVX2 = {"avx2", "fma", "bmi2"} <= FLAGS


def spec(**kw):
    s = {"kernel": "gemm_f32"}
    s.update(kw)
    return s


def run_emitter(stdin_text, *args, env=None):
    p = subprocess.run([sys.executable, EMITTER] + list(args), input=stdin_text,
                       capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def emit_json(s):
    rc, out, err = run_emitter(json.dumps(s))
    if rc != 0:
        raise AssertionError("emitter failed for %s: %s" % (s, err))
    return json.loads(out)


def emit_function(s, symbol="ukernel"):
    rc, out, err = run_emitter(json.dumps(s), "--format=function", "--symbol", symbol)
    if rc != 0:
        raise AssertionError("emitter failed for %s: %s" % (s, err))
    return out


# A broad set of legal specs for the static checks.
STATIC_SPECS = [
    spec(isa="avx512", mr=6, nr=64),
    spec(isa="avx512", mr=6, nr=64, broadcast="embedded"),
    spec(isa="avx512", mr=6, nr=64, k_unroll=1, prefetch_b=8),
    spec(isa="avx512", mr=14, nr=32, k_unroll=3),
    spec(isa="avx512", mr=8, nr=48, k_unroll=8, prefetch_b=8),
    spec(isa="avx512", mr=28, nr=16, broadcast="embedded"),
    spec(isa="avx512", mr=1, nr=16),
    spec(isa="avx512", mr=3, nr=112, k_unroll=16),
    spec(isa="avx512", mr=2, nr=160, broadcast="embedded"),
    spec(isa="avx512", mr=1, nr=240, prefetch_b=4),
    spec(isa="avx2", mr=6, nr=16),
    spec(isa="avx2", mr=4, nr=24, k_unroll=3, prefetch_b=8),
    spec(isa="avx2", mr=1, nr=8, k_unroll=8),
    spec(isa="avx2", mr=1, nr=56),
    spec(isa="avx512", mr=6, nr=64, b_stride_bytes=4000),
    spec(isa="avx512", mr=3, nr=112, k_unroll=2, prefetch_b=4, b_stride_bytes=16),
    spec(isa="avx2", mr=6, nr=16, b_stride_bytes=400),
    spec(isa="avx2", mr=1, nr=40, k_unroll=3, b_stride_bytes=4000),
    spec(isa="avx512", mr=6, nr=64, a_stride_bytes=4000),
    spec(isa="avx512", mr=28, nr=16, broadcast="embedded", a_stride_bytes=1 << 24),
    spec(isa="avx512", mr=8, nr=48, prefetch_b=8, a_stride_bytes=400, b_stride_bytes=4000),
    spec(isa="avx2", mr=6, nr=16, k_unroll=3, a_stride_bytes=1028),
    spec(isa="avx2", mr=3, nr=24, a_stride_bytes=64, b_stride_bytes=400),
    spec(isa="avx512", mr=30, nr=16, a_stride_operand=1, b_stride_bytes=400),
    spec(isa="avx512", mr=6, nr=64, a_stride_operand=1, epilogue=["bias_n", "relu"]),
    spec(isa="avx2", mr=6, nr=16, a_stride_operand=1),
    spec(isa="avx512", mr=6, nr=64, a_stride_operand=1, b_stride_operand=1,
         epilogue=["bias_n", "relu"]),
    spec(isa="avx2", mr=3, nr=24, b_stride_operand=1, prefetch_b_cols=48),
]


def inline_regs(o):
    """Registers for an inline body's operands: the function's seven, then
    callee-saved ones for the operands past them."""
    return FUNCTION_REGS + ["%rbx", "%r12", "%r13"][:len(o["operands"]) - len(FUNCTION_REGS)]


def vector_reg_index(name):
    m = re.fullmatch(r"[xyz]mm([0-9]+)", name)
    return int(m.group(1)) if m else None


GPR32_TO_64 = {"eax": "rax", "ebx": "rbx", "ecx": "rcx", "edx": "rdx", "esi": "rsi",
               "edi": "rdi", "ebp": "rbp", "esp": "rsp"}


def registers_in_asm(asm):
    regs = set()
    for m in re.finditer(r"%([a-z][a-z0-9]*)", asm):
        regs.add(m.group(1))
    return regs


class TestSpecValidation(unittest.TestCase):
    BAD = [
        # (stdin text, field that the message must name)
        ('{"kernel": "gemm_f32", "isa": "avx512", "mr": 6', "JSON"),
        ('[1, 2]', "object"),
        (json.dumps({"isa": "avx512", "mr": 6, "nr": 64}), "kernel"),
        (json.dumps(spec(mr=6, nr=64)), "isa"),
        (json.dumps(spec(isa="avx512", nr=64)), "mr"),
        (json.dumps(spec(isa="avx512", mr=6)), "nr"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, kernel="gemm_f16")), "kernel"),
        (json.dumps(spec(isa="sse4", mr=6, nr=64)), "isa"),
        (json.dumps(spec(isa="avx512", mr=0, nr=64)), "mr"),
        (json.dumps(spec(isa="avx512", mr="6", nr=64)), "mr"),
        (json.dumps(spec(isa="avx512", mr=6.0, nr=64)), "mr"),
        (json.dumps(spec(isa="avx512", mr=True, nr=64)), "mr"),
        (json.dumps(spec(isa="avx512", mr=6, nr=60)), "nr"),
        (json.dumps(spec(isa="avx512", mr=6, nr=0)), "nr"),
        (json.dumps(spec(isa="avx2", mr=6, nr=12)), "nr"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, k_unroll=0)), "k_unroll"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, k_unroll=17)), "k_unroll"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, k_unroll=None)), "k_unroll"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, broadcast="implicit")), "broadcast"),
        (json.dumps(spec(isa="avx2", mr=6, nr=16, broadcast="embedded")), "broadcast"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_b=-1)), "prefetch_b"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_b="8")), "prefetch_b"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, k_unrol=4)), "k_unrol"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, format="elf")), "format"),
        # register budget: 7*4 + 4 + 1 = 33 > 32; 7*2 + 2 + 1 = 17 > 16
        (json.dumps(spec(isa="avx512", mr=7, nr=64)), "mr"),
        (json.dumps(spec(isa="avx512", mr=2, nr=176)), "mr"),
        (json.dumps(spec(isa="avx2", mr=7, nr=16)), "mr"),
        (json.dumps(spec(isa="avx512", mr=32, nr=16, broadcast="embedded")), "mr"),
        # unpacked B: stride in bytes, a multiple of 4, AVX-512 only, nv <= 7
        (json.dumps(spec(isa="avx512", mr=6, nr=64, b_stride_bytes=-4)), "b_stride_bytes"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, b_stride_bytes=6)), "b_stride_bytes"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, b_stride_bytes="400")),
         "b_stride_bytes"),
        # avx2: one more register (the B mask): 4*3 + 3 + 1 + 1 = 17 > 16
        (json.dumps(spec(isa="avx2", mr=4, nr=24, b_stride_bytes=400)), "mr"),
        (json.dumps(spec(isa="avx2", mr=1, nr=64, b_stride_bytes=400)), "b_stride_bytes"),
        (json.dumps(spec(isa="avx512", mr=1, nr=128, b_stride_bytes=400)),
         "b_stride_bytes"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_b=1024,
                         b_stride_bytes=1 << 24)), "prefetch_b"),
        # unpacked A: stride in bytes, a multiple of 4, rows within disp32
        # a run-time A stride: f32 only, not with a compiled-in one, no taps
        (json.dumps(spec(isa="avx512", mr=6, nr=64, a_stride_operand=2)), "a_stride_operand"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, a_stride_operand=1,
                         a_stride_bytes=400)), "a_stride_operand"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, a_stride_operand=1, taps=2,
                         tap_a_bytes=64)), "a_stride_operand"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, a_stride_operand=1,
                         kernel="gemm_bf16")), "a_stride_operand"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, b_stride_operand=1,
                         b_stride_bytes=400)), "b_stride_operand"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, b_stride_operand=1,
                         prefetch_b=8)), "b_stride_operand"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, b_stride_operand=1,
                         store_b_panel=1)), "b_stride_operand"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, a_stride_bytes=-4)), "a_stride_bytes"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, a_stride_bytes=10)), "a_stride_bytes"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, a_stride_bytes=(1 << 24) + 4)),
         "a_stride_bytes"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, a_stride_bytes=[400])),
         "a_stride_bytes"),
        (json.dumps(spec(isa="avx512", mr=200, nr=16, a_stride_bytes=1 << 24)),
         "a_stride_bytes"),
        # row prefetches: only along rows read in place, in range, and
        # prefetch_b_cols not with prefetch_b
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_b_cols=64)), "prefetch_b_cols"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_a=64)), "prefetch_a"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_b_cols=64, prefetch_b=8,
                         b_stride_bytes=400)), "prefetch_b_cols"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_a=(1 << 16) + 1,
                         a_stride_bytes=400)), "prefetch_a"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_b_cols=-1,
                         b_stride_bytes=400)), "prefetch_b_cols"),
        # the column prefetch's phases: phase < period <= 16
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_b_cols=64,
                         b_stride_bytes=400, prefetch_b_cols_period=2,
                         prefetch_b_cols_phase=2)), "prefetch_b_cols_phase"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, prefetch_b_cols=64,
                         b_stride_bytes=400, prefetch_b_cols_period=17)),
         "prefetch_b_cols_period"),
        # a ymm last vector: 512 or 256, AVX-512 fp32 only
        (json.dumps(spec(isa="avx512", mr=6, nr=64, last_vector_bits=384)),
         "last_vector_bits"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, last_vector_bits=128)),
         "last_vector_bits"),
        (json.dumps(spec(isa="avx2", mr=6, nr=16, last_vector_bits=256)),
         "last_vector_bits"),
        (json.dumps(spec(isa="avx512", mr=6, nr=64, kernel="gemm_bf16",
                         last_vector_bits=256)), "last_vector_bits"),
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
        rc, out, err = run_emitter(json.dumps(spec(isa="avx2", mr=1, nr=8, k_unroll=99)),
                                   "--format=function")
        self.assertEqual(rc, 2)
        self.assertIn("k_unroll", err)
        rc, out, err = run_emitter("", "--spec", "/nonexistent/spec.json")
        self.assertEqual(rc, 2)
        self.assertIn("spec", json.loads(out)["error"])
        rc, out, err = run_emitter("", "--format=pdf")
        self.assertEqual(rc, 2)
        self.assertIn("format", err)
        rc, out, err = run_emitter(json.dumps(spec(isa="avx2", mr=1, nr=8)),
                                   "--format=function", "--symbol", "1bad name")
        self.assertEqual(rc, 2)
        self.assertIn("symbol", err)

    def test_legal_edge_specs(self):
        # 28*1 + 1 = 29 (embedded); 6*2 + 2 + 1 = 15 (avx2, room for a 2nd broadcast)
        o = emit_json(spec(isa="avx512", mr=28, nr=16, broadcast="embedded"))
        self.assertEqual(o["vector_registers_used"], 29)
        o = emit_json(spec(isa="avx2", mr=6, nr=16))
        self.assertEqual(o["vector_registers_used"], 16)
        o = emit_json(spec(isa="avx512", mr=30, nr=16, broadcast="explicit"))
        self.assertEqual(o["vector_registers_used"], 32)

    def test_help(self):
        rc, out, err = run_emitter("", "--help")
        self.assertEqual(rc, 0)
        for word in ("k_unroll", "broadcast", "prefetch_b", "embedded", "m_rem",
                     "n_rem", "ldc_bytes", "--format", "--symbol", "$$"):
            self.assertIn(word, out)


class TestLateCPrefetch(unittest.TestCase):
    """C's tile is prefetched again near the end of the unrolled K loop,
    once (%rax holds C until then), m_rem rows of it, with write intent in
    the store form (which prefetches nothing at the start)."""

    def test_add_and_store_forms(self):
        lines = 6 * 5  # 6 rows x (4 lines + the tile's last byte)
        add = emit_json(spec(isa="avx512", mr=6, nr=64))["asm"]
        self.assertEqual(add.count("prefetcht0"), 2 * lines)
        self.assertNotIn("prefetchw", add)
        self.assertEqual(add.count("cmovg $2, %rax"), 1)
        self.assertIn("cmp $$68, $3", add)  # 64 steps + one unrolled iteration
        self.assertIn("cmp $$64, $3", add)
        # rows past m_rem are not prefetched: a row check before rows 1..5
        self.assertEqual(len(re.findall(r"cmp \$\$[1-5], \$5\n\s*jle 13f", add)), 5)
        store = emit_json(spec(isa="avx512", mr=6, nr=64, c_update="store"))["asm"]
        self.assertEqual(store.count("prefetchw"), lines)
        self.assertNotIn("prefetcht0", store)

    def test_not_where_rax_is_taken_or_no_loop(self):
        # %rax walks A's rows (a_stride_operand) or counts the taps there
        for s in (spec(isa="avx512", mr=6, nr=64, k_unroll=1),
                  spec(isa="avx512", mr=4, nr=32, a_stride_operand=1),
                  spec(isa="avx512", mr=6, nr=64, taps=3, tap_a_bytes=256,
                       a_stride_bytes=1024)):
            asm = emit_json(s)["asm"]
            self.assertNotIn("cmovg", asm)
            self.assertNotIn("13:", asm)


class TestOutputContract(unittest.TestCase):
    def test_default_6x64(self):
        o = emit_json(spec(isa="avx512", mr=6, nr=64))
        self.assertEqual(o["name"], "x86_avx512_f32_6x64_u4_explicit")
        self.assertEqual(o["isa"], "avx512")
        self.assertEqual((o["mr"], o["nr"]), (6, 64))
        self.assertEqual(o["dialect"], "att")
        self.assertEqual(o["operands"], ["a_panel", "b_panel", "c", "kc", "ldc_bytes",
                                         "m_rem", "n_rem"])
        self.assertEqual(o["accumulators"], 24)
        self.assertEqual(o["flops_per_k"], 768)
        self.assertEqual(o["emitter"], "x86_gemm_fma.py")
        self.assertEqual(o["emitter_version"], 5)
        self.assertEqual(o["b_stride_bytes"], 0)
        self.assertEqual(o["a_stride_bytes"], 0)
        # 24 accumulators + 4 B vectors + 2 alternating broadcast registers
        self.assertEqual(o["vector_registers_used"], 30)
        keys = list(o.keys())
        self.assertEqual(keys[:14], ["name", "isa", "mr", "nr", "dialect", "asm", "operands",
                                     "constraints", "clobbers", "vector_registers_used",
                                     "accumulators", "flops_per_k", "emitter",
                                     "emitter_version"])
        o2 = emit_json(spec(isa="avx512", mr=6, nr=64, broadcast="embedded", k_unroll=8,
                            prefetch_b=8))
        self.assertEqual(o2["name"], "x86_avx512_f32_6x64_u8_embedded_pf8")
        self.assertEqual(o2["vector_registers_used"], 28)
        o3 = emit_json(spec(isa="avx512", mr=6, nr=64, b_stride_bytes=4000))
        self.assertEqual(o3["name"], "x86_avx512_f32_6x64_u4_explicit_ldb4000")
        self.assertEqual(o3["b_stride_bytes"], 4000)
        # an unpacked kernel's B loads: a full tile's K loop plain loads
        # only; the edge loop of partial vector p masks (and zeroes) vector
        # p alone and reads no vector past it (4 unrolled + 1 remainder
        # steps per loop)
        bloads = re.findall(r"vmovups [^,]*\(\$1\), [^\n]*", o3["asm"])
        masked = [l for l in bloads if re.search(r"\{%k[1-4]\} \{z\}$", l)]
        self.assertEqual(len(bloads) - len(masked), 4 * 5 + (0 + 1 + 2 + 3) * 5)
        for p in range(4):
            self.assertEqual(sum(l.endswith("{%%k%d} {z}" % (p + 1)) for l in masked), 5)
        self.assertEqual(len(masked), 4 * 5)
        self.assertIn("add $$16000, $1", o3["asm"])
        self.assertIn("add $$4000, $1", o3["asm"])
        # unpacked A: row r of A is at r * a_stride_bytes, k advances 4 bytes;
        # no GPR beyond the packed kernel's, no vector register more
        o4 = emit_json(spec(isa="avx512", mr=6, nr=64, a_stride_bytes=4000))
        o0 = emit_json(spec(isa="avx512", mr=6, nr=64))
        self.assertEqual(o4["name"], "x86_avx512_f32_6x64_u4_explicit_lda4000")
        self.assertEqual(o4["a_stride_bytes"], 4000)
        self.assertEqual(o4["clobbers"], o0["clobbers"])
        self.assertEqual(o4["vector_registers_used"], o0["vector_registers_used"])
        bcasts = re.findall(r"vbroadcastss (-?[0-9]*)\(\$0\)", o4["asm"])
        offsets = sorted({int(x or 0) for x in bcasts})
        self.assertEqual(offsets, sorted(r * 4000 + 4 * u for r in range(6) for u in range(4)))
        self.assertIn("add $$16, $0", o4["asm"])
        self.assertIn("add $$4, $0", o4["asm"])
        # one K loop per m_rem: the full tile's (6 rows) and those of the M
        # edges, of 1..5 rows, each reading only its rows
        loops = o4["asm"].split("\n10")[1:]
        self.assertEqual(sorted(int(l.split(":")[0]) for l in loops), [1, 2, 3, 4, 5, 6])
        for l in loops:
            rows = int(l.split(":")[0])
            used = {int(x or 0) // 4000 for x in re.findall(r"vbroadcastss (-?[0-9]*)\(\$0\)", l)}
            self.assertEqual(used, set(range(rows)), "loop of %d rows" % rows)

    def test_batch_matches_single_runs(self):
        # --batch (the advisor sweeps): one JSON line per spec, each answer
        # the bytes a single run prints; a refused spec is an error line and
        # the specs after it are still answered.
        specs = STATIC_SPECS[:3] + [dict(STATIC_SPECS[0], mr=99)] + STATIC_SPECS[3:5]
        rc, out, _ = run_emitter(
            "".join(json.dumps(s) + "\n" for s in specs) + "\n", "--batch")
        self.assertEqual(rc, 0)
        lines = out.splitlines()
        self.assertEqual(len(lines), len(specs))
        for s, line in zip(specs, lines):
            answer = json.loads(line)
            if s.get("mr") == 99:
                self.assertIn("mr", answer["error"])
                continue
            rc, single, _ = run_emitter(json.dumps(s))
            self.assertEqual(rc, 0)
            self.assertEqual(answer["answer"], single)

    def test_determinism(self):
        for s in STATIC_SPECS[:6] + STATIC_SPECS[10:12]:
            with self.subTest(spec=s):
                text = json.dumps(s)
                env1 = dict(os.environ, PYTHONHASHSEED="1")
                env2 = dict(os.environ, PYTHONHASHSEED="12345")
                a = run_emitter(text, env=env1)
                b = run_emitter(text, env=env2)
                self.assertEqual(a, b)
                fa = run_emitter(text, "--format=function", "--symbol", "f", env=env1)
                fb = run_emitter(text, "--format=function", "--symbol", "f", env=env2)
                self.assertEqual(fa, fb)
                # --spec FILE gives the same bytes as stdin
                with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                    f.write(text)
                try:
                    c = run_emitter("", "--spec", f.name, env=env1)
                finally:
                    os.unlink(f.name)
                self.assertEqual(a, c)

    def check_static(self, s, o):
        asm = o["asm"]
        isa = s["isa"]
        outs, ins, clob = common.parse_constraints(o["constraints"])
        # the seven, then the epilogue block and/or A's run-time stride
        n = len(o["operands"])
        self.assertEqual(o["operands"][:7], list(common.UKERNEL_OPERANDS))
        self.assertEqual(o["operands"][7:],
                         (["epilogue"] if s.get("epilogue") else []) +
                         (["lda_bytes"] if s.get("a_stride_operand") else []) +
                         (["ldb_bytes"] if s.get("b_stride_operand") else []))
        self.assertEqual(outs, ["r"] * n)
        self.assertEqual(ins, [str(i) for i in range(n)])
        self.assertEqual(clob, o["clobbers"] + ["memory", "dirflag", "fpsr", "flags"])
        self.assertEqual(len(set(clob)), len(clob), "duplicate clobbers")
        self.assertEqual(o["constraints"],
                         common.llvm_constraints(n, o["clobbers"]))
        for c in o["clobbers"]:
            self.assertRegex(c, r"^(zmm([0-9]|[12][0-9]|3[01])|ymm([0-9]|1[0-5])|k[1-7]|"
                                r"r[a-z0-9]+)$")
            self.assertNotIn(c, ("rsp", "rbp", "rbx", "r10"))
            if isa == "avx2":
                self.assertFalse(c.startswith("zmm") or re.fullmatch(r"k[0-7]", c), c)
            else:
                self.assertFalse(c.startswith("ymm"), c)
        vclob = [c for c in o["clobbers"] if c[0] in "yz"]
        self.assertEqual(len(vclob), o["vector_registers_used"])
        # every register touched is clobbered (operands are $N, never named)
        clobset = set(o["clobbers"])
        vprefix = "zmm" if isa == "avx512" else "ymm"
        for reg in registers_in_asm(asm):
            idx = vector_reg_index(reg)
            if idx is not None:
                self.assertIn("%s%d" % (vprefix, idx), clobset, reg)
            elif re.fullmatch(r"k[0-7]", reg):
                self.assertIn(reg, clobset)
                self.assertNotEqual(reg, "k0")
            else:
                self.assertIn(GPR32_TO_64.get(reg, reg), clobset, reg)
        # operands: $0..$6 (ldc_bytes is not needed when mr == 1) and every
        # one past them, '$' only as $N or $$
        expected = set(range(n)) if s["mr"] > 1 else {0, 1, 2, 3, 5, 6} | set(range(7, n))
        self.assertEqual(common.referenced_operands(asm), expected)
        stripped = re.sub(r"\$\$|\$[0-9]+", "", asm)
        self.assertNotIn("$", stripped)
        # numeric local labels only; no named symbols defined
        for line in asm.split("\n"):
            m = re.match(r"^\s*([^\s#:]+):", line)
            if m:
                self.assertRegex(m.group(1), r"^[0-9]+$", line)
            self.assertNotRegex(line, r"\.(globl|type|size|section|text|data)\b")
        # no vzeroupper / ret inside the inline-asm body
        self.assertNotRegex(asm, r"\b(ret|vzeroupper|call|push|pop)\b")
        if isa == "avx2":
            self.assertNotRegex(asm, r"zmm|\{1to|%k[0-7]")

    def test_static_properties(self):
        for s in STATIC_SPECS:
            with self.subTest(spec=s):
                self.check_static(s, emit_json(s))

    def test_function_format(self):
        for s in STATIC_SPECS[:3] + STATIC_SPECS[10:11]:
            with self.subTest(spec=s):
                o = emit_json(s)
                text = emit_function(s, "my_kernel")
                body = common.substitute_operands(o["asm"], FUNCTION_REGS)
                self.assertIn(body, text)
                self.assertIn("my_kernel:", text)
                self.assertIn("movq 8(%rsp), %r10", text)
                self.assertRegex(text, r"vzeroupper\n\s*ret")
                self.assertNotIn("r10", " ".join(o["clobbers"]))
        # spec fields instead of flags
        s = dict(STATIC_SPECS[0], format="function", symbol="via_spec")
        rc, out, err = run_emitter(json.dumps(s))
        self.assertEqual(rc, 0, err)
        self.assertIn("via_spec:", out)

    def test_prefetch_b_cols_phases_share_the_prefetches(self):
        """Phase p of period P prefetches in the unrolled k steps u with
        u mod P = p only; the P phases together issue exactly the
        unsplit kernel's column prefetches (their displacements)."""
        base = dict(isa="avx512", mr=13, nr=32, b_stride_bytes=4 * 4787,
                    a_stride_bytes=4 * 2850, prefetch_b_cols=64)

        def prefetches(o):
            return sorted(re.findall(r"prefetcht0 (-?[0-9]*)\(\$1\)", o["asm"]))

        whole = prefetches(emit_json(spec(**base)))
        self.assertTrue(whole)
        for period in (2, 3, 4):
            with self.subTest(period=period):
                parts = [prefetches(emit_json(spec(prefetch_b_cols_period=period,
                                                   prefetch_b_cols_phase=p, **base)))
                         for p in range(period)]
                self.assertTrue(all(parts))
                self.assertEqual(sorted(sum(parts, [])), whole)
                names = {emit_json(spec(prefetch_b_cols_period=period,
                                        prefetch_b_cols_phase=p, **base))["name"]
                         for p in range(period)}
                self.assertEqual(len(names), period)


class TestCommon(unittest.TestCase):
    def test_substitute(self):
        self.assertEqual(common.substitute_operands("mov $$-1, $1 # $0 ${2}", ["A", "B", "C"]),
                         "mov $-1, B # A C")
        self.assertEqual(common.substitute_operands("$$$1$$", ["x", "y"]), "$y$")
        with self.assertRaises(ValueError):
            common.substitute_operands("mov $7, %rax", ["a"])
        with self.assertRaises(ValueError):
            common.substitute_operands("mov $x, %rax", ["a"])
        self.assertEqual(common.referenced_operands("$$1 $2 ${3} $$"), {2, 3})

    def test_constraints(self):
        self.assertEqual(common.llvm_constraints(2, ["zmm0", "rax"]),
                         "=r,=r,0,1,~{zmm0},~{rax},~{memory},~{dirflag},~{fpsr},~{flags}")
        with self.assertRaises(ValueError):
            common.llvm_constraints(1, ["rax", "rax"])

    def test_ir_escape(self):
        self.assertEqual(common.llvm_ir_asm_string('a\n"b\\'), "a\\0A\\22b\\5C")

    def test_operand_contract_matches_cpp(self):
        # The inline-asm operand contract exists once per language: the C++
        # header the lowering and the checker use, and common.py's
        # UKERNEL_OPERANDS that every CPU emitter uses. They must agree.
        header = os.path.join(ROOT, "include", "tensorop", "Emitters", "UKernelOperands.h")
        with open(header) as f:
            text = f.read()
        names = re.search(r"kUKernelOperandNames\[\] = \{(.*?)\};", text, re.S)
        self.assertIsNotNone(names, "kUKernelOperandNames not found in " + header)
        self.assertEqual(tuple(re.findall(r'"(\w+)"', names.group(1))), common.UKERNEL_OPERANDS)
        self.assertEqual(common.ukernel_operand_refs(),
                         tuple("$%d" % i for i in range(len(common.UKERNEL_OPERANDS))))
        for emitter in ("x86_gemm_fma", "riscv_gemm_rvv", "arm_gemm_neon"):
            with open(os.path.join(EMITTER_DIR, emitter + ".py")) as f:
                self.assertIn("OPERANDS = list(UKERNEL_OPERANDS)", f.read(), emitter)


@unittest.skipIf(LLVM_MC is None, "llvm-mc-22 not found: assembly checks skipped")
class TestAssembles(unittest.TestCase):
    def assemble(self, text, attrs):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "k.s")
            with open(src, "w") as f:
                f.write(text + "\n")
            p = subprocess.run([LLVM_MC, "-triple=x86_64", "-mattr=" + attrs,
                                "-filetype=obj", "-o", os.path.join(tmp, "k.o"), src],
                               capture_output=True, text=True)
            return p.returncode, p.stderr

    def test_inline_bodies_assemble(self):
        for s in STATIC_SPECS:
            with self.subTest(spec=s):
                o = emit_json(s)
                text = common.substitute_operands(o["asm"], inline_regs(o))
                attrs = AVX512_ATTRS if s["isa"] == "avx512" else AVX2_ATTRS
                rc, err = self.assemble(text, attrs)
                self.assertEqual(rc, 0, err)
                self.assertNotIn("warning", err)
                # the body twice in one file: numeric labels must not collide
                rc, err = self.assemble(text + "\n" + text, attrs)
                self.assertEqual(rc, 0, err)

    def test_function_files_assemble(self):
        for s in STATIC_SPECS:
            with self.subTest(spec=s):
                attrs = AVX512_ATTRS if s["isa"] == "avx512" else AVX2_ATTRS
                rc, err = self.assemble(emit_function(s), attrs)
                self.assertEqual(rc, 0, err)

    def test_avx2_kernels_use_no_evex(self):
        # llvm-mc does not reject instructions outside -mattr, so check the
        # encodings: an avx2 kernel must contain no EVEX (0x62-prefixed)
        # instruction; an avx512 kernel does (sanity check of the check).
        for s in STATIC_SPECS:
            with self.subTest(spec=s):
                o = emit_json(s)
                text = common.substitute_operands(o["asm"], inline_regs(o))
                with tempfile.TemporaryDirectory() as tmp:
                    src = os.path.join(tmp, "k.s")
                    with open(src, "w") as f:
                        f.write(text + "\n")
                    p = subprocess.run([LLVM_MC, "-triple=x86_64", "-mattr=" + AVX512_ATTRS,
                                        "-show-encoding", src], capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                evex = [l for l in p.stdout.splitlines() if "encoding: [0x62," in l]
                if s["isa"] == "avx2":
                    self.assertEqual(evex, [])
                else:
                    self.assertTrue(evex)


# --------------------------------------------------------------------------
# Numeric tests
# --------------------------------------------------------------------------

KC_LIST = [0, 1, 2, 3, 5, 17, 64, 257]

NUMERIC_SPECS = [
    spec(isa="avx512", mr=6, nr=64),
    spec(isa="avx512", mr=6, nr=64, broadcast="embedded"),
    spec(isa="avx512", mr=6, nr=64, k_unroll=1, prefetch_b=8),
    spec(isa="avx512", mr=14, nr=32, k_unroll=3),
    spec(isa="avx512", mr=8, nr=48, k_unroll=8, prefetch_b=8),
    spec(isa="avx512", mr=28, nr=16, broadcast="embedded"),
    spec(isa="avx512", mr=1, nr=16),
    spec(isa="avx512", mr=3, nr=112, k_unroll=16),
    spec(isa="avx512", mr=2, nr=160, broadcast="embedded", k_unroll=3),
    spec(isa="avx2", mr=6, nr=16),
    spec(isa="avx2", mr=4, nr=24, k_unroll=3, prefetch_b=8),
    spec(isa="avx2", mr=1, nr=8, k_unroll=8),
    spec(isa="avx2", mr=2, nr=40, k_unroll=1),
]


# Unpacked B (b_stride_bytes = 4 * ldb) with the row length in floats: ldb
# below nr (a B matrix narrower than the tile), between, and far above.
UNPACKED_SPECS = [
    (spec(isa="avx512", mr=6, nr=64, b_stride_bytes=4 * 131), 131),
    (spec(isa="avx512", mr=6, nr=64, b_stride_bytes=4 * 37), 37),
    (spec(isa="avx512", mr=6, nr=64, b_stride_bytes=4 * 5, k_unroll=1), 5),
    (spec(isa="avx512", mr=6, nr=64, broadcast="embedded", prefetch_b=8,
          b_stride_bytes=4 * 1000), 1000),
    (spec(isa="avx512", mr=8, nr=48, k_unroll=3, b_stride_bytes=4 * 48), 48),
    (spec(isa="avx512", mr=2, nr=112, k_unroll=8, b_stride_bytes=4 * 300), 300),
    (spec(isa="avx512", mr=1, nr=16, b_stride_bytes=4 * 17), 17),
    (spec(isa="avx2", mr=6, nr=16, b_stride_bytes=4 * 131), 131),
    (spec(isa="avx2", mr=6, nr=16, k_unroll=3, b_stride_bytes=4 * 5), 5),
    (spec(isa="avx2", mr=3, nr=24, prefetch_b=8, b_stride_bytes=4 * 37), 37),
    (spec(isa="avx2", mr=1, nr=56, k_unroll=1, b_stride_bytes=4 * 1000), 1000),
    (spec(isa="avx2", mr=2, nr=8, b_stride_bytes=4 * 8), 8),
]


# Unpacked A (a_stride_bytes = 4 * lda), alone and with unpacked B (ldb, 0
# for packed B): lda below some kc of KC_LIST (those cases are skipped: a
# matrix has lda >= K), exactly kc, and far above; every register block
# shape class (embedded and explicit broadcasts, one or two broadcast
# registers, accumulator sets of small tiles, the AVX2 B mask).
UNPACKED_A_SPECS = [
    (spec(isa="avx512", mr=6, nr=64, a_stride_bytes=4 * 300), 300, 0),
    (spec(isa="avx512", mr=6, nr=64, k_unroll=1, a_stride_bytes=4 * 17), 17, 0),
    (spec(isa="avx512", mr=14, nr=32, k_unroll=3, broadcast="embedded",
          a_stride_bytes=4 * 257), 257, 0),
    (spec(isa="avx512", mr=28, nr=16, a_stride_bytes=4 * 1000), 1000, 0),
    (spec(isa="avx512", mr=2, nr=16, k_unroll=8, a_stride_bytes=4 * 64), 64, 0),
    (spec(isa="avx512", mr=1, nr=16, a_stride_bytes=4 * 5), 5, 0),
    (spec(isa="avx512", mr=6, nr=64, prefetch_b=8, a_stride_bytes=4 * 300,
          b_stride_bytes=4 * 131), 300, 131),
    (spec(isa="avx512", mr=8, nr=48, broadcast="embedded", a_stride_bytes=4 * 257,
          b_stride_bytes=4 * 37), 257, 37),
    # the skinny sketches' row prefetches (B's row ahead, A's rows ahead)
    (spec(isa="avx512", mr=8, nr=48, prefetch_b_cols=96, a_stride_bytes=4 * 300,
          b_stride_bytes=4 * 131), 300, 131),
    (spec(isa="avx512", mr=1, nr=112, prefetch_b_cols=224, a_stride_bytes=4 * 64,
          b_stride_bytes=4 * 113), 64, 113),
    # blocks of three vectors, K not unrolled (the few-rows sketch's choice)
    (spec(isa="avx512", mr=8, nr=48, k_unroll=1, prefetch_b_cols=96,
          a_stride_bytes=4 * 300, b_stride_bytes=4 * 131), 300, 131),
    (spec(isa="avx512", mr=9, nr=48, k_unroll=1, prefetch_b_cols=96,
          a_stride_bytes=4 * 257, b_stride_bytes=4 * 53), 257, 53),
    (spec(isa="avx512", mr=12, nr=16, broadcast="embedded", prefetch_a=128,
          a_stride_bytes=4 * 257, b_stride_bytes=4 * 13), 257, 13),
    # the whole register file: 28 accumulators and 4 B vectors, no
    # broadcast register (the dialect's verifier allows 7 x 64 embedded)
    (spec(isa="avx512", mr=7, nr=64, broadcast="embedded", a_stride_bytes=4 * 101,
          b_stride_bytes=4 * 67), 101, 67),
    (spec(isa="avx2", mr=4, nr=16, k_unroll=3, prefetch_a=64, prefetch_b_cols=32,
          a_stride_bytes=4 * 300, b_stride_bytes=4 * 37), 300, 37),
    (spec(isa="avx2", mr=6, nr=16, a_stride_bytes=4 * 300), 300, 0),
    (spec(isa="avx2", mr=4, nr=24, k_unroll=3, prefetch_b=8, a_stride_bytes=4 * 64), 64, 0),
    (spec(isa="avx2", mr=1, nr=8, k_unroll=8, a_stride_bytes=4 * 3), 3, 0),
    (spec(isa="avx2", mr=6, nr=16, a_stride_bytes=4 * 257, b_stride_bytes=4 * 131), 257, 131),
    (spec(isa="avx2", mr=3, nr=24, k_unroll=3, a_stride_bytes=4 * 300,
          b_stride_bytes=4 * 13), 300, 13),
]


# A's rows in place at a run-time stride (a_stride_operand: the eighth
# argument): each kernel is checked at two strides, so one with a stride
# compiled in fails one of them; every row group count (up to 30 rows:
# seven group steps), both broadcast forms, B packed and in place, "store".
RUNTIME_LDA_SPECS = [
    spec(isa="avx512", mr=6, nr=64, a_stride_operand=1),
    spec(isa="avx512", mr=14, nr=32, k_unroll=3, broadcast="embedded", a_stride_operand=1),
    spec(isa="avx512", mr=30, nr=16, a_stride_operand=1, b_stride_bytes=4 * 13,
         c_update="store"),
    spec(isa="avx512", mr=4, nr=16, k_unroll=8, a_stride_operand=1),
    spec(isa="avx512", mr=1, nr=16, a_stride_operand=1),
    spec(isa="avx512", mr=8, nr=48, k_unroll=1, prefetch_b_cols=96, a_stride_operand=1,
         b_stride_bytes=4 * 131),
    spec(isa="avx512", mr=12, nr=16, broadcast="embedded", prefetch_a=128,
         a_stride_operand=1, b_stride_bytes=4 * 13),
    spec(isa="avx2", mr=6, nr=16, a_stride_operand=1),
    spec(isa="avx2", mr=5, nr=16, a_stride_operand=1, b_stride_bytes=4 * 37),
    # B's row stride at run time too, or alone (unrolled and not, the
    # few-rows block's column prefetch, AVX2's B mask, "store")
    spec(isa="avx512", mr=6, nr=64, a_stride_operand=1, b_stride_operand=1),
    spec(isa="avx512", mr=8, nr=48, k_unroll=1, prefetch_b_cols=96, a_stride_operand=1,
         b_stride_operand=1, c_update="store"),
    spec(isa="avx512", mr=14, nr=32, k_unroll=3, broadcast="embedded", b_stride_operand=1),
    spec(isa="avx2", mr=6, nr=16, a_stride_operand=1, b_stride_operand=1),
    spec(isa="avx2", mr=3, nr=24, k_unroll=3, b_stride_operand=1),
]


def m_list(mr):
    if mr <= 8:
        return list(range(1, mr + 1))
    return sorted({1, 2, mr // 2, mr - 1, mr})


def n_list(nr, lanes):
    vals = {1, nr // 2 + 3 if nr // 2 + 3 < nr else nr // 2, nr - 1, nr}
    if nr > lanes:
        vals |= {lanes, lanes + 1}
    if nr > 64:
        vals |= {64, 65}
    return sorted(v for v in vals if 1 <= v <= nr)


def cpu_ok(isa):
    return HAVE_AVX512 if isa == "avx512" else HAVE_AVX2


def build(tmp, tag, kernel_src, kernel_ext, cflags=()):
    src = os.path.join(tmp, tag + kernel_ext)
    with open(src, "w") as f:
        f.write(kernel_src)
    exe = os.path.join(tmp, tag)
    cmd = [CC, "-O2", "-w"] + list(cflags) + [HARNESS, src, "-o", exe, "-lm"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError("build failed: %s\n%s" % (" ".join(cmd), p.stderr))
    return exe


def run_check(exe, mr, nr, kcs, ms, ns, seed=1, c_roundings=1, ldb=0, lda=0, store=False):
    args = [exe, "check", str(mr), str(nr), ",".join(map(str, kcs)),
            ",".join(map(str, ms)), ",".join(map(str, ns)), str(seed), str(c_roundings),
            str(ldb), str(lda)]
    env = dict(os.environ, UKERNEL_STORE="1" if store else "0")
    p = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env)
    return p.returncode, p.stdout + p.stderr


def x86_features(s):
    """LLVM target features of the spec's ISA, for cross_common.ir_module."""
    return ("+avx512f,+avx512bw,+avx512vl,+avx512dq,+bmi2,+avx2,+fma"
            if s["isa"] == "avx512" else "+avx2,+fma,+bmi2")


@unittest.skipIf(CC is None, "no C compiler (clang-22/gcc): numeric tests skipped")
class TestNumeric(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="x86_gemm_fma_test_")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _job(self, i, s):
        tag = "k%d" % i
        exe = build(self.tmp, tag, emit_function(s), ".s")
        lanes = 16 if s["isa"] == "avx512" else 8
        rc, out = run_check(exe, s["mr"], s["nr"], KC_LIST, m_list(s["mr"]),
                            n_list(s["nr"], lanes), seed=i + 1)
        return rc, out

    def test_kernels_numeric(self):
        jobs = []
        skipped = []
        for i, s in enumerate(NUMERIC_SPECS):
            if cpu_ok(s["isa"]):
                jobs.append((i, s))
            else:
                skipped.append(s)
        if not jobs:
            self.skipTest("CPU lacks avx512f/avx512bw and avx2/fma (see /proc/cpuinfo)")
        workers = max(1, min(len(jobs), os.cpu_count() or 1))
        with concurrent.futures.ThreadPoolExecutor(workers) as ex:
            results = list(ex.map(lambda js: (js[1], self._job(*js)), jobs))
        for s, (rc, out) in results:
            with self.subTest(spec=s):
                self.assertEqual(rc, 0, out)
                self.assertRegex(out, r"^OK [0-9]+")
        if skipped:
            sys.stderr.write("\nnote: CPU lacks features for %d specs, not run: %s\n"
                             % (len(skipped), skipped))

    def test_unpacked_b_numeric(self):
        """Kernels reading B in place: right results, and no read past the
        last element of B (it ends at a PROT_NONE page) on N edges."""
        ran = 0
        for i, (s, ldb) in enumerate(UNPACKED_SPECS):
            if not cpu_ok(s["isa"]):
                continue
            ran += 1
            with self.subTest(spec=s):
                exe = build(self.tmp, "u%d" % i, emit_function(s), ".s")
                lanes = 16 if s["isa"] == "avx512" else 8
                ns = sorted(set(n_list(s["nr"], lanes)) | {min(ldb, s["nr"])})
                rc, out = run_check(exe, s["mr"], s["nr"], KC_LIST, m_list(s["mr"]), ns,
                                    seed=50 + i, ldb=ldb)
                self.assertEqual(rc, 0, out)
                self.assertRegex(out, r"^OK [0-9]+")
        if not ran:
            self.skipTest("CPU lacks avx512 and avx2")

    def test_unpacked_b_overread_is_caught(self):
        """The harness faults on an unmasked B load at the N edge."""
        cases = [
            (spec(isa="avx512", mr=6, nr=64, b_stride_bytes=4 * 37), 37,
             lambda t: re.sub(r"(vmovups [^,\n]*\(%rsi\), %zmm[0-9]+) \{%k[0-9]\} \{z\}",
                              r"\1", t)),
            (spec(isa="avx2", mr=6, nr=16, b_stride_bytes=4 * 13), 13,
             lambda t: re.sub(r"vmaskmovps ([^,\n]*\(%rsi\)), %ymm[0-9]+, (%ymm[0-9]+)",
                              r"vmovups \1, \2", t)),
        ]
        for s, ldb, mutate in cases:
            if not cpu_ok(s["isa"]):
                continue
            with self.subTest(spec=s):
                good = emit_function(s)
                bad = mutate(good)
                self.assertNotEqual(bad, good)
                exe = build(self.tmp, "u_unmasked_" + s["isa"], bad, ".s")
                rc, out = run_check(exe, s["mr"], s["nr"], [1, 5], [s["mr"]], [ldb], ldb=ldb)
                self.assertEqual(rc, 3, out)
                self.assertIn("FAULT", out)

    def test_unpacked_a_numeric(self):
        """Kernels reading A in place (alone and with B in place): right
        results, and no read of a row past m_rem (A ends at a PROT_NONE page
        right after A[m_rem-1][kc-1])."""
        jobs = [(i, s, lda, ldb) for i, (s, lda, ldb) in enumerate(UNPACKED_A_SPECS)
                if cpu_ok(s["isa"])]
        if not jobs:
            self.skipTest("CPU lacks avx512 and avx2")

        def job(i, s, lda, ldb):
            exe = build(self.tmp, "ua%d" % i, emit_function(s), ".s")
            lanes = 16 if s["isa"] == "avx512" else 8
            ns = n_list(s["nr"], lanes)
            if ldb:
                ns = sorted(set(ns) | {min(ldb, s["nr"])})
            # every m_rem: each has its own K loop
            return run_check(exe, s["mr"], s["nr"], KC_LIST, list(range(1, s["mr"] + 1)),
                             ns, seed=70 + i, ldb=ldb, lda=lda)

        workers = max(1, min(len(jobs), os.cpu_count() or 1))
        with concurrent.futures.ThreadPoolExecutor(workers) as ex:
            results = list(ex.map(lambda j: (j[1], job(*j)), jobs))
        for s, (rc, out) in results:
            with self.subTest(spec=s):
                self.assertEqual(rc, 0, out)
                self.assertRegex(out, r"^OK [0-9]+")

    def test_runtime_lda_numeric(self):
        """Kernels taking A's (B's) row stride as an operand: right results
        at two strides from one build (A 17 and 300 floats, B 83 and 1000),
        no read of a row past m_rem or a column past n_rem."""
        jobs = [(i, s) for i, s in enumerate(RUNTIME_LDA_SPECS) if cpu_ok(s["isa"])]
        if not jobs:
            self.skipTest("CPU lacks avx512 and avx2")

        def job(i, s):
            flags = (["-DUKERNEL_LDA_OPERAND"] if s.get("a_stride_operand") else []) + \
                (["-DUKERNEL_LDB_OPERAND"] if s.get("b_stride_operand") else [])
            exe = build(self.tmp, "rl%d" % i, emit_function(s), ".s", cflags=flags)
            lanes = 16 if s["isa"] == "avx512" else 8
            out = []
            # (the harness's LDA 0: A packed, as the kernel then reads it)
            for lda, ldb in ((17, 83), (300, 1000)):
                lda = lda if s.get("a_stride_operand") else 0
                ldb = s.get("b_stride_bytes", 0) // 4 or (
                    ldb if s.get("b_stride_operand") else 0)
                ns = n_list(s["nr"], lanes)
                if ldb:
                    ns = sorted(set(ns) | {min(ldb, s["nr"])})
                out.append(run_check(exe, s["mr"], s["nr"], KC_LIST, m_list(s["mr"]), ns,
                                     seed=90 + i, ldb=ldb, lda=lda,
                                     store=s.get("c_update") == "store"))
            return out

        workers = max(1, min(len(jobs), os.cpu_count() or 1))
        with concurrent.futures.ThreadPoolExecutor(workers) as ex:
            results = list(ex.map(lambda j: (j[1], job(*j)), jobs))
        for s, runs in results:
            for rc, out in runs:
                with self.subTest(spec=s):
                    self.assertEqual(rc, 0, out)
                    self.assertRegex(out, r"^OK [0-9]+")

    def test_runtime_lda_ignored_is_caught(self):
        """A kernel that ignores the stride operand (rows 4 bytes apart, as
        if packed) fails the check."""
        s = spec(isa="avx512", mr=6, nr=64, a_stride_operand=1)
        if not cpu_ok(s["isa"]):
            self.skipTest("CPU lacks avx512")
        good = emit_function(s)
        bad = good.replace("  lea (%rbx,%rbx,2), %r11\n",
                           "  lea (%rbx,%rbx,2), %r11\n  mov $4, %rbx\n  mov $12, %r11\n")
        self.assertNotEqual(bad, good)
        exe = build(self.tmp, "rl_ignored", bad, ".s", cflags=["-DUKERNEL_LDA_OPERAND"])
        rc, out = run_check(exe, 6, 64, [5], [6], [64], lda=40)
        self.assertNotEqual(rc, 0, out)

    def test_unpacked_a_overread_is_caught(self):
        """The harness faults when an M edge reads the rows of a full tile."""
        for s in [spec(isa="avx512", mr=6, nr=64, a_stride_bytes=4 * 40),
                  spec(isa="avx2", mr=6, nr=16, a_stride_bytes=4 * 40)]:
            if not cpu_ok(s["isa"]):
                continue
            with self.subTest(spec=s):
                good = emit_function(s)
                # the M-edge dispatch skipped: every tile runs the 6-row loop
                bad = good.replace("cmp $6, %r9\n  je 106f", "jmp 106f", 1)
                self.assertNotEqual(bad, good)
                exe = build(self.tmp, "ua_overread_" + s["isa"], bad, ".s")
                rc, out = run_check(exe, s["mr"], s["nr"], [1, 5], [5], [s["nr"]], lda=40)
                self.assertEqual(rc, 3, out)
                self.assertIn("FAULT", out)
                # the same kernel is right on full tiles
                rc, out = run_check(exe, s["mr"], s["nr"], [1, 5], [6], [s["nr"]], lda=40)
                self.assertEqual(rc, 0, out)

    def test_store_numeric(self):
        """c_update "store" kernels (C = A*B): right results from a C tile
        that starts as NaN (never read), zeros for kc = 0, every m_rem and
        n_rem, packed and in-place operands; an accumulating kernel run the
        same way is caught."""
        cases = [
            (spec(isa="avx512", mr=6, nr=64, c_update="store"), 0, 0),
            (spec(isa="avx512", mr=2, nr=16, c_update="store"), 0, 0),
            (spec(isa="avx512", mr=5, nr=64, c_update="store",
                  a_stride_bytes=4 * 37, b_stride_bytes=4 * 71), 37, 71),
            (spec(isa="avx512", mr=16, nr=16, broadcast="embedded", c_update="store",
                  a_stride_bytes=4 * 19, b_stride_bytes=4 * 23), 19, 23),
            # the few-columns block of the builtin advisor where A's rows do
            # not share L1 sets (SkinnyGemm.cpp fewColumnsRows): 30 rows, the
            # most the registers hold, no prefetch, N = 11 of B in place
            (spec(isa="avx512", mr=30, nr=16, broadcast="embedded", c_update="store",
                  a_stride_bytes=4 * 1001, b_stride_bytes=4 * 11), 1001, 11),
            (spec(isa="avx2", mr=4, nr=16, c_update="store"), 0, 0),
            (spec(isa="avx2", mr=3, nr=16, c_update="store",
                  a_stride_bytes=4 * 29, b_stride_bytes=4 * 13), 29, 13),
        ]
        ran = 0
        for i, (s, lda, ldb) in enumerate(cases):
            if not cpu_ok(s["isa"]):
                continue
            ran += 1
            with self.subTest(spec=s):
                exe = build(self.tmp, "st%d" % i, emit_function(s), ".s")
                lanes = 16 if s["isa"] == "avx512" else 8
                ns = n_list(s["nr"], lanes)
                if ldb:
                    ns = sorted(set(ns) | {min(ldb, s["nr"])})
                rc, out = run_check(exe, s["mr"], s["nr"], KC_LIST,
                                    list(range(1, s["mr"] + 1)), ns, seed=90 + i,
                                    ldb=ldb, lda=lda, store=True)
                self.assertEqual(rc, 0, out)
                self.assertRegex(out, r"^OK [0-9]+")
                # The accumulating kernel reads the NaN tile: caught.
                add = dict(s)
                del add["c_update"]
                exe = build(self.tmp, "st_add%d" % i, emit_function(add), ".s")
                n = min(ldb, s["nr"]) if ldb else s["nr"]
                rc, out = run_check(exe, s["mr"], s["nr"], [3], [s["mr"]], [n],
                                    ldb=ldb, lda=lda, store=True)
                self.assertNotEqual(rc, 0, out)
                self.assertIn("FAIL", out)
        if not ran:
            self.skipTest("CPU lacks avx512 and avx2")

    def test_narrow_last_vector_numeric(self):
        """last_vector_bits 256 (an N tail of 16v + 1..8 columns): the last
        vector's FMAs are ymm, every n_rem up to nr - 8 is right, for
        explicit and embedded broadcasts, accumulator sets, B and A in
        place, "store", every m_rem; and a kernel whose ymm vector is the
        wrong one is caught."""
        cases = [
            (spec(isa="avx512", mr=5, nr=48, last_vector_bits=256,
                  a_stride_bytes=4 * 100, b_stride_bytes=4 * 100), 100, 100),
            (spec(isa="avx512", mr=13, nr=32, last_vector_bits=256,
                  a_stride_bytes=4 * 71, b_stride_bytes=4 * 53), 71, 53),
            (spec(isa="avx512", mr=6, nr=16, broadcast="embedded", last_vector_bits=256,
                  a_stride_bytes=4 * 81, b_stride_bytes=4 * 83), 81, 83),
            (spec(isa="avx512", mr=1, nr=32, k_unroll=4, last_vector_bits=256,
                  b_stride_bytes=4 * 39), 0, 39),
            (spec(isa="avx512", mr=6, nr=64, last_vector_bits=256, c_update="store",
                  a_stride_bytes=4 * 96, b_stride_bytes=4 * 120), 96, 120),
            (spec(isa="avx512", mr=4, nr=64, last_vector_bits=256), 0, 0),
        ]
        if not HAVE_AVX512:
            self.skipTest("CPU lacks avx512")
        for i, (s, lda, ldb) in enumerate(cases):
            with self.subTest(spec=s):
                text = emit_function(s)
                # the last vector's FMAs are ymm, the others zmm (an
                # accumulator's register number modulo nv is its vector;
                # edge loops skip the vectors past the partial one)
                fmas = re.findall(r"vfmadd231ps [^\n]*%([yz])mm([0-9]+)\n", text)
                nv = s["nr"] // 16
                self.assertTrue(any(x == "y" for x, _ in fmas), text)
                for x, reg in fmas:
                    self.assertEqual(x == "y", int(reg) % nv == nv - 1, text)
                ns = [n for n in range(1, s["nr"] - 7)
                      if n <= 3 or n >= s["nr"] - 20 or n % 16 in (0, 1)]
                if ldb:
                    ns = [n for n in ns if n <= ldb]
                store = s.get("c_update") == "store"
                exe = build(self.tmp, "ly%d" % i, text, ".s")
                rc, out = run_check(exe, s["mr"], s["nr"], KC_LIST,
                                    list(range(1, s["mr"] + 1)), ns, seed=120 + i,
                                    ldb=ldb, lda=lda, store=store)
                self.assertEqual(rc, 0, out)
                self.assertRegex(out, r"^OK [0-9]+")
        # Past the contract (n_rem = nr - 7) the last vector's lanes 8..15
        # are not computed: the harness sees it, so the lanes above are
        # really ymm ones.
        s, lda, ldb = cases[0]
        exe = build(self.tmp, "ly0_past", emit_function(s), ".s")
        rc, out = run_check(exe, s["mr"], s["nr"], [5], [s["mr"]], [s["nr"] - 7],
                            ldb=ldb, lda=lda)
        self.assertNotEqual(rc, 0, out)
        self.assertIn("FAIL", out)

    def _store_b_panel_exe(self, tag, s, fused_text=None):
        """The store_b_panel kernel of spec `s` (symbol fused) and the same
        block with B packed (symbol packed), linked to bpanel_harness.c."""
        packed = {k: v for k, v in s.items()
                  if k not in ("b_stride_bytes", "store_b_panel", "prefetch_b_cols")}
        srcs = []
        for sym, text in (("fused", fused_text or emit_function(s, "fused")),
                          ("packed", emit_function(packed, "packed"))):
            path = os.path.join(self.tmp, "%s_%s.s" % (tag, sym))
            with open(path, "w") as f:
                f.write(text)
            srcs.append(path)
        exe = os.path.join(self.tmp, tag)
        cmd = [CC, "-O2", "-w", BPANEL_HARNESS] + srcs + ["-o", exe, "-lm"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        return exe

    def test_store_b_panel_numeric(self):
        """store_b_panel kernels: C right and bit-identical to the packed
        kernel's on the panel the packing pass writes; the stored panel is
        that panel bit for bit (zero past n_rem), nothing written before it
        or past its kc rows; B read only up to n_rem (guard page); every
        m_rem and n_rem, packed A and A in place, both broadcasts, k_unroll
        1..8, "store"."""
        if not HAVE_AVX512:
            self.skipTest("CPU lacks avx512")
        cases = [
            (spec(isa="avx512", mr=8, nr=48, b_stride_bytes=4 * 131, store_b_panel=1),
             131, 0),
            (spec(isa="avx512", mr=8, nr=48, k_unroll=1, b_stride_bytes=4 * 53,
                  store_b_panel=1), 53, 0),
            (spec(isa="avx512", mr=6, nr=64, k_unroll=8, b_stride_bytes=4 * 1000,
                  store_b_panel=1, prefetch_b_cols=128), 1000, 0),
            (spec(isa="avx512", mr=14, nr=32, k_unroll=3, broadcast="embedded",
                  b_stride_bytes=4 * 37, store_b_panel=1), 37, 0),
            (spec(isa="avx512", mr=3, nr=112, k_unroll=2, b_stride_bytes=4 * 300,
                  store_b_panel=1), 300, 0),
            (spec(isa="avx512", mr=8, nr=48, b_stride_bytes=4 * 71, store_b_panel=1,
                  a_stride_bytes=4 * 257), 71, 257),
            (spec(isa="avx512", mr=1, nr=16, b_stride_bytes=4 * 17, store_b_panel=1),
             17, 0),
            (spec(isa="avx512", mr=8, nr=48, b_stride_bytes=4 * 131, store_b_panel=1,
                  c_update="store"), 131, 0),
        ]
        for i, (s, ldb, lda) in enumerate(cases):
            with self.subTest(spec=s):
                exe = self._store_b_panel_exe("sb%d" % i, s)
                ns = sorted(set(n_list(s["nr"], 16)) | {min(ldb, s["nr"])})
                ms = m_list(s["mr"]) if not lda else list(range(1, s["mr"] + 1))
                args = [exe, str(s["mr"]), str(s["nr"]), ",".join(map(str, KC_LIST)),
                        ",".join(map(str, ms)), ",".join(map(str, ns)), str(110 + i),
                        str(ldb), str(lda), "1" if s.get("c_update") == "store" else "0"]
                p = subprocess.run(args, capture_output=True, text=True, timeout=120)
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                self.assertRegex(p.stdout, r"^OK [0-9]+")

    def test_store_b_panel_mutations_are_caught(self):
        """The harness fails a kernel that stores the wrong panel: the
        unzeroed lanes of a masked load (merge instead of zero), one vector
        left unstored, or the panel's rows advanced by the wrong amount."""
        if not HAVE_AVX512:
            self.skipTest("CPU lacks avx512")
        s = spec(isa="avx512", mr=8, nr=48, b_stride_bytes=4 * 131, store_b_panel=1)
        good = emit_function(s, "fused")
        mutations = {
            "not_zeroed": lambda t: t.replace("{%k3} {z}", "{%k3}"),
            "one_vector_unstored": lambda t: re.sub(
                r"\n  vmovups %zmm26, [0-9]*\(%rbx\)", "", t),
            "row_step": lambda t: t.replace("add $768, %rbx", "add $704, %rbx"),
        }
        for name, mutate in mutations.items():
            with self.subTest(mutation=name):
                bad = mutate(good)
                self.assertNotEqual(bad, good)
                exe = self._store_b_panel_exe("sbm_" + name, s, bad)
                p = subprocess.run([exe, "8", "48", "1,5,17", "8,3", "48,20", "7", "131"],
                                   capture_output=True, text=True, timeout=60)
                self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
                self.assertIn("FAIL", p.stdout)

    @unittest.skipIf(CLANG is None, "clang-22 not found: LLVM IR inline-asm test skipped")
    def test_inline_asm_through_llvm(self):
        """The JSON asm + constraints, used as LLVM IR inline asm (twice in one
        function), compile with clang-22 and compute the right result."""
        for i, s in enumerate([spec(isa="avx512", mr=6, nr=64),
                               spec(isa="avx512", mr=8, nr=48, broadcast="embedded",
                                    k_unroll=3, prefetch_b=8),
                               spec(isa="avx2", mr=6, nr=16)]):
            with self.subTest(spec=s):
                if not cpu_ok(s["isa"]):
                    self.skipTest("CPU lacks %s" % s["isa"])
                o = emit_json(s)
                exe = build(self.tmp, "ir%d" % i, cc.ir_module(o, x86_features(s)),
                            ".ll")
                lanes = 16 if s["isa"] == "avx512" else 8
                rc, out = run_check(exe, s["mr"], s["nr"], [0, 1, 3, 9, 64, 257],
                                    m_list(s["mr"]), n_list(s["nr"], lanes), seed=99,
                                    c_roundings=2)
                self.assertEqual(rc, 0, out)

    def test_harness_detects_broken_kernels(self):
        """Mutated kernels must be caught (the harness can fail)."""
        s = spec(isa="avx512", mr=6, nr=64) if HAVE_AVX512 else spec(isa="avx2", mr=6,
                                                                      nr=16)
        if not cpu_ok(s["isa"]):
            self.skipTest("CPU lacks avx512 and avx2")
        good = emit_function(s)
        mutations = {
            # early row exit removed: rows >= m_rem are written
            "no_row_exit": lambda t: t.replace("jz 9f", "nop", 1),
            # remainder loop runs once at most: wrong sums
            "remainder_once": lambda t: t.replace("jnz 3b", "nop"),
            # no accumulation onto C
            # (C is read through %rdx, or through %rax where all rows are
            # read before any is stored)
            "no_c_load": lambda t: re.sub(r"vaddps (-?[0-9]*\(%r[da]x\)), (%[yz]mm[0-9]+), "
                                          r"(%[yz]mm[0-9]+)", r"vmovups \1, \2", t, count=1),
            # wrong A advance in the unrolled loop
            "a_stride": lambda t: re.sub(r"add \$([0-9]+), %rdi",
                                         lambda m: "add $%d, %%rdi" % (int(m.group(1)) - 4),
                                         t, count=1),
            # unrolled loop runs one block too many
            "unroll_overrun": lambda t: t.replace("jge 1b", "jge 1b\n  jmp 1b", 1),
        }
        if s["isa"] == "avx512":
            mutations["unmasked_store"] = lambda t: t.replace(", (%rdx) {%k1}", ", (%rdx)")
            mutations["wrong_mask"] = lambda t: t.replace("kshiftrq $16,", "kshiftrq $15,")
        else:
            mutations["unmasked_store"] = lambda t: re.sub(
                r"vmaskmovps (%ymm[0-9]+), %ymm[0-9]+, \(%rdx\)", r"vmovups \1, (%rdx)", t)
        for name, mut in sorted(mutations.items()):
            with self.subTest(mutation=name):
                bad = mut(good)
                self.assertNotEqual(bad, good, "mutation %s did not apply" % name)
                exe = build(self.tmp, "mut_" + name, bad, ".s")
                lanes = 16 if s["isa"] == "avx512" else 8
                rc, out = run_check(exe, s["mr"], s["nr"], KC_LIST, m_list(s["mr"]),
                                    n_list(s["nr"], lanes))
                self.assertNotEqual(rc, 0, "broken kernel %s passed:\n%s" % (name, out))


if __name__ == "__main__":
    unittest.main()
