"""Shared helpers for the RISC-V RVV and AArch64 NEON emitter tests.

Not a test module itself (no test_ prefix): test_riscv_gemm_rvv.py and
test_arm_gemm_neon.py import it; test_x86_gemm_fma.py takes ir_module from it
too (the same two-call inline-asm module, x86 target features).  Tools are
looked up once; every helper that needs a missing tool lets the caller skip
with a message naming it.

Numeric checks reuse ukernel_harness.c unchanged (its check mode is plain
POSIX C): it is cross-compiled statically with clang-22 and run under
qemu-user.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EMITTER_DIR = os.path.join(ROOT, "python_emitters")
HARNESS = os.path.join(HERE, "ukernel_harness.c")
HINTS_DIR = os.path.join(ROOT, "hints")

sys.path.insert(0, EMITTER_DIR)
from tensorop_emit import common  # noqa: E402,F401


def which(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
        if os.path.isabs(n) and os.access(n, os.X_OK):
            return n
    return None


LLVM_MC = which("llvm-mc-22", "/usr/lib/llvm-22/bin/llvm-mc")
LLC = which("llc-22", "/usr/lib/llvm-22/bin/llc")
CLANG = which("clang-22", "/usr/lib/llvm-22/bin/clang")

# per target: clang flags, qemu command lines, llvm-mc / llc settings
TARGETS = {
    "riscv64": {
        "cflags": ["--target=riscv64-linux-gnu", "-march=rv64gcv", "--gcc-toolchain=/usr"],
        "qemu": which("qemu-riscv64", "qemu-riscv64-static"),
        "mc": ["-triple=riscv64", "-mattr=+v,+f,+d"],
        "llc_triple": "riscv64-unknown-linux-gnu",
        "ir_features": "+m,+a,+f,+d,+c,+v",
    },
    "aarch64": {
        "cflags": ["--target=aarch64-linux-gnu", "--gcc-toolchain=/usr"],
        "qemu": which("qemu-aarch64", "qemu-aarch64-static"),
        "mc": ["-triple=aarch64", "-mattr=+neon"],
        "llc_triple": "aarch64-unknown-linux-gnu",
        "ir_features": "+neon",
    },
}


def qemu_cmd(target, vlen=None):
    q = TARGETS[target]["qemu"]
    if target == "riscv64":
        return [q, "-cpu", "rv64,v=true,vlen=%d,vext_spec=v1.0" % vlen]
    return [q]


_toolchain_ok = {}


def cross_missing(target):
    """None if clang + the cross sysroot + qemu can build and run a static
    binary for `target`; otherwise a message naming what is missing."""
    if target in _toolchain_ok:
        return _toolchain_ok[target]
    t = TARGETS[target]
    msg = None
    if CLANG is None:
        msg = "clang-22 not found"
    elif t["qemu"] is None:
        msg = "qemu-user for %s not found (apt-get install qemu-user)" % target
    else:
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "t.c")
            with open(src, "w") as f:
                f.write("#include <stdio.h>\nint main(void){puts(\"ok\");return 0;}\n")
            exe = os.path.join(tmp, "t")
            p = subprocess.run([CLANG] + t["cflags"] + ["-static", "-O2", src, "-o", exe],
                               capture_output=True, text=True)
            if p.returncode:
                pkg = ("gcc-riscv64-linux-gnu libc6-dev-riscv64-cross" if target == "riscv64"
                       else "gcc-aarch64-linux-gnu libc6-dev-arm64-cross")
                msg = ("cannot cross-compile a static %s binary (apt-get install %s): %s"
                       % (target, pkg, p.stderr.strip().splitlines()[-1:]))
            else:
                cmd = qemu_cmd(target, 128) + [exe]
                p = subprocess.run(cmd, capture_output=True, text=True)
                if p.returncode or "ok" not in p.stdout:
                    msg = "%s cannot run a %s binary: %s" % (cmd[0], target, p.stderr.strip())
    _toolchain_ok[target] = msg
    return msg


def run_emitter(emitter, stdin_text, *args, env=None):
    p = subprocess.run([sys.executable, os.path.join(EMITTER_DIR, emitter)] + list(args),
                       input=stdin_text, capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def emit_json(emitter, s):
    rc, out, err = run_emitter(emitter, json.dumps(s))
    if rc != 0:
        raise AssertionError("emitter failed for %s: %s" % (s, err))
    return json.loads(out)


def emit_function(emitter, s, symbol="ukernel"):
    rc, out, err = run_emitter(emitter, json.dumps(s), "--format=function", "--symbol", symbol)
    if rc != 0:
        raise AssertionError("emitter failed for %s: %s" % (s, err))
    return out


def assemble(target, text, extra=()):
    """llvm-mc the text to an object; returns (rc, stderr)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.s")
        with open(src, "w") as f:
            f.write(text + "\n")
        p = subprocess.run([LLVM_MC] + TARGETS[target]["mc"] + list(extra) +
                           ["-filetype=obj", "-o", os.path.join(tmp, "k.o"), src],
                           capture_output=True, text=True)
        return p.returncode, p.stderr


