"""Numeric tests of the x86 kernel's output steps (to_bf16, to_f16): the
epilogue's x rounded once, to nearest even, and written to a 16-bit output
tile (its address and row stride in the block's header) while C, the fp32
partial sums, is read but not written ("store": not read either).

Each case links the kernel (--format=function) with a C driver and runs every
m_rem x n_rem edge: the output must equal the double reference of
C_old + A*B and the steps, rounded to bf16 / f16, within one unit in the
last place of the 16-bit type (the fp32 sum may round across a tie), and
most elements exactly; C and the output outside the tile stay untouched.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_x86_gemm_fma import CC, EMITTER, HAVE_AVX512  # noqa: E402
from test_x86_epilogue import reference_code  # noqa: E402

HAVE_BF16 = HAVE_AVX512 and "avx512_bf16" in open("/proc/cpuinfo").read()

DRIVER = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
void ukernel(const float *a, const float *b, float *c, long kc, long ldc_bytes,
             long m_rem, long n_rem, void *epilogue);
enum { MR = %(mr)d, NR = %(nr)d, KC = %(kc)d, LDC = NR + 5, LDO = NR + 7,
       LDR = NR + 3, STORE = %(store)d, BF16 = %(bf16)d };
static const double consts[] = { %(consts)s 0 };
static double val(unsigned i, unsigned salt) {
  return (double)((i * 2654435761u + salt * 40503u) %% 65536u) / 16384.0 - 2.0;
}
static double from16(uint16_t h) {
  if (BF16) {
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  _Float16 f;
  memcpy(&f, &h, 2);
  return (double)f;
}
static double round16(double x) {
  float f = (float)x;
  if (!BF16)
    return (double)(_Float16)f;
  uint32_t bits;
  memcpy(&bits, &f, 4);
  bits += 0x7fff + ((bits >> 16) & 1);
  bits &= 0xffff0000u;
  memcpy(&f, &bits, 4);
  return f;
}
/* one unit in the last place of the 16-bit type at |x| */
static double ulp16(double x) {
  int e;
  frexp(fabs(x) + 1e-30, &e);
  return ldexp(1.0, e - (BF16 ? 8 : 11));
}
int main(void) {
  static float a[KC * MR], b[KC * NR], c[(MR + 1) * LDC], bias[MR + NR],
      res[MR * LDR];
  static uint16_t out[(MR + 1) * LDO];
  static unsigned char block[%(block)d] __attribute__((aligned(64)));
  for (int i = 0; i < KC * MR; ++i) a[i] = (float)(val(i, 1) / 4);
  for (int i = 0; i < KC * NR; ++i) b[i] = (float)(val(i, 2) / 4);
  for (int i = 0; i < MR + NR; ++i) bias[i] = (float)val(i, 3);
  for (int i = 0; i < MR * LDR; ++i) res[i] = (float)val(i, 4);
  for (unsigned i = 0; i < sizeof consts / sizeof consts[0] - 1; ++i)
    for (int l = 0; l < 16; ++l)
      ((float *)(block + 64 + 64 * i))[l] = (float)consts[i];
  uint64_t header[5] = {(uint64_t)(uintptr_t)bias, (uint64_t)(uintptr_t)res,
                        LDR * 4, (uint64_t)(uintptr_t)out, LDO * 2};
  memcpy(block, header, sizeof header);
  int failures = 0, inexact = 0, total = 0;
  for (int m = 1; m <= MR; ++m)
    for (int n = 1; n <= NR; ++n) {
      for (int i = 0; i < (MR + 1) * LDC; ++i) c[i] = (float)(val(i, 5) / 2);
      for (int i = 0; i < (MR + 1) * LDO; ++i) out[i] = (uint16_t)(0x7fc1 + i);
      float old[(MR + 1) * LDC];
      memcpy(old, c, sizeof old);
      ukernel(a, b, c, KC, LDC * 4, m, n, block);
      if (memcmp(old, c, sizeof old)) ++failures; /* C is not written */
      for (int r = 0; r <= MR; ++r)
        for (int j = 0; j < LDO; ++j) {
          uint16_t got = out[r * LDO + j];
          if (r >= m || j >= n) {
            if (got != (uint16_t)(0x7fc1 + r * LDO + j)) ++failures;
            continue;
          }
          double x = STORE ? 0 : old[r * LDC + j];
          for (int k = 0; k < KC; ++k) x += (double)a[k * MR + r] * b[k * NR + j];
          %(steps)s
          double g = from16(got), want = round16(x);
          ++total;
          /* the kernel's fp32 value errs by ~1e-6 relative before its one
             rounding, so near a tie it may round to the neighbour */
          if (g != want) {
            ++inexact;
            if (!(fabs(g - want) <= ulp16(x) && fabs(g - x) <= ulp16(x) * 0.5 + 4e-6 * (1 + fabs(x))))
              ++failures;
          }
        }
    }
  printf("failures %%d inexact %%d of %%d\n", failures, inexact, total);
  return failures != 0;
}
"""


