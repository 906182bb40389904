"""The bf16/f16 wgmma GEMM for few rows (M <= 32): C^T = B^T A^T.

wgmma's M extent is 64, so the plain kernel (nvidia_gemm_wgmma.py) gives
a GEMM of 16 rows 64-row tiles: three quarters of every A box, of its
shared-memory stages and of its tensor-core work are padding, and the
stages it can hold carry little of B, the matrix such a GEMM streams once
from memory (decode-time LLM shapes: 16x4096x14336 streams 117 MB of B
and 1.8 MB of A). This kernel computes the transposed product

    C^T (N x M) = B^T (N x K) * A^T (K x M)

with both operands from shared memory. For 16-bit types wgmma takes its A
operand MN-major (the transpose bit), so B^T is wgmma's A operand in the
very layout the plain kernel's B tile has (TMA boxes of 64 columns x 64 k
rows, 128-byte swizzle: 64 columns of B are one m64 block of C^T); A^T is
wgmma's B operand, K-major just as A lies in memory, with wgmma's N extent
= block_m (8, 16 or 32 rows of A: one TMA box of block_m x 64, the plain
kernel's A box with fewer rows). A stage is then block_m x 128 bytes of A
and block_n x 128 bytes of B, so many more stages of B fit (16 at
block_n 64) to cover memory latency.

The accumulators hold C^T: thread (warp w, lane l) of a consumer holds,
per m64 block r, n = 64 r + 16 w + l / 4 (+ 8) and m = 8 g + 2 (l % 4) (+1)
(g < block_m / 8); the stores write single elements of row-major C (C
is block_m x block_n per tile, small next to B, so its scattered stores
cost little).

Split-K (split_k 2 or 4; tensorop_emit/wgmma_splitk.py): the plain
kernel's Stream-K-like schedule on clusters of split_k CTAs, for GEMMs
whose few strips of B leave SMs idle (13x4096x4096: 64 strips of 64
columns on 132 SMs). Rank r of a split tile's cluster streams the r-th of
split_k equal ranges of K of the strip; the fp32 partial tiles (block_m x
block_n x 4 bytes: 4-16 KiB, overlaying the stages) are reduced through
distributed shared memory, each rank adding its share of the
accumulators (pairs dealt round-robin) of all ranks in rank order
(deterministic) and storing those elements.

Spec (as nvidia_gemm_wgmma.py, a_dtype bf16 or f16, block_m 8, 16 or 32):
block_n (64 x consumers x m64 blocks per consumer, at most 256),
consumers (1|2), stages (2..16), group_m, sms, split_k (1|2|4), lda, ldb.
No clusters, fused epilogue, convolution or TMA store (refused by field);
accumulate (C += A B) is supported.
"""

from .nvidia_ptx import (
    ELEM_BYTES, TMA_DTYPE, PtxBody, SpecError, ceil_div, declare_store_temps, finish,
    gemm_answer, get_choice, get_int, out_store)
from .wgmma_common import (
    STREAM_HINTS, TMA_LOAD_2D, stream_policy, advance_stage, commit_and_release, consumer_start, consumer_wait,
    declare_regs, desc_hi, desc_lo, drain, init_barriers, load_operands, loop_k,
    next_tile, producer_acquire, producer_start, split_roles, tensor_map_param,
    thread_ids, tile_start, walk_start)
from .wgmma_splitk import (
    declare_splitk_regs, splitk_item, splitk_next, splitk_publish, splitk_rank_chunks,
    splitk_schedule, splitk_sum_chunks)

FAMILY = "nvidia_gemm_wgmma"
BK = 64                     # 64 bf16 = 128 bytes: one 128B swizzle row
BOX = 64 * BK * 2           # one B box: 64 columns x 64 k rows
FEW_ROWS = (8, 16, 32)      # block_m of this kernel (wgmma's N extent)


