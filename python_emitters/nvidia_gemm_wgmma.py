#!/usr/bin/env python3
"""Emit a warp-specialized TMA + wgmma GEMM kernel for sm_90a as PTX.

C[M][N] = A[M][K] * B[K][N] (+ C when "accumulate"), row-major, bf16 or f16
inputs, fp32 accumulation, output f32, bf16 or f16.

The kernel is persistent (one CTA per SM, output tiles in grouped order) and
warp-specialized:
* warpgroup 0 is the producer: it gives registers back (setmaxnreg.dec) and
  one thread issues TMA loads (cp.async.bulk.tensor, 128-byte swizzle) of the
  A tile (BM x 64) and the B tile (64 x BN, as BN/64 boxes of 64 x 64) into a
  ring of `stages` shared-memory stages; each stage has a "full" mbarrier
  (TMA transaction bytes) and an "empty" one (released by the consumers);
* warpgroups 1..consumers are consumers (setmaxnreg.inc): each owns
  wg_m = BM / consumers rows of the tile, issues wgmma.mma_async
  m64n{BN}k16 from shared-memory descriptors (A K-major, B MN-major:
  transposed), keeps one wgmma group in flight and releases a stage once
  the group that read it has completed; then stores its accumulators.
TMA zero-fills boxes that cross the matrix edges, so any M, N, K whose rows
are 16-byte aligned (K and N multiples of 8) is handled; the C stores are
predicated. Other K and N run on padded copies of A and B (spec fields lda,
ldb; the lowering launches nvidia_pad.py's kernels first).

Thread-block clusters (cluster_m x cluster_n CTAs, at most 2 in all): the
CTAs of a cluster compute neighbouring output tiles, cluster_m tiles down
(they share the B tile) or cluster_n tiles across (they share the A tile).
Each CTA loads its share of the shared tile and multicasts it
(cp.async.bulk.tensor ... .multicast::cluster) into the same stage of every
CTA of the cluster, so L2 serves each shared tile once per cluster. Because
a CTA writes into its peers' stages, a stage is free only when the
consumers of every CTA of the cluster have released it: consumers arrive on
the "empty" barrier of each CTA (mapa + mbarrier.arrive.shared::cluster),
whose count is consumers * 4 * cluster size. The CTAs of a cluster walk the
same sequence of cluster tiles in lockstep; a CTA whose tile lies past the
matrix edge still loads and multicasts its share (TMA zero-fills, the
stores are predicated), and no CTA exits before its peers (a cluster
barrier at the end), since they still arrive on its barriers. The kernel
then carries .explicitcluster and .reqnctapercluster and the answer a
"cluster" launch dimension.

Convolutions (spec field "conv", tensorop_emit/nvidia_conv.py): the same
kernel computes linalg.conv_2d_nhwc_hwcf as the implicit GEMM M = N*OH*OW,
N = F, K = R*S*C; only the producer's A load changes, to a TMA load in
im2col mode (one box of block_m output pixels x 64 channels per filter tap
and channel chunk; padding and image edges zero-filled by TMA). C must be a
multiple of 64; no clusters.

Fused epilogue (spec field "epilogue", tensorop_emit/nvidia_epilogue.py):
the steps of the CPU emitters (bias_n, bias_m, residual, scale, clamp, relu,
tanh, sigmoid, silu, gelu_tanh, gelu_erf) applied to the fp32 accumulators
before the conversion to C's type; the bias and R (C's type) are kernel
parameters after the tensor maps.

Store (spec field "store", tensorop_emit/nvidia_smem_store.py): "global"
(default) writes C from the accumulator registers, predicated at the edges;
"smem_tma" writes each consumer's rows (after the epilogue, in C's type)
with stmatrix (st.shared for f32 C) into two 8 KiB swizzled shared-memory
buffers per consumer and stores them with TMA through C's tensor map (the
last parameter before the shared window), overlapped with the next tile's
k-loop. GEMMs only.
Split-K (spec field "split_k", 2 or 4; the narrow tiles also 2 * block_n
/ 8: 4 at block_n 16, 8 at block_n 32), a Stream-K-like schedule: the
grid is clusters of split_k CTAs. Whole waves of tiles run data-parallel
(each CTA of a cluster its own tile, all of K, stored like an unsplit
tile); the last partial wave, when it has at most one tile per cluster,
is split: rank r of a cluster runs the r-th of split_k equal ranges of K
of the cluster's tile (all tiles are split when there are no more tiles
than clusters). The partial tiles are reduced as a reduce-scatter through
distributed shared memory: each rank writes its fp32 accumulators into its
own shared memory (the pipeline stages, free by then: a cluster's split
tile is its last) and tells every rank (mbarriers, release/acquire at
cluster scope), then rank r adds the r-th slice of the tile's columns of
all ranks' partials in rank order (the same bits whatever the timing) and
stores that slice, through the epilogue, with the register store (a
narrow tile split in more ranks than it has 8-column groups: rank r one
group's row half, splitk_narrow_share). No workspace, no atomics.
TF32 (a_dtype tf32, f32 output): wgmma reads tf32 from shared memory K-major
only, so a kernel of its own computes C^T = B^T A^T with B^T from registers
(tensorop_emit/nvidia_wgmma_tf32.py, whose docstring gives its spec).
Few rows (bf16/f16, block_m 8, 16 or 32): C^T = B^T A^T with B^T as wgmma's
MN-major shared-memory A operand (tensorop_emit/nvidia_wgmma_fewrows.py,
whose docstring gives its spec).
Spec: name, m, n, k, a_dtype (bf16|f16|tf32), c_dtype (f32|bf16|f16), accumulate,
  sm (90), block_m (128), block_n (256), consumers (2), stages (4),
  group_m (8), sms (132: the most CTAs of the persistent grid),
  cluster_m (1), cluster_n (1), conv (absent: a GEMM), epilogue ([]),
  store ("global"), split_k (1), lda (K), ldb (N): the row strides in
  elements of the A and B that TMA reads (padded copies where K or N rows
  are not 16-byte aligned, see nvidia_pad.py; multiples of 8)
C is written with C's own row stride N; N odd takes the epilogue's store
column by column (no 4-byte pairs), so any N works with store = "global".
Answer: JSON; operands $0=A $1=B $2=C $3=tensor map of A $4=tensor map of B
(64-bit global addresses of CUtensorMap objects), then bias and R when the
epilogue reads them, then C's tensor map with store = "smem_tma", and last
the 32-bit shared address of the dynamic shared-memory window ($5 without
an epilogue or C's map).  --format=ptx: a PTX module.
"""