class Builder:
    """Builds harness + kernel static binaries in one temporary directory;
    the harness is compiled once per target."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.harness_obj = {}

    def _harness(self, target):
        if target not in self.harness_obj:
            obj = os.path.join(self.tmp, "harness_%s.o" % target)
            cmd = [CLANG] + TARGETS[target]["cflags"] + ["-O2", "-w", "-c", HARNESS, "-o", obj]
            p = subprocess.run(cmd, capture_output=True, text=True)
            if p.returncode:
                raise AssertionError("harness build failed: %s\n%s" % (" ".join(cmd), p.stderr))
            self.harness_obj[target] = obj
        return self.harness_obj[target]

    def build(self, target, tag, kernel_src, ext):
        src = os.path.join(self.tmp, tag + ext)
        with open(src, "w") as f:
            f.write(kernel_src)
        exe = os.path.join(self.tmp, tag)
        cmd = [CLANG] + TARGETS[target]["cflags"] + ["-static", "-O2", "-w",
                                                     self._harness(target), src, "-o", exe,
                                                     "-lm"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            raise AssertionError("build failed: %s\n%s" % (" ".join(cmd), p.stderr))
        return exe


def run_check(cmd_prefix, exe, mr, nr, kcs, ms, ns, seed=1, c_roundings=1, timeout=120):
    args = cmd_prefix + [exe, "check", str(mr), str(nr), ",".join(map(str, kcs)),
                         ",".join(map(str, ms)), ",".join(map(str, ns)), str(seed),
                         str(c_roundings)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def ir_module(o, features):
    """LLVM IR module defining @ukernel that runs the inline-asm block twice
    (first kc/2, then the rest), as the C++ lowering would emit it."""
    asm = common.llvm_ir_asm_string(o["asm"])
    ty = "{ i64, i64, i64, i64, i64, i64, i64 }"
    return """
define void @ukernel(ptr %a, ptr %b, ptr %c, i64 %kc, i64 %ldc, i64 %m, i64 %n) #0 {
entry:
  %ai = ptrtoint ptr %a to i64
  %bi = ptrtoint ptr %b to i64
  %ci = ptrtoint ptr %c to i64
  %k1 = lshr i64 %kc, 1
  %k2 = sub i64 %kc, %k1
  %r1 = call TY asm sideeffect "ASM", "CONS"(i64 %ai, i64 %bi, i64 %ci, i64 %k1, i64 %ldc, i64 %m, i64 %n)
  %ao = mul i64 %k1, MR4
  %bo = mul i64 %k1, NR4
  %a2 = add i64 %ai, %ao
  %b2 = add i64 %bi, %bo
  %r2 = call TY asm sideeffect "ASM", "CONS"(i64 %a2, i64 %b2, i64 %ci, i64 %k2, i64 %ldc, i64 %m, i64 %n)
  ret void
}
attributes #0 = { nounwind "target-features"="FEATS" }
""".replace("TY", ty).replace("ASM", asm).replace("CONS", o["constraints"]).replace(
        "MR4", str(4 * o["mr"])).replace("NR4", str(4 * o["nr"])).replace("FEATS", features)


def mir_clobbers(target, ir_text):
    """Compile IR with llc-22 up to instruction selection; for each INLINEASM
    the list of physical registers LLVM turned its clobbers into (unknown
    clobber names are dropped by LLVM without a diagnostic, so a name that is
    missing here was not understood)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.ll")
        with open(src, "w") as f:
            f.write(ir_text)
        p = subprocess.run([LLC, "-mtriple=" + TARGETS[target]["llc_triple"], "-O2",
                            "-stop-after=finalize-isel", src, "-o", "-"],
                           capture_output=True, text=True)
    if p.returncode:
        raise AssertionError("llc failed:\n%s" % p.stderr)
    out = []
    for line in p.stdout.splitlines():
        if "INLINEASM" in line:
            out.append(re.findall(r"implicit-def early-clobber \$([a-z0-9_]+)", line))
    return out


