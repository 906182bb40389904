#!/usr/bin/env python3
"""Emit a strided matrix copy kernel (PTX): the pad copies of the wgmma GEMM.

TMA describes a matrix only if its rows are 16-byte aligned: bf16/f16 rows
of K (A) or N (B) elements with K or N not a multiple of 8 are not. The
wgmma kernel then reads a copy whose rows are padded to a multiple of 16
bytes (spec fields lda / ldb of nvidia_gemm_wgmma.py); this kernel makes
that copy: dst[r][c] = src[r][c] for r < rows, c < cols, and zero for
cols <= c < dst_ld (TMA never reads those columns, its tensor map says
`cols`; zeros keep the buffer deterministic).

Each thread writes one 16-byte chunk of a destination row per iteration
(8 bf16/f16 or 4 f32/tf32 elements: one st.global.v4.b32), loading its
elements one by one (the source rows are only element-aligned), each load
predicated on the column; the grid-stride loop runs the same number of
iterations in every thread (chunks past the end are predicated off), so
the kernel never branches divergently.

Spec: name, rows, cols, src_ld (>= cols), dst_ld (>= cols, a multiple of
  16 / element bytes), dtype (bf16|f16|tf32|f32), src ("A"), dst ("A_pad"):
  the tensors the two pointer parameters name, sm (90), sms (132: the grid
  is at most 8 CTAs per SM)
Answer: JSON; operands $0 = src, $1 = dst (64-bit global addresses), $2 the
shared window (unused).  --format=ptx: a PTX module.
"""

from tensorop_emit.nvidia_ptx import (
    ELEM_BYTES, PtxBody, SpecError, ceil_div, finish, get_choice, get_int, main)
from tensorop_emit.common import check_known_fields

FAMILY = "nvidia_pad"
THREADS = 256
TENSORS = ("A", "B", "A_pad", "B_pad")


