#!/usr/bin/env python3
"""Emit a GEMV-like kernel for decode-time GEMMs (M <= 16) as PTX.

C[M][N] = A[M][K] * B[K][N] (+ C when "accumulate"), row-major, bf16, f16,
f32 or tf32 inputs, fp32 accumulation (FFMA, no tensor cores), output f32,
bf16 or f16 (f32 for f32/tf32 inputs).  A tf32 request is computed in full
fp32 FMAs: no input is rounded to tf32's 10-bit mantissa, so the result is
at least as precise as a tensor-core tf32 GEMM.

With M <= 16 a GEMM is a few matrix-vector products: every element of B is
used M times, so the time is that of streaming B from memory once.  A tile
kernel (wgmma, mma.sync) wastes most of its 64- or 16-row MMAs and has few
tiles for the SMs; this kernel instead spreads B over many CTAs and keeps
many 16-byte loads in flight:
* a CTA owns `block_n` columns (16, 32 or 64) and `block_m` rows (<= 8) of
  C; CTA index = column block * row blocks + row block, so the CTAs that
  share a column strip of B run together and read it from L2;
* its 32 * `warps` threads are column groups (8 columns of bf16/f16, 4 of
  f32: one 16-byte load of B per row) times KS k-lanes; k-lane l takes the
  chunks of `block_k` rows l, l + KS, ... and loads all of a chunk's B rows
  and its A elements (16-byte loads of 8 or 4 k) before the FMAs;
* the KS partial sums of each output go through shared memory and are added
  in a fixed tree order (lane l += lane l + h, h = KS/2 .. 1, bar.sync
  between levels): the result does not depend on timing (deterministic).
K and N must be multiples of 8 (16-byte loads); any M <= 16.

Spec: name, m, n, k, a_dtype (bf16|f16|f32|tf32), c_dtype (f32|bf16|f16), accumulate,
  sm (80|90), block_m (rows per CTA, <= 8; default min(M, 8)), block_n (32),
  block_k (8: rows per k-lane chunk, 8 or 16), warps (8: 4, 8 or 16)
Answer: JSON; operands $0=A $1=B $2=C, $3 = shared window address.
--format=ptx: a PTX module.
"""

from tensorop_emit.nvidia_ptx import (
    ELEM_BYTES, PtxBody, SpecError, ceil_div, common_spec, declare_store_temps,
    finish, gemm_answer, get_int, main, out_store)

FAMILY = "nvidia_gemv"
MAX_M = 16


def unpack(b, dt, src, lo, hi):
    """Two f32 registers from a packed pair of bf16/f16 (low element first)."""
    if dt == "bf16":
        b.ins("shl.b32 %s, %s, 16" % (lo, src))
        b.ins("and.b32 %s, %s, -65536" % (hi, src))
    else:
        b.ins("mov.b32 {%%qh0, %%qh1}, %s" % src)
        b.ins("cvt.f32.f16 %s, %%qh0" % lo)
        b.ins("cvt.f32.f16 %s, %%qh1" % hi)


def is_wide(dt):
    """f32 and tf32 inputs: 4-byte elements, used as loaded (no unpacking)."""
    return dt in ("f32", "tf32")