from tensorop_emit.nvidia_conv import (
    check_tma_im2col, conv_geometry, emit_im2col_load, emit_tap_advance, emit_tap_start,
    emit_tile_origin, im2col_tensor_map)
from tensorop_emit.nvidia_epilogue import PtxEpilogue, parse_epilogue
from tensorop_emit.nvidia_wgmma_tf32 import emit_tf32
from tensorop_emit.nvidia_wgmma_fewrows import FEW_ROWS, emit_few_rows
from tensorop_emit.nvidia_ptx import (
    ELEM_BYTES, TMA_DTYPE, PtxBody, SpecError, ceil_div, common_spec,
    declare_store_temps, finish, gemm_answer, get_choice, get_int, main, out_store)
from tensorop_emit.nvidia_smem_store import SmemTmaStore
from tensorop_emit.wgmma_common import (
    STREAM_HINTS, TMA_LOAD_2D, stream_policy, advance_stage, commit_and_release, consumer_start, consumer_wait,
    declare_regs, desc_hi, desc_lo, drain, init_barriers, load_operands, loop_k,
    next_tile, producer_acquire, producer_start, split_roles, tensor_map_param,
    thread_ids, tile_start, walk_start)
from tensorop_emit.wgmma_splitk import (
    declare_splitk_regs, splitk_groups, splitk_item, splitk_narrow_share, splitk_next,
    splitk_ws_fixup, splitk_ws_item, splitk_ws_layout,
    splitk_publish, splitk_schedule, splitk_sum_chunks, splitk_sum_slice)

FAMILY = "nvidia_gemm_wgmma"
B_BOXES = ("tile", "row", "chunks")
BK = 64                     # 64 bf16 = 128 bytes: one 128B swizzle row


def cluster_tile_coords(b, cm, cn):
    """(tm, tn) of this CTA from the cluster tile's (tm, tn): rank r of a
    cluster of cm x cn CTAs takes the r-th tile down (cm) or across (cn)."""
    if cm > 1:
        b.ins("mad.lo.u32 %%qtm, %%qtm, %d, %%qrank" % cm)
    if cn > 1:
        b.ins("mad.lo.u32 %%qtn, %%qtn, %d, %%qrank" % cn)


