#!/usr/bin/env python3
"""Emit a plain-fp32 (FFMA, no tensor cores) GEMM kernel as PTX.

C[M][N] = A[M][K] * B[K][N] (+ C when "accumulate"), fp32, row-major.
A 1-D grid of block_m x block_n tiles (32, 64 or 128 each; default
128 x 128) in grouped order, each thread a TM x TN block of C (TM = 8 for
block_m >= 64, else 4; TN likewise): TM / 4 strips of 4 rows, block_m /
(TM / 4) apart, and TN / 4 strips of 4 columns, so the shared-memory reads
of a warp are broadcasts or contiguous; block_m * block_n / (TM * TN)
threads (256 for 128 x 128, 64 for 64 x 64). K in steps of 16 through two
shared-memory buffers: the next k-tile is loaded into registers (16-byte
loads when K and N are multiples of 4, element loads otherwise) while the
current one is multiplied, A is stored transposed (k-major) so each thread
reads 4 rows with one 16-byte load. With stages = 3 or 4 the buffers are
filled by cp.async instead (A element by element into its k-major place, B
in 16-byte chunks), stages - 1 k-tiles in flight: for shapes whose CTAs
wait on memory (few k-tiles per SM). Smaller tiles fill the SMs on small
and mid-size shapes (the advisor picks them from whole waves).

Spec: name, m, n, k, a_dtype (f32), c_dtype (f32), accumulate, sm, group_m,
  block_m, block_n (32, 64 or 128; default 128), stages (2: registers;
  3 or 4: cp.async)
Answer: JSON (operands $0=A $1=B $2=C, $3 = shared window address) or
--format=ptx.
"""

from tensorop_emit.nvidia_ptx import (
    PtxBody, SpecError, ceil_div, common_spec, declare_store_temps, finish,
    gemm_answer, get_int, grouped_tile, main, out_store)

FAMILY = "nvidia_gemm_ffma"
BK = 16
TILES = (32, 64, 128)


