"""The TF32 variant of the sm_90a TMA + wgmma GEMM (nvidia_gemm_wgmma.py).

wgmma takes tf32 operands from shared memory only K-major (no transpose
bits for 32-bit types).  A (M x K row-major) is K-major; B (K x N
row-major) is N-major.  Rather than transposing B (a separate kernel into
a workspace costs a memory-bound pass of 2*K*N*4 bytes and a second
launch per call; an in-smem transpose costs every B byte one more shared
write and read per tile), this kernel computes the transposed product

    C^T (N x M) = B^T (N x K) * A^T (K x M)

with B^T as wgmma's *register* operand (no major-ness rule: each consumer
thread loads its m64n*k8 fragments from the TMA-loaded, N-major B tile
with ld.shared) and A as wgmma's shared-memory operand, which is K-major
just as A lies in memory.  The accumulators hold C^T: thread (warp w,
group g = lane / 4, c = lane % 4) of a consumer holds rows n and cols m;
the stores write them back to row-major C.

Fragment loads without bank conflicts.  The B tile arrives as boxes of 32
columns (n) x 32 rows (k) with the 128-byte swizzle (16-byte chunk index
XOR row % 8).  wgmma's fragment row r = 16 w + 8 h + g is mapped to
n = 16 w + 2 g + h (any permutation of the rows is legal when the store
uses it too), so a thread's two rows are adjacent columns: one
ld.shared.v2 per k row.  A thread needs k rows c and c + 4; lanes with odd
c load row c + 4 first, which puts the two halves of the warp on
different 16-byte chunk groups (the swizzle flips chunk bit 2 for rows
4..7): two wavefronts per 256-byte warp load, the minimum.  Both orders
meet again through selp.  The same row permutation makes the C stores
st.global.v2 of adjacent n.

Fragments are double-buffered (the k loop is unrolled twice) because a
wgmma reads its register operand asynchronously: the fragments of the
k tile whose group is still in flight stay untouched.

Layout of a stage: the A tile (block_m rows x 128 bytes, 32 tf32 of K),
then the B tile (block_n / 32 boxes of 32 x 32, 4 KiB each).  The tf32
products truncate the low mantissa bits (the tensor cores read fp32 bit
patterns and ignore the low mantissa bits); the mma.sync kernel rounds
with cvt.rna. Both stay far inside the tf32 error bound the runner checks.

Convolutions (spec field "conv", tensorop_emit/nvidia_conv.py): A is the
implicit im2col matrix of the NHWC fp32 input, loaded by TMA in im2col mode
as block_m output pixels x 32 channels (one 128-byte swizzled row, the same
shared-memory layout as the 2-D box of a GEMM's A), so C must be a multiple
of 32; the filter is B ([R*S*C][F], F a multiple of 4).

Spec (as nvidia_gemm_wgmma.py, a_dtype tf32): block_m (the M tile = the
wgmma N extent: 16, 32, 64, 128, 192 or 256), block_n (the N tile: consumers x 64 x
nrep), consumers (1|2), stages, group_m, sms, conv, lda, ldb (the row
strides of padded copies of A and B, multiples of 4, where K or N is not;
N must be even: C is stored in pairs).  No clusters or fused epilogues
(refused by field).
"""

from .nvidia_conv import (
    check_tma_im2col, conv_geometry, emit_im2col_load, emit_tap_advance, emit_tile_origin,
    im2col_tensor_map)
from .nvidia_ptx import (
    TMA_DTYPE, PtxBody, SpecError, ceil_div, finish, gemm_answer, get_int)
from .wgmma_common import (
    TMA_LOAD_2D, advance_stage, commit_and_release, consumer_start, consumer_wait,
    declare_regs, desc_hi, desc_lo, drain, init_barriers, load_operands, loop_k,
    next_tile, producer_acquire, producer_start, split_roles, tensor_map_param,
    thread_ids, tile_start, walk_start)

FAMILY = "nvidia_gemm_wgmma"
BK = 32                     # 32 tf32 = 128 bytes: one 128B swizzle row
BOX = 32 * BK * 4           # one B box: 32 columns x 32 k rows


