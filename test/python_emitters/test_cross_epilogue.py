"""Numeric tests of the RVV and NEON microkernels' fused epilogues
(riscv_gemm_rvv.py / arm_gemm_neon.py "epilogue", tensorop_emit/
rvv_epilogue.py, neon_epilogue.py).

The same C driver and double reference as the x86 test
(test_x86_epilogue.py): every m_rem x n_rem edge, C = steps(C_old + A*B)
and every element of C outside the tile untouched. The driver is
cross-compiled statically with the kernel and run under qemu-user (RVV at
VLEN 128 and 256). Skipped without clang-22, the cross sysroot or qemu.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cross_common as cc  # noqa: E402
from test_x86_epilogue import DRIVER, reference_code  # noqa: E402

# The approximations alone: kc = 1, A(r, 0) = x, B = 1, C = 0, so the
# kernel's accumulator is x exactly and C = step(x); every x on a grid over
# [-20, 20] (step APPROX_STEP, default 1e-3; docs/Epilogues.md quotes 1e-4)
# against the double function, within the documented error.
APPROX_DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
void ukernel(const float *a, const float *b, float *c, long kc, long ldc_bytes,
             long m_rem, long n_rem, void *epilogue);
enum { MR = %(mr)d, NR = %(nr)d };
static const double consts[] = { %(consts)s 0 };
int main(void) {
  static float a[MR], b[NR], c[MR * NR];
  static unsigned char block[%(block)d] __attribute__((aligned(64)));
  for (unsigned i = 0; i < sizeof consts / sizeof consts[0] - 1; ++i)
    for (int l = 0; l < 16; ++l)
      ((float *)(block + 64 + 64 * i))[l] = (float)consts[i];
  for (int j = 0; j < NR; ++j) b[j] = 1;
  const long steps = (long)(40 / %(step)r + 0.5);
  double worst = 0, at = 0;
  long over = 0;
  for (long s = 0; s <= steps; s += MR) {
    for (int r = 0; r < MR; ++r)
      a[r] = (float)(-20 + 40.0 * (s + r <= steps ? s + r : steps) / steps);
    memset(c, 0, sizeof c);
    ukernel(a, b, c, 1, NR * 4, MR, NR, block);
    for (int r = 0; r < MR; ++r)
      for (int j = 0; j < NR; ++j) {
        double x = a[r], want = %(ref)s, err = fabs(c[r * NR + j] - want);
        if (!(err <= %(bound)s)) ++over;
        if (err > worst) { worst = err; at = x; }
      }
  }
  printf("%(what)s: max abs error %%.3g at x = %%.6g, %%ld over the bound\n", worst, at, over);
  return over != 0;
}
"""
APPROX_CASES = [
    # (step, double reference, documented bound: docs/Epilogues.md)
    ("tanh", "tanh(x)", "3.3e-7"),
    ("gelu_erf", "0.5 * x * (1 + erf(x / sqrt(2.0)))",
     "0.5 * fabs(x) * 4.2e-7 + 3 * 6e-8 * (1 + fabs(x))"),
]
APPROX_STEP = float(os.environ.get("APPROX_STEP", "1e-3"))

EIGHT_OPERAND_IR = """
define void @k(i64 %%a, i64 %%b, i64 %%c, i64 %%kc, i64 %%ldc, i64 %%m, i64 %%n, i64 %%e) #0 {
  %%r = call { i64, i64, i64, i64, i64, i64, i64, i64 } asm sideeffect "%(asm)s", "%(cons)s"(i64 %%a, i64 %%b, i64 %%c, i64 %%kc, i64 %%ldc, i64 %%m, i64 %%n, i64 %%e)
  ret void
}
attributes #0 = { nounwind "target-features"="%(feats)s" }
"""

EMITTERS = {"riscv64": ("riscv_gemm_rvv.py", "rvv"), "aarch64": ("arm_gemm_neon.py", "neon")}


def spec(target, mr, nr, steps, **kw):
    s = {"kernel": "gemm_f32", "isa": EMITTERS[target][1], "mr": mr, "nr": nr,
         "epilogue": steps}
    s.update(kw)
    return s


