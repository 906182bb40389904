"""Numeric tests of the x86 microkernel's fused epilogue (x86_gemm_fma.py
"epilogue", tensorop_emit/x86_epilogue.py).

Each case emits a kernel with --format=function, links it with a C driver
generated here and runs it for every m_rem x n_rem edge: C = steps(C_old +
A*B) against a double reference of the same steps, and every element of C
outside the m_rem x n_rem tile must stay untouched. Skipped without clang
or the CPU's ISA.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_x86_gemm_fma import CC, EMITTER, HAVE_AVX2, HAVE_AVX512  # noqa: E402

# The double reference of each step, on `x` (row r, column j).
REFERENCE = {
    "bias_n": "x += bias[j];",
    "bias_m": "x += bias[r];",
    "residual": "x += res[r * LDR + j];",
    "relu": "x = x > 0 ? x : 0;",
    "tanh": "x = tanh(x);",
    "sigmoid": "x = 1 / (1 + exp(-x));",
    "silu": "x = x / (1 + exp(-x));",
    "gelu_tanh": "x = 0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));",
    "gelu_erf": "x = 0.5 * x * (1 + erf(x / sqrt(2.0)));",
}

DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
void ukernel(const float *a, const float *b, float *c, long kc, long ldc_bytes,
             long m_rem, long n_rem, void *epilogue);
enum { MR = %(mr)d, NR = %(nr)d, KC = %(kc)d, LDC = NR + 5, LDR = NR + 3,
       STORE = %(store)d };
static const double consts[] = { %(consts)s 0 };
static double val(unsigned i, unsigned salt) {
  return (double)((i * 2654435761u + salt * 40503u) %% 65536u) / 16384.0 - 2.0;
}
int main(void) {
  static float a[KC * MR], b[KC * NR], c[(MR + 1) * LDC], bias[MR + NR],
      res[MR * LDR];
  static unsigned char block[%(block)d] __attribute__((aligned(64)));
  for (int i = 0; i < KC * MR; ++i) a[i] = (float)(val(i, 1) / 4);
  for (int i = 0; i < KC * NR; ++i) b[i] = (float)(val(i, 2) / 4);
  for (int i = 0; i < MR + NR; ++i) bias[i] = (float)val(i, 3);
  for (int i = 0; i < MR * LDR; ++i) res[i] = (float)val(i, 4);
  for (unsigned i = 0; i < sizeof consts / sizeof consts[0] - 1; ++i)
    for (int l = 0; l < 16; ++l)
      ((float *)(block + 64 + 64 * i))[l] = (float)consts[i];
  uint64_t header[3] = {(uint64_t)(uintptr_t)bias, (uint64_t)(uintptr_t)res,
                        LDR * 4};
  memcpy(block, header, sizeof header);
  int failures = 0;
  double worst = 0;
  for (int m = 1; m <= MR; ++m)
    for (int n = 1; n <= NR; ++n) {
      for (int i = 0; i < (MR + 1) * LDC; ++i) c[i] = (float)(val(i, 5) / 2);
      float old[(MR + 1) * LDC];
      memcpy(old, c, sizeof old);
      ukernel(a, b, c, KC, LDC * 4, m, n, block);
      for (int r = 0; r <= MR; ++r)
        for (int j = 0; j < LDC; ++j) {
          float got = c[r * LDC + j];
          if (r >= m || j >= n) {
            if (memcmp(&got, &old[r * LDC + j], 4)) ++failures;
            continue;
          }
          double x = STORE ? 0 : old[r * LDC + j]; /* "store": C not read */
          for (int k = 0; k < KC; ++k) x += (double)a[k * MR + r] * b[k * NR + j];
          %(steps)s
          double err = fabs(got - x);
          if (err > worst) worst = err;
          if (!(err <= 2e-5 * (1 + fabs(x)))) ++failures;
        }
    }
  printf("failures %%d worst %%g\n", failures, worst);
  return failures != 0;
}
"""


def reference_code(steps):
    code = []
    for s in steps:
        kind = s.split("(")[0]
        args = s[len(kind) + 1:-1].split(",") if "(" in s else []
        if kind == "scale":
            code.append("x *= %s;" % args[0])
        elif kind == "clamp":
            code.append("x = x < %s ? %s : x > %s ? %s : x;" % (args[0], args[0], args[1], args[1]))
        else:
            code.append(REFERENCE[kind])
    return "\n          ".join(code)