class TestX86EpilogueOut(unittest.TestCase):
    def run_case(self, mr, nr, steps, kc=37, store=False):
        spec = {"kernel": "gemm_f32", "isa": "avx512", "mr": mr, "nr": nr,
                "epilogue": steps}
        if store:
            spec["c_update"] = "store"
        info = json.loads(subprocess.run([sys.executable, EMITTER], input=json.dumps(spec),
                                         capture_output=True, text=True, check=True).stdout)
        asm = subprocess.run([sys.executable, EMITTER, "--format=function", "--symbol",
                              "ukernel"], input=json.dumps(spec), capture_output=True,
                             text=True, check=True).stdout
        consts = "".join("%r, " % v for v in info["epilogue_constants"])
        bf16 = steps[-1] == "to_bf16"
        driver = DRIVER % dict(mr=mr, nr=nr, kc=kc, consts=consts, store=int(store),
                               bf16=int(bf16), block=info["epilogue_block_bytes"],
                               steps=reference_code(steps[:-1]))
        with tempfile.TemporaryDirectory() as tmp:
            paths = [os.path.join(tmp, n) for n in ("k.s", "d.c", "t")]
            for path, text in ((paths[0], asm), (paths[1], driver)):
                with open(path, "w") as f:
                    f.write(text)
            subprocess.run([CC, "-O1", "-mavx512f", "-mavx512bw", "-mavx512bf16",
                            paths[1], paths[0], "-o", paths[2], "-lm"], check=True)
            p = subprocess.run([paths[2]], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, "%dx%d %s: %s" % (mr, nr, steps, p.stdout))
        return p.stdout

    def test_cases(self):
        if not CC or not HAVE_BF16:
            self.skipTest("no C compiler or no AVX512_BF16")
        for mr, nr, steps, store in [
                (6, 64, ["to_bf16"], True),
                (4, 48, ["bias_n", "gelu_tanh", "residual", "to_bf16"], False),
                (3, 32, ["bias_m", "relu", "to_f16"], False),
                (2, 16, ["silu", "to_f16"], True)]:
            with self.subTest(mr=mr, nr=nr, steps=steps, store=store):
                text = self.run_case(mr, nr, steps, store=store)
                # Most elements are exact (the reference rounds the same).
                fields = text.split()
                inexact, total = int(fields[3]), int(fields[5])
                self.assertLess(inexact, total // 4, text)

    def test_refusals(self):
        for spec, word in [
                ({"isa": "avx2", "mr": 4, "nr": 16, "epilogue": ["to_bf16"]}, "avx512"),
                ({"isa": "avx512", "mr": 4, "nr": 16, "epilogue": ["to_bf16", "relu"]},
                 "must be the last")]:
            spec["kernel"] = "gemm_f32"
            p = subprocess.run([sys.executable, EMITTER], input=json.dumps(spec),
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 2, p.stdout)
            self.assertIn(word, p.stderr)


if __name__ == "__main__":
    unittest.main()
