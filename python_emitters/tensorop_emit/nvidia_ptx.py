"""Shared machinery of the NVIDIA GEMM emitters (python3 standard library only).

The NVIDIA emitters (``nvidia_gemm_*.py``) print a whole GEMM kernel body as
PTX.  The body is an LLVM inline-asm string: operand ``$i`` (i < number of
kernel parameters) is the 64-bit kernel parameter i, and the last operand is
the 32-bit shared-memory address of the dynamic shared-memory window.  The
MLIR pass wraps it in a ``gpu.func`` (one ``llvm.inline_asm`` whose operands
are the kernel arguments); ``--format=ptx`` wraps it in a complete PTX module
with the same entry signature, so both cubins are launched the same way.

Registers declared here all start with ``%q`` so that they never shadow the
registers LLVM's NVPTX back end declares around the inline asm (``%r``,
``%rd``, ``%f``, ``%p``, ...).
"""

import json
import sys

from .common import SpecError, get_choice, get_int, run_emitter

__all__ = ["SpecError", "get_choice", "get_int", "run_emitter", "ELEM_BYTES",
           "OUT_DTYPES", "TMA_DTYPE", "ceil_div", "PtxBody", "out_store",
           "declare_store_temps", "grouped_tile", "whole_module", "substitute",
           "common_spec", "finish", "main"]

# Element sizes in bytes and the names the kernels and runners use.
ELEM_BYTES = {"bf16": 2, "f16": 2, "tf32": 4, "f32": 4}
OUT_DTYPES = ("f32", "bf16", "f16")
# CUtensorMapDataType values (cuda.h).
TMA_DTYPE = {"f16": 6, "f32": 7, "bf16": 9, "tf32": 7}


def ceil_div(a, b):
    return (a + b - 1) // b


class PtxBody:
    """Accumulates PTX lines; registers are declared once at the top."""

    def __init__(self):
        self.decls = []
        self.lines = []
        self._declared = set()
        self._labels = 0

    def reg(self, ptx_type, name, count=None):
        """Declares ``.reg .<type> %name`` (or ``%name<count>``); returns name."""
        key = name
        if key in self._declared:
            raise ValueError("register %s declared twice" % name)
        self._declared.add(key)
        if count is None:
            self.decls.append("  .reg .%s %s;" % (ptx_type, name))
        else:
            self.decls.append("  .reg .%s %s<%d>;" % (ptx_type, name, count))
        return name

    def ins(self, text):
        # PTX never contains "%%": it can only come from a format string that
        # was not applied, so fold it (the register name is what was meant).
        self.lines.append("  " + text.replace("%%", "%") + ";")

    def raw(self, text):
        self.lines.append(text)

    def comment(self, text):
        if "$" in text:
            raise ValueError("'$' is not allowed in comments")
        self.lines.append("  // " + text)

    def label(self, name):
        self.lines.append(name + ":")

    def new_label(self, stem):
        self._labels += 1
        return "Lq_%s_%d" % (stem, self._labels)

    def text(self):
        return "{\n" + "\n".join(self.decls + self.lines) + "\n}"


def out_store(body, c_dtype, addr, offset, vals, pred=None, accumulate=False):
    """Stores one or two f32 values ``vals`` (register names) to C.

    Two values go to consecutive elements (one 8-byte or 4-byte store).
    ``accumulate`` adds the current C values first.
    """
    guard = "@%s " % pred if pred else ""
    n = len(vals)
    if accumulate:
        old = []
        for i in range(n):
            old.append("%%qold%d" % i)
            # defined even where the predicated load below does not run
            body.ins("mov.f32 %%qold%d, 0f00000000" % i)
        if c_dtype == "f32":
            if n == 2:
                body.ins("%sld.global.v2.f32 {%s, %s}, [%s+%d]"
                         % (guard, old[0], old[1], addr, offset))
            else:
                body.ins("%sld.global.f32 %s, [%s+%d]" % (guard, old[0], addr, offset))
        else:
            cvt = "bf16" if c_dtype == "bf16" else "f16"
            if n == 2:
                body.ins("mov.b32 %qoldw, 0")
                body.ins("%sld.global.b32 %%qoldw, [%s+%d]" % (guard, addr, offset))
                body.ins("mov.b32 {%%qoldh0, %%qoldh1}, %%qoldw")
                for i in range(2):
                    body.ins("cvt.f32.%s %s, %%qoldh%d" % (cvt, old[i], i))
            else:
                body.ins("mov.b16 %qoldh0, 0")
                body.ins("%sld.global.b16 %%qoldh0, [%s+%d]" % (guard, addr, offset))
                body.ins("cvt.f32.%s %s, %%qoldh0" % (cvt, old[0]))
        summed = []
        for i in range(n):
            body.ins("add.f32 %%qsum%d, %s, %s" % (i, vals[i], old[i]))
            summed.append("%%qsum%d" % i)
        vals = summed
    if c_dtype == "f32":
        if n == 2:
            body.ins("%sst.global.v2.f32 [%s+%d], {%s, %s}" % (guard, addr, offset, vals[0], vals[1]))
        else:
            body.ins("%sst.global.f32 [%s+%d], %s" % (guard, addr, offset, vals[0]))
    else:
        cvt = "bf16" if c_dtype == "bf16" else "f16"
        if n == 2:
            # cvt.rn.bf16x2.f32 d, hi, lo: the first element goes to the low half.
            body.ins("cvt.rn.%sx2.f32 %%qpk, %s, %s" % (cvt, vals[1], vals[0]))
            body.ins("%sst.global.b32 [%s+%d], %%qpk" % (guard, addr, offset))
        else:
            body.ins("cvt.rn.%s.f32 %%qpkh, %s" % (cvt, vals[0]))
            body.ins("%sst.global.b16 [%s+%d], %%qpkh" % (guard, addr, offset))