class TestX86Epilogue(unittest.TestCase):
    CASES = [
        # (isa, mr, nr, steps)
        ("avx512", 6, 64, ["bias_n", "relu"]),
        ("avx512", 6, 64, ["bias_m", "gelu_erf"]),
        ("avx512", 4, 48, ["bias_n", "gelu_tanh", "residual"]),
        ("avx512", 3, 32, ["scale(0.25)", "silu", "clamp(-0.5,1.5)"]),
        ("avx512", 2, 16, ["residual", "sigmoid", "tanh"]),
        ("avx2", 6, 16, ["bias_n", "relu"]),
        ("avx2", 4, 24, ["bias_m", "gelu_erf", "residual"]),
        ("avx2", 3, 16, ["scale(-2)", "gelu_tanh", "clamp(-1,1)"]),
        ("avx2", 2, 8, ["silu", "bias_n", "sigmoid"]),
    ]

    def run_case(self, isa, mr, nr, steps, kc=37, store=False):
        spec = {"kernel": "gemm_f32", "isa": isa, "mr": mr, "nr": nr, "epilogue": steps}
        if store:
            spec["c_update"] = "store"
        info = json.loads(subprocess.run([sys.executable, EMITTER], input=json.dumps(spec),
                                         capture_output=True, text=True, check=True).stdout)
        asm = subprocess.run([sys.executable, EMITTER, "--format=function", "--symbol",
                              "ukernel"], input=json.dumps(spec), capture_output=True,
                             text=True, check=True).stdout
        consts = "".join("%r, " % v for v in info["epilogue_constants"])
        driver = DRIVER % dict(mr=mr, nr=nr, kc=kc, consts=consts, store=int(store),
                               block=info["epilogue_block_bytes"],
                               steps=reference_code(steps))
        with tempfile.TemporaryDirectory() as tmp:
            paths = [os.path.join(tmp, n) for n in ("k.s", "d.c", "t")]
            for path, text in ((paths[0], asm), (paths[1], driver)):
                with open(path, "w") as f:
                    f.write(text)
            flags = ["-mavx512f", "-mavx512bw"] if isa == "avx512" else ["-mavx2", "-mfma"]
            subprocess.run([CC, "-O1", *flags, paths[1], paths[0], "-o", paths[2], "-lm"],
                           check=True)
            p = subprocess.run([paths[2]], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, "%s %dx%d %s: %s" % (isa, mr, nr, steps, p.stdout))

    def test_cases(self):
        if not CC:
            self.skipTest("no C compiler")
        for isa, mr, nr, steps in self.CASES:
            if (isa == "avx512" and not HAVE_AVX512) or (isa == "avx2" and not HAVE_AVX2):
                continue
            with self.subTest(isa=isa, mr=mr, nr=nr, steps=steps):
                self.run_case(isa, mr, nr, steps)

    def test_no_channels(self):
        """kc = 0 applies the steps to C alone (a convolution's pixels that no
        filter tap reaches get their epilogue this way)."""
        if not CC:
            self.skipTest("no C compiler")
        for isa, mr, nr in (("avx512", 6, 64), ("avx2", 4, 24)):
            if (isa == "avx512" and not HAVE_AVX512) or (isa == "avx2" and not HAVE_AVX2):
                continue
            with self.subTest(isa=isa):
                self.run_case(isa, mr, nr, ["bias_n", "silu", "residual"], kc=0)

    def test_store_form(self):
        """c_update "store" with an epilogue: the steps apply to A*B alone
        and C is written, not read (the pass asks for it where C was
        zero-filled and one K block covers K); kc = 0 stores the steps of
        a zero tile."""
        if not CC:
            self.skipTest("no C compiler")
        for isa, mr, nr, steps, kc in (
                ("avx512", 4, 48, ["bias_n", "gelu_tanh", "residual"], 37),
                ("avx512", 6, 64, ["bias_m", "relu"], 0),
                ("avx2", 4, 24, ["bias_n", "silu", "residual"], 37)):
            if (isa == "avx512" and not HAVE_AVX512) or (isa == "avx2" and not HAVE_AVX2):
                continue
            with self.subTest(isa=isa, mr=mr, nr=nr, steps=steps, kc=kc):
                self.run_case(isa, mr, nr, steps, kc=kc, store=True)

    def test_taps_with_epilogue(self):
        """A multi-tap (convolution) kernel takes an epilogue too; it runs
        after the last tap."""
        spec = {"kernel": "gemm_f32", "isa": "avx512", "mr": 6, "nr": 32,
                "a_stride_bytes": 256, "taps": 3, "tap_a_bytes": 256,
                "epilogue": ["bias_n", "relu"]}
        p = subprocess.run([sys.executable, EMITTER], input=json.dumps(spec),
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        info = json.loads(p.stdout)
        self.assertEqual(info["taps"], 3)
        self.assertEqual(info["epilogue"], ["bias_n", "relu"])
        self.assertEqual(len(set(info["clobbers"])), len(info["clobbers"]))

    GELU_DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
void ukernel(const float *a, const float *b, float *c, long kc, long ldc_bytes,
             long m_rem, long n_rem, void *epilogue);
static const double consts[] = { %(consts)s 0 };
int main(void) {
  static float c[6 * 64];
  static unsigned char block[%(block)d] __attribute__((aligned(64)));
  for (unsigned i = 0; i < sizeof consts / sizeof consts[0] - 1; ++i)
    for (int l = 0; l < 16; ++l)
      ((float *)(block + 64 + 64 * i))[l] = (float)consts[i];
  double worst = 0, worst_x = 0;
  long failures = 0, count = 0;
  /* every 2^-12 in [-16, 16), then wide values: inputs are exact floats */
  for (long base = -65536; base < 65536 + 384; base += 384) {
    for (int i = 0; i < 384; ++i) {
      long at = base + i;
      c[i] = at < 65536 ? (float)ldexp((double)at, -12)
                        : (float)((at - 65536) %% 2 ? -1 : 1) * (float)ldexp(1.0, (int)(at - 65536) %% 64);
    }
    float x_in[384];
    memcpy(x_in, c, sizeof x_in);
    ukernel(0, 0, c, 0, 64 * 4, 6, 64, block); /* kc = 0: the steps on C */
    for (int i = 0; i < 384; ++i) {
      double x = x_in[i];
      /* %(ref_comment)s */
      double u = %(u)s;
      double want = %(want)s;
      double err = fabs((double)c[i] - want);
      /* relative, growing with |2u|: fp32's rounding of u (a few ulp)
         moves e^(-2u) by |2u| times that, as rounding x itself would
         (GELU's condition number there); an absolute floor of 1e-37:
         1 + e^(-2u) overflows fp32 once -2u > 88.7 (x < -10.06), where
         the kernel returns 0 for GELU's x * 3e-39 */
      double ratio = err / ((%(rel)g + 2.4e-7 * fabs(2 * u)) * fabs(want) + 1e-37);
      ++count;
      if (!(ratio <= 1)) ++failures;
      if (!(ratio <= worst)) { worst = ratio; worst_x = x; }
    }
  }
  printf("values %%ld failures %%ld worst error/bound %%g at x = %%g\n", count, failures, worst,
         worst_x);
  return failures != 0;
}
"""

    def test_exp2_steps_accuracy(self):
        """GELU (tanh form), SiLU and sigmoid on AVX-512 (x / (1 + 2^t),
        x86_epilogue.py _exp2) on every multiple of 2^-12 in [-16, 16) and
        powers of two up to 2^63 of both signs, against fp64: relative error
        <= 1e-6 + 2.4e-7 |2u| (2u the exponent: sqrt(8/pi) (x + 0.044715
        x^3) for GELU, x for SiLU and sigmoid; 4 ulp of it is the result's
        own sensitivity to rounding it), also where the result is tiny (x
        far below 0), which gen's absolute error bound would not see."""
        if not CC or not HAVE_AVX512:
            self.skipTest("no C compiler or no AVX-512")
        for step in self.EXP2_STEPS:
            with self.subTest(step=step):
                self._exp2_step_accuracy(step)

    # Each step as x / (1 + e^(-2u)) (or 1 / (...)) in fp64, the form that
    # keeps its relative accuracy where the result is tiny; 2u is what the
    # kernel exponentiates (its rounding is the result's sensitivity).
    EXP2_STEPS = {
        "gelu_tanh": dict(
            ref_comment="0.5 x (1 + tanh(u)) as x / (1 + e^(-2u)): the same function, "
                        "without 1 + tanh(u)'s cancellation in fp64 where GELU is tiny",
            u="0.7978845608028654 * (x + 0.044715 * x * x * x)",
            want="x / (1 + exp(-2 * u))"),
        "silu": dict(ref_comment="x sigmoid(x) = x / (1 + e^(-x)), 2u = x",
                     u="0.5 * x", want="x / (1 + exp(-x))"),
        "sigmoid": dict(ref_comment="1 / (1 + e^(-x)), 2u = x",
                        u="0.5 * x", want="1 / (1 + exp(-x))"),
    }

    def _exp2_step_accuracy(self, step):
        spec = {"kernel": "gemm_f32", "isa": "avx512", "mr": 6, "nr": 64,
                "epilogue": [step]}
        info = json.loads(subprocess.run([sys.executable, EMITTER], input=json.dumps(spec),
                                         capture_output=True, text=True, check=True).stdout)
        asm = subprocess.run([sys.executable, EMITTER, "--format=function", "--symbol",
                              "ukernel"], input=json.dumps(spec), capture_output=True,
                             text=True, check=True).stdout
        consts = "".join("%r, " % v for v in info["epilogue_constants"])
        driver = self.GELU_DRIVER % dict(consts=consts, block=info["epilogue_block_bytes"],
                                         rel=1e-6, **self.EXP2_STEPS[step])
        with tempfile.TemporaryDirectory() as tmp:
            paths = [os.path.join(tmp, n) for n in ("k.s", "d.c", "t")]
            for path, text in ((paths[0], asm), (paths[1], driver)):
                with open(path, "w") as f:
                    f.write(text)
            subprocess.run([CC, "-O1", "-mavx512f", "-mavx512bw", paths[1], paths[0], "-o",
                            paths[2], "-lm"], check=True)
            p = subprocess.run([paths[2]], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("failures 0 ", p.stdout)

    def test_residual_prefetch(self):
        """A residual is read once, at the tile's end: the kernel prefetches
        the next tile's residual lines (nr columns to the right, every row)
        before its K loop, so they are not demand misses on the epilogue's
        path (2048x2048x16 bias + residual: 1.2-1.4x, docs/benchmarks/
        models.md). Without a residual nothing is prefetched from the
        block."""
        for isa, mr, nr in (("avx512", 6, 64), ("avx512", 4, 48), ("avx2", 6, 16)):
            with self.subTest(isa=isa, mr=mr, nr=nr):
                spec = {"kernel": "gemm_f32", "isa": isa, "mr": mr, "nr": nr,
                        "c_update": "store", "epilogue": ["bias_n", "residual"]}
                p = subprocess.run([sys.executable, EMITTER], input=json.dumps(spec),
                                   capture_output=True, text=True)
                self.assertEqual(p.returncode, 0, p.stderr)
                lines = [l.strip() for l in json.loads(p.stdout)["asm"].splitlines()]
                at = lines.index("mov 8($7), %rax")
                want = []
                for r in range(mr):
                    want += ["prefetcht0 %d(%%rax)" % (4 * nr + off)
                             for off in range(0, 4 * nr, 64)]
                    if r + 1 < mr:
                        want.append("add 16($7), %rax")
                self.assertEqual(lines[at + 1:at + 1 + len(want)], want)
                # before the K loop: the first FMA comes after
                first_fma = next(i for i, l in enumerate(lines) if l.startswith("vfmadd"))
                self.assertLess(at, first_fma)
        spec = {"kernel": "gemm_f32", "isa": "avx512", "mr": 6, "nr": 64,
                "c_update": "store", "epilogue": ["bias_n", "gelu_tanh"]}
        p = subprocess.run([sys.executable, EMITTER], input=json.dumps(spec),
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("prefetcht0", json.loads(p.stdout)["asm"])

    def test_refusals(self):
        for steps, word in [(["bias_n", "bias_m"], "at most one"), (["gelu"], "unknown step"),
                            (["scale"], "takes 1"), (["clamp(2,1)"], "lo > hi"),
                            (["scale(1e40)"], "out of range for f32"),
                            (["clamp(-3.5e38,0)"], "out of range for f32"),
                            ("relu", "list")]:
            spec = {"kernel": "gemm_f32", "isa": "avx512", "mr": 6, "nr": 64,
                    "epilogue": steps}
            p = subprocess.run([sys.executable, EMITTER], input=json.dumps(spec),
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 2)
            self.assertIn(word, p.stderr)


if __name__ == "__main__":
    unittest.main()
