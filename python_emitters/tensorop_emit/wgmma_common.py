"""The pieces the two sm_90a TMA + wgmma GEMM kernels share.

nvidia_gemm_wgmma.py (bf16/f16, A and B from shared memory) and
tensorop_emit/nvidia_wgmma_tf32.py (tf32, B^T from registers) are the same
warp-specialized persistent kernel around different k-steps: warpgroup 0
produces (one thread issues TMA loads into a ring of `stages` shared-memory
stages, each with a "full" and an "empty" mbarrier), warpgroups 1.. consume
(wait for a stage, issue wgmmas, keep one group in flight, release the stage
the previous group read), and both walk the output tiles in grouped order,
stepping by the grid. The helpers below write that common frame; each
kernel writes its loads, its wgmmas and its stores. They use the register
names of declare_regs and leave the PTX text as the kernels wrote it.
"""

from .nvidia_ptx import grouped_tile

# The 2-D tiled TMA load into shared memory, completing on an mbarrier.
TMA_LOAD_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"

# Cache policies of the streamed operand's loads (spec field "stream_hint"):
# "evict_first" marks its lines first to go from the L2, so that the
# stream, read once per call, does not push out the small operand that
# every CTA reads again.
STREAM_HINTS = ("none", "evict_first")


def stream_policy(b, hint):
    """%qpol: the L2 cache policy of `hint` (created once; a no-op for
    "none"). Returns the suffix and the extra operand of TMA_LOAD_2D."""
    if hint == "none":
        return "", ""
    b.reg("b64", "%qpol")
    b.ins("createpolicy.fractional.L2::%s.b64 %%qpol, 1.0" % hint)
    return ".L2::cache_hint", ", %qpol"


def declare_regs(b):
    """The registers of the frame: operands, thread ids, the tile walk, the
    stage ring (%qs, %qph, %qkt, %qprev, %qfull, %qempty, %qdst) and the
    temporaries %qt0..7. The kernels declare theirs after these."""
    R = b.reg
    R("b64", "%qgA"), R("b64", "%qgB"), R("b64", "%qgC"), R("b64", "%qmapA"), R("b64", "%qmapB")
    R("b32", "%qsmem"), R("b32", "%qtid"), R("b32", "%qlane"), R("b32", "%qwarp"), R("b32", "%qwg")
    R("b32", "%qtile"), R("b32", "%qtm"), R("b32", "%qtn"), R("b32", "%qm0"), R("b32", "%qn0")
    R("b32", "%qt", 8), R("b32", "%qs"), R("b32", "%qph"), R("b32", "%qkt"), R("b32", "%qprev")
    R("b32", "%qfull"), R("b32", "%qempty"), R("b32", "%qdst")


def load_operands(b, smem_operand):
    """A, B, C and their tensor maps ($0..$4); the shared window is operand
    `smem_operand` (the last)."""
    b.ins("mov.b64 %qgA, $0")
    b.ins("mov.b64 %qgB, $1")
    b.ins("mov.b64 %qgC, $2")
    b.ins("mov.b64 %qmapA, $3")
    b.ins("mov.b64 %qmapB, $4")
    b.ins("mov.u32 %%qsmem, $%d" % smem_operand)


def thread_ids(b, bar, stages):
    """Thread, lane, warp and warpgroup; the full[0] and empty[0] barriers at
    byte `bar` of the window (stages full barriers, then stages empty ones)."""
    b.ins("mov.u32 %qtid, %tid.x")
    b.ins("and.b32 %qlane, %qtid, 31")
    b.ins("shr.u32 %qwarp, %qtid, 5")
    b.ins("shr.u32 %qwg, %qtid, 7")
    b.ins("add.u32 %%qfull, %%qsmem, %d" % bar)               # full[0]
    b.ins("add.u32 %%qempty, %%qsmem, %d" % (bar + 8 * stages))  # empty[0]


def init_barriers(b, stages, empty_count, extra=()):
    """Thread 0 initialises the ring's barriers (a full barrier completes on
    the producer's arrival and the TMA bytes, an empty one on `empty_count`
    consumer arrivals) and the (window offset, count) barriers of `extra`."""
    init_done = b.new_label("init_done")
    b.ins("setp.ne.u32 %qp0, %qtid, 0")
    b.ins("@%qp0 bra " + init_done)
    for s in range(stages):
        b.ins("mbarrier.init.shared::cta.b64 [%%qfull+%d], 1" % (8 * s))
        b.ins("mbarrier.init.shared::cta.b64 [%%qempty+%d], %d" % (8 * s, empty_count))
    for offset, count in extra:
        b.ins("mbarrier.init.shared::cta.b64 [%%qsmem+%d], %d" % (offset, count))
    b.ins("fence.mbarrier_init.release.cluster")
    b.label(init_done)