def declare_store_temps(body):
    """Registers used by :func:`out_store`."""
    body.reg("b32", "%qpk")
    body.reg("b16", "%qpkh")
    body.reg("f32", "%qold", 2)
    body.reg("f32", "%qsum", 2)
    body.reg("b32", "%qoldw")
    body.reg("b16", "%qoldh", 2)


def grouped_tile(body, tile, tiles_m, tiles_n, group_m, tm, tn, tmp):
    """(tm, tn) of linear tile index ``tile`` with GROUP_M rasterization.

    Tiles are visited in groups of ``group_m`` tile rows, column by column
    inside a group, so CTAs that run at the same time share A and B panels
    in L2.  ``tmp`` names 4 scratch .b32 registers (prefix).
    """
    g = max(1, min(group_m, tiles_m))
    gsize = g * tiles_n
    t0, t1, t2, t3 = ["%s%d" % (tmp, i) for i in range(4)]
    body.ins("div.u32 %s, %s, %d" % (t0, tile, gsize))          # group id
    body.ins("mul.lo.u32 %s, %s, %d" % (t1, t0, g))             # first tile row
    body.ins("sub.u32 %s, %d, %s" % (t2, tiles_m, t1))          # rows left
    body.ins("min.u32 %s, %s, %d" % (t2, t2, g))                # rows in this group
    body.ins("mul.lo.u32 %s, %s, %d" % (t3, t0, gsize))
    body.ins("sub.u32 %s, %s, %s" % (t3, tile, t3))             # index inside group
    body.ins("rem.u32 %s, %s, %s" % (tm, t3, t2))
    body.ins("add.u32 %s, %s, %s" % (tm, tm, t1))
    body.ins("div.u32 %s, %s, %s" % (tn, t3, t2))