def emit_tf32(spec, c, fmt):
    """The kernel for a_dtype tf32; `c` is common_spec's result."""
    m, n, k = c["m"], c["n"], c["k"]
    if c["sm"] != 90:
        raise SpecError("sm", "wgmma and TMA need sm_90a")
    # Row strides of the A and B that TMA reads (padded copies where K or N
    # is not a multiple of 4: nvidia_pad.py); C keeps N, stored in pairs.
    lda = get_int(spec, "lda", default=k, lo=k, hi=1 << 21)
    ldb = get_int(spec, "ldb", default=n, lo=n, hi=1 << 21)
    if lda % 4 or ldb % 4:
        raise SpecError("k" if lda % 4 else "n",
                        "TMA needs 16-byte aligned rows: the row strides of A and B (lda, "
                        "ldb: K and N unless given) must be multiples of 4 for tf32 (got %d, "
                        "%d); pad them (nvidia_pad.py) or use nvidia_gemm_mma" % (lda, ldb))
    if n % 2:
        raise SpecError("n", "the tf32 wgmma kernel stores C in pairs of columns: N must be "
                             "even (got %d); use nvidia_gemm_mma" % n)
    for field in ("cluster_m", "cluster_n"):
        if get_int(spec, field, default=1, lo=1, hi=2) != 1:
            raise SpecError(field, "the tf32 wgmma kernel runs without clusters")
    conv = conv_geometry(spec, m, n, k)
    if conv is not None:
        check_tma_im2col(conv, 4)
        if lda != k or ldb != n:
            raise SpecError("lda", "convolutions read their own strides (no lda/ldb)")
    if spec.get("epilogue"):
        raise SpecError("epilogue", "the tf32 wgmma kernel has no fused epilogue")
    nc = get_int(spec, "consumers", default=2, lo=1, hi=2)
    bm = get_int(spec, "block_m", default=256, lo=16, hi=256)
    bn = get_int(spec, "block_n", default=128, lo=64, hi=256)
    stages = get_int(spec, "stages", default=4, lo=2, hi=8)
    group_m = get_int(spec, "group_m", default=8, lo=1, hi=64)
    sms = get_int(spec, "sms", default=132, lo=1, hi=1024)
    # block_m is wgmma's N extent over M: 16 and 32 for few rows (M <= 32:
    # decode-time shapes, where a 64-row extent computes mostly padding),
    # else multiples of 64. The A tile stays whole 128-byte swizzle atoms
    # (8 rows of 128 B), so every stage stays 1024-byte aligned.
    if bm not in (16, 32) and bm % 64:
        raise SpecError("block_m", "must be 16, 32 or a multiple of 64 (the wgmma N extent), "
                                   "got %d" % bm)
    if bm < 64 and conv is not None:
        raise SpecError("block_m", "convolutions take block_m of 64 or more (got %d)" % bm)
    if bn % (64 * nc):
        raise SpecError("block_n", "must be a multiple of 64 * consumers for tf32 "
                                   "(each consumer owns 64-row blocks of C^T)")
    wg_n = bn // nc                              # columns of C per consumer
    nrep = wg_n // 64                            # m64 wgmmas (of C^T) per consumer
    acc_n = bm // 2                              # accumulator registers per m64 block
    acc_regs = nrep * acc_n
    if acc_regs > 128:
        raise SpecError("block_n", "%d accumulator registers per thread (at most 128 for tf32: "
                                   "the fragments take 32 per block of 64 columns)" % acc_regs)
    a_bytes = bm * BK * 4
    b_bytes = bn * BK * 4
    stg = a_bytes + b_bytes                      # multiple of 1 KiB: swizzle atoms stay aligned
    bar = stages * stg
    smem = bar + 16 * stages
    if smem > 232448:
        raise SpecError("stages", "%d bytes of shared memory (more than 232448)" % smem)
    threads = 128 * (nc + 1)
    tiles_m, tiles_n = ceil_div(m, bm), ceil_div(n, bn)
    ntiles = tiles_m * tiles_n
    kt_total = ceil_div(k, BK)
    grid = min(ntiles, sms)
    consumer_regs = 232 if nc == 2 else 240
    ksteps = BK // 8

    b = PtxBody()
    R = b.reg
    declare_regs(b)
    R("b32", "%qdbl"), R("b32", "%qdh"), R("b32", "%qfx"), R("b32", "%qfy")
    R("b32", "%qmt"), R("b32", "%qnt")
    R("b64", "%qdB"), R("b64", "%qstate"), R("b64", "%qcaddr")
    R("pred", "%qp", 8), R("pred", "%qodd")
    if conv is not None:
        R("b32", "%qc0"), R("b32", "%qso"), R("b32", "%qro")
        R("b32", "%qwb"), R("b32", "%qhb"), R("b32", "%qnb"), R("b16", "%qoff", 2)
    R("f32", "%qacc", acc_regs)
    # fragments: [buffer][k8 step][64-row block][4]
    nfrag = 4 * ksteps * nrep
    R("b32", "%qfa", 2 * nfrag)
    R("b32", "%qld", 4 * ksteps * nrep)
    R("f32", "%qold", 2)

    b.comment("TensorOp %s tf32: %dx%dx%d tf32 -> f32 as C^T = B^T A^T (B^T from registers), "
              "tile %dx%dx%d, %d consumer warpgroup(s), %d stages, %d tiles on %d CTAs"
              % (FAMILY, m, n, k, bm, bn, BK, nc, stages, ntiles, grid))
    load_operands(b, 5)
    thread_ids(b, bar, stages)
    init_barriers(b, stages, 4 * nc)
    b.ins("bar.sync 0")
    consumer, end = split_roles(b)

    # ---- producer warpgroup: A tile (K-major) and B tile (N-major boxes) ----
    ptile, pk, pwait = producer_start(b, end, "%ctaid.x")
    tile_start(b, ptile, ntiles, end, tiles_m, tiles_n, group_m, bm, bn)
    if conv is not None:
        emit_tile_origin(b, conv, "%qm0", "%qwb", "%qhb", "%qnb", "%qt5")
        b.ins("mov.u32 %qc0, 0")
        b.ins("mov.u32 %qso, 0")
        b.ins("mov.u32 %qro, 0")
    producer_acquire(b, pk, pwait, stg, 5)                  # k0 = kt * 32
    if conv is None:
        b.ins(TMA_LOAD_2D + " [%qdst], [%qmapA, {%qt4, %qm0}], [%qt3]")
    else:
        # A: the im2col box of block_m output pixels from m0, channels c0..
        # c0 + 31, shifted by the filter tap (offsets {s, r} * dilation)
        emit_im2col_load(b)
    for cb in range(bn // 32):
        b.ins("add.u32 %%qt5, %%qn0, %d" % (32 * cb))
        b.ins("add.u32 %%qt6, %%qdst, %d" % (a_bytes + cb * BOX))
        b.ins(TMA_LOAD_2D + " [%qt6], [%qmapB, {%qt5, %qt4}], [%qt3]")
    if conv is not None:
        emit_tap_advance(b, conv, "%qc0", "%qso", "%qro", "%qp6", 4)
    advance_stage(b, stages)
    loop_k(b, kt_total, pk)
    next_tile(b, False, ptile)

    # ---- consumer warpgroups ----
    consumer_start(b, consumer, "consumers: warpgroup w >= 1 owns columns (w - 1) * %d .. of "
                   "the tile (rows of C^T)" % wg_n, consumer_regs, acc_regs)
    b.comment("fragment offsets: n = 16 warp + 2 (lane / 4) in the consumer's block; "
              "k rows c and c + 4 (c = lane % 4), odd c loads row c + 4 first")
    b.ins("and.b32 %qt0, %qwarp, 3")
    b.ins("shl.b32 %qt0, %qt0, 4")
    b.ins("shr.u32 %qt1, %qlane, 2")
    b.ins("shl.b32 %qt1, %qt1, 1")
    b.ins("add.u32 %qnt, %qt0, %qt1")                      # n within the consumer's 64-block
    b.ins("shr.u32 %qt0, %qnt, 5")
    b.ins("shl.b32 %qt0, %qt0, 12")                        # box * 4096
    b.ins("mad.lo.u32 %%qt0, %%qt7, %d, %%qt0" % (wg_n // 32 * BOX))
    b.ins("add.u32 %%qt0, %%qt0, %d" % a_bytes)
    b.ins("and.b32 %qt1, %qnt, 3")
    b.ins("shl.b32 %qt1, %qt1, 2")
    b.ins("add.u32 %qt0, %qt0, %qt1")                      # + (n % 4) * 4
    b.ins("shr.u32 %qt1, %qnt, 2")
    b.ins("and.b32 %qt1, %qt1, 7")                         # logical 16-byte chunk
    b.ins("and.b32 %qt2, %qlane, 3")                       # c
    b.ins("and.b32 %qt3, %qt2, 1")
    b.ins("setp.ne.u32 %qodd, %qt3, 0")
    b.ins("shl.b32 %qt3, %qt3, 2")
    b.ins("or.b32 %qt3, %qt3, %qt2")                       # row X: c, or c + 4 for odd c
    b.ins("xor.b32 %qt4, %qt3, 4")                         # row Y: the other one
    for row, dst in (("%qt3", "%qfx"), ("%qt4", "%qfy")):
        b.ins("xor.b32 %%qt5, %%qt1, %s" % row)            # swizzled chunk
        b.ins("shl.b32 %qt5, %qt5, 4")
        b.ins("mad.lo.u32 %%qt6, %s, 128, %%qt5" % row)
        b.ins("add.u32 %s, %%qt0, %%qt6" % dst)
    b.comment("store coordinates: m = m0 + 2 c (+ 8 i + j), n = n0 + consumer * %d + nt" % wg_n)
    b.ins("and.b32 %qmt, %qlane, 3")
    b.ins("shl.b32 %qmt, %qmt, 1")
    b.ins("mad.lo.u32 %%qnt, %%qt7, %d, %%qnt" % wg_n)
    b.ins("setp.eq.u32 %qp7, %qtid, %qtid")                # true
    b.ins("setp.eq.u32 %qp4, %qlane, 0")                   # lane 0 releases stages
    b.ins("mov.u32 %qprev, 0")
    walk_start(b, "%ctaid.x")
    desc_hi(b)                                             # of the A tile
    ctile, kdone = b.new_label("ctile"), b.new_label("kdone")
    tile_start(b, ctile, ntiles, end, tiles_m, tiles_n, group_m, bm, bn)
    ck = b.new_label("ck")
    b.label(ck)
    for buf in range(2):
        _k_tile(b, buf, nfrag, ksteps, nrep, bm, acc_n, stg, stages)
        b.ins("setp.lt.u32 %%qp3, %%qkt, %d" % kt_total)
        b.ins("@%s bra %s" % ("!%qp3" if buf == 0 else "%qp3", kdone if buf == 0 else ck))
    b.label(kdone)
    drain(b, 1)

    # ---- store: the accumulators hold C^T ----
    b.comment("store: acc[r][4 i + 2 h + j] = C[m0 + mt + 8 i + j][n0 + nt + 64 r + h]")
    b.ins("add.u32 %qt0, %qm0, %qmt")                      # this thread's first m
    b.ins("add.u32 %qt1, %qn0, %qnt")                      # this thread's first n
    b.ins("mul.wide.u32 %qcaddr, %qt0, " + str(n * 4))
    b.ins("add.s64 %qcaddr, %qcaddr, %qgC")
    b.ins("mul.wide.u32 %qstate, %qt1, 4")
    b.ins("add.s64 %qcaddr, %qcaddr, %qstate")
    for r in range(nrep):
        # N and n even: n < N covers n + 1
        b.ins("setp.lt.u32 %%qp%d, %%qt1, %d" % (5 if r == 0 else 6, n - 64 * r)
              if n > 64 * r else "setp.ne.u32 %%qp%d, %%qt1, %%qt1" % (5 if r == 0 else 6))
        pn = "%qp5" if r == 0 else "%qp6"
        for i in range(bm // 8):
            for j in range(2):
                moff = 8 * i + j
                if moff >= m:
                    continue
                b.ins("setp.lt.u32 %%qp2, %%qt0, %d" % (m - moff))
                b.ins("and.pred %%qp2, %%qp2, %s" % pn)
                off = moff * n * 4 + 64 * r * 4
                v0 = "%%qacc%d" % (r * acc_n + 4 * i + j)
                v1 = "%%qacc%d" % (r * acc_n + 4 * i + 2 + j)
                if c["accumulate"]:
                    b.ins("mov.f32 %qold0, 0f00000000")
                    b.ins("mov.f32 %qold1, 0f00000000")
                    b.ins("@%%qp2 ld.global.v2.f32 {%%qold0, %%qold1}, [%%qcaddr+%d]" % off)
                    b.ins("add.f32 %%qold0, %%qold0, %s" % v0)
                    b.ins("add.f32 %%qold1, %%qold1, %s" % v1)
                    v0, v1 = "%qold0", "%qold1"
                b.ins("@%%qp2 st.global.v2.f32 [%%qcaddr+%d], {%s, %s}" % (off, v0, v1))
    next_tile(b, False, ctile)
    b.label(end)

    result = gemm_answer(
        c, FAMILY, "tf32", "f32",
        [tensor_map_param("tmapA", "A", TMA_DTYPE["tf32"], [k, m], lda * 4, [BK, bm]),
         tensor_map_param("tmapB", "B", TMA_DTYPE["tf32"], [n, k], ldb * 4, [32, BK])],
        grid, threads, smem, 1,
        {"block_m": bm, "block_n": bn, "block_k": BK, "consumers": nc,
         "stages": stages, "group_m": group_m, "persistent_ctas": grid},
        "TMA 128B swizzle, zero-filled past the edges; B^T fragments by ld.shared.v2",
        "wgmma.mma_async.m64n%dk8.f32.tf32 (A operand from registers)" % bm)
    if conv is not None:
        result["params"][3] = im2col_tensor_map(conv, TMA_DTYPE["tf32"], 4, bm)
        result["conv"] = conv
        result["loads"] = ("TMA im2col mode (A) and tiled (B), 128B swizzle, zero-filled "
                           "padding; B^T fragments by ld.shared.v2")
    return finish(result, b, fmt)


def _k_tile(b, buf, nfrag, ksteps, nrep, bm, acc_n, stg, stages):
    """One k tile of a consumer with fragment buffer `buf`: wait for the
    stage, load the B^T fragments, issue the wgmmas, keep one group in
    flight and release the stage of the previous k tile."""
    consumer_wait(b, b.new_label("cwait"), stg)
    b.ins("add.u32 %qt3, %qt2, %qfx")
    b.ins("add.u32 %qt4, %qt2, %qfy")
    frag = lambda kk, r, e: "%%qfa%d" % (buf * nfrag + (kk * nrep + r) * 4 + e)
    for kk in range(ksteps):
        for r in range(nrep):
            # 8 k rows of 128 B per k8 step (same row % 8: same swizzle);
            # 64 columns = 2 boxes per block
            off = kk * 8 * 128 + r * 2 * BOX
            ld = ["%%qld%d" % ((kk * nrep + r) * 4 + e) for e in range(4)]
            b.ins("ld.shared.v2.b32 {%s, %s}, [%%qt3+%d]" % (ld[0], ld[1], off))
            b.ins("ld.shared.v2.b32 {%s, %s}, [%%qt4+%d]" % (ld[2], ld[3], off))
    for kk in range(ksteps):
        for r in range(nrep):
            ld = ["%%qld%d" % ((kk * nrep + r) * 4 + e) for e in range(4)]
            # a0, a1: k row c; a2, a3: k row c + 4 (X holds row c unless c is odd)
            b.ins("selp.b32 %s, %s, %s, %%qodd" % (frag(kk, r, 0), ld[2], ld[0]))
            b.ins("selp.b32 %s, %s, %s, %%qodd" % (frag(kk, r, 1), ld[3], ld[1]))
            b.ins("selp.b32 %s, %s, %s, %%qodd" % (frag(kk, r, 2), ld[0], ld[2]))
            b.ins("selp.b32 %s, %s, %s, %%qodd" % (frag(kk, r, 3), ld[1], ld[3]))
    # descriptor of the A tile (wgmma's B operand, K-major): address bits 4-17, LBO unused
    desc_lo(b, "%qdbl", "%qt2", 1 << 16)
    b.ins("setp.ne.u32 %qp5, %qkt, 0")                     # scale-d: accumulate after the first
    b.ins("wgmma.fence.sync.aligned")
    for kk in range(ksteps):
        b.ins("add.u32 %%qt5, %%qdbl, %d" % ((kk * 32) >> 4))  # +32 bytes per k8 step
        b.ins("mov.b64 %qdB, {%qt5, %qdh}")
        for r in range(nrep):
            accs = ", ".join("%%qacc%d" % (r * acc_n + j) for j in range(acc_n))
            fr = ", ".join(frag(kk, r, e) for e in range(4))
            scale = "%qp5" if kk == 0 else "%qp7"
            b.ins("wgmma.mma_async.sync.aligned.m64n%dk8.f32.tf32.tf32 {%s}, {%s}, %%qdB, %s, 1, 1"
                  % (bm, accs, fr, scale))
    commit_and_release(b, 1, stages)