class CrossEpilogue:
    TARGET = None
    CASES = []
    RUNS = [[]]

    def run_case(self, tmp, s, kc=37):
        emitter = EMITTERS[self.TARGET][0]
        info = cc.emit_json(emitter, s)
        asm = cc.emit_function(emitter, s)
        consts = "".join("%r, " % v for v in info["epilogue_constants"])
        driver = DRIVER % dict(mr=s["mr"], nr=s["nr"], kc=kc, consts=consts, store=0,
                               block=info["epilogue_block_bytes"],
                               steps=reference_code(s["epilogue"]))
        base = os.path.join(tmp, info["name"])
        with open(base + ".s", "w") as f:
            f.write(asm)
        with open(base + ".c", "w") as f:
            f.write(driver)
        subprocess.run([cc.CLANG] + cc.TARGETS[self.TARGET]["cflags"] +
                       ["-static", "-O1", "-w", base + ".c", base + ".s", "-o", base, "-lm"],
                       check=True)
        for prefix in self.RUNS:
            p = subprocess.run(prefix + [base], capture_output=True, text=True, timeout=120)
            self.assertEqual(p.returncode, 0, "%s %s: %s%s" % (prefix, s, p.stdout, p.stderr))

    def test_cases(self):
        missing = cc.cross_missing(self.TARGET)
        if missing:
            self.skipTest(missing)
        with tempfile.TemporaryDirectory() as tmp:
            for s in self.CASES:
                with self.subTest(spec=s):
                    self.run_case(tmp, s)

    def test_approximation_error(self):
        missing = cc.cross_missing(self.TARGET)
        if missing:
            self.skipTest(missing)
        emitter = EMITTERS[self.TARGET][0]
        mr, nr = self.APPROX_TILE
        with tempfile.TemporaryDirectory() as tmp:
            for step, ref, bound in APPROX_CASES:
                s = spec(self.TARGET, mr, nr, [step])
                info = cc.emit_json(emitter, s)
                base = os.path.join(tmp, step)
                with open(base + ".s", "w") as f:
                    f.write(cc.emit_function(emitter, s))
                with open(base + ".c", "w") as f:
                    f.write(APPROX_DRIVER % dict(
                        mr=mr, nr=nr, block=info["epilogue_block_bytes"], step=APPROX_STEP,
                        consts="".join("%r, " % v for v in info["epilogue_constants"]),
                        ref=ref, bound=bound, what="%s %s" % (self.TARGET, step)))
                subprocess.run([cc.CLANG] + cc.TARGETS[self.TARGET]["cflags"] +
                               ["-static", "-O1", "-w", base + ".c", base + ".s", "-o", base,
                                "-lm"], check=True)
                p = subprocess.run(self.RUNS[0] + [base], capture_output=True, text=True,
                                   timeout=300)
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                if "APPROX_STEP" in os.environ:
                    print(p.stdout.strip())

    def test_json(self):
        emitter = EMITTERS[self.TARGET][0]
        s = spec(self.TARGET, 4, 8, ["bias_n", "gelu_erf"])
        o = cc.emit_json(emitter, s)
        self.assertEqual(o["operands"][-1], "epilogue")
        self.assertTrue(o["constraints"].startswith("=r," * 8 + "0,1,2,3,4,5,6,7,"))
        self.assertEqual(o["epilogue"], ["bias_n", "gelu_erf"])
        self.assertIn("_epi", o["name"])
        # the block: header, the constants, then mr rows of nr floats
        self.assertEqual(o["epilogue_block_bytes"],
                         64 + 64 * len(o["epilogue_constants"]) + 4 * 4 * 8)
        plain = cc.emit_json(emitter, spec(self.TARGET, 4, 8, []))
        self.assertNotIn("epilogue", plain)
        self.assertEqual(len(plain["operands"]), 7)
        if cc.LLVM_MC is not None:
            text = cc.emit_function(emitter, s)
            rc, err = cc.assemble(self.TARGET, text)
            self.assertEqual(rc, 0, err)
        if cc.LLC is not None:
            # LLVM drops clobber names it does not know without a word: every
            # one (the epilogue's scratch registers included) must reach MIR.
            s = spec(self.TARGET, 4, 8, ["bias_n", "residual", "gelu_erf"])
            o = cc.emit_json(emitter, s)
            got = cc.mir_clobbers(self.TARGET, EIGHT_OPERAND_IR % dict(
                asm=cc.common.llvm_ir_asm_string(o["asm"]), cons=o["constraints"],
                feats=cc.TARGETS[self.TARGET]["ir_features"]))
            self.assertEqual(len(got), 1)
            mir = {self.MIR_NAME.get(c, c) for c in got[0]}
            for name in o["clobbers"]:
                self.assertIn(name, mir)

    def test_refusals(self):
        emitter = EMITTERS[self.TARGET][0]
        for steps, word in [(["bias_n", "bias_m"], "at most one"), (["gelu"], "unknown step"),
                            (["scale"], "takes 1"), (["clamp(2,1)"], "lo > hi"),
                            ("relu", "list")]:
            rc, _, err = cc.run_emitter(emitter, json.dumps(spec(self.TARGET, 4, 8, steps)))
            self.assertEqual(rc, 2)
            self.assertIn("epilogue", err)
            self.assertIn(word, err)


class TestRvvEpilogue(CrossEpilogue, unittest.TestCase):
    TARGET = "riscv64"
    APPROX_TILE = (6, 16)
    MIR_NAME = {"f%d_d" % i: "f%d" % i for i in range(32)}
    RUNS = [cc.qemu_cmd("riscv64", 128), cc.qemu_cmd("riscv64", 256)] \
        if cc.TARGETS["riscv64"]["qemu"] else []
    CASES = [
        spec(TARGET, 6, 16, ["bias_n", "relu"]),                      # LMUL 4
        spec(TARGET, 7, 16, ["bias_m", "gelu_erf", "residual"]),
        spec(TARGET, 3, 5, ["scale(0.25)", "silu", "clamp(-0.5,1.5)"], k_unroll=2),
        spec(TARGET, 3, 32, ["bias_n", "gelu_tanh", "residual"]),     # LMUL 8
        spec(TARGET, 1, 4, ["residual", "sigmoid", "tanh"], k_unroll=1),
    ]


class TestNeonEpilogue(CrossEpilogue, unittest.TestCase):
    TARGET = "aarch64"
    APPROX_TILE = (8, 12)
    MIR_NAME = {"q%d" % i: "v%d" % i for i in range(32)}
    RUNS = [cc.qemu_cmd("aarch64")] if cc.TARGETS["aarch64"]["qemu"] else []
    CASES = [
        spec(TARGET, 8, 12, ["bias_n", "relu"]),
        spec(TARGET, 8, 12, ["bias_m", "gelu_erf", "residual"]),
        spec(TARGET, 5, 8, ["scale(-2)", "gelu_tanh", "clamp(-1,1)"]),
        spec(TARGET, 3, 4, ["silu", "bias_n", "sigmoid"], k_unroll=1),
        spec(TARGET, 4, 16, ["residual", "tanh"], prefetch_b=4),
    ]


if __name__ == "__main__":
    unittest.main()
