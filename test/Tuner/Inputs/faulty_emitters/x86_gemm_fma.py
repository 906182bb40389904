#!/usr/bin/env python3
"""Fault injection for tuner tests: wraps the shipped x86 emitter.

The first distinct kernel this emitter prints (counted in the file named by
TENSOROP_TEST_FAULT_COUNTER) is the real one (the first
TENSOROP_TEST_FAULT_AFTER ones, if set: a convolution's sketch has several
kernels); every later one carries the fault named by TENSOROP_TEST_FAULT:
  segv   dereferences address 0              -> the worker crashes
  hang   loops forever                       -> the worker is killed (timeout)
  wrong  computes with kc - 1                -> wrong answer
  oob    writes 256 bytes before C           -> out of bounds
  badasm prints a bogus instruction          -> compile error
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(HERE, "..", "..", "..", "..", "python_emitters", "x86_gemm_fma.py")

spec_text = sys.stdin.read()
real = subprocess.run([sys.executable, REAL], input=spec_text, capture_output=True, text=True)
if real.returncode != 0:
    sys.stdout.write(real.stdout)
    sys.stderr.write(real.stderr)
    sys.exit(real.returncode)
out = json.loads(real.stdout)

counter = os.environ["TENSOROP_TEST_FAULT_COUNTER"]
n = int(open(counter).read() or "0") if os.path.exists(counter) else 0
with open(counter, "w") as f:
    f.write(str(n + 1))

real = int(os.environ.get("TENSOROP_TEST_FAULT_AFTER", "1"))
fault = os.environ.get("TENSOROP_TEST_FAULT", "none") if n >= real else "none"
prefix = {
    "none": "",
    "segv": "  movq $$0, %rax\n  movq (%rax), %rax\n",
    "hang": "77:\n  jmp 77b\n",
    "wrong": "  subq $$1, $3\n",
    "oob": "  movl $$0, -256($2)\n",
    "badasm": "  vfmaddnonsense %zmm0, %zmm1\n",
}[fault]
out["asm"] = prefix + out["asm"]
print(json.dumps(out))