def emit(spec, fmt):
    c = common_spec(spec, ("group_m", "block_m", "block_n", "stages"))
    if c["a_dtype"] != "f32":
        raise SpecError("a_dtype", "the FFMA kernel is for plain fp32 (got %s)" % c["a_dtype"])
    group_m = get_int(spec, "group_m", default=8, lo=1, hi=64)
    BM = get_int(spec, "block_m", default=128, lo=32, hi=128)
    BN = get_int(spec, "block_n", default=128, lo=32, hi=128)
    for field, v in (("block_m", BM), ("block_n", BN)):
        if v not in TILES:
            raise SpecError(field, "must be 32, 64 or 128, got %d" % v)
    stages = get_int(spec, "stages", default=2, lo=2, hi=4)
    TM = 8 if BM >= 64 else 4          # rows of C per thread (TM / 4 strips)
    TN = 8 if BN >= 64 else 4          # columns of C per thread
    SM_, SN = TM // 4, TN // 4         # strips
    THREADS = (BM // TM) * (BN // TN)
    TXN = BN // TN                     # threads along N (tx = tid % TXN)
    m, n, k = c["m"], c["n"], c["k"]
    sa = BM + 4                    # transposed A rows (floats), padded
    a_buf = BK * sa * 4
    b_buf = BK * BN * 4
    buf = a_buf + b_buf
    smem = stages * buf
    vec_a = k % 4 == 0
    vec_b = n % 4 == 0
    tiles_m, tiles_n = ceil_div(m, BM), ceil_div(n, BN)
    kt_total = ceil_div(k, BK)
    na = BM * BK // (4 if vec_a else 1) // THREADS   # loads per thread per k-tile
    nb = BN * BK // (4 if vec_b else 1) // THREADS
    acc_n = TM * TN

    b = PtxBody()
    R = b.reg
    R("b64", "%qgA"), R("b64", "%qgB"), R("b64", "%qgC"), R("b32", "%qsmem")
    R("b32", "%qtid"), R("b32", "%qtx"), R("b32", "%qty"), R("b32", "%qbid")
    R("b32", "%qtm"), R("b32", "%qtn"), R("b32", "%qm0"), R("b32", "%qn0"), R("b32", "%qt", 8)
    R("pred", "%qp", 8)
    R("f32", "%qacc", acc_n), R("f32", "%qa", TM), R("f32", "%qb", TN)
    R("f32", "%qra", 4 * na if vec_a else na), R("f32", "%qrb", 4 * nb if vec_b else nb)
    R("b32", "%qkt"), R("b32", "%qcur"), R("b32", "%qnxt"), R("b32", "%qrd"), R("b32", "%qs")
    if stages > 2:
        R("b32", "%qkl"), R("b32", "%qslotl"), R("b32", "%qsz"), R("b64", "%qg2")
    R("b64", "%qg"), R("b64", "%qw64"), R("b64", "%qcrow")
    R("b32", "%qrowa", na), R("b32", "%qka", na), R("b32", "%qkb", nb), R("b32", "%qcb", nb)
    declare_store_temps(b)

    b.comment("TensorOp %s: %dx%dx%d f32, tile %dx%dx%d, %d threads of %dx%d, %s A, %s B"
              % (FAMILY, m, n, k, BM, BN, BK, THREADS, TM, TN,
                 "16-byte" if vec_a else "element", "16-byte" if vec_b else "element"))
    b.ins("mov.b64 %qgA, $0")
    b.ins("mov.b64 %qgB, $1")
    b.ins("mov.b64 %qgC, $2")
    b.ins("mov.u32 %qsmem, $3")
    b.ins("mov.u32 %qtid, %tid.x")
    b.ins("and.b32 %%qtx, %%qtid, %d" % (TXN - 1))
    b.ins("shr.u32 %%qty, %%qtid, %d" % (TXN.bit_length() - 1))
    b.ins("mov.u32 %qbid, %ctaid.x")
    grouped_tile(b, "%qbid", tiles_m, tiles_n, group_m, "%qtm", "%qtn", "%qt")
    b.ins("mul.lo.u32 %%qm0, %%qtm, %d" % BM)
    b.ins("mul.lo.u32 %%qn0, %%qtn, %d" % BN)
    for i in range(acc_n):
        b.ins("mov.f32 %%qacc%d, 0f00000000" % i)
    # load assignments
    for j in range(na):
        if vec_a:   # chunk c = tid + 256 j: row c / 4, k (c % 4) * 4
            b.ins("add.u32 %%qt0, %%qtid, %d" % (THREADS * j))
            b.ins("shr.u32 %%qrowa%d, %%qt0, 2" % j)
            b.ins("and.b32 %qt1, %qt0, 3")
            b.ins("shl.b32 %%qka%d, %%qt1, 2" % j)
        else:       # element e = tid + 256 j: row e / 16, k e % 16
            b.ins("add.u32 %%qt0, %%qtid, %d" % (THREADS * j))
            b.ins("shr.u32 %%qrowa%d, %%qt0, 4" % j)
            b.ins("and.b32 %%qka%d, %%qt0, 15" % j)
    for j in range(nb):
        if vec_b:   # chunk c: k row c / (BN / 4), column (c % (BN / 4)) * 4
            b.ins("add.u32 %%qt0, %%qtid, %d" % (THREADS * j))
            b.ins("shr.u32 %%qkb%d, %%qt0, %d" % (j, (BN // 4).bit_length() - 1))
            b.ins("and.b32 %%qt1, %%qt0, %d" % (BN // 4 - 1))
            b.ins("shl.b32 %%qcb%d, %%qt1, 2" % j)
        else:       # element: k row e / BN, column e % BN
            b.ins("add.u32 %%qt0, %%qtid, %d" % (THREADS * j))
            b.ins("shr.u32 %%qkb%d, %%qt0, %d" % (j, BN.bit_length() - 1))
            b.ins("and.b32 %%qcb%d, %%qt0, %d" % (j, BN - 1))

    def global_loads(kt_reg):
        b.ins("shl.b32 %%qt7, %s, 4" % kt_reg)                    # k0 = kt * 16
        for j in range(na):
            b.ins("add.u32 %%qt0, %%qrowa%d, %%qm0" % j)
            b.ins("add.u32 %%qt1, %%qka%d, %%qt7" % j)
            b.ins("setp.lt.u32 %%qp0, %%qt0, %d" % m)
            b.ins("setp.lt.u32 %%qp1, %%qt1, %d" % k)
            b.ins("and.pred %qp0, %qp0, %qp1")
            b.ins("min.u32 %%qt0, %%qt0, %d" % (m - 1))
            b.ins("min.u32 %%qt1, %%qt1, %d" % (k - 1))
            b.ins("mad.wide.u32 %%qg, %%qt0, %d, %%qgA" % (k * 4))
            b.ins("mul.wide.u32 %qw64, %qt1, 4")
            b.ins("add.s64 %qg, %qg, %qw64")
            if vec_a:
                regs = ["%%qra%d" % (4 * j + e) for e in range(4)]
                for r in regs:
                    b.ins("mov.f32 %s, 0f00000000" % r)
                b.ins("@%%qp0 ld.global.nc.v4.f32 {%s}, [%%qg]" % ", ".join(regs))
            else:
                b.ins("mov.f32 %%qra%d, 0f00000000" % j)
                b.ins("@%%qp0 ld.global.nc.f32 %%qra%d, [%%qg]" % j)
        for j in range(nb):
            b.ins("add.u32 %%qt0, %%qkb%d, %%qt7" % j)
            b.ins("add.u32 %%qt1, %%qcb%d, %%qn0" % j)
            b.ins("setp.lt.u32 %%qp0, %%qt0, %d" % k)
            b.ins("setp.lt.u32 %%qp1, %%qt1, %d" % n)
            b.ins("and.pred %qp0, %qp0, %qp1")
            b.ins("min.u32 %%qt0, %%qt0, %d" % (k - 1))
            b.ins("min.u32 %%qt1, %%qt1, %d" % (n - 1))
            b.ins("mad.wide.u32 %%qg, %%qt0, %d, %%qgB" % (n * 4))
            b.ins("mul.wide.u32 %qw64, %qt1, 4")
            b.ins("add.s64 %qg, %qg, %qw64")
            if vec_b:
                regs = ["%%qrb%d" % (4 * j + e) for e in range(4)]
                for r in regs:
                    b.ins("mov.f32 %s, 0f00000000" % r)
                b.ins("@%%qp0 ld.global.nc.v4.f32 {%s}, [%%qg]" % ", ".join(regs))
            else:
                b.ins("mov.f32 %%qrb%d, 0f00000000" % j)
                b.ins("@%%qp0 ld.global.nc.f32 %%qrb%d, [%%qg]" % j)

    def shared_stores(buf_reg):
        b.ins("add.u32 %%qs, %%qsmem, %s" % buf_reg)
        for j in range(na):   # As[k][row], k-major
            b.ins("mad.lo.u32 %%qt0, %%qka%d, %d, %%qrowa%d" % (j, sa, j))
            b.ins("shl.b32 %qt0, %qt0, 2")
            b.ins("add.u32 %qt0, %qt0, %qs")
            if vec_a:
                for e in range(4):
                    b.ins("st.shared.f32 [%%qt0+%d], %%qra%d" % (e * sa * 4, 4 * j + e))
            else:
                b.ins("st.shared.f32 [%%qt0], %%qra%d" % j)
        for j in range(nb):   # Bs[k][col]
            b.ins("mad.lo.u32 %%qt0, %%qkb%d, %d, %%qcb%d" % (j, BN, j))
            b.ins("shl.b32 %qt0, %qt0, 2")
            b.ins("add.u32 %qt0, %qt0, %qs")
            b.ins("add.u32 %%qt0, %%qt0, %d" % a_buf)
            if vec_b:
                b.ins("st.shared.v4.f32 [%%qt0], {%s}" % ", ".join("%%qrb%d" % (4 * j + e) for e in range(4)))
            else:
                b.ins("st.shared.f32 [%%qt0], %%qrb%d" % j)

    def register_pipeline():
        """Two buffers: the next k-tile goes global -> registers during the
        FMAs of this one, then registers -> shared memory."""
        b.ins("mov.u32 %qkt, 0")
        b.ins("mov.u32 %qcur, 0")
        global_loads("%qkt")
        shared_stores("%qcur")
        b.ins("bar.sync 0")
        loop = b.new_label("kloop")
        noload = b.new_label("noload")
        nostore = b.new_label("nostore")
        b.label(loop)
        b.ins("add.u32 %qt0, %qkt, 1")
        b.ins("setp.lt.u32 %%qp7, %%qt0, %d" % kt_total)
        b.ins("@!%qp7 bra " + noload)
        global_loads("%qt0")
        b.label(noload)
        compute("%qcur")
        b.ins("@!%qp7 bra " + nostore)
        b.ins("xor.b32 %%qnxt, %%qcur, %d" % buf)
        shared_stores("%qnxt")
        b.label(nostore)
        b.ins("bar.sync 0")
        b.ins("xor.b32 %%qcur, %%qcur, %d" % buf)
        b.ins("add.u32 %qkt, %qkt, 1")
        b.ins("@%qp7 bra " + loop)

    def async_copies(kt_reg, slot_reg):
        """cp.async of k-tile kt_reg into the buffer at slot_reg: A element
        by element (4 bytes, stored k-major), B in 16-byte chunks (element
        by element for unaligned rows); zero-filled past the edges through
        src-size, addresses clamped inside the matrix."""
        b.ins("shl.b32 %%qt7, %s, 4" % kt_reg)                    # k0 = kt * 16
        b.ins("add.u32 %%qs, %%qsmem, %s" % slot_reg)
        for j in range(na):
            b.ins("add.u32 %%qt0, %%qrowa%d, %%qm0" % j)
            b.ins("add.u32 %%qt1, %%qka%d, %%qt7" % j)
            b.ins("mad.lo.u32 %%qt4, %%qka%d, %d, %%qrowa%d" % (j, sa, j))
            b.ins("shl.b32 %qt4, %qt4, 2")
            b.ins("add.u32 %qt4, %qt4, %qs")                       # As[k][row]
            b.ins("setp.lt.u32 %%qp0, %%qt0, %d" % m)
            b.ins("min.u32 %%qt0, %%qt0, %d" % (m - 1))
            b.ins("mad.wide.u32 %%qg, %%qt0, %d, %%qgA" % (k * 4))
            for e in range(4 if vec_a else 1):
                b.ins("add.u32 %%qt3, %%qt1, %d" % e)
                b.ins("setp.lt.u32 %%qp1, %%qt3, %d" % k)
                b.ins("and.pred %qp1, %qp1, %qp0")
                b.ins("selp.u32 %qsz, 4, 0, %qp1")
                b.ins("min.u32 %%qt3, %%qt3, %d" % (k - 1))
                b.ins("mul.wide.u32 %qw64, %qt3, 4")
                b.ins("add.s64 %qg2, %qg, %qw64")
                b.ins("cp.async.ca.shared.global [%%qt4+%d], [%%qg2], 4, %%qsz" % (e * sa * 4))
        for j in range(nb):
            b.ins("add.u32 %%qt0, %%qkb%d, %%qt7" % j)
            b.ins("add.u32 %%qt1, %%qcb%d, %%qn0" % j)
            b.ins("mad.lo.u32 %%qt4, %%qkb%d, %d, %%qcb%d" % (j, BN, j))
            b.ins("shl.b32 %qt4, %qt4, 2")
            b.ins("add.u32 %qt4, %qt4, %qs")
            b.ins("add.u32 %%qt4, %%qt4, %d" % a_buf)                # Bs[k][col]
            b.ins("setp.lt.u32 %%qp0, %%qt0, %d" % k)
            b.ins("setp.lt.u32 %%qp1, %%qt1, %d" % n)
            b.ins("and.pred %qp0, %qp0, %qp1")
            b.ins("min.u32 %%qt0, %%qt0, %d" % (k - 1))
            b.ins("min.u32 %%qt1, %%qt1, %d" % (n - 1))
            b.ins("mad.wide.u32 %%qg, %%qt0, %d, %%qgB" % (n * 4))
            b.ins("mul.wide.u32 %qw64, %qt1, 4")
            b.ins("add.s64 %qg, %qg, %qw64")
            if vec_b:   # N % 4 == 0: a chunk is wholly inside or outside
                b.ins("selp.u32 %qsz, 16, 0, %qp0")
                b.ins("cp.async.cg.shared.global [%qt4], [%qg], 16, %qsz")
            else:
                b.ins("selp.u32 %qsz, 4, 0, %qp0")
                b.ins("cp.async.ca.shared.global [%qt4], [%qg], 4, %qsz")

    def async_pipeline():
        """`stages` buffers filled by cp.async, stages - 1 k-tiles in flight
        while one is multiplied (latency-bound shapes: few k-tiles per SM)."""
        b.comment("prologue: %d k-tiles in flight" % (stages - 1))
        b.ins("mov.u32 %qslotl, 0")
        for st in range(stages - 1):
            if st < kt_total:
                b.ins("mov.u32 %%qkl, %d" % st)
                async_copies("%qkl", "%qslotl")
            b.ins("cp.async.commit_group")
            b.ins("add.u32 %%qslotl, %%qslotl, %d" % buf)
        b.ins("mov.u32 %%qkl, %d" % (stages - 1))
        b.ins("mov.u32 %qcur, 0")
        b.ins("mov.u32 %qkt, 0")
        loop = b.new_label("kloop")
        skip = b.new_label("noload")
        b.label(loop)
        b.ins("cp.async.wait_group %d" % (stages - 2))
        # every thread is done with the buffer the next copies overwrite
        b.ins("bar.sync 0")
        b.ins("setp.ge.u32 %%qp7, %%qkl, %d" % kt_total)
        b.ins("@%qp7 bra " + skip)
        async_copies("%qkl", "%qslotl")
        b.label(skip)
        b.ins("cp.async.commit_group")
        compute("%qcur")
        for reg in ("%qslotl", "%qcur"):
            b.ins("add.u32 %s, %s, %d" % (reg, reg, buf))
            b.ins("setp.eq.u32 %%qp6, %s, %d" % (reg, stages * buf))
            b.ins("selp.u32 %s, 0, %s, %%qp6" % (reg, reg))
        b.ins("add.u32 %qkl, %qkl, 1")
        b.ins("add.u32 %qkt, %qkt, 1")
        b.ins("setp.lt.u32 %%qp7, %%qkt, %d" % kt_total)
        b.ins("@%qp7 bra " + loop)
        b.ins("cp.async.wait_group 0")

    a_gap, b_gap = BM // SM_ * 4, BN // SN * 4          # bytes between strips

    def compute(slot_reg):
        """The FMAs of one k-tile from the shared-memory buffer at slot_reg."""
        b.ins("add.u32 %%qrd, %%qsmem, %s" % slot_reg)
        b.ins("add.u32 %qt2, %qrd, %qt5")                   # A reads
        b.ins("add.u32 %qt3, %qrd, %qt6")
        b.ins("add.u32 %%qt3, %%qt3, %d" % a_buf)           # B reads
        for kk in range(BK):
            for st in range(SM_):
                b.ins("ld.shared.v4.f32 {%%qa%d, %%qa%d, %%qa%d, %%qa%d}, [%%qt2+%d]"
                      % (tuple(4 * st + q for q in range(4)) + (kk * sa * 4 + st * a_gap,)))
            for st in range(SN):
                b.ins("ld.shared.v4.f32 {%%qb%d, %%qb%d, %%qb%d, %%qb%d}, [%%qt3+%d]"
                      % (tuple(4 * st + q for q in range(4)) + (kk * BN * 4 + st * b_gap,)))
            for i in range(TM):
                for j in range(TN):
                    b.ins("fma.rn.f32 %%qacc%d, %%qa%d, %%qb%d, %%qacc%d"
                          % (TN * i + j, i, j, TN * i + j))

    # per-thread read addresses inside a buffer
    b.ins("shl.b32 %qt5, %qty, 4")                      # ty * 4 floats
    b.ins("shl.b32 %qt6, %qtx, 4")                      # tx * 4 floats
    if stages == 2:
        register_pipeline()
    else:
        async_pipeline()

    # epilogue: acc[TN i + j] is C[m0 + ty*4 + (i%4) + (BM / SM_) (i/4)]
    #                               [n0 + tx*4 + (j%4) + (BN / SN) (j/4)]
    b.ins("shl.b32 %qt0, %qty, 2")
    b.ins("add.u32 %qt0, %qt0, %qm0")
    b.ins("shl.b32 %qt1, %qtx, 2")
    b.ins("add.u32 %qt1, %qt1, %qn0")
    b.ins("mul.wide.u32 %qw64, %qt1, 4")
    for i in range(TM):
        row_off = (i % 4) + BM // SM_ * (i // 4)
        b.ins("add.u32 %%qt2, %%qt0, %d" % row_off)
        b.ins("setp.lt.u32 %%qp1, %%qt2, %d" % m)
        b.ins("min.u32 %%qt2, %%qt2, %d" % (m - 1))
        b.ins("mad.wide.u32 %%qcrow, %%qt2, %d, %%qgC" % (n * 4))
        b.ins("add.s64 %qcrow, %qcrow, %qw64")
        for half in range(SN):
            for jp in range(2):   # pairs of columns: two 8-byte stores (or elements)
                col_off = BN // SN * half + 2 * jp
                vals = ["%%qacc%d" % (TN * i + 4 * half + 2 * jp + q) for q in range(2)]
                if n % 2 == 0:
                    b.ins("add.u32 %%qt3, %%qt1, %d" % col_off)
                    b.ins("setp.lt.u32 %%qp2, %%qt3, %d" % n)
                    b.ins("and.pred %qp2, %qp2, %qp1")
                    out_store(b, "f32", "%qcrow", col_off * 4, vals, "%qp2", c["accumulate"])
                else:
                    for q in range(2):
                        b.ins("add.u32 %%qt3, %%qt1, %d" % (col_off + q))
                        b.ins("setp.lt.u32 %%qp2, %%qt3, %d" % n)
                        b.ins("and.pred %qp2, %qp2, %qp1")
                        out_store(b, "f32", "%qcrow", (col_off + q) * 4, [vals[q]], "%qp2",
                                  c["accumulate"])

    result = gemm_answer(
        c, FAMILY, "f32", "f32", [], tiles_m * tiles_n, THREADS, smem, 2,
        {"block_m": BM, "block_n": BN, "block_k": BK, "thread_tile": "%dx%d" % (TM, TN),
         "group_m": group_m, "stages": stages},
        ("registers, " if stages == 2 else "cp.async, ")
        + ("16-byte" if (vec_a and vec_b) else "element (unaligned rows)"), "fma.rn.f32")
    return finish(result, b, fmt)


if __name__ == "__main__":
    main(emit, __doc__.split("\n")[0], __doc__)
