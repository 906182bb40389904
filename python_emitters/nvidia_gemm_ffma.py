#!/usr/bin/env python3
"""Emit a plain-fp32 (FFMA, no tensor cores) GEMM kernel as PTX.

C[M][N] = A[M][K] * B[K][N] (+ C when "accumulate"), fp32, row-major.
A 1-D grid of 128 x 128 tiles in grouped order, 256 threads, each thread an
8 x 8 block of C (two 4-row and two 4-column strips, 64 apart, so the
shared-memory reads of a warp are broadcasts or contiguous), K in steps of
16 through two shared-memory buffers: the next k-tile is loaded into
registers (16-byte loads when K and N are multiples of 4, element loads
otherwise) while the current one is multiplied, A is stored transposed
(k-major) so each thread reads 4 rows with one 16-byte load.

Spec: name, m, n, k, a_dtype (f32), c_dtype (f32), accumulate, sm, group_m
Answer: JSON (operands $0=A $1=B $2=C, $3 = shared window address) or
--format=ptx.
"""

from tensorop_emit.nvidia_ptx import (
    PtxBody, SpecError, ceil_div, common_spec, declare_store_temps, finish,
    gemm_answer, get_int, grouped_tile, main, out_store)

FAMILY = "nvidia_gemm_ffma"
BM, BN, BK = 128, 128, 16
THREADS = 256


