#!/usr/bin/env python3
"""llvm-mca estimates of OpenBLAS's RVV and NEON sgemm inner K loops, side by
side with TensorOp's own microkernels under the same models.

How each OpenBLAS loop is obtained (README.md says the same in prose):

* RVV C intrinsic kernels (sgemm_kernel_8x8_zvl128b.c, sgemm_kernel_16x8_zvl256b.c,
  gemmkernel_rvv_v1x8.c): compiled as they are with clang-22 -O2 (OpenBLAS's
  default optimisation level) -mcpu=spacemit-x60 against the minimal common.h
  next to this script; the loop is the one whose back edge branches to its
  own header label and that holds the most vector FMAs (the main-pass K loop).
* C910V (sgemm_kernel_16x4_c910v.c): inline asm for XTheadVector (RVV 0.7.1),
  which LLVM 22 cannot assemble.  The steady-state loop (M16x4_MAINLOOP: the
  KERNEL16x4_M1/M2 macro strings, 4 pairs, then "addi t0; bgtz") is rebuilt
  from the macro strings, %[PA]/%[PB] become a0/a1, and the one mnemonic that
  is not RVV 1.0, "vle.v", becomes "vle32.v" (under the kernel's
  "vsetvli zero, zero, e32, m1" both load SEW=32 elements unit-stride).  Every
  other instruction and the order are unchanged.
* NEON (sgemm_kernel_16x4.S, what KERNEL.NEOVERSEN1 and KERNEL.CORTEXA76 -> 
  KERNEL.CORTEXA57 select with param.h's SGEMM_DEFAULT_UNROLL 16x4): clang-22 -E
  with the same common.h, the .macro bodies expanded, the loop
  .Lsgemm_kernel_L4_M16_22 .. "bgt .Lsgemm_kernel_L4_M16_22" cut out.

These are model estimates of inner loops, not measurements.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "python_emitters"))

import mca_estimate as mca  # noqa: E402

DEFAULT_OPENBLAS = "/work/.mirror/OpenMathLib+OpenBLAS/repo"
DEFAULT_REV = "72461f1c8c11bb6fca450388e5c4bc966f9e4048"

FMA = re.compile(r"^\s*(vfmacc\.v[fv]|vfmadd\.v[fv]|fmla)\b")
X60_VLEN = 256

# OpenBLAS RVV C kernels: (file, OpenBLAS core, LMUL, vector FMAs per k step,
# flops per k step on the VLEN-256 X60, how that count follows from the source)
RVV_C = [
    ("kernel/riscv64/sgemm_kernel_8x8_zvl128b.c", "RISCV64_ZVL128B", 2, 8,
     2 * 8 * 8, "8x8, m2, vl = vsetvl_e32m2(8) = 8"),
    ("kernel/riscv64/sgemm_kernel_16x8_zvl256b.c", "RISCV64_ZVL256B", 1, 16,
     2 * 16 * 8, "16x8, m1, vl = vsetvl_e32m1(8) = 8, two A vectors"),
    ("kernel/riscv64/gemmkernel_rvv_v1x8.c", "x280", 2, 8,
     2 * (2 * X60_VLEN // 32) * 8, "VLMAX(e32m2) x 8 = 16x8 at VLEN 256"),
]
C910V = ("kernel/riscv64/sgemm_kernel_16x4_c910v.c", "C910V", 1, 2 * 16 * 4,
         "16x4, m1 at VLEN 128 (4 lanes: the packing steps 4 floats per vector)")
NEON = ("kernel/arm64/sgemm_kernel_16x4.S", "NEOVERSEN1 / CORTEXA76", 2 * 16 * 4)

NEON_CPUS = [("cortex-a72", "cortex-a72"), ("cortex-a76", "cortex-a76"),
             ("neoverse-n1", "cortex-a76")]


def read_source(src, rev, path):
    if os.path.isdir(os.path.join(src, "kernel")):
        with open(os.path.join(src, path)) as f:
            return f.read()
    return subprocess.run(["git", "-C", src, "show", "%s:%s" % (rev, path)], check=True,
                          capture_output=True, text=True).stdout


def self_loop(asm, comment):
    """The loop whose back edge branches to its own header label, with the most FMAs.

    Unlike mca_estimate.c_inner_loop the header's block may continue past the
    back edge (a "j" to the loop exit), so the body is cut at the first branch
    to the header."""
    lines = asm.split("\n")
    best = None
    for i, line in enumerate(lines):
        m = re.match(r"^(\.?[A-Za-z_$.][\w$.]*):", line)
        if not m:
            continue
        name, body = m.group(1), []
        for raw in lines[i + 1:]:
            if re.match(r"^(\.?[A-Za-z_$.][\w$.]*):", raw) or \
                    re.match(r"^\s*(#|//)\s*%bb\.[0-9]+:", raw):
                body = None  # another block inside: not a single-block loop
                break
            s = raw.split(comment)[0].rstrip()
            if not s.strip() or s.strip().startswith("."):
                continue
            body.append(s)
            if re.search(r"(?<![\w.$])%s(?![\w.$])" % re.escape(name), s):
                break
        else:
            body = None
        if not body or not re.search(r"(?<![\w.$])%s(?![\w.$])" % re.escape(name), body[-1]):
            continue
        nfma = sum(1 for s in body if FMA.match(s))
        if nfma and (best is None or nfma > best[2]):
            best = (name, body, nfma)
    if best is None:
        raise RuntimeError("no single-block loop with a vector FMA found")
    return [best[0] + ":"] + best[1]


def c910v_loop(src):
    """M16x4_MAINLOOP rebuilt from the KERNEL16x4_M1/M2 macro strings."""
    macros = {}
    for m in re.finditer(r"#define\s+(KERNEL16x4_M[12])\s*\\\n((?:[ \t]*\".*\"\s*\\?\n)+)", src):
        macros[m.group(1)] = re.findall(r"\"([^\"]*)\\n\\t\"", m.group(2))
    body = []
    for _ in range(4):
        body += macros["KERNEL16x4_M1"] + macros["KERNEL16x4_M2"]
    # the loop's own tail, as in the source
    body += ["addi       t0,   t0, -1", "bgtz       t0,   M16x4_MAINLOOP"]
    out = ["M16x4_MAINLOOP:"]
    for s in body:
        s = s.replace("%[PA]", "a0").replace("%[PB]", "a1")
        s = re.sub(r"^(\s*)vle\.v\b", r"\1vle32.v", s)  # 0.7.1 -> 1.0 under e32
        out.append("  " + " ".join(s.split()))
    return out


def neon_loop(preprocessed):
    """.Lsgemm_kernel_L4_M16_22 with its macros expanded."""
    macros, cur, name = {}, None, None
    lines = preprocessed.split("\n")
    for line in lines:
        s = line.strip()
        if s.startswith(".macro"):
            name, cur = s.split()[1], []
        elif s.startswith(".endm"):
            macros[name], cur = cur, None
        elif cur is not None and s and not s.startswith("//"):
            cur.append(s)
    start = lines.index(".Lsgemm_kernel_L4_M16_22:")
    out = ["mca_loop:"]
    for line in lines[start + 1:]:
        s = line.strip()
        if not s or s.startswith((".align", "//")):
            continue
        if s in macros:
            out += ["  " + x for x in macros[s]]
            continue
        if s.startswith("bgt"):
            out.append("  bgt mca_loop")
            break
        out.append("  " + s)
    return out


def mca_cycles(body, triple, cpu, iterations, keep, lmul=None):
    if lmul:
        body = body[:1] + ["# LLVM-MCA-RISCV-LMUL M%d" % lmul, "# LLVM-MCA-RISCV-SEW E32"] \
            + body[1:]
    cyc, cmd = mca.run_mca(body, triple, cpu, iterations, keep)
    return cyc, " ".join(cmd) + " < " + os.path.relpath(keep, ROOT)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--openblas", default=DEFAULT_OPENBLAS,
                    help="OpenBLAS source tree or git dir (default: %(default)s)")
    ap.add_argument("--rev", default=DEFAULT_REV, help="commit when --openblas is a git dir")
    ap.add_argument("--keep", default=os.path.join(ROOT, "docs", "estimates", "loops"))
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--show-commands", action="store_true")
    args = ap.parse_args()
    clang = mca.tool("clang")
    os.makedirs(args.keep, exist_ok=True)
    rows, cmds = [], []  # (cpu, loop, cycles per k, flops per k, peak)

    def keep(cpu, name):
        return os.path.join(args.keep, "%s_openblas_%s.s" % (cpu, name))

    # ours, as in cpu-cross-estimates.md
    ours = {}
    for hints, triple, cpu, peak_cpu, _, kernels, _ in mca.TARGETS:
        peak = mca.peak_flops_per_cycle(hints, peak_cpu)
        regs = mca.RV_REGS if triple == "riscv64" else mca.A64_REGS
        for emitter, spec, _label in kernels[:1] + [k for k in kernels if "vlen_min" in k[1]]:
            o = mca.emit(emitter, spec)
            body = mca.kernel_loop(o, regs)
            cyc, cmd = mca_cycles(body, triple, cpu, args.iterations,
                                  os.path.join(args.keep, "%s_%s.s" % (cpu, o["name"])),
                                  o.get("lmul"))
            ours[(cpu, o["name"])] = (cyc / o["k_unroll"], o["flops_per_k"], peak)

    with tempfile.TemporaryDirectory() as tmp:
        # RVV C intrinsic kernels
        peak = mca.peak_flops_per_cycle("riscv-rvv", "spacemit-x60")
        for path, core, lmul, fma_per_k, flops, why in RVV_C:
            cfile = os.path.join(tmp, os.path.basename(path))
            with open(cfile, "w") as f:
                f.write(read_source(args.openblas, args.rev, path))
            cc = [clang, "--target=riscv64-linux-gnu", "-mcpu=spacemit-x60", "-O2",
                  "-I", HERE, "-S", cfile, "-o", "-"]
            p = subprocess.run(cc, capture_output=True, text=True)
            if p.returncode:
                sys.exit("clang failed on %s:\n%s" % (path, p.stderr))
            body = self_loop(p.stdout, "#")
            ksteps = sum(1 for s in body if FMA.match(s)) // fma_per_k
            name = os.path.splitext(os.path.basename(path))[0]
            cyc, cmd = mca_cycles(body, "riscv64", "spacemit-x60", args.iterations,
                                  keep("spacemit-x60", name), lmul)
            rows.append(("spacemit-x60", "OpenBLAS %s `%s` (%s)" % (core, name, why),
                         cyc / ksteps, flops, peak))
            cmds.append("clang-22 --target=riscv64-linux-gnu -mcpu=spacemit-x60 -O2 "
                        "-I docs/estimates/openblas -S %s" % os.path.basename(path))
            cmds.append(cmd)
        # C910V: XTheadVector asm, rebuilt as RVV 1.0
        path, core, lmul, flops, why = C910V
        body = c910v_loop(read_source(args.openblas, args.rev, path))
        ksteps = sum(1 for s in body if FMA.match(s)) // 16
        cyc, cmd = mca_cycles(body, "riscv64", "spacemit-x60", args.iterations,
                              keep("spacemit-x60", "sgemm_kernel_16x4_c910v_as_rvv10"), lmul)
        rows.append(("spacemit-x60", "OpenBLAS %s `sgemm_kernel_16x4_c910v` asm, vle.v -> "
                     "vle32.v (%s)" % (core, why), cyc / ksteps, flops, peak))
        cmds.append(cmd)
        # NEON
        path, core, flops = NEON
        sfile = os.path.join(tmp, os.path.basename(path))
        with open(sfile, "w") as f:
            f.write(read_source(args.openblas, args.rev, path))
        p = subprocess.run([clang, "--target=aarch64-linux-gnu", "-E", "-P", "-I", HERE,
                            "-x", "assembler-with-cpp", sfile, "-o", "-"],
                           capture_output=True, text=True)
        if p.returncode:
            sys.exit("clang -E failed on %s:\n%s" % (path, p.stderr))
        body = neon_loop(p.stdout)
        ksteps = sum(1 for s in body if FMA.match(s)) // 16
        for cpu, peak_cpu in NEON_CPUS:
            peak = mca.peak_flops_per_cycle("arm-neon", peak_cpu)
            cyc, cmd = mca_cycles(body, "aarch64", cpu, args.iterations,
                                  keep(cpu, "sgemm_kernel_16x4"))
            rows.append((cpu, "OpenBLAS %s `sgemm_kernel_16x4.S` (16x4)" % core,
                         cyc / ksteps, flops, peak))
            cmds.append(cmd)
    cmds.insert(0, "clang-22 --target=aarch64-linux-gnu -E -P -I docs/estimates/openblas "
                "-x assembler-with-cpp sgemm_kernel_16x4.S")
    print_table(ours, rows)
    if args.show_commands:
        print()
        for c in cmds:
            print(c)
    return 0


# which of our kernels each OpenBLAS row is compared with
OURS_FOR = {
    "RISCV64_ZVL128B": "rvv_f32_6x16_u4_m4_vlen128",
    "C910V": "rvv_f32_6x16_u4_m4_vlen128",
    "RISCV64_ZVL256B": "rvv_f32_6x32_u4_m4_vlen256",
    "x280": "rvv_f32_6x32_u4_m4_vlen256",
    "NEOVERSEN1": "neon_f32_8x12_u4",
}


def print_table(ours, rows):
    print("| CPU model (-mcpu) | loop | cycles / k step | flops / k step | flops / cycle | "
          "of FMA peak | ours / OpenBLAS |")
    print("|---|---|---:|---:|---:|---:|---:|")
    cpus = []
    for r in rows:
        if r[0] not in cpus:
            cpus.append(r[0])
    for cpu in cpus:
        for (c, name), (cyc, flops, peak) in ours.items():
            if c == cpu:
                print("| %s | TensorOp `%s` | %.2f | %d | %.2f | %.0f%% | |"
                      % (cpu, name, cyc, flops, flops / cyc, 100 * flops / cyc / peak))
        for c, what, cyc, flops, peak in rows:
            if c != cpu:
                continue
            core = next(k for k in OURS_FOR if k in what)
            ocyc, oflops, _ = ours[(cpu, OURS_FOR[core])]
            ratio = (oflops / ocyc) / (flops / cyc)
            print("| %s | %s | %.2f | %d | %.2f | %.0f%% | %.2fx (`%s`) |"
                  % (cpu, what, cyc, flops, flops / cyc, 100 * flops / cyc / peak, ratio,
                     OURS_FOR[core]))


if __name__ == "__main__":
    sys.exit(main())