def whole_module(result, body_text):
    """A complete PTX module whose entry has the emitter's parameter list."""
    chip = result["chip"]
    params = result["params"]
    name = result["name"]
    lines = [
        "//",
        "// Generated by TensorOp %s (--format=ptx)" % result["family"],
        "//",
        ".version %d.%d" % (result["ptx_version"] // 10, result["ptx_version"] % 10),
        ".target %s" % chip,
        ".address_size 64",
        "",
        ".extern .shared .align 1024 .b8 tensorop_smem[];",
        "",
        ".visible .entry %s(" % name,
        ",\n".join("  .param .u64 %s_param_%d" % (name, i) for i in range(len(params))),
        ")",
        ".maxntid %d, 1, 1" % result["threads"],
    ]
    if result.get("minctasm"):
        lines.append(".minnctapersm %d" % result["minctasm"])
    if result.get("cluster"):
        # launched only as clusters of this shape (what LLVM prints for
        # nvvm.cluster_dim)
        lines.append(".explicitcluster")
        lines.append(".reqnctapercluster %d, %d, %d" % tuple(result["cluster"]))
    lines.append("{")
    lines.append("  .reg .b64 %%qparam<%d>;" % len(params))
    lines.append("  .reg .b64 %qsm64;")
    lines.append("  .reg .b32 %qsm;")
    for i in range(len(params)):
        lines.append("  ld.param.u64 %%qparam%d, [%s_param_%d];" % (i, name, i))
    lines.append("  mov.u64 %qsm64, tensorop_smem;")
    lines.append("  cvt.u32.u64 %qsm, %qsm64;")
    operands = ["%%qparam%d" % i for i in range(len(params))] + ["%qsm"]
    lines.append(substitute(body_text, operands))
    lines.append("  ret;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def substitute(asm, operands):
    """Replaces ``$N`` by ``operands[N]`` (PTX never uses '$' otherwise here)."""
    out = []
    i = 0
    while i < len(asm):
        ch = asm[i]
        if ch == "$":
            j = i + 1
            while j < len(asm) and asm[j].isdigit():
                j += 1
            if j == i + 1:
                raise ValueError("stray '$' at offset %d" % i)
            idx = int(asm[i + 1:j])
            if idx >= len(operands):
                raise ValueError("operand $%d out of range" % idx)
            out.append(operands[idx])
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def common_spec(spec, allowed_extra):
    """Reads the fields every NVIDIA GEMM emitter takes."""
    allowed = {"name", "m", "n", "k", "a_dtype", "c_dtype", "accumulate", "sm",
               "format", "symbol"} | set(allowed_extra)
    for key in spec:
        if key not in allowed:
            raise SpecError(key, "unknown field (allowed: %s)" % ", ".join(sorted(allowed)))
    name = spec.get("name", "tensorop_gemm")
    if not isinstance(name, str) or not name or not all(c.isalnum() or c == "_" for c in name) \
            or name[0].isdigit():
        raise SpecError("name", "must be a C identifier, got %s" % json.dumps(name))
    m = get_int(spec, "m", lo=1, hi=1 << 20)
    n = get_int(spec, "n", lo=1, hi=1 << 20)
    k = get_int(spec, "k", lo=1, hi=1 << 20)
    a_dtype = get_choice(spec, "a_dtype", ("bf16", "f16", "tf32", "f32"))
    c_dtype = get_choice(spec, "c_dtype", OUT_DTYPES, default="f32")
    acc = spec.get("accumulate", False)
    if not isinstance(acc, bool):
        raise SpecError("accumulate", "must be true or false")
    sm = get_int(spec, "sm", default=90)
    if sm not in (80, 90):
        raise SpecError("sm", "must be 80 or 90, got %d" % sm)
    if a_dtype in ("tf32", "f32") and c_dtype != "f32":
        raise SpecError("c_dtype", "%s inputs produce f32 output" % a_dtype)
    # Offsets into A, B and C are 32-bit in the kernels.
    for what, elems in (("A", m * k), ("B", k * n), ("C", m * n)):
        if elems * 4 >= (1 << 31):
            raise SpecError("m", "%s has %d elements: more than 32-bit offsets address" % (what, elems))
    return dict(name=name, m=m, n=n, k=k, a_dtype=a_dtype, c_dtype=c_dtype,
                accumulate=acc, sm=sm)


def gemm_answer(c, family, a_dtype, c_dtype, params, grid, threads, shared_bytes, minctasm,
                tile, loads, instruction, **more):
    """The answer of a GEMM kernel (c: common_spec's result) without its
    body, in the field order every NVIDIA emitter prints: params after the
    A, B, C pointers, a 1-D grid of `grid` CTAs, the fields of `more` last
    but for "flops"."""
    result = {
        "name": c["name"],
        "family": family,
        "chip": "sm_90a" if c["sm"] == 90 else "sm_80",
        "ptx_version": 80,
        "m": c["m"], "n": c["n"], "k": c["k"],
        "a_dtype": a_dtype, "c_dtype": c_dtype, "accumulate": c["accumulate"],
        "params": [{"name": "A", "kind": "ptr"}, {"name": "B", "kind": "ptr"},
                   {"name": "C", "kind": "ptr"}] + params,
        "grid": [grid, 1, 1],
        "threads": threads,
        "shared_bytes": shared_bytes,
        "minctasm": minctasm,
        "tile": tile,
        "loads": loads,
        "instruction": instruction,
    }
    result.update(more)
    result["flops"] = 2 * c["m"] * c["n"] * c["k"]
    return result


def finish(result, body, fmt):
    """Adds the body and returns the JSON object or the PTX module text."""
    text = body.text()
    result["asm"] = text
    nparams = len(result["params"])
    result["constraints"] = ",".join(["l"] * nparams + ["r"])
    if fmt == "ptx":
        return whole_module(result, text)
    return result


def main(emit, description, epilog=""):
    sys.exit(run_emitter(lambda spec, fmt, sym: emit(spec, fmt or "json"), description,
                         epilog=epilog, formats=("json", "ptx")))