def emit(spec, fmt):
    check_known_fields(spec, ("name", "rows", "cols", "src_ld", "dst_ld", "dtype", "src", "dst",
                        "sm", "sms", "format", "symbol"))
    name = spec.get("name", "tensorop_pad")
    if not isinstance(name, str) or not name or not all(c.isalnum() or c == "_" for c in name) \
            or name[0].isdigit():
        raise SpecError("name", "must be a C identifier")
    rows = get_int(spec, "rows", lo=1, hi=1 << 20)
    cols = get_int(spec, "cols", lo=1, hi=1 << 20)
    src_ld = get_int(spec, "src_ld", default=cols, lo=cols, hi=1 << 21)
    dt = get_choice(spec, "dtype", ("bf16", "f16", "tf32", "f32"))
    es = ELEM_BYTES[dt]
    epc = 16 // es                                  # elements per 16-byte chunk
    dst_ld = get_int(spec, "dst_ld", default=ceil_div(cols, epc) * epc, lo=cols, hi=1 << 21)
    if dst_ld % epc:
        raise SpecError("dst_ld", "must be a multiple of %d (16-byte rows), got %d"
                        % (epc, dst_ld))
    src = get_choice(spec, "src", TENSORS, default="A")
    dst = get_choice(spec, "dst", TENSORS, default="A_pad")
    if src == dst:
        raise SpecError("dst", "must name another tensor than src")
    sm = get_int(spec, "sm", default=90)
    if sm not in (80, 90):
        raise SpecError("sm", "must be 80 or 90, got %d" % sm)
    sms = get_int(spec, "sms", default=132, lo=1, hi=1024)
    for what, ld in (("src_ld", src_ld), ("dst_ld", dst_ld)):
        if rows * ld * es >= 1 << 31:
            raise SpecError(what, "%d rows of %d elements: more than 32-bit offsets address"
                            % (rows, ld))

    cpr = dst_ld // epc                             # chunks per destination row
    total = rows * cpr
    grid = min(ceil_div(total, THREADS), 8 * sms)
    step = grid * THREADS
    iters = ceil_div(total, step)
    ht = "b16" if es == 2 else "b32"

    b = PtxBody()
    R = b.reg
    R("b64", "%qsrc"), R("b64", "%qdst"), R("b64", "%qa"), R("b64", "%qd")
    R("b32", "%qc"), R("b32", "%qit"), R("b32", "%qrow"), R("b32", "%qcol"), R("b32", "%qt")
    R(ht, "%qe", epc)
    if es == 2:
        R("b32", "%qw", 4)
    R("pred", "%qp"), R("pred", "%qpe", epc), R("pred", "%qq")
    b.comment("TensorOp %s: %d x %d %s, row stride %d -> %d (zero columns past %d), "
              "%d CTAs x %d threads, %d iteration(s)"
              % (FAMILY, rows, cols, dt, src_ld, dst_ld, cols, grid, THREADS, iters))
    b.ins("mov.b64 %qsrc, $0")
    b.ins("mov.b64 %qdst, $1")
    b.ins("mov.u32 %qc, %ctaid.x")
    b.ins("mov.u32 %qt, %tid.x")
    b.ins("mad.lo.u32 %%qc, %%qc, %d, %%qt" % THREADS)
    b.ins("mov.u32 %qit, 0")
    loop = b.new_label("chunk")
    b.label(loop)
    b.comment("chunk c: row c / %d, columns %d (c %% %d) .. + %d" % (cpr, epc, cpr, epc - 1))
    b.ins("setp.lt.u32 %%qp, %%qc, %d" % total)
    b.ins("div.u32 %%qrow, %%qc, %d" % cpr)
    b.ins("rem.u32 %%qcol, %%qc, %d" % cpr)
    b.ins("mul.lo.u32 %%qcol, %%qcol, %d" % epc)
    b.ins("mad.lo.u32 %%qt, %%qrow, %d, %%qcol" % src_ld)
    b.ins("mul.wide.u32 %%qa, %%qt, %d" % es)
    b.ins("add.s64 %qa, %qa, %qsrc")
    b.ins("mad.lo.u32 %%qt, %%qrow, %d, %%qcol" % dst_ld)
    b.ins("mul.wide.u32 %%qd, %%qt, %d" % es)
    b.ins("add.s64 %qd, %qd, %qdst")
    for j in range(epc):
        b.ins("mov.%s %%qe%d, 0" % (ht, j))
        b.ins("add.u32 %%qt, %%qcol, %d" % j)
        b.ins("setp.lt.u32 %%qpe%d, %%qt, %d" % (j, cols))
        b.ins("and.pred %%qpe%d, %%qpe%d, %%qp" % (j, j))
        b.ins("@%%qpe%d ld.global.nc.%s %%qe%d, [%%qa+%d]" % (j, ht, j, j * es))
    if es == 2:
        for w in range(4):
            b.ins("mov.b32 %%qw%d, {%%qe%d, %%qe%d}" % (w, 2 * w, 2 * w + 1))
        b.ins("@%qp st.global.v4.b32 [%qd], {%qw0, %qw1, %qw2, %qw3}")
    else:
        b.ins("@%qp st.global.v4.b32 [%qd], {%qe0, %qe1, %qe2, %qe3}")
    if iters > 1:
        b.ins("add.u32 %%qc, %%qc, %d" % step)
        b.ins("add.u32 %qit, %qit, 1")
        b.ins("setp.lt.u32 %%qq, %%qit, %d" % iters)
        b.ins("@%%qq bra %s" % loop)

    result = {
        "name": name,
        "family": FAMILY,
        "chip": "sm_90a" if sm == 90 else "sm_80",
        "ptx_version": 80,
        "rows": rows, "cols": cols, "src_ld": src_ld, "dst_ld": dst_ld, "dtype": dt,
        "params": [{"name": src, "kind": "ptr"}, {"name": dst, "kind": "ptr"}],
        "grid": [grid, 1, 1],
        "threads": THREADS,
        "shared_bytes": 0,
        "minctasm": 0,
        "bytes_moved": rows * cols * es + rows * dst_ld * es,
    }
    return finish(result, b, fmt)


if __name__ == "__main__":
    main(emit, "Emit the strided (padding) matrix copy kernel of the wgmma GEMM as PTX.")
