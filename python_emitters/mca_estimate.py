#!/usr/bin/env python3
"""llvm-mca estimates of the RVV and NEON GEMM microkernels' K loops.

For each microkernel (riscv_gemm_rvv.py, arm_gemm_neon.py) the unrolled
inner K loop (from label "1:" to its back edge) is cut out of the emitted
asm, its operands are given the --format=function registers, and llvm-mca-22
runs it for the target CPU.  Next to it: the vectorised inner loop that
clang-22 -O3 makes of a plain C GEMM (i-k-j order, so the j loop vectorises)
for the same CPU, cut out of clang -S output (the single-block loop that
contains the vector FMA).

Reported per loop: cycles per iteration (Total Cycles / iterations; for a
microkernel per k step = per rank-1 update of the mr x nr tile), useful flops
per iteration, flops per cycle and the fraction of the FMA peak of that CPU
(from hints/*.json: fma.flops_per_cycle_f32, or "other_cpus" entries).

These are model estimates from LLVM's scheduling models, not measurements.

  python3 python_emitters/mca_estimate.py              # plain-text table
  python3 python_emitters/mca_estimate.py --markdown   # the table in docs/estimates/
  python3 python_emitters/mca_estimate.py --show-commands

Caveats printed with --markdown: llvm-mca-22 maps -mcpu=cortex-a76 onto the
Cortex-A57 model (the same as cortex-a72), so neoverse-n1 (the A76-derived
core, with its own model) is shown as the A76-class estimate too.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from tensorop_emit.common import substitute_operands  # noqa: E402

LLVM_BIN = "/usr/lib/llvm-22/bin"


def tool(name):
    for cand in (name + "-22", os.path.join(LLVM_BIN, name)):
        p = shutil.which(cand) or (cand if os.path.isfile(cand) else None)
        if p:
            return p
    sys.exit("%s-22 not found" % name)


RV_REGS = ["a0", "a1", "a2", "a3", "a4", "a5", "a6"]
A64_REGS = ["x0", "x1", "x2", "x3", "x4", "x5", "x6"]

# (emitter, spec, label)
RVV_KERNELS = [
    ("riscv_gemm_rvv.py", {"isa": "rvv", "mr": 6, "nr": 16}, "default"),
    ("riscv_gemm_rvv.py", {"isa": "rvv", "mr": 7, "nr": 16}, ""),
    ("riscv_gemm_rvv.py", {"isa": "rvv", "mr": 14, "nr": 8}, ""),
    ("riscv_gemm_rvv.py", {"isa": "rvv", "mr": 15, "nr": 8}, ""),
    ("riscv_gemm_rvv.py", {"isa": "rvv", "mr": 2, "nr": 32}, ""),
    ("riscv_gemm_rvv.py", {"isa": "rvv", "mr": 6, "nr": 32, "vlen_min": 256},
     "VLEN >= 256 only"),
    ("riscv_gemm_rvv.py", {"isa": "rvv", "mr": 14, "nr": 16, "vlen_min": 256},
     "VLEN >= 256 only"),
]
NEON_KERNELS = [
    ("arm_gemm_neon.py", {"isa": "neon", "mr": 8, "nr": 12}, "default"),
    ("arm_gemm_neon.py", {"isa": "neon", "mr": 12, "nr": 8}, ""),
    ("arm_gemm_neon.py", {"isa": "neon", "mr": 6, "nr": 16}, ""),
    ("arm_gemm_neon.py", {"isa": "neon", "mr": 4, "nr": 16}, ""),
]

# target: (hints file, mca triple, mca cpu, cpu whose FMA peak applies,
# clang flags, kernels, VLEN for the scalable C loop or None)
TARGETS = [
    ("riscv-rvv", "riscv64", "spacemit-x60", "spacemit-x60",
     ["--target=riscv64-linux-gnu", "-mcpu=spacemit-x60"], RVV_KERNELS, 256),
    ("arm-neon", "aarch64", "cortex-a72", "cortex-a72",
     ["--target=aarch64-linux-gnu", "-mcpu=cortex-a72"], NEON_KERNELS, None),
    ("arm-neon", "aarch64", "cortex-a76", "cortex-a76",
     ["--target=aarch64-linux-gnu", "-mcpu=cortex-a76"], NEON_KERNELS, None),
    # llvm-mca-22 runs cortex-a76 on the Cortex-A57 model; Neoverse N1 is the
    # A76-derived core with its own model: the A76-class estimate
    ("arm-neon", "aarch64", "neoverse-n1", "cortex-a76",
     ["--target=aarch64-linux-gnu", "-mcpu=cortex-a76"], NEON_KERNELS, None),
]

PLAIN_GEMM_C = r"""
void gemm_ikj(long M, long N, long K, const float *restrict A,
              const float *restrict B, float *restrict C) {
  for (long i = 0; i < M; i++)
    for (long k = 0; k < K; k++) {
      float a = A[i * K + k];
      for (long j = 0; j < N; j++)
        C[i * N + j] += a * B[k * N + j];
    }
}
"""

FMA_RE = re.compile(r"^\s*(vfmacc\.v[fv]|vfmadd\.v[fv]|fmla)\b")


def peak_flops_per_cycle(hints_name, cpu):
    with open(os.path.join(ROOT, "hints", hints_name + ".json")) as f:
        h = json.load(f)
    if h.get("cpu") == cpu:
        return h["fma"]["flops_per_cycle_f32"]
    for other in h.get("other_cpus", []):
        if other["cpu"] == cpu:
            return other["flops_per_cycle_f32"]
    raise KeyError("no FMA peak for %s in hints/%s.json" % (cpu, hints_name))


def emit(emitter, spec):
    s = dict(spec, kernel="gemm_f32")
    p = subprocess.run([sys.executable, os.path.join(HERE, emitter)], input=json.dumps(s),
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit("emitter failed: %s" % p.stderr)
    return json.loads(p.stdout)


def kernel_loop(o, regs):
    """The unrolled K loop of an emitted kernel, ready for llvm-mca."""
    lines = substitute_operands(o["asm"], regs).split("\n")
    start = lines.index("1:")
    end = next(i for i in range(start + 1, len(lines)) if re.search(r"\b1b\b", lines[i]))
    body = []
    for line in lines[start + 1:end + 1]:
        s = line.strip()
        if not s or s.startswith(("#", "//", ".")):
            continue
        # llvm-mca cannot resolve numeric local labels: name the loop
        body.append(re.sub(r"\b[12][bf]\b", "mca_loop", line))
    # keep the trailing back edge ("bltz ...; j 1b" form has two branches)
    return ["mca_loop:"] + body


def c_inner_loop(asm_text, comment):
    """The single-block loop with the most vector FMAs in clang -S output."""
    blocks, name, cur = [], None, []
    for line in asm_text.split("\n"):
        m = re.match(r"^(\.?[A-Za-z_$.][\w$.]*):", line)
        # "# %bb.7:" / "// %bb.7:" comments start unnamed (fall-through) blocks
        if m or re.match(r"^\s*(#|//)\s*%bb\.[0-9]+:", line):
            if name:
                blocks.append((name, cur))
            name, cur = (m.group(1) if m else None), []
            continue
        s = line.strip()
        if not s or s.startswith(("#", "//", ".")):
            continue
        cur.append(line.split(comment)[0].rstrip())
    if name:
        blocks.append((name, cur))
    best = None
    for name, body in blocks:
        if not body or not re.search(r"(?<![\w.$])%s(?![\w.$])" % re.escape(name), body[-1]):
            continue
        nfma = sum(1 for l in body if FMA_RE.match(l))
        if nfma and (best is None or nfma > best[2]):
            best = (name, body, nfma)
    if best is None:
        raise RuntimeError("no vectorised single-block loop with an FMA found")
    name, body, _ = best
    return [name + ":"] + body


def c_loop_flops(body, vlen):
    flops = 0
    lmul = 1
    for line in body:
        m = re.search(r"vsetvli\s+[^,]+,\s*[^,]+,\s*e32,\s*m([1248])", line)
        if m:
            lmul = int(m.group(1))
    for line in body:
        m = FMA_RE.match(line)
        if not m:
            continue
        if m.group(1) == "fmla":
            lanes = 4 if ".4s" in line else 2 if ".2s" in line else 1
        else:
            lanes = lmul * vlen // 32
        flops += 2 * lanes
    return flops


def run_mca(body, triple, cpu, iterations, keep=None):
    src = "\n".join(body) + "\n"
    if keep:
        with open(keep, "w") as f:
            f.write(src)
    cmd = ["llvm-mca-22", "-mtriple=" + triple, "-mcpu=" + cpu,
           "-iterations=%d" % iterations]
    p = subprocess.run([tool("llvm-mca")] + cmd[1:], input=src, capture_output=True,
                       text=True)
    m = re.search(r"Total Cycles:\s+(\d+)", p.stdout)
    if p.returncode or not m:
        raise RuntimeError("llvm-mca failed (%s):\n%s\n%s" % (" ".join(cmd), p.stderr, src))
    return int(m.group(1)) / iterations, cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("--show-commands", action="store_true",
                    help="print the llvm-mca / clang commands")
    ap.add_argument("--keep", metavar="DIR", help="write each loop given to llvm-mca here")
    args = ap.parse_args()
    clang = tool("clang")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        with open(os.path.join(args.keep, "gemm.c"), "w") as f:
            f.write(PLAIN_GEMM_C.lstrip())
    rows, commands = [], []
    with tempfile.TemporaryDirectory() as tmp:
        cpath = os.path.join(tmp, "gemm.c")
        with open(cpath, "w") as f:
            f.write(PLAIN_GEMM_C)
        for hints, triple, cpu, peak_cpu, cflags, kernels, vlen in TARGETS:
            peak = peak_flops_per_cycle(hints, peak_cpu)
            regs = RV_REGS if triple == "riscv64" else A64_REGS
            for emitter, spec, label in kernels:
                o = emit(emitter, spec)
                body = kernel_loop(o, regs)
                if triple == "riscv64":
                    # the K loop runs under the vsetvli before it: tell
                    # llvm-mca its LMUL/SEW with instrument comments
                    body[1:1] = ["# LLVM-MCA-RISCV-LMUL M%d" % o["lmul"],
                                 "# LLVM-MCA-RISCV-SEW E32"]
                keep = os.path.join(args.keep, "%s_%s.s" % (cpu, o["name"])) if args.keep \
                    else None
                cyc_iter, cmd = run_mca(body, triple, cpu, args.iterations, keep)
                cyc = cyc_iter / o["k_unroll"]
                flops = o["flops_per_k"]
                rows.append((cpu, o["name"] + (" (%s)" % label if label else ""),
                             "k step", cyc, flops, flops / cyc, flops / cyc / peak))
                commands.append(" ".join(cmd) + " < " + (os.path.relpath(keep, ROOT) if keep
                                                         else "%s_loop.s" % o["name"]))
            ccmd = [clang] + cflags + ["-O3", "-S", cpath, "-o", "-"]
            p = subprocess.run(ccmd, capture_output=True, text=True)
            if p.returncode:
                sys.exit("clang failed: %s" % p.stderr)
            body = c_inner_loop(p.stdout, "#" if triple == "riscv64" else "//")
            flops = c_loop_flops(body, vlen or 128)
            keep = os.path.join(args.keep, "%s_clang_ikj.s" % cpu) if args.keep else None
            cyc, cmd = run_mca(body, triple, cpu, args.iterations, keep)
            what = "clang -O3 %s i-k-j loop" % " ".join(cflags[1:])
            unit = "vector iter" + (" (VLEN %d)" % vlen if vlen else "")
            rows.append((cpu, what, unit, cyc, flops, flops / cyc, flops / cyc / peak))
            commands.append(" ".join(["clang-22"] + cflags + ["-O3", "-S", "gemm.c"]))
            commands.append(" ".join(cmd) + " < " + (os.path.relpath(keep, ROOT) if keep
                                                     else "inner_loop.s"))
    if args.markdown:
        print("| CPU model (-mcpu) | loop | unit | cycles / iter | flops / iter | "
              "flops / cycle | of FMA peak |")
        print("|---|---|---|---:|---:|---:|---:|")
        for cpu, what, unit, cyc, flops, fpc, frac in rows:
            print("| %s | %s | %s | %.2f | %d | %.2f | %.0f%% |"
                  % (cpu, what, unit, cyc, flops, fpc, 100 * frac))
    else:
        for cpu, what, unit, cyc, flops, fpc, frac in rows:
            print("%-12s %-58s %-20s %8.2f cyc %5d flop %6.2f flop/cyc %4.0f%%"
                  % (cpu, what, unit, cyc, flops, fpc, 100 * frac))
    if args.show_commands:
        print()
        for c in commands:
            print(c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
