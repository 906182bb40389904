"""Split-K of the bf16/f16 wgmma kernels: the schedule and the
deterministic reduction through distributed shared memory.

nvidia_gemm_wgmma.py (plain and narrow tiles) and
tensorop_emit/nvidia_wgmma_fewrows.py (few rows, C^T = B^T A^T) run a
split_k sketch on clusters of split_k CTAs with a Stream-K-like schedule
(splitk_schedule): whole waves of tiles data-parallel, the last partial
wave's tiles split, rank r of the cluster running the r-th of split_k
equal ranges of K. The partial tiles are reduced as a reduce-scatter:
every rank writes its fp32 accumulators into its own shared memory
(splitk_publish), then each rank adds its share of the accumulators of all
ranks' partials in rank order (splitk_sum_chunks: the same bits whatever
the timing; no workspace, no atomics) and stores them. The kernels differ
only in which accumulators make a rank's share (splitk_groups: columns of
the plain tile; splitk_rank_chunks: pairs dealt round-robin, for kernels
that store element by element). The helpers use the register names of
wgmma_common.declare_regs and declare_splitk_regs.
"""

from .nvidia_ptx import ceil_div


def declare_splitk_regs(b, sk):
    """The registers of split-K: the rank, the work item and its k range,
    the reduction's phases, sums and peer addresses."""
    R = b.reg
    R("b32", "%qrank"), R("b32", "%qkb"), R("b32", "%qke"), R("b32", "%qskp")
    R("b32", "%qw"), R("b32", "%qsplit")
    R("b32", "%qskf"), R("f32", "%qsk", 4), R("f32", "%qsl", 4), R("b32", "%qska", sk)


def splitk_schedule(ntiles, ncl, sk):
    """Split-K's schedule of `ntiles` tiles on `ncl` clusters of `sk` CTAs:
    (dp_tiles, split_tiles). The first dp_tiles tiles run data-parallel,
    sk per work item (rank r of the cluster takes tile sk * item + r); the
    last split_tiles tiles are split across the ranks, one per cluster, so
    that a cluster's split tile is its last item. All tiles are split when
    there are at most ncl; else the whole waves of ncl * sk tiles run
    data-parallel and the rest is split when it has at most one tile per
    cluster (more would take longer split than whole)."""
    if ntiles <= ncl:
        return 0, ntiles
    rest = ntiles % (ncl * sk)
    if 0 < rest <= ncl:
        return ntiles - rest, rest
    return ntiles, 0


def splitk_item(b, sk, kt_total, dp_items, dp_tiles):
    """Split-K: the work item %qw of this cluster. Items below dp_items are
    data-parallel: this CTA's tile is sk * item + rank with all k-tiles;
    the others are split: tile dp_tiles + item - dp_items, k-tiles %qkb ..
    %qke - 1, the rank's share of sk equal ranges. %qsplit: 1 for a split
    item."""
    per = ceil_div(kt_total, sk)
    b.ins("setp.lt.u32 %%qp1, %%qw, %d" % dp_items)
    b.ins("selp.u32 %qsplit, 0, 1, %qp1")
    b.ins("mad.lo.u32 %%qt0, %%qw, %d, %%qrank" % sk)
    b.ins("add.u32 %%qt1, %%qw, %d" % (dp_tiles - dp_items))
    b.ins("selp.u32 %qtile, %qt0, %qt1, %qp1")
    b.ins("mul.lo.u32 %%qkb, %%qrank, %d" % per)
    b.ins("add.u32 %%qke, %%qkb, %d" % per)
    b.ins("min.u32 %%qke, %%qke, %d" % kt_total)
    b.ins("selp.u32 %qkb, 0, %qkb, %qp1")
    b.ins("selp.u32 %%qke, %d, %%qke, %%qp1" % kt_total)


def splitk_next(b, label):
    """The cluster's next work item: one grid of clusters further."""
    b.ins("mov.u32 %qt0, %nclusterid.x")
    b.ins("add.u32 %qw, %qw, %qt0")
    b.ins("bra " + label)


def splitk_groups(bn, sk, r):
    """The column groups (8 columns each) of the tile whose sums rank r of
    a split-K cluster of sk stores: the r-th of sk equal slices."""
    per = bn // 8 // sk
    return list(range(r * per, (r + 1) * per))


