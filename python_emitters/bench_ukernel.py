#!/usr/bin/env python3
"""Single-thread throughput check of x86_gemm_fma.py microkernels.

Builds each kernel with --format=function together with
test/python_emitters/ukernel_harness.c, calls it repeatedly with the packed A
and B panels and the C tile cache resident (m_rem = mr, n_rem = nr), and
prints GFLOP/s next to the measured register-only FMA peak of this core.

  python3 python_emitters/bench_ukernel.py                 # default kernels, kc 64 and 256
  python3 python_emitters/bench_ukernel.py --kc 256 --spec '{"isa":"avx512","mr":6,"nr":64}'
  python3 python_emitters/bench_ukernel.py --peak-only     # the peak line alone

Not a test: numbers depend on the machine and its load.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EMITTER = os.path.join(HERE, "x86_gemm_fma.py")
HARNESS = os.path.join(ROOT, "test", "python_emitters", "ukernel_harness.c")

DEFAULT_SPECS = [
    {"isa": "avx512", "mr": 6, "nr": 64, "broadcast": "explicit"},
    {"isa": "avx512", "mr": 6, "nr": 64, "broadcast": "embedded"},
    {"isa": "avx512", "mr": 14, "nr": 32, "broadcast": "explicit"},
    {"isa": "avx512", "mr": 8, "nr": 48, "broadcast": "explicit"},
    {"isa": "avx2", "mr": 6, "nr": 16, "broadcast": "explicit"},
]


def find_cc():
    for cc in ("clang-22", "/usr/lib/llvm-22/bin/clang", "clang", "gcc", "cc"):
        if shutil.which(cc):
            return cc
    sys.exit("no C compiler found")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", action="append", default=[],
                    help="JSON spec (kernel defaults to gemm_f32); repeatable")
    ap.add_argument("--kc", default="64,256", help="comma-separated kc values")
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    ap.add_argument("--cc", default=None, help="C compiler (default clang-22)")
    ap.add_argument("--peak-only", action="store_true",
                    help="print the clock and the register-only peak, no kernel")
    args = ap.parse_args()
    cc = args.cc or find_cc()
    specs = [json.loads(s) for s in args.spec] or DEFAULT_SPECS
    kcs = [int(x) for x in args.kc.split(",")]
    with tempfile.TemporaryDirectory(prefix="bench_ukernel_") as tmp:
        exe0 = os.path.join(tmp, "peak")
        # the peak mode needs some ukernel symbol to link: a trivial one
        stub = os.path.join(tmp, "stub.c")
        with open(stub, "w") as f:
            f.write("void ukernel(const float*a,const float*b,float*c,long k,long l,"
                    "long m,long n){(void)a;(void)b;(void)c;(void)k;(void)l;(void)m;"
                    "(void)n;}\n")
        subprocess.run([cc, "-O2", HARNESS, stub, "-o", exe0, "-lm"], check=True)
        peak = subprocess.run([exe0, "peak"], check=True, capture_output=True,
                              text=True).stdout.split()
        ghz, zpeak, ypeak = float(peak[1]), float(peak[3]), float(peak[5])
        print("core clock %.2f GHz; register-only FMA peak: zmm %.1f GFLOP/s, ymm %.1f GFLOP/s"
              % (ghz, zpeak, ypeak))
        if args.peak_only:
            return
        print("%-40s %6s %10s %8s" % ("kernel", "kc", "GFLOP/s", "% peak"))
        for spec in specs:
            spec = dict({"kernel": "gemm_f32"}, **spec)
            src = os.path.join(tmp, "k.s")
            with open(src, "w") as f:
                subprocess.run([sys.executable, EMITTER, "--format=function",
                                "--symbol", "ukernel"], input=json.dumps(spec),
                               stdout=f, check=True, text=True)
            name = json.loads(subprocess.run(
                [sys.executable, EMITTER], input=json.dumps(spec), check=True,
                capture_output=True, text=True).stdout)["name"]
            exe = os.path.join(tmp, "bench")
            subprocess.run([cc, "-O2", HARNESS, src, "-o", exe, "-lm"], check=True)
            pk = zpeak if spec["isa"] == "avx512" else ypeak
            for kc in kcs:
                out = subprocess.run([exe, "bench", str(spec["mr"]), str(spec["nr"]),
                                      str(kc), str(args.seconds)], check=True,
                                     capture_output=True, text=True).stdout.split()
                gf = float(out[1])
                print("%-40s %6d %10.1f %7.1f%%" % (name, kc, gf, 100.0 * gf / pk))
                sys.stdout.flush()


if __name__ == "__main__":
    main()