def split_roles(b):
    """Warpgroup 0 falls through to the producer; the others branch to the
    returned consumer label. Returns (consumer, end)."""
    consumer = b.new_label("consumer")
    end = b.new_label("end")
    b.ins("setp.ne.u32 %qp0, %qwg, 0")
    b.ins("@%qp0 bra " + consumer)
    return consumer, end


def walk_start(b, first_tile):
    """The tile walk starts at `first_tile` (%ctaid.x or %clusterid.x) with
    stage 0 of phase 0."""
    b.ins("mov.u32 %%qtile, %s" % first_tile)
    b.ins("mov.u32 %qs, 0")
    b.ins("mov.u32 %qph, 0")


def producer_start(b, end, first_tile):
    """The producer warpgroup gives registers back and all but thread 0 leave.
    Returns the labels (tile, k step, empty-barrier wait) of its loops."""
    b.comment("producer: warpgroup 0 gives registers back; thread 0 issues TMA")
    b.ins("setmaxnreg.dec.sync.aligned.u32 40")
    b.ins("setp.ne.u32 %qp0, %qtid, 0")
    b.ins("@%qp0 bra " + end)
    walk_start(b, first_tile)
    return b.new_label("ptile"), b.new_label("pk"), b.new_label("pwait")


def tile_start(b, label, ntiles, done, tiles_m, tiles_n, group_m, bm, bn, first_kt="0",
               coords=None):
    """At `label`: leave to `done` past the last tile, else this tile's
    origin (%qm0, %qn0) in grouped order (`coords` may move %qtm/%qtn
    first) and the first k tile in %qkt."""
    b.label(label)
    b.ins("setp.ge.u32 %%qp1, %%qtile, %d" % ntiles)
    b.ins("@%qp1 bra " + done)
    grouped_tile(b, "%qtile", tiles_m, tiles_n, group_m, "%qtm", "%qtn", "%qt")
    if coords:
        coords()
    b.ins("mul.lo.u32 %%qm0, %%qtm, %d" % bm)
    b.ins("mul.lo.u32 %%qn0, %%qtn, %d" % bn)
    b.ins("mov.u32 %%qkt, %s" % first_kt)


def producer_acquire(b, label, wait, stage_bytes, k_shift, tx_bytes=None):
    """At `label` (one k step): wait until stage %qs is empty, expect its
    bytes (`tx_bytes` where the loads fill less than the stage) on its full
    barrier (%qt3), %qdst = the stage's address and %qt4 = k0 = %qkt <<
    k_shift."""
    b.label(label)
    b.ins("shl.b32 %qt0, %qs, 3")
    b.ins("add.u32 %qt1, %qempty, %qt0")
    b.ins("xor.b32 %qt2, %qph, 1")
    b.label(wait)
    b.ins("mbarrier.try_wait.parity.shared::cta.b64 %qp2, [%qt1], %qt2")
    b.ins("@!%qp2 bra " + wait)
    b.ins("add.u32 %qt3, %qfull, %qt0")
    b.ins("mbarrier.arrive.expect_tx.shared::cta.b64 %%qstate, [%%qt3], %d"
          % (stage_bytes if tx_bytes is None else tx_bytes))
    b.ins("mul.lo.u32 %%qdst, %%qs, %d" % stage_bytes)
    b.ins("add.u32 %qdst, %qdst, %qsmem")
    b.ins("shl.b32 %%qt4, %%qkt, %d" % k_shift)


def advance_stage(b, stages):
    """The next stage of the ring (flipping the phase on wrapping) and the
    next k tile."""
    b.ins("add.u32 %qs, %qs, 1")
    b.ins("setp.eq.u32 %%qp3, %%qs, %d" % stages)
    b.ins("@%qp3 mov.u32 %qs, 0")
    b.ins("@%qp3 xor.b32 %qph, %qph, 1")
    b.ins("add.u32 %qkt, %qkt, 1")


def loop_k(b, k_end, label):
    """Back to `label` while %qkt < k_end (a register or a number)."""
    b.ins("setp.lt.u32 %%qp3, %%qkt, %s" % k_end)
    b.ins("@%qp3 bra " + label)