def llc_object(target, ir_text):
    """Compile IR to an object with llc-22 (integrated assembler)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "k.ll")
        with open(src, "w") as f:
            f.write(ir_text)
        p = subprocess.run([LLC, "-mtriple=" + TARGETS[target]["llc_triple"], "-O2",
                            "-filetype=obj", src, "-o", os.path.join(tmp, "k.o")],
                           capture_output=True, text=True)
    return p.returncode, p.stderr


def check_hints_schema(tc, path, target_name):
    """The rules lib/Targets/TargetHints.cpp enforces, plus 'every figure has
    a source'."""
    with open(path) as f:
        h = json.load(f)
    tc.assertEqual(h["schema"], "tensorop-hints/1")
    tc.assertEqual(h["target"], target_name)
    for key in ("description", "arch", "triple", "cpu", "features"):
        tc.assertIsInstance(h[key], str, key)
        tc.assertTrue(h[key], key)
    v = h["vector"]
    tc.assertIsInstance(v["isa"], str)
    tc.assertIsInstance(v["bits"], int)
    tc.assertTrue(64 <= v["bits"] <= 2048 and v["bits"] % 32 == 0)
    tc.assertTrue(1 <= v["registers"] <= 256)
    fma = h["fma"]
    tc.assertTrue(1 <= fma["latency_cycles"] <= 64)
    tc.assertIsInstance(fma["independent_accumulators_for_peak"], int)
    tc.assertTrue(1 <= fma["independent_accumulators_for_peak"] <= 256)
    tc.assertTrue(fma["flops_per_cycle_f32"] > 0)
    bc = h["broadcast"]
    tc.assertIsInstance(bc["min_fmas_per_explicit_broadcast"], int)
    tc.assertTrue(1 <= bc["min_fmas_per_explicit_broadcast"] <= 64)
    tc.assertIsInstance(bc["embedded_full_rate"], bool)
    levels = set()
    tc.assertTrue(h["caches"])
    for c in h["caches"]:
        tc.assertTrue(1 <= c["level"] <= 4)
        levels.add(c["level"])
        tc.assertIsInstance(c["kind"], str)
        tc.assertTrue(1024 <= c["size_bytes"] <= 1 << 40)
        tc.assertTrue(1 <= c["ways"] <= 1024)
        tc.assertTrue(16 <= c["line_bytes"] <= 1024)
        tc.assertTrue(1 <= c["shared_by_cores"])
        tc.assertTrue(c["source"])
    tc.assertTrue({1, 2} <= levels)
    tc.assertIsInstance(h["cores"], int)
    tc.assertTrue(h["clock_ghz"] > 0)
    tc.assertTrue(0.001 <= h["peak_gflops_f32_per_core"] <= 1e6)
    tc.assertAlmostEqual(h["peak_gflops_f32_per_core"],
                         h["clock_ghz"] * fma["flops_per_cycle_f32"], places=3)
    for obj in (v, fma, bc):
        tc.assertTrue(obj["source"])
    tc.assertTrue(h["peak_source"])
    tc.assertTrue(h["techniques"])
    for t in h["techniques"]:
        for key in ("name", "factor", "hint"):
            tc.assertTrue(t[key])
    return h
