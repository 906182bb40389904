#!/usr/bin/env python3
"""Emit a plain-fp32 (FFMA, no tensor cores) GEMM kernel as PTX.

C[M][N] = A[M][K] * B[K][N] (+ C when "accumulate"), fp32, row-major.
A 1-D grid of block_m x block_n tiles (32, 64 or 128 each, block_n also
256 with block_m 128; default 128 x 128) in grouped order, each thread a
TM x TN block of C (TM = 8 for block_m >= 64, else 4; TN likewise, 16 for
block_n 256): TM / 4 strips of 4 rows, block_m / (TM / 4) apart, and TN / 4
strips of 4 columns, so the shared-memory reads of a warp are broadcasts or
contiguous; block_m * block_n / (TM * TN) threads (256 for 128 x 128 and
128 x 256, 64 for 64 x 64). Layout "rows": a warp is 32 / (block_n / TN)
rows of threads; "warps": 4 x 8 threads (4 and 8 distinct 16-byte reads
per fragment). A is stored transposed (k-major) so each thread reads 4
rows with one 16-byte load.

Stages 2: K in steps of 16 through two shared-memory buffers, the next
k-tile loaded into registers (16-byte loads when K and N are multiples of 4,
element loads otherwise) while the current one is multiplied. Stages 3 or
4: the buffers are filled by cp.async (A element by element into its
k-major place, B in 16-byte chunks or elements), block_k 8, 16 or 32, with
loop-invariant addresses (a pointer per row block moves one k-tile a step;
the partial last k-tile copied by itself). frags 2 (the default there):
the fragments of step kk + 1 are read during step kk's FMAs, across k-tiles
too (the barrier before a k-tile's last step); frags 1: one barrier per
k-tile before its copies, stages - 1 k-tiles in flight. Smaller tiles fill
the SMs on small and mid-size shapes (the advisor picks them from whole
waves).

Split-K (split_k 2 or 4, sm_90): a cluster of split_k CTAs per tile,
rank r running the r-th of split_k equal ranges of the k-tiles (both
pipelines start at the range's first k-tile and stop at its end; only the
last rank has a partial last k-tile). The partial tiles are reduced as in
the wgmma kernels (tensorop_emit/wgmma_splitk.py): each rank writes its
accumulators into its own shared memory (over the stages), a cluster
barrier, then each rank adds its share of the accumulators (groups of 4
dealt round-robin) of all partials in rank order, partial 0 + 1 + ..,
through distributed shared memory (the same bits every run, no
workspace), and stores them; a second cluster barrier keeps every rank's
shared memory alive until its peers have read it. Every tile is split
(no data-parallel waves: the advisor splits only grids of few tiles).

Spec: name, m, n, k, a_dtype (f32), c_dtype (f32), accumulate, sm, group_m,
  block_m, block_n (32, 64 or 128, block_n also 256; default 128), stages
  (2: registers; 3 or 4: cp.async), block_k (16; 8 or 32 with cp.async),
  layout (rows | warps; default rows for stages 2, else warps), frags (1 | 2;
  default 1 for stages 2, else 2), split_k (1, 2 or 4; sm 90)
Answer: JSON (operands $0=A $1=B $2=C, $3 = shared window address) or
--format=ptx.
"""

from tensorop_emit.nvidia_ptx import (
    PtxBody, SpecError, ceil_div, common_spec, declare_store_temps, finish,
    gemm_answer, get_int, grouped_tile, main, out_store)

FAMILY = "nvidia_gemm_ffma"
TILES = (32, 64, 128)
LAYOUTS = ("rows", "warps")