def emit_few_rows(spec, c, fmt):
    """The kernel for bf16/f16 with block_m in FEW_ROWS; `c` is
    common_spec's result."""
    m, n, k = c["m"], c["n"], c["k"]
    dt, cdt = c["a_dtype"], c["c_dtype"]
    es, oes = ELEM_BYTES[dt], ELEM_BYTES[cdt]
    if c["sm"] != 90:
        raise SpecError("sm", "wgmma and TMA need sm_90a")
    lda = get_int(spec, "lda", default=k, lo=k, hi=1 << 21)
    ldb = get_int(spec, "ldb", default=n, lo=n, hi=1 << 21)
    if (lda * es) % 16 or (ldb * es) % 16:
        raise SpecError("k" if (lda * es) % 16 else "n",
                        "TMA needs 16-byte aligned rows: the row strides of A and B (lda, "
                        "ldb: K and N unless given) must be multiples of 8 (got %d, %d); "
                        "pad them (nvidia_pad.py)" % (lda, ldb))
    for field in ("cluster_m", "cluster_n"):
        if get_int(spec, field, default=1, lo=1, hi=4) != 1:
            raise SpecError(field, "the few-rows wgmma kernel (block_m %s) runs without "
                                   "clusters" % spec.get("block_m"))
    sk = get_int(spec, "split_k", default=1, lo=1, hi=4)
    if sk not in (1, 2, 4):
        raise SpecError("split_k", "must be 1, 2 or 4, got %d" % sk)
    if spec.get("conv") is not None:
        raise SpecError("conv", "convolutions take block_m of 64 or more")
    if spec.get("epilogue"):
        raise SpecError("epilogue", "the few-rows wgmma kernel has no fused epilogue")
    if get_choice(spec, "store", ("global", "smem_tma"), default="global") != "global":
        raise SpecError("store", "the few-rows wgmma kernel stores C from registers "
                                 "(store = \"global\")")
    nc = get_int(spec, "consumers", default=1, lo=1, hi=2)
    bm = get_int(spec, "block_m", lo=8, hi=32)
    bn = get_int(spec, "block_n", default=64, lo=64, hi=256)
    stages = get_int(spec, "stages", default=8, lo=2, hi=16)
    # an L2 policy for B's loads (the streamed operand)
    hint = get_choice(spec, "stream_hint", STREAM_HINTS, default="none")
    group_m = get_int(spec, "group_m", default=8, lo=1, hi=64)
    sms = get_int(spec, "sms", default=132, lo=1, hi=1024)
    if bm not in FEW_ROWS:
        raise SpecError("block_m", "must be 8, 16, 32 or a multiple of 64, got %d" % bm)
    if bn % (64 * nc):
        raise SpecError("block_n", "must be a multiple of 64 * consumers with block_m %d "
                                   "(each consumer owns 64-row blocks of C^T)" % bm)
    wg_n = bn // nc                              # columns of C per consumer
    nrep = wg_n // 64                            # m64 wgmmas (of C^T) per consumer
    acc_n = bm // 2                              # accumulator registers per m64 block
    acc_regs = nrep * acc_n
    a_bytes = bm * BK * es                       # whole 1 KiB swizzle atoms (8 rows)
    b_bytes = bn * BK * es
    stg = a_bytes + b_bytes
    bar = stages * stg
    smem = bar + 16 * stages
    kt_total = ceil_div(k, BK)
    skbar = 0
    if sk > 1:
        if ceil_div(kt_total, sk) * (sk - 1) >= kt_total:
            raise SpecError("split_k", "K=%d has %d k-tiles of 64: too few for %d non-empty "
                                       "ranges" % (k, kt_total, sk))
        # the fp32 partial tile overlays the stages (splitk_publish); two
        # barriers (full, free) follow the ring's
        if bm * bn * 4 > bar:
            raise SpecError("stages", "split_k's fp32 partial tile (%d bytes) overlays the "
                                      "stages: %d stages of %d bytes are too few"
                            % (bm * bn * 4, stages, stg))
        skbar = smem
        smem += 16
    if smem > 232448:
        raise SpecError("stages", "%d bytes of shared memory (more than 232448)" % smem)
    threads = 128 * (nc + 1)
    tiles_m, tiles_n = ceil_div(m, bm), ceil_div(n, bn)
    ntiles = tiles_m * tiles_n
    grid = min(ntiles, sms)
    if sk > 1:
        if sms < sk:
            raise SpecError("sms", "a grid of %d CTAs cannot hold a cluster of %d" % (sms, sk))
        grid = min(ntiles, sms // sk) * sk
        dp_tiles, split_tiles = splitk_schedule(ntiles, grid // sk, sk)
        dp_items = ceil_div(dp_tiles, sk)
        items = dp_items + split_tiles
    consumer_regs = 232 if nc == 2 else 240

    b = PtxBody()
    R = b.reg
    declare_regs(b)
    R("b32", "%qdal"), R("b32", "%qdbl"), R("b32", "%qdh")
    R("b64", "%qdA"), R("b64", "%qdB"), R("b64", "%qstate"), R("b64", "%qcaddr")
    R("b64", "%qw64")
    R("pred", "%qp", 8)
    if sk > 1:
        declare_splitk_regs(b, sk)
    R("f32", "%qacc", acc_regs)
    declare_store_temps(b)

    b.comment("TensorOp %s few rows: %dx%dx%d %s -> %s as C^T = B^T A^T (B^T MN-major from "
              "shared memory), tile %dx%dx%d, %d consumer warpgroup(s), %d stages, %d tiles "
              "on %d CTAs" % (FAMILY, m, n, k, dt, cdt, bm, bn, BK, nc, stages, ntiles, grid))
    load_operands(b, 5)
    thread_ids(b, bar, stages)
    # split-K's full and free barriers: one lane of every consumer warp of
    # every rank of the cluster
    init_barriers(b, stages, 4 * nc,
                  [(skbar, 4 * nc * sk), (skbar + 8, 4 * nc * sk)] if sk > 1 else ())
    if sk > 1:
        # the ranks read each other's partial tiles and arrive on each
        # other's barriers
        b.ins("barrier.cluster.arrive.release.aligned")
        b.ins("barrier.cluster.wait.acquire.aligned")
        b.ins("mov.u32 %qrank, %cluster_ctarank")
    else:
        b.ins("bar.sync 0")
    consumer, end = split_roles(b)
    first_tile = "%clusterid.x" if sk > 1 else "%ctaid.x"
    first_kt = "%qkb" if sk > 1 else "0"
    k_end = "%qke" if sk > 1 else kt_total

    def work_item(head):
        """Split-K: the cluster's work item %qw at label `head` (leaving
        past the last item), its tile and k range (splitk_item)."""
        b.ins("mov.u32 %qw, %qtile")
        b.label(head)
        b.ins("setp.ge.u32 %%qp1, %%qw, %d" % items)
        b.ins("@%qp1 bra " + end)
        splitk_item(b, sk, kt_total, dp_items, dp_tiles)

    # ---- producer warpgroup: the A box (block_m rows, K-major) and B's boxes ----
    ptile, pk, pwait = producer_start(b, end, first_tile)
    hint_sfx, hint_op = stream_policy(b, hint)
    pnext = end
    if sk > 1:
        phead, pnext = ptile, b.new_label("pnext")
        work_item(phead)
        ptile = b.new_label("ptile_dp")
    tile_start(b, ptile, ntiles, pnext, tiles_m, tiles_n, group_m, bm, bn, first_kt)
    producer_acquire(b, pk, pwait, stg, 6)                  # k0 = kt * 64
    b.ins(TMA_LOAD_2D + " [%qdst], [%qmapA, {%qt4, %qm0}], [%qt3]")
    for cb in range(bn // 64):
        b.ins("add.u32 %%qt5, %%qn0, %d" % (64 * cb))
        b.ins("add.u32 %%qt6, %%qdst, %d" % (a_bytes + cb * BOX))
        b.ins(TMA_LOAD_2D + hint_sfx + " [%qt6], [%qmapB, {%qt5, %qt4}], [%qt3]" + hint_op)
    advance_stage(b, stages)
    loop_k(b, k_end, pk)
    if sk > 1:
        b.label(pnext)
        splitk_next(b, phead)
    else:
        next_tile(b, False, ptile)

    # ---- consumer warpgroups ----
    consumer_start(b, consumer, "consumers: warpgroup w >= 1 owns columns (w - 1) * %d .. of "
                   "the tile (rows of C^T)" % wg_n, consumer_regs, acc_regs)
    b.ins("setp.eq.u32 %qp4, %qlane, 0")                   # lane 0 releases stages
    b.ins("setp.eq.u32 %qp7, %qtid, %qtid")                # true
    b.ins("mov.u32 %qprev, 0")
    walk_start(b, first_tile)
    if sk > 1:
        b.ins("mov.u32 %qskp, 0")
        b.ins("mov.u32 %qskf, 1")                          # a fresh slot is free
    desc_hi(b)                                             # SBO 1024 B, 128B swizzle
    ctile, ck, cwait = b.new_label("ctile"), b.new_label("ck"), b.new_label("cwait")
    cnext = end
    if sk > 1:
        chead, cnext = ctile, b.new_label("cnext")
        work_item(chead)
        ctile = b.new_label("ctile_dp")
    tile_start(b, ctile, ntiles, cnext, tiles_m, tiles_n, group_m, bm, bn, first_kt)
    b.label(ck)
    consumer_wait(b, cwait, stg)
    # wgmma's A: this consumer's first B box (MN-major; LBO: the next 64
    # columns, unused by an m64 block); wgmma's B: the A box (K-major)
    b.ins("mad.lo.u32 %%qt3, %%qt7, %d, %%qt2" % (nrep * BOX))
    b.ins("add.u32 %%qt3, %%qt3, %d" % a_bytes)
    desc_lo(b, "%qdal", "%qt3", (BOX >> 4) << 16)
    desc_lo(b, "%qdbl", "%qt2", 1 << 16)                   # LBO unused (K-major)
    b.ins("setp.ne.u32 %%qp5, %%qkt, %s" % first_kt)       # scale-d: after the first
    b.ins("wgmma.fence.sync.aligned")
    for kk in range(BK // 16):
        # A^T: +32 bytes per k16 step inside the swizzled 128-byte rows
        b.ins("add.u32 %%qt5, %%qdbl, %d" % ((kk * 32) >> 4))
        b.ins("mov.b64 %qdB, {%qt5, %qdh}")
        for r in range(nrep):
            # B^T (MN-major): +16 k rows of 128 bytes per k16 step, +1 box per m64 block
            b.ins("add.u32 %%qt4, %%qdal, %d" % ((kk * 16 * 128 + r * BOX) >> 4))
            b.ins("mov.b64 %qdA, {%qt4, %qdh}")
            accs = ", ".join("%%qacc%d" % (r * acc_n + j) for j in range(acc_n))
            scale = "%qp5" if kk == 0 else "%qp7"
            # imm-trans-a 1 (MN-major), imm-trans-b 0 (K-major)
            b.ins("wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {%s}, %%qdA, %%qdB, %s, "
                  "1, 1, 1, 0" % (bm, dt, dt, accs, scale))
    commit_and_release(b, 1, stages)
    loop_k(b, k_end, ck)
    drain(b, 1)

    def store(regs):
        """Stores the accumulators `regs` (all for an unsplit tile, a rank's
        share for a split one) element by element, predicated at the
        edges; the accumulators hold C^T."""
        b.comment("store: acc[r][4 g + 2 h + j] = C[m0 + 8 g + 2 (lane %% 4) + j]"
                  "[n0 + consumer * %d + 64 r + 16 warp + lane / 4 + 8 h]" % wg_n)
        b.ins("and.b32 %qt0, %qlane, 3")
        b.ins("shl.b32 %qt0, %qt0, 1")
        b.ins("add.u32 %qt0, %qt0, %qm0")                  # this thread's first m
        b.ins("and.b32 %qt1, %qwarp, 3")
        b.ins("shl.b32 %qt1, %qt1, 4")
        b.ins("shr.u32 %qt2, %qlane, 2")
        b.ins("add.u32 %qt1, %qt1, %qt2")
        b.ins("mad.lo.u32 %%qt1, %%qt7, %d, %%qt1" % wg_n)
        b.ins("add.u32 %qt1, %qt1, %qn0")                  # this thread's first n
        b.ins("mul.wide.u32 %%qcaddr, %%qt0, %d" % (n * oes))
        b.ins("add.s64 %qcaddr, %qcaddr, %qgC")
        b.ins("mul.wide.u32 %%qw64, %%qt1, %d" % oes)
        b.ins("add.s64 %qcaddr, %qcaddr, %qw64")
        for r in range(nrep):
            for h in range(2):
                noff = 64 * r + 8 * h
                if noff >= n:
                    continue
                mine = [(g, j) for g in range(bm // 8) for j in range(2)
                        if 8 * g + j < m and r * acc_n + 4 * g + 2 * h + j in regs]
                if not mine:
                    continue
                b.ins("setp.lt.u32 %%qp1, %%qt1, %d" % (n - noff))
                for g, j in mine:
                    moff = 8 * g + j
                    b.ins("setp.lt.u32 %%qp2, %%qt0, %d" % (m - moff))
                    b.ins("and.pred %qp2, %qp2, %qp1")
                    out_store(b, cdt, "%qcaddr", (moff * n + noff) * oes,
                              ["%%qacc%d" % (r * acc_n + 4 * g + 2 * h + j)], "%qp2",
                              c["accumulate"])

    if sk == 1:
        store(set(range(acc_regs)))
        next_tile(b, False, ctile)
    else:
        split = b.new_label("sk_split")
        if dp_tiles:
            # a data-parallel tile: stored whole, like an unsplit one
            b.ins("setp.ne.u32 %qp1, %qsplit, 0")
            b.ins("@%qp1 bra " + split)
            store(set(range(acc_regs)))
            b.ins("bra " + cnext)
        b.label(split)
        splitk_publish(b, sk, acc_regs, 128 * nc, 0, skbar)
        # rank r sums and stores its share of the accumulators (each
        # element of C stored once)
        rank_labels = [b.new_label("sk_rank%d" % r) for r in range(sk)]
        for r in range(1, sk):
            b.ins("setp.eq.u32 %%qp1, %%qrank, %d" % r)
            b.ins("@%%qp1 bra %s" % rank_labels[r])
        for r in range(sk):
            chunks = splitk_rank_chunks(acc_regs, sk, r)
            b.label(rank_labels[r])
            b.comment("split-K rank %d: accumulators %d.." % (r, chunks[0][0]))
            splitk_sum_chunks(b, sk, r, chunks, 128 * nc, skbar)
            store({first + j for first, width in chunks for j in range(width)})
            if r < sk - 1:
                b.ins("bra " + cnext)
        b.label(cnext)
        splitk_next(b, chead)
    b.label(end)
    if sk > 1:
        # peers may still read this CTA's partial and arrive on its
        # barriers: leave together
        b.ins("barrier.cluster.arrive.release")
        b.ins("barrier.cluster.wait.acquire")

    result = gemm_answer(
        c, FAMILY, dt, cdt,
        [tensor_map_param("tmapA", "A", TMA_DTYPE[dt], [k, m], lda * es, [BK, bm]),
         tensor_map_param("tmapB", "B", TMA_DTYPE[dt], [n, k], ldb * es, [64, BK])],
        grid, threads, smem, 1,
        {"block_m": bm, "block_n": bn, "block_k": BK, "consumers": nc,
         "stages": stages, "group_m": group_m, "persistent_ctas": grid},
        "TMA 128B swizzle, zero-filled past the edges; C^T = B^T A^T (B^T MN-major)",
        "wgmma.mma_async.m64n%dk16.f32.%s (A operand MN-major: B^T)" % (bm, dt))
    if sk > 1:
        result["cluster"] = [sk, 1, 1]
        result["tile"]["split_k"] = sk
        result["reduction"] = "split-K partial tiles through distributed shared memory, rank order"
        result["schedule"] = {"data_parallel_tiles": dp_tiles, "split_tiles": split_tiles}
    return finish(result, b, fmt)