def emit_chunk(b, dt, bm, bk, m_rows_pred, pred_rows, n, k):
    """One chunk of bk rows of B (one 16-byte load per row: 8 bf16/f16 or 4
    f32 columns) and of A (bm rows): loads, then FMAs into
    %qacc[mm * cg + j].  `pred_rows`: guard each 8-row group by
    k0 + 8 s < K (the tail iteration); rows past the chunk then read zeros."""
    es = ELEM_BYTES[dt]
    wide = is_wide(dt)
    cg = 16 // es                       # columns (and A elements) per 16 bytes
    groups = bk // 8                    # 8-row groups (predicates)
    aloads = bk // cg                   # 16-byte loads of one A row's chunk
    vt = "f32" if wide else "b32"
    for s in range(groups):
        if pred_rows:
            b.ins("add.u32 %%qt1, %%qk0, %d" % (8 * s))
            b.ins("setp.lt.u32 %%qpr%d, %%qt1, %d" % (s, k))
    for r in range(bk):
        g = "@%%qpr%d " % (r // 8) if pred_rows else ""
        regs = ", ".join("%%qb%d" % (4 * r + q) for q in range(4))
        if pred_rows:
            for q in range(4):
                b.ins("mov.b32 %%qb%d, 0" % (4 * r + q))
        b.ins("%sld.global.nc.v4.%s {%s}, [%%qpB+%d]" % (g, vt, regs, r * n * es))
    for mm in range(bm):
        for s in range(aloads):
            regs = ", ".join("%%qa%d" % (mm * aloads * 4 + 4 * s + q) for q in range(4))
            rgroup = s * cg // 8        # the 8-row group of this load's k
            guard = m_rows_pred[mm]
            if pred_rows and guard is not None:
                b.ins("and.pred %%qp3, %%qpr%d, %s" % (rgroup, guard))
                guard = "%qp3"
            elif pred_rows:
                guard = "%%qpr%d" % rgroup
            if guard is not None:
                for q in range(4):
                    b.ins("mov.b32 %%qa%d, 0" % (mm * aloads * 4 + 4 * s + q))
            g = "@%s " % guard if guard else ""
            b.ins("%sld.global.nc.v4.%s {%s}, [%%qpA+%d]" % (g, vt, regs, mm * k * es + 16 * s))
    for r in range(bk):
        # B row r: cg columns as f32
        if wide:
            bcols = ["%%qb%d" % (4 * r + q) for q in range(4)]
        else:
            for q in range(4):
                unpack(b, dt, "%%qb%d" % (4 * r + q), "%%qf%d" % (2 * q), "%%qf%d" % (2 * q + 1))
            bcols = ["%%qf%d" % j for j in range(8)]
        for mm in range(bm):
            if wide:
                x = "%%qa%d" % (mm * aloads * 4 + r)
            else:
                s, e = divmod(r, 8)
                areg = "%%qa%d" % (mm * aloads * 4 + 4 * s + e // 2)
                if dt == "bf16":
                    if e % 2 == 0:
                        b.ins("shl.b32 %%qx, %s, 16" % areg)
                    else:
                        b.ins("and.b32 %%qx, %s, -65536" % areg)
                else:
                    b.ins("mov.b32 {%%qh0, %%qh1}, %s" % areg)
                    b.ins("cvt.f32.f16 %%qx, %%qh%d" % (e % 2))
                x = "%qx"
            for j in range(cg):
                acc = "%%qacc%d" % (mm * cg + j)
                b.ins("fma.rn.f32 %s, %s, %s, %s" % (acc, x, bcols[j], acc))


def emit(spec, fmt):
    c = common_spec(spec, ("block_m", "block_n", "block_k", "warps", "group_m"))
    m, n, k = c["m"], c["n"], c["k"]
    dt, cdt = c["a_dtype"], c["c_dtype"]
    wide = is_wide(dt)
    if m > MAX_M:
        raise SpecError("m", "the GEMV kernel is for M <= %d (got %d); use a tile kernel"
                        % (MAX_M, m))
    if k % 8 or n % 8:
        raise SpecError("k", "16-byte loads of A and B rows need K and N multiples of 8 "
                             "(got K=%d, N=%d)" % (k, n))
    es, oes = ELEM_BYTES[dt], ELEM_BYTES[cdt]
    cg = 16 // es                            # columns per thread (one 16-byte load)
    bm = get_int(spec, "block_m", default=min(m, 8), lo=1, hi=8)
    bn = get_int(spec, "block_n", default=32, lo=16, hi=64)
    bk = get_int(spec, "block_k", default=8, lo=8, hi=16)
    warps = get_int(spec, "warps", default=8, lo=4, hi=16)
    get_int(spec, "group_m", default=1, lo=1, hi=64)   # no tile order: accepted, unused
    if bn not in (16, 32, 64):
        raise SpecError("block_n", "must be 16, 32 or 64, got %d" % bn)
    if bk not in (8, 16):
        raise SpecError("block_k", "must be 8 or 16, got %d" % bk)
    if warps not in (4, 8, 16):
        raise SpecError("warps", "must be 4, 8 or 16, got %d" % warps)
    threads = 32 * warps
    groups_n = bn // cg                      # column groups (cg columns each)
    ks = threads // groups_n                 # k-lanes (a power of 2)
    elems = bm * bn                          # outputs of a CTA
    smem = ks * elems * 4
    mb = ceil_div(m, bm)                     # row blocks
    nblocks = ceil_div(n, bn)
    chunks = k // bk                         # whole chunks
    tail = k % bk                            # a half chunk (bk = 16, K = 8 mod 16)
    nchunks = chunks + (1 if tail else 0)
    full_iters = nchunks // ks               # iterations every k-lane runs whole
    tail_iter = nchunks % ks != 0 or tail    # one more, rows guarded
    if tail and nchunks % ks == 0:
        # the half chunk is the last chunk of the last whole iteration
        full_iters -= 1

    b = PtxBody()
    R = b.reg
    R("b64", "%qgA"), R("b64", "%qgB"), R("b64", "%qgC"), R("b32", "%qsmem")
    R("b32", "%qtid"), R("b32", "%qg"), R("b32", "%qkl"), R("b32", "%qcta"), R("b32", "%qmb")
    R("b32", "%qnb"), R("b32", "%qm0"), R("b32", "%qn0"), R("b32", "%qcol"), R("b32", "%qk0")
    R("b32", "%qit"), R("b32", "%qt", 4)
    R("b64", "%qpA"), R("b64", "%qpB"), R("b64", "%qw64"), R("b64", "%qcrow")
    R("pred", "%qp", 4), R("pred", "%qpr", 2), R("pred", "%qpm", bm)
    vt = "f32" if wide else "b32"            # f32 inputs are used as loaded
    R(vt, "%qb", 4 * bk), R(vt, "%qa", bm * bk * es // 4), R("f32", "%qf", 8), R("f32", "%qx")
    R("b16", "%qh", 2), R("f32", "%qacc", bm * cg), R("f32", "%qs", 2)
    declare_store_temps(b)

    b.comment("TensorOp %s: %dx%dx%d %s -> %s, %d rows x %d columns per CTA, %d k-lanes of "
              "%d-row chunks, %d CTAs" % (FAMILY, m, n, k, dt, cdt, bm, bn, ks, bk,
                                          mb * nblocks))
    b.ins("mov.b64 %qgA, $0")
    b.ins("mov.b64 %qgB, $1")
    b.ins("mov.b64 %qgC, $2")
    b.ins("mov.u32 %qsmem, $3")
    b.ins("mov.u32 %qtid, %tid.x")
    b.ins("and.b32 %%qg, %%qtid, %d" % (groups_n - 1))
    b.ins("shr.u32 %%qkl, %%qtid, %d" % (groups_n.bit_length() - 1))
    b.ins("mov.u32 %qcta, %ctaid.x")
    b.ins("rem.u32 %%qmb, %%qcta, %d" % mb)
    b.ins("div.u32 %%qnb, %%qcta, %d" % mb)
    b.ins("mul.lo.u32 %%qm0, %%qmb, %d" % bm)
    b.ins("mul.lo.u32 %%qn0, %%qnb, %d" % bn)
    # this thread's cg columns; a group past N reads the last cg (never stored)
    b.ins("shl.b32 %%qcol, %%qg, %d" % (cg.bit_length() - 1))
    b.ins("add.u32 %qcol, %qcol, %qn0")
    b.ins("min.u32 %%qt0, %%qcol, %d" % (n - cg))
    # rows of A past M (last row block) are not loaded: their sums stay 0
    m_rows_pred = []
    for mm in range(bm):
        if m % bm == 0:
            m_rows_pred.append(None)
            continue
        b.ins("add.u32 %%qt1, %%qm0, %d" % mm)
        b.ins("setp.lt.u32 %%qpm%d, %%qt1, %d" % (mm, m))
        m_rows_pred.append("%%qpm%d" % mm)
    # pB = B + (k0 * N + col) * es, pA = A + (m0 * K + k0) * es, k0 = kl * bk
    b.ins("mul.lo.u32 %%qk0, %%qkl, %d" % bk)
    b.ins("mul.wide.u32 %%qpB, %%qk0, %d" % (n * es))
    b.ins("mul.wide.u32 %%qw64, %%qt0, %d" % es)
    b.ins("add.s64 %qpB, %qpB, %qw64")
    b.ins("add.s64 %qpB, %qpB, %qgB")
    b.ins("mul.lo.u32 %%qt1, %%qm0, %d" % k)
    b.ins("add.u32 %qt1, %qt1, %qk0")
    b.ins("mul.wide.u32 %%qpA, %%qt1, %d" % es)
    b.ins("add.s64 %qpA, %qpA, %qgA")
    for i in range(bm * cg):
        b.ins("mov.f32 %%qacc%d, 0f00000000" % i)

    def advance():
        b.ins("add.s64 %%qpB, %%qpB, %d" % (ks * bk * n * es))
        b.ins("add.s64 %%qpA, %%qpA, %d" % (ks * bk * es))
        b.ins("add.u32 %%qk0, %%qk0, %d" % (ks * bk))

    if full_iters > 0:
        loop = b.new_label("kloop")
        b.ins("mov.u32 %qit, 0")
        b.label(loop)
        emit_chunk(b, dt, bm, bk, m_rows_pred, False, n, k)
        advance()
        b.ins("add.u32 %qit, %qit, 1")
        b.ins("setp.lt.u32 %%qp0, %%qit, %d" % full_iters)
        b.ins("@%qp0 bra " + loop)
    if tail_iter:
        b.comment("last iteration: chunks past K read zeros")
        emit_chunk(b, dt, bm, bk, m_rows_pred, True, n, k)

    # ---- deterministic reduction of the k-lanes through shared memory ----
    b.comment("partial sums: smem[kl][mm][c], then a fixed-order tree over kl")
    # this thread's cg partials of row mm at ((kl * bm + mm) * bn + cg g) * 4
    b.ins("mul.lo.u32 %%qt2, %%qkl, %d" % (bm * bn * 4))
    b.ins("shl.b32 %%qt3, %%qg, %d" % ((4 * cg).bit_length() - 1))
    b.ins("add.u32 %qt2, %qt2, %qt3")
    b.ins("add.u32 %qt2, %qt2, %qsmem")
    for mm in range(bm):
        for h in range(cg // 4):
            regs = ", ".join("%%qacc%d" % (mm * cg + 4 * h + q) for q in range(4))
            b.ins("st.shared.v4.f32 [%%qt2+%d], {%s}" % (mm * bn * 4 + 16 * h, regs))
    half = ks // 2
    while half >= 1:
        b.ins("bar.sync 0")
        count = half * elems                 # elements updated at this level
        for rep in range(ceil_div(count, threads)):
            b.ins("add.u32 %%qt2, %%qtid, %d" % (rep * threads))
            guard = ""
            if (rep + 1) * threads > count:
                b.ins("setp.lt.u32 %%qp1, %%qt2, %d" % count)
                guard = "@%qp1 "
            b.ins("shl.b32 %qt2, %qt2, 2")
            b.ins("add.u32 %qt2, %qt2, %qsmem")
            b.ins("%sld.shared.f32 %%qs0, [%%qt2]" % guard)
            b.ins("%sld.shared.f32 %%qs1, [%%qt2+%d]" % (guard, count * 4))
            b.ins("add.f32 %qs0, %qs0, %qs1")
            b.ins("%sst.shared.f32 [%%qt2], %%qs0" % guard)
        half //= 2
    b.ins("bar.sync 0")
    # ---- store: thread t < elems / 2 writes 2 columns of row t / (bn / 2) ----
    b.comment("store: row m0 + t / (block_n / 2), columns n0 + 2 (t % (block_n / 2)) + 0, 1")
    for rep in range(ceil_div(elems // 2, threads)):
        b.ins("add.u32 %%qt2, %%qtid, %d" % (rep * threads))
        b.ins("setp.lt.u32 %%qp1, %%qt2, %d" % (elems // 2))
        b.ins("shl.b32 %qt3, %qt2, 3")
        b.ins("add.u32 %qt3, %qt3, %qsmem")
        b.ins("@%qp1 ld.shared.v2.f32 {%qs0, %qs1}, [%qt3]")
        b.ins("div.u32 %%qt0, %%qt2, %d" % (bn // 2))
        b.ins("add.u32 %qt0, %qt0, %qm0")
        b.ins("rem.u32 %%qt1, %%qt2, %d" % (bn // 2))
        b.ins("shl.b32 %qt1, %qt1, 1")
        b.ins("add.u32 %qt1, %qt1, %qn0")
        b.ins("setp.lt.u32 %%qp2, %%qt0, %d" % m)
        b.ins("and.pred %qp1, %qp1, %qp2")
        b.ins("setp.lt.u32 %%qp2, %%qt1, %d" % n)
        b.ins("and.pred %qp1, %qp1, %qp2")
        b.ins("min.u32 %%qt0, %%qt0, %d" % (m - 1))
        b.ins("min.u32 %%qt1, %%qt1, %d" % (n - 2))
        b.ins("mul.lo.u32 %%qt0, %%qt0, %d" % n)
        b.ins("add.u32 %qt0, %qt0, %qt1")
        b.ins("mul.wide.u32 %%qcrow, %%qt0, %d" % oes)
        b.ins("add.s64 %qcrow, %qcrow, %qgC")
        out_store(b, cdt, "%qcrow", 0, ["%qs0", "%qs1"], "%qp1", c["accumulate"])

    result = gemm_answer(
        c, FAMILY, dt, cdt, [], mb * nblocks, threads, smem, 0,
        {"block_m": bm, "block_n": bn, "block_k": bk, "warps": warps, "k_lanes": ks},
        "16-byte ld.global.nc of B rows and A chunks", "fma.rn.f32",
        reduction="k-lanes through shared memory, fixed tree order",
        **({"math": "tf32 request computed in full fp32 FMAs (inputs not rounded to "
                    "tf32): at least as precise"} if dt == "tf32" else {}))
    return finish(result, b, fmt)


if __name__ == "__main__":
    main(emit, __doc__.split("\n")[0], __doc__)