def emit(spec, fmt):
    c = common_spec(spec, ("group_m", "block_m", "block_n", "block_k", "stages", "layout", "frags",
                               "split_k"))
    if c["a_dtype"] != "f32":
        raise SpecError("a_dtype", "the FFMA kernel is for plain fp32 (got %s)" % c["a_dtype"])
    group_m = get_int(spec, "group_m", default=8, lo=1, hi=64)
    BM = get_int(spec, "block_m", default=128, lo=32, hi=128)
    BN = get_int(spec, "block_n", default=128, lo=32, hi=256)
    for field, v in (("block_m", BM), ("block_n", BN)):
        if v not in TILES and not (field == "block_n" and v == 256):
            raise SpecError(field, "must be 32, 64 or 128 (block_n also 256), got %d" % v)
    if BN == 256 and BM != 128:
        raise SpecError("block_n", "256 needs block_m 128 (8x16 C elements per thread)")
    stages = get_int(spec, "stages", default=2, lo=2, hi=4)
    BK = get_int(spec, "block_k", default=16, lo=8, hi=32)
    if BK not in (8, 16, 32) or (BK != 16 and stages == 2):
        raise SpecError("block_k", "must be 16, or 8 or 32 with stages 3 or 4, got %d" % BK)
    # cp.async defaults: measured on the H200 (docs/benchmarks/gpu-gemm.md,
    # "Session 13"): 2 fragment buffers 4096^3 0.87x -> 0.93x cuBLAS,
    # 1024^3 (64x128) 0.87x -> 0.99x; the warp layout is neutral
    layout = spec.get("layout", "rows" if stages == 2 else "warps")
    frags = get_int(spec, "frags", default=1 if stages == 2 else 2, lo=1, hi=2)
    if frags == 2 and stages == 2:
        raise SpecError("frags", "2 fragment buffers need stages 3 or 4")
    if layout not in LAYOUTS:
        raise SpecError("layout", "must be rows or warps, got %r" % (layout,))
    TM = 8 if BM >= 64 else 4          # rows of C per thread (TM / 4 strips)
    TN = 16 if BN == 256 else 8 if BN >= 64 else 4   # columns of C per thread
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
    sk = get_int(spec, "split_k", default=1, lo=1, hi=4)
    per = ceil_div(kt_total, sk)               # k-tiles of a rank's range
    if sk not in (1, 2, 4):
        raise SpecError("split_k", "must be 1, 2 or 4, got %d" % sk)
    if sk > 1 and c["sm"] < 90:
        raise SpecError("split_k", "split-K runs on clusters: sm 90 only, got sm %d" % c["sm"])
    if sk > 1 and per * (sk - 1) >= kt_total:
        raise SpecError("split_k", "K=%d has %d k-tiles of %d: too few for %d non-empty ranges"
                        % (k, kt_total, BK, sk))
    if sk > 1:   # the fp32 partial tile overlays the stages
        smem = max(smem, BM * BN * 4)
    kt_start, kt_end = ("%qkbeg", "%qke") if sk > 1 else ("0", str(kt_total))

    b = PtxBody()
    R = b.reg
    R("b64", "%qgA"), R("b64", "%qgB"), R("b64", "%qgC"), R("b32", "%qsmem")
    R("b32", "%qtid"), R("b32", "%qtx"), R("b32", "%qty"), R("b32", "%qbid")
    R("b32", "%qtm"), R("b32", "%qtn"), R("b32", "%qm0"), R("b32", "%qn0"), R("b32", "%qt", 8)
    R("pred", "%qp", 8)
    R("f32", "%qacc", acc_n), R("f32", "%qa", frags * TM), R("f32", "%qb", frags * TN)
    R("f32", "%qra", 4 * na if vec_a else na), R("f32", "%qrb", 4 * nb if vec_b else nb)
    R("b32", "%qkt"), R("b32", "%qcur"), R("b32", "%qnxt"), R("b32", "%qrd"), R("b32", "%qs")
    if stages > 2:
        R("b32", "%qkl"), R("b32", "%qslotl"), R("b32", "%qsz"), R("b64", "%qg2")
        R("b32", "%qsa"), R("b32", "%qsb"), R("b64", "%qpb"), R("b32", "%qszb")
        R("b64", "%qpa", BM // (THREADS // 8)), R("b32", "%qsza", BM // (THREADS // 8))
        R("b32", "%qrka"), R("b32", "%qrkb")
        R("b32", "%qfa"), R("b32", "%qfb")
    R("b64", "%qg"), R("b64", "%qw64"), R("b64", "%qcrow")
    R("b32", "%qrowa", na), R("b32", "%qka", na), R("b32", "%qkb", nb), R("b32", "%qcb", nb)
    declare_store_temps(b)
    if sk > 1:
        R("b32", "%qrank"), R("b32", "%qkbeg"), R("b32", "%qke")
        R("f32", "%qsl", 4), R("b32", "%qska", sk)

    b.comment("TensorOp %s: %dx%dx%d f32, tile %dx%dx%d, %d threads of %dx%d, %s A, %s B"
              % (FAMILY, m, n, k, BM, BN, BK, THREADS, TM, TN,
                 "16-byte" if vec_a else "element", "16-byte" if vec_b else "element"))
    b.ins("mov.b64 %qgA, $0")
    b.ins("mov.b64 %qgB, $1")
    b.ins("mov.b64 %qgC, $2")
    b.ins("mov.u32 %qsmem, $3")
    b.ins("mov.u32 %qtid, %tid.x")
    if layout == "rows":   # a warp: 32 / TXN rows of threads (e.g. 16x128 of C)
        b.ins("and.b32 %%qtx, %%qtid, %d" % (TXN - 1))
        b.ins("shr.u32 %%qty, %%qtid, %d" % (TXN.bit_length() - 1))
    else:   # a warp: 4 x 8 threads (e.g. 32x64 of C in 2 x 2 strips):
        # 4 and 8 distinct 16-byte shared-memory reads per fragment load
        # instead of 2 and 16 (one wavefront each)
        wn = TXN // 8                  # warps along N
        b.ins("and.b32 %qtx, %qtid, 7")
        b.ins("shr.u32 %qt0, %qtid, 5")                    # warp
        b.ins("and.b32 %%qt1, %%qt0, %d" % (wn - 1))
        b.ins("shl.b32 %qt1, %qt1, 3")
        b.ins("add.u32 %qtx, %qtx, %qt1")
        b.ins("shr.u32 %qty, %qtid, 3")
        b.ins("and.b32 %qty, %qty, 3")
        b.ins("shr.u32 %%qt1, %%qt0, %d" % (wn.bit_length() - 1))
        b.ins("shl.b32 %qt1, %qt1, 2")
        b.ins("add.u32 %qty, %qty, %qt1")
    if sk > 1:
        # cluster (sk, 1, 1): CTAs sk t .. sk t + sk - 1 are tile t's ranks
        b.ins("mov.u32 %qrank, %cluster_ctarank")
        b.ins("mov.u32 %qbid, %ctaid.x")
        b.ins("shr.u32 %%qbid, %%qbid, %d" % (sk.bit_length() - 1))
        b.ins("mul.lo.u32 %%qkbeg, %%qrank, %d" % per)
        b.ins("add.u32 %%qke, %%qkbeg, %d" % per)
        b.ins("min.u32 %%qke, %%qke, %d" % kt_total)
    else:
        b.ins("mov.u32 %qbid, %ctaid.x")
    grouped_tile(b, "%qbid", tiles_m, tiles_n, group_m, "%qtm", "%qtn", "%qt")
    b.ins("mul.lo.u32 %%qm0, %%qtm, %d" % BM)
    b.ins("mul.lo.u32 %%qn0, %%qtn, %d" % BN)
    for i in range(acc_n):
        b.ins("mov.f32 %%qacc%d, 0f00000000" % i)
    # load assignments (registers path)
    for j in range(na if stages == 2 else 0):
        if vec_a:   # chunk c = tid + 256 j: row c / 4, k (c % 4) * 4
            b.ins("add.u32 %%qt0, %%qtid, %d" % (THREADS * j))
            b.ins("shr.u32 %%qrowa%d, %%qt0, 2" % j)
            b.ins("and.b32 %qt1, %qt0, 3")
            b.ins("shl.b32 %%qka%d, %%qt1, 2" % j)
        else:       # element e = tid + 256 j: row e / 16, k e % 16
            b.ins("add.u32 %%qt0, %%qtid, %d" % (THREADS * j))
            b.ins("shr.u32 %%qrowa%d, %%qt0, 4" % j)
            b.ins("and.b32 %%qka%d, %%qt0, 15" % j)
    for j in range(nb if stages == 2 else 0):
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
        b.ins("mov.u32 %qkt, " + kt_start)
        b.ins("mov.u32 %qcur, 0")
        global_loads("%qkt")
        shared_stores("%qcur")
        b.ins("bar.sync 0")
        loop = b.new_label("kloop")
        noload = b.new_label("noload")
        nostore = b.new_label("nostore")
        b.label(loop)
        b.ins("add.u32 %qt0, %qkt, 1")
        b.ins("setp.lt.u32 %qp7, %qt0, " + kt_end)
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

    # cp.async copies (stages >= 3). Every address is loop-invariant but for
    # a pointer that moves one k-tile per step, so a k-tile costs its
    # cp.async instructions and a few adds (the per-element address
    # arithmetic of a general copy was ~12 % of the loop's instructions).
    # A, element by element into its k-major place: a warp copies 8
    # consecutive k of 4 rows (4 sectors from global memory; banks
    # (4 k + row) % 32 in shared memory, no conflict with sa % 32 == 4).
    # Element q = tid + THREADS j: k = (q % 8) + 8 (q / (8 BM)),
    # row = (q / 8) % BM. B in 16-byte chunks (elements where N % 4 != 0),
    # a thread's column fixed, rows THREADS / (BN / 4) apart.
    a_rows = THREADS // 8                  # rows one j step covers
    a_blocks = BM // a_rows                # row blocks (one pointer each)
    a_per = BM * BK // THREADS             # A elements per thread
    b_w = 4 if vec_b else 1                # floats per B copy
    b_cols = BN // b_w                     # copies per k row
    b_rows = THREADS // b_cols             # k rows one j step covers
    b_per = BK // b_rows                   # B copies per thread
    ragged = k % BK != 0                   # the last k-tile is partial
    if stages > 2 and (BK % b_rows or BM * BK % THREADS):
        raise SpecError("block_k", "%d is too short for a %dx%d tile's copies" % (BK, BM, BN))

    def a_elem(j):
        q = THREADS * j                    # + tid
        return (q // 8) % BM // a_rows, 8 * (q // (8 * BM))   # (row block, k group)

    def async_setup():
        """Loop-invariant parts: per-thread shared offsets (%qsa, %qsb),
        global pointers of k-tile 0 (%qpa<row block>, %qpb) and, on the
        M / N edges, the src-size of each row block / of the column."""
        b.ins("and.b32 %qt0, %qtid, 7")                        # k in group
        b.ins("shr.u32 %qt1, %qtid, 3")                        # row in block
        b.ins("mad.lo.u32 %%qsa, %%qt0, %d, %%qt1" % sa)
        b.ins("shl.b32 %qsa, %qsa, 2")
        b.ins("add.u32 %qt1, %qt1, %qm0")
        for rb in range(a_blocks):
            b.ins("add.u32 %%qt2, %%qt1, %d" % (rb * a_rows))
            if m % BM:
                b.ins("setp.lt.u32 %%qp0, %%qt2, %d" % m)
                b.ins("selp.u32 %%qsza%d, 4, 0, %%qp0" % rb)
                b.ins("min.u32 %%qt2, %%qt2, %d" % (m - 1))
            b.ins("mad.wide.u32 %%qpa%d, %%qt2, %d, %%qgA" % (rb, k * 4))
            b.ins("mul.wide.u32 %qw64, %qt0, 4")
            b.ins("add.s64 %%qpa%d, %%qpa%d, %%qw64" % (rb, rb))
        b.ins("and.b32 %%qt0, %%qtid, %d" % (b_cols - 1))
        b.ins("shr.u32 %%qt1, %%qtid, %d" % (b_cols.bit_length() - 1))   # k row
        b.ins("mad.lo.u32 %%qsb, %%qt1, %d, %%qt0" % (BN // b_w))
        b.ins("shl.b32 %%qsb, %%qsb, %d" % (2 + (b_w == 4) * 2))
        b.ins("add.u32 %%qsb, %%qsb, %d" % a_buf)
        b.ins("mad.lo.u32 %%qt0, %%qt0, %d, %%qn0" % b_w)      # column
        if n % BN:
            b.ins("setp.lt.u32 %%qp0, %%qt0, %d" % n)
            b.ins("selp.u32 %%qszb, %d, 0, %%qp0" % (4 * b_w))
            b.ins("min.u32 %%qt0, %%qt0, %d" % (n - b_w))
        b.ins("mad.wide.u32 %%qpb, %%qt1, %d, %%qgB" % (n * 4))
        b.ins("mul.wide.u32 %qw64, %qt0, 4")
        b.ins("add.s64 %qpb, %qpb, %qw64")
        if sk > 1:   # the pointers at the rank's first k-tile
            b.ins("mul.wide.u32 %%qw64, %%qkbeg, %d" % (BK * 4))
            for rb in range(a_blocks):
                b.ins("add.s64 %%qpa%d, %%qpa%d, %%qw64" % (rb, rb))
            b.ins("mul.wide.u32 %%qw64, %%qkbeg, %d" % (BK * n * 4))
            b.ins("add.s64 %qpb, %qpb, %qw64")
        # bytes of the last (partial) k-tile each thread's k group / k row
        # may copy: K - kt0 - (k in group), K - kt0 - (k row), kt0 its first k
        if ragged:
            k0 = (kt_total - 1) * BK
            b.ins("and.b32 %qt0, %qtid, 7")
            b.ins("sub.s32 %%qrka, %d, %%qt0" % (k - k0))
            b.ins("shr.u32 %%qt1, %%qtid, %d" % (b_cols.bit_length() - 1))
            b.ins("sub.s32 %%qrkb, %d, %%qt1" % (k - k0))

    def async_copies(slot_reg, last):
        """cp.async of the k-tile the pointers are at into the buffer at
        slot_reg; `last`: the partial last k-tile (zero-filled past K, the
        addresses clamped inside the row)."""
        b.ins("add.u32 %%qs, %%qsmem, %s" % slot_reg)
        b.ins("add.u32 %qt4, %qs, %qsa")
        for j in range(a_per):
            rb, kg = a_elem(j)
            dst = "[%%qt4+%d]" % (kg * sa * 4 + rb * a_rows * 4)
            size = ", %%qsza%d" % rb if m % BM else ""
            if last:
                b.ins("setp.gt.s32 %%qp1, %%qrka, %d" % kg)
                if m % BM:
                    b.ins("selp.u32 %%qsz, %%qsza%d, 0, %%qp1" % rb)
                else:
                    b.ins("selp.u32 %qsz, 4, 0, %qp1")
                b.ins("sub.s32 %qt3, %qrka, 1")
                b.ins("min.s32 %%qt3, %%qt3, %d" % kg)       # may be < 0: k = K - 1
                b.ins("mul.wide.s32 %qw64, %qt3, 4")
                b.ins("add.s64 %%qg2, %%qpa%d, %%qw64" % rb)
                b.ins("cp.async.ca.shared.global %s, [%%qg2], 4, %%qsz" % dst)
            else:
                b.ins("cp.async.ca.shared.global %s, [%%qpa%d+%d], 4%s"
                      % (dst, rb, kg * 4, size))
        b.ins("add.u32 %qt4, %qs, %qsb")
        op = "cp.async.cg.shared.global" if vec_b else "cp.async.ca.shared.global"
        for j in range(b_per):
            kr = j * b_rows
            dst = "[%%qt4+%d]" % (kr * BN * 4)
            size = ", %qszb" if n % BN else ""
            if last:
                b.ins("setp.gt.s32 %%qp1, %%qrkb, %d" % kr)
                if n % BN:
                    b.ins("selp.u32 %qsz, %qszb, 0, %qp1")
                else:
                    b.ins("selp.u32 %%qsz, %d, 0, %%qp1" % (4 * b_w))
                b.ins("sub.s32 %qt3, %qrkb, 1")
                b.ins("min.s32 %%qt3, %%qt3, %d" % kr)       # may be < 0: k = K - 1
                b.ins("mul.wide.s32 %%qw64, %%qt3, %d" % (n * 4))
                b.ins("add.s64 %qg2, %qpb, %qw64")
                b.ins("%s %s, [%%qg2], %d, %%qsz" % (op, dst, 4 * b_w))
            else:
                b.ins("%s %s, [%%qpb+%d], %d%s" % (op, dst, kr * n * 4, 4 * b_w, size))
        for rb in range(a_blocks):
            b.ins("add.s64 %%qpa%d, %%qpa%d, %d" % (rb, rb, BK * 4))
        b.ins("add.s64 %%qpb, %%qpb, %d" % (BK * n * 4))

    def loop_copies():
        """The copies of k-tile %qkl into %qslotl where one is left (the
        partial last one by itself), then a commit."""
        skip = b.new_label("noload")
        part = b.new_label("lastload")
        if sk > 1:
            # %qkl: the k-tiles of the rank's range left to copy (one
            # register for the range: 128x128 is at 128); the partial last
            # k-tile is the last rank's last one
            b.ins("setp.lt.s32 %qp7, %qkl, 1")
            b.ins("@%qp7 bra " + skip)
            if ragged:
                whole = b.new_label("wholeload")
                b.ins("setp.ne.u32 %qp7, %qkl, 1")
                b.ins("@%qp7 bra " + whole)
                b.ins("mov.u32 %qt3, %cluster_ctarank")
                b.ins("setp.eq.u32 %%qp7, %%qt3, %d" % (sk - 1))
                b.ins("@%qp7 bra " + part)
                b.label(whole)
        else:
            b.ins("setp.ge.u32 %%qp7, %%qkl, %d" % (kt_total - 1 if ragged else kt_total))
            b.ins("@%qp7 bra " + part)
        async_copies("%qslotl", False)
        b.ins("bra " + skip)
        b.label(part)
        if ragged:
            if sk == 1:
                b.ins("setp.ne.u32 %%qp7, %%qkl, %d" % (kt_total - 1))
                b.ins("@%qp7 bra " + skip)
            async_copies("%qslotl", True)
        b.label(skip)
        b.ins("cp.async.commit_group")

    def prologue():
        """The first stages - 1 k-tiles in flight (with split-K those of the
        rank's range that exist, checked at run time)."""
        b.comment("prologue: %d k-tiles in flight" % (stages - 1))
        b.ins("mov.u32 %qslotl, 0")
        if sk > 1:
            b.ins("sub.u32 %qkl, %qke, %qkbeg")
        for st in range(stages - 1):
            if sk > 1:
                loop_copies()
                next_load()
            else:
                if st < kt_total:
                    async_copies("%qslotl", ragged and st == kt_total - 1)
                b.ins("cp.async.commit_group")
            b.ins("add.u32 %%qslotl, %%qslotl, %d" % buf)
        if sk == 1:
            b.ins("mov.u32 %%qkl, %d" % (stages - 1))
        b.ins("mov.u32 %qcur, 0")
        if sk == 1:
            b.ins("mov.u32 %qkt, 0")

    def next_load():
        b.ins("sub.u32 %qkl, %qkl, 1" if sk > 1 else "add.u32 %qkl, %qkl, 1")

    def loop_test(loop):
        """Back to `loop` while k-tiles are left. Split-K: the k-tile
        computed is stages - 1 behind the next copy (%qkl: copies left; no
        register of its own: 128x128 is at 128 registers)."""
        if sk > 1:   # k-tiles left to compute: %qkl + stages - 1
            b.ins("setp.gt.s32 %%qp7, %%qkl, %d" % (1 - stages))
        else:
            b.ins("add.u32 %qkt, %qkt, 1")
            b.ins("setp.lt.u32 %%qp7, %%qkt, %d" % kt_total)
        b.ins("@%qp7 bra " + loop)

    def advance(reg):
        b.ins("add.u32 %s, %s, %d" % (reg, reg, buf))
        b.ins("setp.eq.u32 %%qp6, %s, %d" % (reg, stages * buf))
        b.ins("selp.u32 %s, 0, %s, %%qp6" % (reg, reg))

    def async_pipeline_frags():
        """frags = 2: the fragments of step kk + 1 are read from shared
        memory while step kk's FMAs run, also across k-tiles: the barrier
        stands before the last step of a k-tile (the next k-tile has landed,
        every thread is past the k-tile before), then step 0 of the next
        k-tile is read during the last step's FMAs, and only then are the
        copies issued, into the buffer of the k-tile before (so stages - 2
        k-tiles are in flight at a barrier, one fewer than frags = 1)."""
        async_setup()
        prologue()
        b.ins("cp.async.wait_group %d" % (stages - 2))
        b.ins("bar.sync 0")
        read_bases("%qcur")
        frag_loads(0, 0)
        loop = b.new_label("kloop")
        b.label(loop)
        for kk in range(BK - 1):
            frag_loads(kk + 1, (kk + 1) % 2)
            frag_fmas(kk % 2)
        b.ins("cp.async.wait_group %d" % (stages - 3))
        b.ins("bar.sync 0")
        advance("%qcur")
        read_bases("%qcur")
        frag_loads(0, 0)                 # the next k-tile's (a harmless read after the last)
        frag_fmas(1)
        loop_copies()
        advance("%qslotl")
        next_load()
        loop_test(loop)
        b.ins("cp.async.wait_group 0")

    def async_pipeline():
        """`stages` buffers filled by cp.async, stages - 1 k-tiles in flight
        while one is multiplied."""
        async_setup()
        prologue()
        loop = b.new_label("kloop")
        skip = b.new_label("noload")
        part = b.new_label("lastload")
        b.label(loop)
        b.ins("cp.async.wait_group %d" % (stages - 2))
        # every thread is done with the buffer the next copies overwrite
        b.ins("bar.sync 0")
        loop_copies()
        compute("%qcur")
        for reg in ("%qslotl", "%qcur"):
            b.ins("add.u32 %s, %s, %d" % (reg, reg, buf))
            b.ins("setp.eq.u32 %%qp6, %s, %d" % (reg, stages * buf))
            b.ins("selp.u32 %s, 0, %s, %%qp6" % (reg, reg))
        next_load()
        loop_test(loop)
        b.ins("cp.async.wait_group 0")

    a_gap, b_gap = BM // SM_ * 4, BN // SN * 4          # bytes between strips

    def read_bases(slot_reg):
        b.ins("add.u32 %%qfa, %%qsmem, %s" % slot_reg)
        b.ins("add.u32 %qfb, %qfa, %qt6")
        b.ins("add.u32 %qfa, %qfa, %qt5")                   # A reads
        b.ins("add.u32 %%qfb, %%qfb, %d" % a_buf)           # B reads

    def frag_loads(kk, fset):
        for st in range(SM_):
            b.ins("ld.shared.v4.f32 {%%qa%d, %%qa%d, %%qa%d, %%qa%d}, [%%qfa+%d]"
                  % (tuple(fset * TM + 4 * st + q for q in range(4)) + (kk * sa * 4 + st * a_gap,)))
        for st in range(SN):
            b.ins("ld.shared.v4.f32 {%%qb%d, %%qb%d, %%qb%d, %%qb%d}, [%%qfb+%d]"
                  % (tuple(fset * TN + 4 * st + q for q in range(4)) + (kk * BN * 4 + st * b_gap,)))

    def frag_fmas(fset):
        for i in range(TM):
            for j in range(TN):
                b.ins("fma.rn.f32 %%qacc%d, %%qa%d, %%qb%d, %%qacc%d"
                      % (TN * i + j, fset * TM + i, fset * TN + j, TN * i + j))

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
    elif frags == 2:
        async_pipeline_frags()
    else:
        async_pipeline()

    # epilogue: acc[TN i + j] is C[m0 + ty*4 + (i%4) + (BM / SM_) (i/4)]
    #                               [n0 + tx*4 + (j%4) + (BN / SN) (j/4)]
    # chunk i SN + half: the 4 accumulators of row i, column strip half
    def store(chunks):
        b.ins("shl.b32 %qt0, %qty, 2")
        b.ins("add.u32 %qt0, %qt0, %qm0")
        b.ins("shl.b32 %qt1, %qtx, 2")
        b.ins("add.u32 %qt1, %qt1, %qn0")
        b.ins("mul.wide.u32 %qw64, %qt1, 4")
        for i in range(TM):
            halves = [h for h in range(SN) if i * SN + h in chunks]
            if not halves:
                continue
            row_off = (i % 4) + BM // SM_ * (i // 4)
            b.ins("add.u32 %%qt2, %%qt0, %d" % row_off)
            b.ins("setp.lt.u32 %%qp1, %%qt2, %d" % m)
            b.ins("min.u32 %%qt2, %%qt2, %d" % (m - 1))
            b.ins("mad.wide.u32 %%qcrow, %%qt2, %d, %%qgC" % (n * 4))
            b.ins("add.s64 %qcrow, %qcrow, %qw64")
            for half in halves:
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

    nchunks = acc_n // 4
    if sk == 1:
        store(set(range(nchunks)))
    else:
        splitk_reduce_store(b, sk, nchunks, THREADS, store)

    result = gemm_answer(
        c, FAMILY, "f32", "f32", [], tiles_m * tiles_n, THREADS, smem, 1 if BN == 256 else 2,
        {"block_m": BM, "block_n": BN, "block_k": BK, "thread_tile": "%dx%d" % (TM, TN),
         "group_m": group_m, "stages": stages, "layout": layout, "frags": frags},
        ("registers, " if stages == 2 else "cp.async, ")
        + ("16-byte" if (vec_a and vec_b) else "element (unaligned rows)"), "fma.rn.f32")
    if sk > 1:
        result["grid"] = [tiles_m * tiles_n * sk, 1, 1]
        result["cluster"] = [sk, 1, 1]
        result["tile"]["split_k"] = sk
        result["reduction"] = "split-K partial tiles through distributed shared memory, rank order"
    return finish(result, b, fmt)


def splitk_rank_share(nchunks, sk, r):
    """The chunks (4 accumulators: a row of a column strip) whose sums rank
    r of a split-K cluster stores: dealt round-robin, so that every rank
    gets an equal share of the rows and column strips (and of the rows past
    M on the edge)."""
    return list(range(r, nchunks, sk))


def splitk_reduce_store(b, sk, nchunks, threads, store):
    """Split-K after the k-loop: every thread writes its accumulators into
    its CTA's shared memory at [chunk][thread][4] (over the stages, after
    every thread has finished reading them), a cluster barrier (release /
    acquire: all partials written), then rank r adds its share
    (splitk_rank_share) of partial 0 + 1 + .. in rank order, as the wgmma
    kernels do (tensorop_emit/wgmma_splitk.py), reading every partial, its
    own too, through distributed shared memory (so no accumulator stays
    live across the rank branches: 128x128 spilled when a rank kept its own
    partial in registers), and stores it with `store`; it arrives on a
    second cluster barrier once it has read its peers' partials and waits
    on it after its stores, so no CTA exits (freeing its shared memory)
    while a peer still reads it."""
    b.comment("split-K: reduce-scatter of %d partial tiles through distributed shared memory"
              % sk)
    b.ins("bar.sync 0")
    b.ins("mov.u32 %qt6, %tid.x")           # read again: not live across the k-loop
    b.ins("shl.b32 %qt6, %qt6, 4")
    b.ins("add.u32 %qt6, %qt6, %qsmem")
    for ch in range(nchunks):
        regs = ", ".join("%%qacc%d" % (4 * ch + q) for q in range(4))
        b.ins("st.shared.v4.f32 [%%qt6+%d], {%s}" % (ch * threads * 16, regs))
    b.ins("barrier.cluster.arrive.aligned")
    b.ins("barrier.cluster.wait.aligned")
    done = b.new_label("sk_done")
    b.ins("mov.u32 %qrank, %cluster_ctarank")   # read again: not live across the k-loop
    for q in range(sk):
        b.ins("mapa.shared::cluster.u32 %%qska%d, %%qt6, %d" % (q, q))
    for r in range(sk):
        nxt = b.new_label("sk_rank")
        b.ins("setp.ne.u32 %%qp1, %%qrank, %d" % r)
        b.ins("@%qp1 bra " + nxt)
        share = splitk_rank_share(nchunks, sk, r)
        b.comment("split-K rank %d: chunks %s" % (r, share))
        for ch in share:
            acc = ["%%qacc%d" % (4 * ch + j) for j in range(4)]
            b.ins("ld.shared::cluster.v4.f32 {%s}, [%%qska0+%d]" % (", ".join(acc),
                                                                   ch * threads * 16))
            for q in range(1, sk):
                b.ins("ld.shared::cluster.v4.f32 {%%qsl0, %%qsl1, %%qsl2, %%qsl3}, [%%qska%d+%d]"
                      % (q, ch * threads * 16))
                for j in range(4):
                    b.ins("add.f32 %s, %s, %%qsl%d" % (acc[j], acc[j], j))
        b.ins("barrier.cluster.arrive.aligned")
        store(set(share))
        b.ins("bra " + done)
        b.label(nxt)
    b.label(done)
    b.ins("barrier.cluster.wait.aligned")


if __name__ == "__main__":
    main(emit, __doc__.split("\n")[0], __doc__)