def emit(spec, fmt):
    c = common_spec(spec, ("group_m",))
    if c["a_dtype"] != "f32":
        raise SpecError("a_dtype", "the FFMA kernel is for plain fp32 (got %s)" % c["a_dtype"])
    group_m = get_int(spec, "group_m", default=8, lo=1, hi=64)
    m, n, k = c["m"], c["n"], c["k"]
    sa = BM + 4                    # transposed A rows (floats), padded
    a_buf = BK * sa * 4
    b_buf = BK * BN * 4
    buf = a_buf + b_buf
    smem = 2 * buf
    vec_a = k % 4 == 0
    vec_b = n % 4 == 0
    tiles_m, tiles_n = ceil_div(m, BM), ceil_div(n, BN)
    kt_total = ceil_div(k, BK)
    na = 2 if vec_a else 8         # loads per thread per k-tile
    nb = 2 if vec_b else 8

    b = PtxBody()
    R = b.reg
    R("b64", "%qgA"), R("b64", "%qgB"), R("b64", "%qgC"), R("b32", "%qsmem")
    R("b32", "%qtid"), R("b32", "%qtx"), R("b32", "%qty"), R("b32", "%qbid")
    R("b32", "%qtm"), R("b32", "%qtn"), R("b32", "%qm0"), R("b32", "%qn0"), R("b32", "%qt", 8)
    R("pred", "%qp", 8)
    R("f32", "%qacc", 64), R("f32", "%qa", 8), R("f32", "%qb", 8)
    R("f32", "%qra", 4 * na if vec_a else na), R("f32", "%qrb", 4 * nb if vec_b else nb)
    R("b32", "%qkt"), R("b32", "%qcur"), R("b32", "%qnxt"), R("b32", "%qrd"), R("b32", "%qs")
    R("b64", "%qg"), R("b64", "%qw64"), R("b64", "%qcrow")
    R("b32", "%qrowa", na), R("b32", "%qka", na), R("b32", "%qkb", nb), R("b32", "%qcb", nb)
    declare_store_temps(b)

    b.comment("TensorOp %s: %dx%dx%d f32, tile %dx%dx%d, %s A, %s B"
              % (FAMILY, m, n, k, BM, BN, BK, "16-byte" if vec_a else "element",
                 "16-byte" if vec_b else "element"))
    b.ins("mov.b64 %qgA, $0")
    b.ins("mov.b64 %qgB, $1")
    b.ins("mov.b64 %qgC, $2")
    b.ins("mov.u32 %qsmem, $3")
    b.ins("mov.u32 %qtid, %tid.x")
    b.ins("and.b32 %qtx, %qtid, 15")
    b.ins("shr.u32 %qty, %qtid, 4")
    b.ins("mov.u32 %qbid, %ctaid.x")
    grouped_tile(b, "%qbid", tiles_m, tiles_n, group_m, "%qtm", "%qtn", "%qt")
    b.ins("mul.lo.u32 %%qm0, %%qtm, %d" % BM)
    b.ins("mul.lo.u32 %%qn0, %%qtn, %d" % BN)
    for i in range(64):
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
        if vec_b:   # chunk c: k row c / 32, column (c % 32) * 4
            b.ins("add.u32 %%qt0, %%qtid, %d" % (THREADS * j))
            b.ins("shr.u32 %%qkb%d, %%qt0, 5" % j)
            b.ins("and.b32 %qt1, %qt0, 31")
            b.ins("shl.b32 %%qcb%d, %%qt1, 2" % j)
        else:       # element: k row e / 128, column e % 128
            b.ins("add.u32 %%qt0, %%qtid, %d" % (THREADS * j))
            b.ins("shr.u32 %%qkb%d, %%qt0, 7" % j)
            b.ins("and.b32 %%qcb%d, %%qt0, 127" % j)

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

    b.ins("mov.u32 %qkt, 0")
    b.ins("mov.u32 %qcur, 0")
    global_loads("%qkt")
    shared_stores("%qcur")
    b.ins("bar.sync 0")
    # per-thread read addresses inside a buffer
    b.ins("shl.b32 %qt5, %qty, 4")                      # ty * 4 floats
    b.ins("shl.b32 %qt6, %qtx, 4")                      # tx * 4 floats
    loop = b.new_label("kloop")
    noload = b.new_label("noload")
    nostore = b.new_label("nostore")
    b.label(loop)
    b.ins("add.u32 %qt0, %qkt, 1")
    b.ins("setp.lt.u32 %%qp7, %%qt0, %d" % kt_total)
    b.ins("@!%qp7 bra " + noload)
    global_loads("%qt0")
    b.label(noload)
    b.ins("add.u32 %qrd, %qsmem, %qcur")
    b.ins("add.u32 %qt2, %qrd, %qt5")                   # A reads
    b.ins("add.u32 %qt3, %qrd, %qt6")
    b.ins("add.u32 %%qt3, %%qt3, %d" % a_buf)           # B reads
    for kk in range(BK):
        b.ins("ld.shared.v4.f32 {%%qa0, %%qa1, %%qa2, %%qa3}, [%%qt2+%d]" % (kk * sa * 4))
        b.ins("ld.shared.v4.f32 {%%qa4, %%qa5, %%qa6, %%qa7}, [%%qt2+%d]" % (kk * sa * 4 + 256))
        b.ins("ld.shared.v4.f32 {%%qb0, %%qb1, %%qb2, %%qb3}, [%%qt3+%d]" % (kk * BN * 4))
        b.ins("ld.shared.v4.f32 {%%qb4, %%qb5, %%qb6, %%qb7}, [%%qt3+%d]" % (kk * BN * 4 + 256))
        for i in range(8):
            for j in range(8):
                b.ins("fma.rn.f32 %%qacc%d, %%qa%d, %%qb%d, %%qacc%d" % (8 * i + j, i, j, 8 * i + j))
    b.ins("@!%qp7 bra " + nostore)
    b.ins("xor.b32 %%qnxt, %%qcur, %d" % buf)
    shared_stores("%qnxt")
    b.label(nostore)
    b.ins("bar.sync 0")
    b.ins("xor.b32 %%qcur, %%qcur, %d" % buf)
    b.ins("add.u32 %qkt, %qkt, 1")
    b.ins("@%qp7 bra " + loop)

    # epilogue: acc[8 i + j] is C[m0 + ty*4 + (i%4) + 64 (i/4)][n0 + tx*4 + (j%4) + 64 (j/4)]
    b.ins("shl.b32 %qt0, %qty, 2")
    b.ins("add.u32 %qt0, %qt0, %qm0")
    b.ins("shl.b32 %qt1, %qtx, 2")
    b.ins("add.u32 %qt1, %qt1, %qn0")
    b.ins("mul.wide.u32 %qw64, %qt1, 4")
    for i in range(8):
        row_off = (i % 4) + 64 * (i // 4)
        b.ins("add.u32 %%qt2, %%qt0, %d" % row_off)
        b.ins("setp.lt.u32 %%qp1, %%qt2, %d" % m)
        b.ins("min.u32 %%qt2, %%qt2, %d" % (m - 1))
        b.ins("mad.wide.u32 %%qcrow, %%qt2, %d, %%qgC" % (n * 4))
        b.ins("add.s64 %qcrow, %qcrow, %qw64")
        for half in range(2):
            for jp in range(2):   # pairs of columns: two 8-byte stores (or elements)
                col_off = 64 * half + 2 * jp
                vals = ["%%qacc%d" % (8 * i + 4 * half + 2 * jp + q) for q in range(2)]
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
        {"block_m": BM, "block_n": BN, "block_k": BK, "thread_tile": "8x8", "group_m": group_m},
        "16-byte" if (vec_a and vec_b) else "element (unaligned rows)", "fma.rn.f32")
    return finish(result, b, fmt)


if __name__ == "__main__":
    main(emit, __doc__.split("\n")[0], __doc__)