def next_tile(b, clusters, label):
    """The next tile of this CTA (of its cluster when `clusters`): one grid
    further; back to `label`."""
    b.ins("mov.u32 %%qt0, %s" % ("%nclusterid.x" if clusters else "%nctaid.x"))
    b.ins("add.u32 %qtile, %qtile, %qt0")
    b.ins("bra " + label)


def consumer_start(b, label, comment, regs, acc_regs):
    """A consumer warpgroup takes `regs` registers per thread, zeroes its
    accumulators and its consumer index goes to %qt7."""
    b.label(label)
    b.comment(comment)
    b.ins("setmaxnreg.inc.sync.aligned.u32 %d" % regs)
    for i in range(acc_regs):
        b.ins("mov.f32 %%qacc%d, 0f00000000" % i)
    b.ins("sub.u32 %qt7, %qwg, 1")                         # consumer index


def consumer_wait(b, wait, stage_bytes):
    """Wait (at `wait`) until stage %qs is full; %qt2 = its address."""
    b.ins("shl.b32 %qt0, %qs, 3")
    b.ins("add.u32 %qt1, %qfull, %qt0")
    b.label(wait)
    b.ins("mbarrier.try_wait.parity.shared::cta.b64 %qp2, [%qt1], %qph")
    b.ins("@!%qp2 bra " + wait)
    b.ins("mul.lo.u32 %%qt2, %%qs, %d" % stage_bytes)
    b.ins("add.u32 %qt2, %qt2, %qsmem")


def release_stage(b, pred, cs):
    """A consumer warp frees the stage whose empty barrier is at %qt0: lane 0
    in this CTA or, in a cluster, lane r in the CTA of rank r (mapa gives
    that CTA's address of the same barrier; `pred` includes lane < cs).
    The arrival only says that the wgmma reads of the stage are done, so
    the default CTA-scope release suffices: a cluster-scope one costs a
    fence per k step."""
    if cs == 1:
        b.ins("@%s mbarrier.arrive.shared::cta.b64 %%qstate, [%%qt0]" % pred)
        return
    b.ins("mapa.shared::cluster.u32 %qt6, %qt0, %qlane")
    b.ins("@%s mbarrier.arrive.shared::cluster.b64 _, [%%qt6]" % pred)


def release_previous(b, pred, cs):
    """Frees stage %qprev (release_stage)."""
    b.ins("shl.b32 %qt0, %qprev, 3")
    b.ins("add.u32 %qt0, %qempty, %qt0")
    release_stage(b, pred, cs)


def commit_and_release(b, cs, stages):
    """After a k tile's wgmmas: commit them, wait for the previous group,
    free the stage it read (not before the first k tile: %qp5; lane
    predicate %qp4) and step the ring."""
    b.ins("wgmma.commit_group.sync.aligned")
    b.ins("wgmma.wait_group.sync.aligned 1")
    # the group of the previous k-tile has completed: release its stage
    b.ins("and.pred %qp6, %qp5, %qp4")
    release_previous(b, "%qp6", cs)
    b.ins("mov.u32 %qprev, %qs")
    advance_stage(b, stages)


def drain(b, cs):
    """After a tile's last k tile: wait for all wgmmas, free the last stage."""
    b.ins("wgmma.wait_group.sync.aligned 0")
    release_previous(b, "%qp4", cs)


def desc_hi(b):
    """%qdh: the high word of a shared-memory matrix descriptor of 128-byte
    swizzled rows: SBO = 1024 B (8 rows of 128 B), swizzle mode 1 (bits
    62-63)."""
    b.ins("mov.u32 %%qdh, %d" % ((1024 >> 4) | (1 << 30)))


def desc_lo(b, dst, addr, lbo):
    """`dst`: the low word of a descriptor of the tile at shared address
    `addr`: address bits 4-17 (the field has 14 bits; in a cluster launch
    the shared addresses of CTA rank r > 0 carry the rank in high bits,
    which would otherwise spill into the LBO field) and the leading byte
    offset field `lbo` (bits 16-29)."""
    b.ins("shr.u32 %s, %s, 4" % (dst, addr))
    b.ins("and.b32 %s, %s, 16383" % (dst, dst))
    b.ins("or.b32 %s, %s, %d" % (dst, dst, lbo))


def tensor_map_param(name, tensor, dtype, dims, stride_bytes, box, swizzle=128):
    """A tiled, swizzled tensor map parameter of the answer (128-byte
    swizzle unless `swizzle` says 64 or 32)."""
    return {"name": name, "kind": "tensormap", "tensor": tensor, "dtype": dtype,
            "dims": dims, "strides_bytes": [stride_bytes], "box": box, "swizzle": swizzle}