def emit(spec, fmt):
    c = common_spec(spec, ("block_m", "block_n", "consumers", "stages", "group_m", "sms",
                           "cluster_m", "cluster_n", "conv", "epilogue", "store",
                           "split_k", "lda", "ldb", "stream_hint", "b_box", "ws_groups",
                           "split_reduce"))
    m, n, k = c["m"], c["n"], c["k"]
    dt, cdt = c["a_dtype"], c["c_dtype"]
    # Row strides (elements) of the A and B that TMA reads: K and N, or
    # those of padded copies (nvidia_pad.py) where K or N rows are not
    # 16-byte aligned.
    lda = get_int(spec, "lda", default=k, lo=k, hi=1 << 21)
    ldb = get_int(spec, "ldb", default=n, lo=n, hi=1 << 21)
    if dt == "tf32" and spec.get("stream_hint", "none") != "none":
        raise SpecError("stream_hint", "the tf32 kernel takes no L2 policy")
    if spec.get("b_box", "tile") != "tile" and (dt == "tf32" or spec.get("block_m") in FEW_ROWS):
        raise SpecError("b_box", "only the narrow tiles (block_n 16 or 32) choose B's box")
    if dt == "tf32":
        # wgmma reads tf32 from shared memory K-major only: a kernel of its
        # own (tensorop_emit/nvidia_wgmma_tf32.py) takes B^T from registers.
        return emit_tf32(spec, c, fmt)
    if dt not in ("bf16", "f16"):
        raise SpecError("a_dtype", "wgmma takes bf16, f16 or tf32, got %s" % dt)
    if spec.get("block_m") in FEW_ROWS:
        # few rows (M <= 32): C^T = B^T A^T with wgmma's N extent over M
        # (tensorop_emit/nvidia_wgmma_fewrows.py)
        return emit_few_rows(spec, c, fmt)
    if c["sm"] != 90:
        raise SpecError("sm", "wgmma and TMA need sm_90a")
    es, oes = ELEM_BYTES[dt], ELEM_BYTES[cdt]
    if (lda * es) % 16 or (ldb * es) % 16:
        raise SpecError("k" if (lda * es) % 16 else "n",
                        "TMA needs 16-byte aligned rows: the row strides of A and B (lda, "
                        "ldb: K and N unless given) must be multiples of %d (got %d, %d); "
                        "pad them (nvidia_pad.py) or use nvidia_gemm_mma" % (16 // es, lda, ldb))
    nc = get_int(spec, "consumers", default=2, lo=1, hi=2)
    bm = get_int(spec, "block_m", default=128, lo=8, hi=256)
    bn = get_int(spec, "block_n", default=256, lo=16, hi=256)
    # narrow tiles' stages are small: up to 16 keep enough of A in flight
    stages = get_int(spec, "stages", default=4, lo=2,
                     hi=16 if spec.get("block_n") in (16, 32) else 8)
    group_m = get_int(spec, "group_m", default=8, lo=1, hi=64)
    sms = get_int(spec, "sms", default=132, lo=1, hi=1024)
    cm = get_int(spec, "cluster_m", default=1, lo=1, hi=2)
    cn = get_int(spec, "cluster_n", default=1, lo=1, hi=2)
    cs = cm * cn
    sk = get_int(spec, "split_k", default=1, lo=1, hi=32)
    # "workspace": the narrow tiles' split-K without clusters, reduced
    # through a global workspace by the last unit of a tile to arrive
    # (wgmma_splitk.splitk_ws_fixup); "cluster": through distributed
    # shared memory
    ws = get_choice(spec, "split_reduce", ("cluster", "workspace"), default="cluster") \
        == "workspace"
    # the workspace reduction in two levels (splitk_ws_fixup): groups of
    # split_k / ws_groups slices, so that no unit adds more than
    # max(split_k / ws_groups, ws_groups) partials one after the other
    ws_groups = get_int(spec, "ws_groups", default=1, lo=1, hi=32)
    conv = conv_geometry(spec, m, n, k)
    steps = parse_epilogue(spec)
    store = get_choice(spec, "store", ("global", "smem_tma"), default="global")
    if steps and conv is not None:
        raise SpecError("epilogue", "convolutions take no fused epilogue")
    if conv is not None:
        check_tma_im2col(conv, es)
        if lda != k or ldb != n:
            raise SpecError("lda", "convolutions read their own strides (no lda/ldb)")
        if cs > 1:
            raise SpecError("cluster_m", "convolutions run without clusters (got %dx%d)" % (cm, cn))
    if store == "smem_tma" and (n * oes) % 16:
        raise SpecError("store", "the TMA store needs 16-byte aligned rows of C (N a multiple "
                                 "of %d, got %d): store = \"global\"" % (16 // oes, n))
    if cs > 2:
        raise SpecError("cluster_n", "clusters of at most 2 CTAs (got %dx%d)" % (cm, cn))
    if sms < cs:
        raise SpecError("sms", "a grid of %d CTAs cannot hold a cluster of %d" % (sms, cs))
    if bm % (64 * nc):
        raise SpecError("block_m", "must be 8, 16, 32 (few rows) or a multiple of 64 * "
                                   "consumers, got %d" % bm)
    # Narrow tiles (block_n 16 or 32: GEMMs of few columns, N <= 32): B's
    # box is one MN-major swizzle atom of block_n columns (32- or 64-byte
    # swizzle), so a stage carries A rather than zero-filled columns of B.
    narrow = bn in (16, 32)
    # an L2 policy for A's loads: the narrow tiles stream A once
    hint = get_choice(spec, "stream_hint", STREAM_HINTS, default="none")
    if hint != "none" and not narrow:
        raise SpecError("stream_hint", "only the narrow tiles (block_n 16 or 32) stream A")
    # B's box of a narrow tile (B_BOXES): "tile", block_n columns, TMA
    # zero-filling those past the row (N = 24: 16 of each 64-byte box row);
    # "row", the ldb columns of B's rows (a pad copy's columns past N are
    # zeros), so that no box crosses the matrix edge: the rows land at the
    # same place (TMA pads a swizzled box's rows to the swizzle span) and the
    # stage's columns past ldb, never loaded, feed only accumulator columns
    # that are never stored; "chunks", one box of 8 columns (16 bytes) per
    # 8 columns of ldb, unswizzled: the wgmma's no-swizzle MN-major layout
    # (core matrices of 8 columns x 8 k rows, 1024 bytes per 8 columns).
    # Measured on the H200 (docs/benchmarks/gpu-gemm.md, "Session 17"),
    # all verified: "row" 2-14% faster than "tile" on every N = 24 case
    # (3000x24x8192 64x32 split 2: 23.9 -> 20.5 us; 128x32 split 4 18.8 ->
    # 18.4), "chunks" slower than both; block_n 16 (32-byte swizzle, N = 8:
    # 8 of 16 columns) likewise, 4096x8x8192 64x16 split 2 27.2 -> 23.2
    # us: the default of both narrow tiles (at N = 16, or ldb 16, the two
    # boxes are the same).
    b_box = get_choice(spec, "b_box", B_BOXES, default="row" if narrow else "tile")
    if b_box != "tile" and not narrow:
        raise SpecError("b_box", "only the narrow tiles (block_n 16 or 32) choose B's box")
    if bn % 64 and not narrow:
        raise SpecError("block_n", "must be 16, 32 or a multiple of 64, got %d" % bn)
    if narrow:
        for field, bad, why in (("cluster_m", cs > 1, "runs without clusters"),
                                ("split_k", not ws and sk > 1 and (bn // 8) % sk
                                 and sk != bn // 4,
                                 "splits K in 2 or 4 (2, 4 or 8 at block_n 32): each rank "
                                 "stores a slice of 8-column groups, or, split in 2 * "
                                 "block_n / 8, one group's row half"),
                                ("store", store != "global",
                                 "stores C from registers (store = \"global\")"),
                                ("conv", conv is not None, "is for GEMMs")):
            if bad:
                raise SpecError(field, "the narrow wgmma kernel (block_n %d) %s" % (bn, why))
    wg_m = bm // nc
    mrep = wg_m // 64                            # m64 wgmmas per consumer
    acc_n = bn // 2                              # accumulator registers per m64 block
    acc_regs = mrep * acc_n
    if acc_regs > 192:
        raise SpecError("block_n", "%d accumulator registers per thread (at most 192)" % acc_regs)
    if ws and (not narrow or sk < 2):
        raise SpecError("split_reduce", "the workspace reduction is the narrow tiles' (block_n "
                                        "16 or 32) with split_k >= 2")
    if ws_groups > 1 and (not ws or sk % ws_groups or ws_groups == sk):
        raise SpecError("ws_groups", "groups of slices are the workspace reduction's, and "
                                     "must divide split_k (%d) into groups of 2 or more, got %d"
                        % (sk, ws_groups))
    if not ws and (sk not in (1, 2, 4, 8) or (sk == 8 and not narrow)):
        raise SpecError("split_k", "must be 1, 2 or 4 (8: the narrow tile block_n 32), got %d"
                        % sk)
    if sk > 1 and cs > 1:
        raise SpecError("split_k", "split-K runs as a cluster of its own: no cluster_m/cluster_n")
    if sk > 1 and ceil_div(ceil_div(k, BK), sk) * (sk - 1) >= ceil_div(k, BK):
        raise SpecError("split_k", "K=%d has %d k-tiles of 64: too few for %d non-empty ranges"
                        % (k, ceil_div(k, BK), sk))
    if sk == 4 and acc_regs > 96:
        raise SpecError("split_k", "split_k 4 with %d accumulator registers per consumer "
                                   "thread spills (at most 96: block_n <= 192 with 64 rows "
                                   "per consumer)" % acc_regs)
    a_bytes = bm * BK * es
    b_bytes = bn * BK * es
    stg = a_bytes + b_bytes                      # multiple of 1024: 128B swizzle atoms stay aligned
    # B's columns in the tensor map, the box's and the number of boxes
    # per stage; the stage's bytes TMA delivers (its full barrier's count)
    b_dims_n, b_box_n, b_loads = n, min(bn, 64), max(1, bn // 64)
    if b_box == "row":
        b_dims_n, b_box_n = ldb, min(bn, ldb)
    elif b_box == "chunks":
        b_dims_n, b_box_n, b_loads = ldb, 8, ceil_div(min(bn, ldb), 8)
    stg_tx = a_bytes + b_loads * b_box_n * BK * es
    bar = stages * stg
    smem = bar + 16 * stages
    tma_store = None
    if store == "smem_tma":
        # C's tensor map is the last parameter before the shared window.
        # With split_k the data-parallel tiles take this store, the split
        # tiles' slices the register store after the reduction.
        tma_store = SmemTmaStore(None, cdt, m, n, bn, nc, bm // nc, smem, None)
        smem = tma_store.end()
    skbar = 0
    if sk > 1 and not ws:
        # two split-K barriers (full, free); the fp32 partial tile overlays
        # the stages (splitk_publish)
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
    # The persistent loop walks cluster tiles: cm x cn neighbouring tiles.
    ctiles_m, ctiles_n = ceil_div(tiles_m, cm), ceil_div(tiles_n, cn)
    ntiles = ctiles_m * ctiles_n
    kt_total = ceil_div(k, BK)
    grid = min(ntiles, sms // cs) * cs
    if ws:
        # units (tile, K slice), tile-major, persistent over min(units, sms)
        units = ntiles * sk
        grid = min(units, sms)
        ws_partial, ws_counters, ws_bytes = splitk_ws_layout(ntiles, sk, acc_regs, 128 * nc,
                                                            ws_groups)
    elif sk > 1:
        grid = min(ntiles, sms // sk) * sk
        dp_tiles, split_tiles = splitk_schedule(ntiles, grid // sk, sk)
        dp_items = ceil_div(dp_tiles, sk)
        items = dp_items + split_tiles
    cl = cs if sk == 1 or ws else sk             # CTAs per cluster
    a_part = bm // cn                            # rows of A each CTA of a row pair loads
    consumer_regs = 232 if nc == 2 else 240

    b = PtxBody()
    R = b.reg
    declare_regs(b)
    R("b32", "%qdal"), R("b32", "%qdbl"), R("b32", "%qdh"), R("b32", "%qdhb")
    R("b64", "%qdA"), R("b64", "%qdB"), R("b64", "%qstate"), R("b64", "%qw64"), R("b64", "%qcrow")
    R("pred", "%qp", 8)
    if cs > 1:
        R("b32", "%qrank"), R("b16", "%qmask")
    if ws:
        R("b32", "%qw"), R("b32", "%qkb"), R("b32", "%qke"), R("b32", "%qslc")
        R("b64", "%qwsp"), R("b64", "%qwsa"), R("f32", "%qsk", 4)
    elif sk > 1:
        declare_splitk_regs(b, sk)
    if conv is not None:
        R("b32", "%qc0"), R("b32", "%qso"), R("b32", "%qro")
        R("b32", "%qwb"), R("b32", "%qhb"), R("b32", "%qnb"), R("b16", "%qoff", 2)
    R("f32", "%qacc", acc_regs)
    declare_store_temps(b)
    # A fused epilogue's operands (bias, R) follow the tensor maps. The
    # store through shared memory applies an accumulation (C += A B) with the
    # epilogue's loads of C too.
    ep = None
    # N odd: C's column pairs are not 4-byte aligned; the epilogue's store
    # writes them one by one (predicated at the edges).
    pair = n % 2 == 0
    if steps or (tma_store and c["accumulate"]) or not pair:
        ep = PtxEpilogue(b, steps, cdt, m, n, c["accumulate"], 5)
        ep.declare(2 * mrep)
    nparams = 5 + (len(ep.params) if ep else 0)
    if tma_store:
        # C's tensor map follows the epilogue's operands
        tma_store.b = b
        tma_store.map_operand = "$%d" % nparams
        tma_store.declare()
        nparams += 1
    if ws:
        nparams += 1                             # the workspace, last

    b.comment("TensorOp %s: %dx%dx%d %s -> %s, tile %dx%dx%d, %d consumer warpgroup(s), "
              "%d stages, %d tiles on %d CTAs" % (FAMILY, m, n, k, dt, cdt, bm, bn, BK, nc,
                                                 stages, ntiles, grid))
    load_operands(b, nparams)
    if ep:
        ep.load_operands()
    if ws:
        b.ins("mov.b64 %%qwsp, $%d" % (nparams - 1))
    thread_ids(b, bar, stages)

    # ---- barrier initialisation (thread 0), then one CTA-wide barrier ----
    # Stages are released by every consumer warp of every CTA of the
    # cluster. Split-K's full and free barriers: one lane of every consumer
    # warp of every rank of the cluster.
    init_barriers(b, stages, 4 * nc * cs,
                  [(skbar, 4 * nc * sk), (skbar + 8, 4 * nc * sk)] if sk > 1 and not ws else ())
    if sk > 1 and not ws:
        # the ranks read each other's partial tiles and arrive on each
        # other's barriers
        b.ins("barrier.cluster.arrive.release.aligned")
        b.ins("barrier.cluster.wait.acquire.aligned")
        b.ins("mov.u32 %qrank, %cluster_ctarank")
    elif cs > 1:
        # peers arrive on these barriers and multicast into this CTA's stages
        b.ins("barrier.cluster.arrive.release.aligned")
        b.ins("barrier.cluster.wait.acquire.aligned")
        b.ins("mov.u32 %qrank, %cluster_ctarank")
        b.ins("mov.b16 %%qmask, %d" % ((1 << cs) - 1))
    else:
        b.ins("bar.sync 0")
    consumer, end = split_roles(b)
    first_tile = "%clusterid.x" if cl > 1 else "%ctaid.x"
    first_kt = "%qkb" if sk > 1 else "0"
    # work units of the workspace split: a unit past the last ends the walk
    ws_units = (lambda label: (b.ins("setp.ge.u32 %%qp1, %%qw, %d" % units),
                               b.ins("@%%qp1 bra %s" % label),
                               splitk_ws_item(b, sk, kt_total))) if ws else None
    k_end = "%qke" if sk > 1 else kt_total

    # ---- producer warpgroup ----
    ptile, pk, pwait = producer_start(b, end, first_tile)
    hint_sfx, hint_op = stream_policy(b, hint)
    ptile_head, pnext = ptile, end
    if ws:
        b.ins("mov.u32 %qw, %qtile")
        pnext = b.new_label("pnext")
        b.label(ptile_head)
        ws_units(end)
        ptile = b.new_label("ptile_u")
    elif sk > 1:
        # the cluster's work items: data-parallel tiles, then a split one;
        # a data-parallel tile past the last is skipped
        b.ins("mov.u32 %qw, %qtile")
        pnext = b.new_label("pnext")
        b.label(ptile_head)
        b.ins("setp.ge.u32 %%qp1, %%qw, %d" % items)
        b.ins("@%qp1 bra " + end)
        splitk_item(b, sk, kt_total, dp_items, dp_tiles)
        ptile = b.new_label("ptile_dp")
    tile_start(b, ptile, ntiles, pnext, ctiles_m, ctiles_n, group_m, bm, bn, first_kt,
               lambda: cluster_tile_coords(b, cm, cn))
    if conv is not None:
        emit_tile_origin(b, conv, "%qm0", "%qwb", "%qhb", "%qnb", "%qt5")
        if sk > 1:
            emit_tap_start(b, conv, "%qkb", BK, "%qc0", "%qso", "%qro", "%qt5", es)
        else:
            b.ins("mov.u32 %qc0, 0")
            b.ins("mov.u32 %qso, 0")
            b.ins("mov.u32 %qro, 0")
    producer_acquire(b, pk, pwait, stg, 6, stg_tx)          # k0 = kt * 64
    tma = TMA_LOAD_2D
    if conv is not None:
        # A: the im2col box of block_m output pixels from m0, channels c0..,
        # shifted by the filter tap (offsets {s, r} * dilation)
        emit_im2col_load(b)
    elif cn == 1:
        b.ins(tma + hint_sfx + " [%qdst], [%qmapA, {%qt4, %qm0}], [%qt3]" + hint_op)
    else:
        # the A tile is shared along the row of the cluster: CTA r loads rows
        # r * a_part .. of it into every CTA
        b.ins("mad.lo.u32 %%qt5, %%qrank, %d, %%qm0" % a_part)
        b.ins("mad.lo.u32 %%qt6, %%qrank, %d, %%qdst" % (a_part * BK * es))
        b.ins(tma + ".multicast::cluster [%qt6], [%qmapA, {%qt4, %qt5}], [%qt3], %qmask")
    if cm > 1:
        b.ins("setp.eq.u32 %qp4, %qrank, 0")
        b.ins("setp.ne.u32 %qp5, %qrank, 0")
    for cb in range(b_loads):
        # boxes of 64 columns (128-byte swizzle), or of 8 columns whose 64 k
        # rows of 16 bytes are 8 core matrices (b_box "chunks")
        b.ins("add.u32 %%qt5, %%qn0, %d" % (b_box_n * cb))
        b.ins("add.u32 %%qt6, %%qdst, %d" % (a_bytes + cb * b_box_n * BK * es))
        if cm == 1:
            b.ins(tma + " [%qt6], [%qmapB, {%qt5, %qt4}], [%qt3]")
        else:
            # the B tile is shared down the column: CTA r loads the boxes cb = r mod 2
            b.ins("@%s %s.multicast::cluster [%%qt6], [%%qmapB, {%%qt5, %%qt4}], [%%qt3], %%qmask"
                  % ("%qp4" if cb % 2 == 0 else "%qp5", tma))
    if conv is not None:
        emit_tap_advance(b, conv, "%qc0", "%qso", "%qro", "%qp6")
    advance_stage(b, stages)
    loop_k(b, k_end, pk)
    if ws:
        b.label(pnext)
        b.ins("mov.u32 %qt0, %nctaid.x")
        b.ins("add.u32 %qw, %qw, %qt0")
        b.ins("bra " + ptile_head)
    elif sk > 1:
        b.label(pnext)
        splitk_next(b, ptile_head)
    else:
        next_tile(b, cl > 1, ptile)

    # ---- consumer warpgroups ----
    consumer_start(b, consumer, "consumers: warpgroup w >= 1 owns rows (w - 1) * wg_m .. of "
                   "the tile", consumer_regs, acc_regs)
    if tma_store:
        tma_store.setup("%qt7", "%qsmem", "%qtid", "%qwarp", "%qlane")
    # lane 0 releases stages (lanes 0 .. cs-1 in a cluster: one per CTA)
    if cs == 1:
        b.ins("setp.eq.u32 %qp4, %qlane, 0")
    else:
        b.ins("setp.lt.u32 %%qp4, %%qlane, %d" % cs)
    b.ins("setp.eq.u32 %qp7, %qtid, %qtid")                # true
    b.ins("mov.u32 %qprev, 0")
    walk_start(b, first_tile)
    if sk > 1 and not ws:
        b.ins("mov.u32 %qskp, 0")
        b.ins("mov.u32 %qskf, 1")                          # a fresh slot is free
    desc_hi(b)
    # B's descriptor: 128-byte swizzle and SBO 1024 (8 k rows of 128 bytes)
    # like A's, or, for narrow tiles, the 32- or 64-byte swizzle (modes 3
    # and 2) of rows of block_n columns, SBO 8 rows of them
    b_row = min(bn, 64) * es                     # bytes of one k row of B's box
    # (b_box "chunks": no swizzle, mode 0, SBO the 1024 bytes from one
    # 8-column group to the next; LBO below the 128 bytes of 8 k rows)
    if b_box == "chunks":
        b.ins("mov.u32 %%qdhb, %d" % ((8 * BK * es) >> 4))
    else:
        b.ins("mov.u32 %%qdhb, %d" % ((b_row * 8 >> 4) | ({128: 1, 64: 2, 32: 3}[b_row] << 30)))
    ctile = b.new_label("ctile")
    ck = b.new_label("ck")
    cwait = b.new_label("cwait")
    cdone = b.new_label("cdone") if tma_store else end
    ctile_head, cnext = ctile, cdone
    if ws:
        b.ins("mov.u32 %qw, %qtile")
        cnext = b.new_label("cnext")
        b.label(ctile_head)
        ws_units(cdone)
        ctile = b.new_label("ctile_u")
    elif sk > 1:
        b.ins("mov.u32 %qw, %qtile")
        cnext = b.new_label("cnext")
        b.label(ctile_head)
        b.ins("setp.ge.u32 %%qp1, %%qw, %d" % items)
        b.ins("@%%qp1 bra %s" % cdone)
        splitk_item(b, sk, kt_total, dp_items, dp_tiles)
        ctile = b.new_label("ctile_dp")
    tile_start(b, ctile, ntiles, cnext, ctiles_m, ctiles_n, group_m, bm, bn, first_kt,
               lambda: cluster_tile_coords(b, cm, cn))
    b.label(ck)
    consumer_wait(b, cwait, stg)
    # descriptors of this stage's A rows of this consumer and B tile
    b.ins("mul.lo.u32 %%qt3, %%qt7, %d" % (wg_m * BK * es))
    b.ins("add.u32 %qt3, %qt3, %qt2")
    desc_lo(b, "%qdal", "%qt3", 1 << 16)                    # LBO unused (K-major)
    b.ins("add.u32 %%qt3, %%qt2, %d" % a_bytes)
    if b_box == "chunks":
        desc_lo(b, "%qdbl", "%qt3", (128 >> 4) << 16)     # LBO: next 8 k rows
    else:
        desc_lo(b, "%qdbl", "%qt3", ((64 * BK * es) >> 4) << 16)  # LBO: next 64 columns
    b.ins("setp.ne.u32 %%qp5, %%qkt, %s" % first_kt)       # scale-d: after the first
    b.ins("wgmma.fence.sync.aligned")
    for kk in range(BK // 16):
        for r in range(mrep):
            # A: +32 bytes per k16 step inside the swizzled 128-byte rows; +64 rows per m64 block
            b.ins("add.u32 %%qt4, %%qdal, %d" % ((kk * 32 + r * 64 * BK * es) >> 4))
            b.ins("mov.b64 %qdA, {%qt4, %qdh}")
            # B (MN-major): +16 rows of b_row bytes per k16 step (b_box
            # "chunks": +2 core matrices of 128 bytes)
            b.ins("add.u32 %%qt5, %%qdbl, %d"
                  % ((kk * (256 if b_box == "chunks" else 16 * b_row)) >> 4))
            b.ins("mov.b64 %qdB, {%qt5, %qdhb}")
            accs = ", ".join("%%qacc%d" % (r * acc_n + j) for j in range(acc_n))
            scale = "%qp5" if kk == 0 else "%qp7"
            b.ins("wgmma.mma_async.sync.aligned.m64n%dk16.f32.%s.%s {%s}, %%qdA, %%qdB, %s, 1, 1, 0, 1"
                  % (bn, dt, dt, accs, scale))
    commit_and_release(b, cs, stages)
    loop_k(b, k_end, ck)
    drain(b, cs)

    # ---- epilogue ----
    def epilogue(groups, via_tma, halves=(0, 1)):
        """Stores (through the fused epilogue, if any) the column groups
        `groups` (8 columns each) of this thread's accumulators, through
        shared memory and TMA when `via_tma` (all groups), else from the
        registers; of each m64 block's rows only the row halves `halves`
        (0: the thread's row, 1: the row 8 below; a narrow split rank's
        share, splitk_narrow_share)."""
        b.comment("epilogue: row = m0 + w * wg_m + 64 r + 16 warp + lane / 4 (+8), "
                  "col = n0 + 8 i + 2 (lane % 4)")
        b.ins("and.b32 %qt0, %qwarp, 3")
        b.ins("shl.b32 %qt0, %qt0, 4")
        b.ins("shr.u32 %qt1, %qlane, 2")
        b.ins("add.u32 %qt0, %qt0, %qt1")
        b.ins("mad.lo.u32 %%qt0, %%qt7, %d, %%qt0" % wg_m)
        b.ins("add.u32 %qt0, %qt0, %qm0")
        b.ins("and.b32 %qt1, %qlane, 3")
        b.ins("shl.b32 %qt1, %qt1, 1")
        b.ins("add.u32 %qt1, %qt1, %qn0")
        b.ins("mul.wide.u32 %%qw64, %%qt1, %d" % oes)
        if ep:
            b.comment("fused epilogue: " + ", ".join(spec["epilogue"]) if steps else
                      "epilogue store: C += A B" if c["accumulate"] else
                      "epilogue store: column by column (N odd)")
            nh = len(halves)
            ep.store("%qt0", "%qt1", [64 * r + 8 * half for r in range(mrep) for half in halves],
                     [8 * i for i in groups],
                     lambda slot, g: ["%%qacc%d" % (slot // nh * acc_n + 4 * groups[g]
                                                    + 2 * halves[slot % nh] + j)
                                      for j in range(2)],
                     pair, "%qgC", write=not via_tma)
        if via_tma:
            b.comment("store: C's tile through shared memory, TMA stores of 64 x 128-byte boxes")
            b.ins("mad.lo.u32 %%qt0, %%qt7, %d, %%qm0" % wg_m)
            tma_store.store_tile(lambda r, g: ["%%qacc%d" % (r * acc_n + 4 * g + j)
                                               for j in range(4)],
                                 "%qt0", "%qn0")
        for r in range(mrep if not ep and not via_tma else 0):
            for half in halves:
                b.ins("add.u32 %%qt2, %%qt0, %d" % (64 * r + 8 * half))
                b.ins("setp.lt.u32 %%qp1, %%qt2, %d" % m)
                b.ins("min.u32 %%qt2, %%qt2, %d" % (m - 1))
                b.ins("mul.wide.u32 %%qcrow, %%qt2, %d" % (n * oes))
                b.ins("add.s64 %qcrow, %qcrow, %qgC")
                b.ins("add.s64 %qcrow, %qcrow, %qw64")
                for i in groups:
                    base = r * acc_n + 4 * i + 2 * half
                    b.ins("add.u32 %%qt3, %%qt1, %d" % (8 * i))
                    b.ins("setp.lt.u32 %qp2, %qt3, " + str(n))
                    b.ins("and.pred %qp2, %qp2, %qp1")
                    out_store(b, cdt, "%qcrow", 8 * i * oes,
                              ["%%qacc%d" % base, "%%qacc%d" % (base + 1)], "%qp2",
                              c["accumulate"])

    if sk == 1:
        epilogue(list(range(bn // 8)), tma_store is not None)
        next_tile(b, cl > 1, ctile)
    elif ws:
        splitk_ws_fixup(b, sk, acc_regs, 128 * nc, ws_partial, ws_counters, cnext,
                        ntiles, ws_groups)
        epilogue(list(range(bn // 8)), False)
        b.label(cnext)
        b.ins("mov.u32 %qt0, %nctaid.x")
        b.ins("add.u32 %qw, %qw, %qt0")
        b.ins("bra " + ctile_head)
    else:
        split = b.new_label("sk_split")
        if dp_tiles:
            # a data-parallel tile: stored whole, like an unsplit one
            b.ins("setp.ne.u32 %qp1, %qsplit, 0")
            b.ins("@%qp1 bra " + split)
            epilogue(list(range(bn // 8)), tma_store is not None)
            b.ins("bra " + cnext)
        b.label(split)
        splitk_publish(b, sk, acc_regs, 128 * nc, 0, skbar)
        # rank r sums and stores the r-th slice of the tile's columns: the
        # epilogue (and an accumulation into C) applies once per element
        rank_labels = [b.new_label("sk_rank%d" % r) for r in range(sk)]
        for r in range(1, sk):
            b.ins("setp.eq.u32 %%qp1, %%qrank, %d" % r)
            b.ins("@%%qp1 bra %s" % rank_labels[r])
        for r in range(sk):
            b.label(rank_labels[r])
            if sk <= bn // 8:
                b.comment("split-K rank %d: columns %d.. of the tile"
                          % (r, splitk_groups(bn, sk, r)[0] * 8))
                splitk_sum_slice(b, sk, r, mrep, acc_n, 128 * nc, skbar)
                epilogue(splitk_groups(bn, sk, r), False)
            else:
                # more ranks than 8-column groups (narrow tiles): one
                # group's row half each
                g, h = splitk_narrow_share(bn, sk, r)
                b.comment("split-K rank %d: columns %d.. of the tile, row half %d"
                          % (r, 8 * g, h))
                splitk_sum_chunks(b, sk, r, [(rr * acc_n + 4 * g + 2 * h, 2)
                                             for rr in range(mrep)], 128 * nc, skbar)
                epilogue([g], False, (h,))
            if r < sk - 1:
                b.ins("bra " + cnext)
        b.label(cnext)
        splitk_next(b, ctile_head)
    if tma_store:
        b.label(cdone)
        tma_store.drain()
    b.label(end)
    if cl > 1:
        # peers may still arrive on this CTA's barriers: leave together
        b.ins("barrier.cluster.arrive.release")
        b.ins("barrier.cluster.wait.acquire")

    result = gemm_answer(
        c, FAMILY, dt, cdt,
        [tensor_map_param("tmapA", "A", TMA_DTYPE[dt], [k, m], lda * es, [BK, a_part]),
         tensor_map_param("tmapB", "B", TMA_DTYPE[dt], [b_dims_n, k], ldb * es, [b_box_n, BK],
                          0 if b_box == "chunks" else b_row)],
        grid, threads, smem, 1,
        {"block_m": bm, "block_n": bn, "block_k": BK, "consumers": nc,
         "stages": stages, "group_m": group_m, "persistent_ctas": grid},
        "TMA 128B swizzle, zero-filled past the edges" if not narrow else
        "TMA, zero-filled past the edges: A 128B swizzle, B %s" % (
            "8-column boxes, no swizzle" if b_box == "chunks" else
            "%dB swizzle, boxes of %d columns" % (b_row, b_box_n) if b_box == "row" else
            "%dB swizzle" % b_row),
        "wgmma.mma_async.m64n%dk16.f32.%s" % (bn, dt))
    if ep:
        result["params"] += ep.params
        if steps:
            result["epilogue"] = list(spec["epilogue"])
    if tma_store:
        result["params"].append(tma_store.tensor_map())
        result["store"] = "stmatrix/st.shared to a 128B-swizzled smem tile, TMA store"
    if conv is not None:
        result["params"][3] = im2col_tensor_map(conv, TMA_DTYPE[dt], es, bm)
        result["conv"] = conv
        result["loads"] = "TMA im2col mode (A) and tiled (B), 128B swizzle, zero-filled padding"
    if ws:
        result["params"].append({"name": "SK_ws", "kind": "ptr"})
        result["tile"]["split_k"] = sk
        result["tile"]["split_reduce"] = "workspace"
        if ws_groups > 1:
            result["tile"]["ws_groups"] = ws_groups
        result["reduction"] = ("split-K partial tiles through a global workspace; the last unit "
                               "of a tile to arrive (atomic counter, reset by it) sums them in "
                               "slice order")
        # the runner and the generated entry point: a workspace of `bytes`,
        # SK_ws at offset 0, whose `zero` range (the counters) must be zero
        # before the first launch (each launch leaves it zero)
        result["workspace"] = {"bytes": ws_bytes, "SK_ws": 0,
                               "zero": [ws_counters, ws_bytes - ws_counters]}
        result["schedule"] = {"units": units, "tiles": ntiles}
    elif sk > 1:
        result["cluster"] = [sk, 1, 1]
        result["tile"]["split_k"] = sk
        result["reduction"] = "split-K partial tiles through distributed shared memory, rank order"
        # the schedule: data-parallel tiles first, then split ones
        result["schedule"] = {"data_parallel_tiles": dp_tiles, "split_tiles": split_tiles}
    if cs > 1:
        result["cluster"] = [cs, 1, 1]
        result["tile"]["cluster_m"] = cm
        result["tile"]["cluster_n"] = cn
    return finish(result, b, fmt)


if __name__ == "__main__":
    main(emit, __doc__.split("\n")[0], __doc__)