def splitk_narrow_share(bn, sk, r):
    """(group, half): the share rank r of a split-K cluster of sk stores
    when a narrow tile (block_n 16 or 32) splits in more ranks than its
    bn / 8 column groups, sk = 2 * bn / 8: the rows of group r / 2 (8
    columns) that its threads hold in accumulators 4 g + 2 h, h = r % 2
    (h 0: a thread's row, 1: the row 8 below; wgmma's m64 fragment). A
    split of 8 (block_n 32) or 4 (block_n 16) so reduces through
    distributed shared memory in v2 loads, rank order, like the column
    slices, and the store of a share is one column pair per thread and
    m64 block."""
    if sk != 2 * (bn // 8):
        raise ValueError("a narrow share needs split_k = 2 * block_n / 8 (got %d, %d)"
                         % (sk, bn))
    return r // 2, r % 2


def splitk_publish(b, sk, acc_regs, ct, part, skbar):
    """Split-K, first half: every rank writes its fp32 partial tile into its
    OWN shared memory at window offset `part` (after its peers have read
    the previous one: the "free" barrier at skbar + 8) and tells every rank
    of the cluster (the "full" barriers at skbar), then waits until all sk
    partials of this tile are written. Slot layout: [i / 4][consumer
    thread][4], so that a thread finds its own accumulators at the same
    place in every rank's tile; %qt6 is this thread's entry of group 0.
    The partial tile overlays the pipeline stages: the split tile is the
    cluster's last, so no load comes after it, and the consumer warpgroups
    meet at named barrier 3 first (one may still read the last stage with
    its wgmmas while another writes)."""
    b.comment("split-K: reduce-scatter of %d partial tiles through distributed shared memory"
              % sk)
    b.ins("bar.sync 3, %d" % ct)
    b.ins("sub.u32 %qt6, %qtid, 128")                        # consumer thread
    b.ins("shl.b32 %qt6, %qt6, 4")
    if part:
        b.ins("add.u32 %%qt6, %%qt6, %d" % part)
    b.ins("add.u32 %qt6, %qt6, %qsmem")
    wait_free = b.new_label("sk_free")
    b.label(wait_free)
    b.ins("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %%qp2, [%%qsmem+%d], %%qskf"
          % (skbar + 8))
    b.ins("@!%qp2 bra " + wait_free)
    b.ins("xor.b32 %qskf, %qskf, 1")
    for i in range(0, acc_regs, 4):
        regs = ", ".join("%%qacc%d" % (i + q) for q in range(4))
        b.ins("st.shared.v4.f32 [%%qt6+%d], {%s}" % (i // 4 * ct * 16, regs))
    # the warp's stores are ordered before lane q's cluster-scope release
    # on rank q's full barrier (count: sk ranks x consumer warps)
    splitk_arrive_all(b, sk, skbar)
    wait_full = b.new_label("sk_full")
    b.label(wait_full)
    b.ins("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %%qp2, [%%qsmem+%d], %%qskp"
          % skbar)
    b.ins("@!%qp2 bra " + wait_full)
    b.ins("xor.b32 %qskp, %qskp, 1")


def splitk_arrive_all(b, sk, offset):
    """Lane q of each consumer warp arrives (release, cluster scope) on the
    barrier at window offset `offset` of rank q, after a warp barrier that
    orders the other lanes' shared-memory accesses before it."""
    b.ins("bar.warp.sync -1")
    b.ins("setp.lt.u32 %%qp3, %%qlane, %d" % sk)
    b.ins("add.u32 %%qt5, %%qsmem, %d" % offset)
    b.ins("mapa.shared::cluster.u32 %qt5, %qt5, %qlane")
    b.ins("@%qp3 mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%qt5]")


def splitk_sum_slice(b, sk, r, mrep, acc_n, ct, skbar):
    """Split-K, second half, in rank r's branch of the plain kernel (m64
    blocks of acc_n accumulators, 4 per 8 columns): the sums of its slice
    of the tile's columns (splitk_groups), by splitk_sum_chunks."""
    splitk_sum_chunks(b, sk, r, [(rr * acc_n + 4 * g, 4) for rr in range(mrep)
                                 for g in splitk_groups(2 * acc_n, sk, r)], ct, skbar)


def splitk_rank_chunks(acc_regs, sk, r):
    """The accumulators rank r of a split-K cluster of sk sums and stores
    when any partition will do (the few-rows kernel stores element by
    element): pairs of accumulators (v2 loads; single ones where there are
    fewer pairs than ranks) dealt round-robin, so that every rank gets an
    equal share of C's rows and columns. (Runs of consecutive accumulators
    would give a rank whole groups of 8 rows of C^T's N extent, all past
    M at 13 rows in a block of 32.) Returns (first, width) chunks."""
    width = 2 if acc_regs // 2 >= sk else 1
    chunks = acc_regs // width
    if chunks % sk:
        raise ValueError("%d accumulators do not split in %d equal shares" % (acc_regs, sk))
    return [(c * width, width) for c in range(r, chunks, sk)]


def splitk_sum_chunks(b, sk, r, chunks, ct, skbar):
    """Split-K, second half, in rank r's branch: the sums of the
    accumulators of `chunks` ((first, width): width 1, 2 or 4 accumulators
    inside one slot group), partial 0 + partial 1 + .. in rank order
    whichever rank adds them (the same bits every run), read from each
    rank's shared memory (its own partial from its registers), left in
    this thread's accumulators; then the peers are told that their
    partials were read (their "free" barriers)."""
    vec = {1: "", 2: ".v2", 4: ".v4"}
    for q in range(sk):
        if q != r:
            b.ins("mapa.shared::cluster.u32 %%qska%d, %%qt6, %d" % (q, q))
    for first, width in chunks:
        acc = ["%%qacc%d" % (first + j) for j in range(width)]
        off = first // 4 * ct * 16 + first % 4 * 4
        ld = "ld.shared::cluster%s.f32 " % vec[width]

        def regs(names):
            return names[0] if width == 1 else "{%s}" % ", ".join(names)
        # partial 0: into the sums (rank 0 keeps its own in place)
        sums = acc if r == 0 else ["%%qsk%d" % j for j in range(width)]
        if r != 0:
            b.ins(ld + "%s, [%%qska0+%d]" % (regs(sums), off))
        for q in range(1, sk):
            if q == r:
                vals = acc
            else:
                vals = ["%%qsl%d" % j for j in range(width)]
                b.ins(ld + "%s, [%%qska%d+%d]" % (regs(vals), q, off))
            for j in range(width):
                b.ins("add.f32 %s, %s, %s" % (sums[j], sums[j], vals[j]))
        if r != 0:
            for j in range(width):
                b.ins("mov.f32 %s, %s" % (acc[j], sums[j]))
    splitk_arrive_all(b, sk, skbar + 8)


# ---- split-K through a global workspace (narrow tiles, split_reduce "workspace")
#
# Clusters of at most 8 CTAs, of which the H200 holds 15 at once, leave a
# few-column GEMM of 10 64-row strips on 80 CTAs; a split whose ranks need
# not be co-resident fills ~132 SMs. Work unit u of ntiles * sk: tile
# u / sk, K slice u % sk (the r-th of sk equal ranges). Every unit writes
# its fp32 partial tile to the workspace, then arrives on its tile's
# counter; the unit that arrives last (whichever CTA that is) sums the sk
# partials of the tile in slice order (the same bits whatever the timing),
# resets the counter for the next launch and stores the tile, through the
# epilogue. Nobody waits for anybody: no residency is needed, any grid
# size is deadlock-free.


def splitk_ws_layout(ntiles, sk, acc_regs, ct, groups=1):
    """The workspace of a global split-K: (partial_bytes, counters_offset,
    total_bytes). Partial of unit u at u * partial_bytes, slot layout
    [acc / 4][consumer thread][4] f32 (v4 stores and loads, coalesced);
    then one u32 arrival counter per tile, and with `groups` > 1 one per
    group of slices of each tile after them (splitk_ws_fixup), which must
    be zero before the first launch and are zero again after every launch
    (the last arrival resets each)."""
    partial = acc_regs * ct * 4
    counters = ntiles * sk * partial
    ncount = ntiles * (1 + (groups if groups > 1 else 0))
    return partial, counters, counters + 16 * ceil_div(ncount, 4)


def splitk_ws_arrivals(sk, order, groups=1):
    """A model of the counter protocol for one tile over launches: `order`
    lists, per launch, the slices in their order of arrival. Returns, per
    launch, (the slice that sums, the order it adds the partials in, the
    counter after the launch). The kernel's rule: atom.add returns the old
    count; the arrival that sees sk - 1 is last, sums slices 0..sk-1 in
    that order, and stores 0. With `groups` > 1 (two levels): slice s
    arrives on its group's counter (s // (sk / groups)); the group's last
    arrival sums the group's slices in order into the group's first slot,
    then arrives on the tile's counter; the last of those sums the group
    slots in group order. The order returned is then a list of the groups'
    slice lists, and the counter the tile's (the group counters are
    checked to be 0 again)."""
    if groups <= 1:
        count, out = 0, []
        for arrivals in order:
            last = None
            for s in arrivals:
                old = count
                count += 1
                if old == sk - 1:
                    last = s
                    count = 0
            out.append((last, list(range(sk)), count))
        return out
    g = sk // groups
    gcount, count, out = [0] * groups, 0, []
    for arrivals in order:
        last = None
        for s in arrivals:
            gi = s // g
            old = gcount[gi]
            gcount[gi] += 1
            if old != g - 1:
                continue
            gcount[gi] = 0                    # the group's last resets it
            old = count
            count += 1
            if old == groups - 1:
                last = s
                count = 0
        assert gcount == [0] * groups
        out.append((last, [list(range(gi * g, gi * g + g)) for gi in range(groups)], count))
    return out


def splitk_ws_item(b, sk, kt_total):
    """Global split-K: the work unit %qw's tile (%qtile = %qw / sk) and k
    range %qkb .. %qke - 1 (slice %qslc = %qw % sk)."""
    per = ceil_div(kt_total, sk)
    b.ins("div.u32 %%qtile, %%qw, %d" % sk)
    b.ins("mul.lo.u32 %%qslc, %%qtile, %d" % sk)
    b.ins("sub.u32 %qslc, %qw, %qslc")
    b.ins("mul.lo.u32 %%qkb, %%qslc, %d" % per)
    b.ins("add.u32 %%qke, %%qkb, %d" % per)
    b.ins("min.u32 %%qke, %%qke, %d" % kt_total)


def _ws_arrive(b, ct, counter_addr, address, last_old, done):
    """Every consumer thread's workspace stores before one arrival for the
    CTA (gpu scope) on the counter at `counter_addr` (a b64 register the
    instructions `address` compute); the arrival that reads `last_old`
    resets the counter to 0 and goes on, all others branch to `done`."""
    # every thread's stores before the arrival (gpu scope), the consumer
    # threads meet, then one arrives for the CTA
    b.ins("fence.acq_rel.gpu")
    b.ins("bar.sync 3, %d" % ct)
    b.ins("setp.eq.u32 %qp2, %qtid, 128")
    for ins in address:
        b.ins(ins)
    b.ins("mov.u32 %qt5, 0")
    b.ins("@%%qp2 atom.acq_rel.gpu.global.add.u32 %%qt5, [%s], 1" % counter_addr)
    b.ins("setp.eq.u32 %%qp3, %%qt5, %d" % last_old)
    b.ins("and.pred %qp3, %qp3, %qp2")
    # the last arrival resets the counter: all have arrived, nobody touches
    # it again in this launch
    b.ins("@%%qp3 st.relaxed.gpu.global.u32 [%s], 0" % counter_addr)
    b.ins("bar.red.or.pred %qp3, 3, " + str(ct) + ", %qp3")
    b.ins("@!%qp3 bra " + done)
    b.ins("fence.acq_rel.gpu")


def _ws_sum(b, acc_regs, ct, count, stride):
    """The accumulators = the `count` partials at %qw64 + s * stride, added
    in order s = 0, 1, ..; L2 only (ld.global.cg: other SMs wrote them)."""
    for i in range(0, acc_regs, 4):
        accs = ["%%qacc%d" % (i + q) for q in range(4)]
        b.ins("ld.global.cg.v4.f32 {%s}, [%%qw64+%d]" % (", ".join(accs), i // 4 * ct * 16))
        for s in range(1, count):
            b.ins("ld.global.cg.v4.f32 {%%qsk0, %%qsk1, %%qsk2, %%qsk3}, [%%qw64+%d]"
                  % (s * stride + i // 4 * ct * 16))
            for q in range(4):
                b.ins("add.f32 %s, %s, %%qsk%d" % (accs[q], accs[q], q))


def splitk_ws_fixup(b, sk, acc_regs, ct, partial, counters, done, ntiles=None, groups=1):
    """Global split-K after a unit's k-loop (consumer threads, %qtid 128 ..
    128 + ct - 1): write the partial tile, arrive on the tile's counter;
    all but the last arrival branch to `done`; the last sums the sk
    partials in slice order into the accumulators (and resets the
    counter), then falls through to the store.

    With `groups` > 1 (it divides sk; `ntiles` tiles): two levels, so that
    no unit sums more than max(sk / groups, groups) partials one after the
    other. A unit arrives on its group's counter (slice // (sk / groups),
    after the tile counters); the group's last arrival sums the group's
    partials in slice order, stores that sum over the group's first slot
    (only it reads the group's slots) and arrives on the tile's counter;
    the last of those sums the group slots in group order. The same bits
    whichever units are last."""
    b.comment("split-K through the workspace: partial tile, arrival, last one sums in "
              "slice order" + (" (two levels: %d groups)" % groups if groups > 1 else ""))
    b.ins("sub.u32 %qt6, %qtid, 128")                          # consumer thread
    b.ins("mul.wide.u32 %%qwsa, %%qt6, 16")
    b.ins("add.s64 %qwsa, %qwsa, %qwsp")                       # this thread's slot, unit 0
    b.ins("mul.wide.u32 %%qw64, %%qw, %d" % partial)
    b.ins("add.s64 %qw64, %qw64, %qwsa")
    for i in range(0, acc_regs, 4):
        regs = ", ".join("%%qacc%d" % (i + q) for q in range(4))
        b.ins("st.global.v4.f32 [%%qw64+%d], {%s}" % (i // 4 * ct * 16, regs))
    if groups > 1:
        g = sk // groups
        # the group's counter: after the ntiles tile counters, tile-major
        _ws_arrive(b, ct, "%qcrow", ["div.u32 %%qt6, %%qslc, %d" % g,   # group
                                     "mad.lo.u32 %%qt6, %%qtile, %d, %%qt6" % groups,
                                     "mul.wide.u32 %qcrow, %qt6, 4",
                                     "add.s64 %qcrow, %qcrow, %qwsp",
                                     "add.s64 %%qcrow, %%qcrow, %d" % (counters + 4 * ntiles)],
                   g - 1, done)
        # the group's first slot: unit qw - slice % g
        b.ins("rem.u32 %%qt6, %%qslc, %d" % g)
        b.ins("sub.u32 %qt6, %qw, %qt6")
        b.ins("mul.wide.u32 %%qcrow, %%qt6, %d" % partial)
        b.ins("add.s64 %qw64, %qcrow, %qwsa")
        _ws_sum(b, acc_regs, ct, g, partial)
        for i in range(0, acc_regs, 4):
            regs = ", ".join("%%qacc%d" % (i + q) for q in range(4))
            b.ins("st.global.v4.f32 [%%qw64+%d], {%s}" % (i // 4 * ct * 16, regs))
    _ws_arrive(b, ct, "%qw64", ["mul.wide.u32 %qw64, %qtile, 4",
                                "add.s64 %qw64, %qw64, %qwsp",
                                "add.s64 %%qw64, %%qw64, %d" % counters],
               (groups if groups > 1 else sk) - 1, done)
    # partial 0 + partial 1 + .. in slice order (this unit's own too, from
    # the workspace: the same sums whichever unit adds them); with groups,
    # the groups' first slots in group order
    b.ins("mul.wide.u32 %%qw64, %%qtile, %d" % (sk * partial))
    b.ins("add.s64 %qw64, %qw64, %qwsa")
    if groups > 1:
        _ws_sum(b, acc_regs, ct, groups, (sk // groups) * partial)
    else:
        _ws_sum(b, acc_regs, ct, sk, partial)
