"""Tests of the GEMV kernel (nvidia_gemv.py) and of the wgmma kernels'
split-K (spec field split_k; tensorop_emit/wgmma_splitk.py): the plain and
narrow tiles of nvidia_gemm_wgmma.py and the few-rows kernel
(tensorop_emit/nvidia_wgmma_fewrows.py).

The GEMV kernel runs in the PTX interpreter (test/GPU/ptx_sim.py) on tiny
shapes that take every path: a row block past M, columns past N, a tail
iteration of k-lanes, a half chunk (block_k = 16, K = 8 mod 16), 16-bit
outputs and accumulation.  Its k-lane sums are added in a fixed tree order,
so the results are exact on small integers.

Split-K needs thread-block clusters and distributed shared memory, which the
interpreter does not model: its reduction is checked on the PTX instead, by
a model that follows rank 0's loads of the peers' partial tiles and its adds
(every accumulator gets slot 0, 1, .. in that order, from the place the
peer of that rank stored the same accumulator), and by ptxas (ptxas.test);
the numbers are checked on the GPU (gpu_bench.py, bench/gpu/stage-splitk.sh).
"""

import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from test_nvidia_emitters import answer, run_emitter, simulate  # noqa: E402


class GemvTests(unittest.TestCase):
    def check(self, spec):
        self.assertEqual(simulate("nvidia_gemv", spec), 0, str(spec))

    def test_rows_past_m_columns_past_n_tail(self):
        # 3 rows in blocks of 2, N = 40 in strips of 32, 9 chunks on 16 k-lanes
        self.check({"m": 3, "n": 40, "k": 72, "a_dtype": "bf16", "c_dtype": "bf16",
                    "block_m": 2, "block_n": 32, "warps": 4})

    def test_half_chunk_accumulate_f16(self):
        self.check({"m": 5, "n": 16, "k": 40, "a_dtype": "f16", "c_dtype": "f32",
                    "block_m": 4, "block_n": 16, "block_k": 16, "warps": 4,
                    "accumulate": True})

    def test_f32_rows_past_m_columns_past_n_tail(self):
        # f32: 4 columns per 16-byte load; 3 rows in blocks of 2, N = 40 in
        # strips of 32 (a group past N), 9 chunks on 32 k-lanes (tail)
        self.check({"m": 3, "n": 40, "k": 72, "a_dtype": "f32", "c_dtype": "f32",
                    "block_m": 2, "block_n": 32, "warps": 4})

    def test_tf32_half_chunk_accumulate(self):
        # tf32 runs the same fp32 FMAs; block_k = 16 with K = 8 mod 16
        self.check({"m": 5, "n": 24, "k": 40, "a_dtype": "tf32", "c_dtype": "f32",
                    "block_m": 4, "block_n": 16, "block_k": 16, "warps": 4,
                    "accumulate": True})

    def test_f32_exact_beyond_tf32(self):
        # Values with more than tf32's 11 significant bits: the kernel's
        # full fp32 FMAs keep them (a tf32 kernel would round 2049 to 2048).
        import ptx_sim as S
        spec = {"m": 1, "n": 16, "k": 8, "a_dtype": "tf32", "c_dtype": "f32",
                "block_m": 1, "block_n": 16, "warps": 4}
        ans = answer("nvidia_gemv", spec)
        self.assertIn("full fp32", ans["math"])
        mem = S.Memory()
        a = b"".join(S.f32_bits(2049.0 if i == 0 else 0.0).to_bytes(4, "little")
                     for i in range(8))
        bm = b"".join(S.f32_bits(1.0 if r == 0 else 0.0).to_bytes(4, "little")
                      for r in range(8) for _ in range(16))
        pa, pb = mem.alloc(bytearray(a)), mem.alloc(bytearray(bm))
        pc = mem.alloc(bytearray(16 * 4))
        S.run_kernel(ans, mem, [pa, pb, pc])
        self.assertEqual([S.bits_f32(mem.read(pc + 4 * j, 4)) for j in range(16)],
                         [2049.0] * 16)

    def test_refusals(self):
        for spec, field in (({"m": 17, "n": 64, "k": 64, "a_dtype": "bf16"}, "m"),
                            ({"m": 1, "n": 64, "k": 60, "a_dtype": "bf16"}, "k"),
                            ({"m": 1, "n": 64, "k": 64, "a_dtype": "f32", "c_dtype": "bf16"},
                             "c_dtype"),
                            ({"m": 1, "n": 64, "k": 64, "a_dtype": "bf16", "block_n": 48},
                             "block_n"),
                            ({"m": 1, "n": 64, "k": 64, "a_dtype": "bf16", "warps": 2},
                             "warps")):
            r = run_emitter("nvidia_gemv", spec)
            self.assertNotEqual(r.returncode, 0, spec)
            self.assertIn(field, r.stderr)

    def test_deterministic_tree(self):
        # 8 warps of 4 column groups: 64 k-lanes, 6 tree levels with a
        # barrier before each and one before the store
        ans = answer("nvidia_gemv", {"m": 1, "n": 4096, "k": 4096, "a_dtype": "bf16",
                                     "block_n": 32, "warps": 8})
        self.assertEqual(ans["tile"]["k_lanes"], 64)
        self.assertEqual(ans["asm"].count("bar.sync 0"), 7)
        self.assertEqual(ans["grid"], [128, 1, 1])


def reduction_model(asm, sk, acc_regs, consumer_threads):
    """Follows the reduce-scatter symbolically: every rank's publish of its
    partial tile into its own shared memory, then, in the branch of each
    rank r, the loads of the ranks' partials (which rank: the mapa of the
    address register; which accumulator: the offset) and the adds. Returns,
    per rank, {accumulator: [(rank, accumulator), ..] in the order added}
    for the accumulators the branch stores, and the set it stores."""
    group_bytes = consumer_threads * 16
    # publish: accumulators i .. i+3 at [i / 4][thread][4] of the own tile
    pub = re.findall(r"st\.shared\.v4\.f32 \[%qt6\+(\d+)\], \{%qacc(\d+),", asm)
    assert len(pub) == acc_regs // 4, len(pub)
    for off, first in pub:
        assert int(off) == int(first) // 4 * group_bytes
    labels = [m.start() for m in re.finditer(r"^Lq_sk_rank\d+_\d+:", asm, re.M)]
    assert len(labels) == sk, labels
    end = re.search(r"^Lq_cnext_\d+:", asm, re.M).start()
    result = []
    for r in range(sk):
        seg = asm[labels[r]:labels[r + 1] if r + 1 < sk else end]
        val = {"%%qacc%d" % i: [(r, i)] for i in range(acc_regs)}
        rank_of = {}
        stored = set()
        sums_done = False
        for line in seg.splitlines():
            m = re.search(r"mapa\.shared::cluster\.u32 (%qska\d+), %qt6, (\d+)", line)
            if m:
                rank_of[m.group(1)] = int(m.group(2))
                continue
            # v4, v2 or scalar loads: accumulator 4 * group + (offset in the
            # group) / 4 + q
            m = re.search(r"ld\.shared::cluster(?:\.v[24])?\.f32 \{?([^}\[]*?)\}?, "
                          r"\[(%qska\d+)\+(\d+)\]", line)
            if m:
                group, within = divmod(int(m.group(3)), group_bytes)
                assert within % 4 == 0 and within < 16, line
                for q, reg in enumerate(x.strip() for x in m.group(1).split(",")):
                    val[reg] = [(rank_of[m.group(2)], 4 * group + within // 4 + q)]
                continue
            m = re.search(r"^\s*add\.f32 (%q\w+), (%q\w+), (%q\w+)", line)
            if m and not sums_done:
                assert m.group(1) == m.group(2)
                val[m.group(1)] = val[m.group(2)] + val[m.group(3)]
                continue
            m = re.search(r"^\s*mov\.f32 (%qacc\d+), (%qsk\d)", line)
            if m:
                val[m.group(1)] = val[m.group(2)]
                continue
            if "mbarrier.arrive" in line:
                sums_done = True          # the free barriers: the sums are final
            if sums_done:
                stored.update(int(x) for x in re.findall(r"%qacc(\d+)", line))
        result.append(({i: val["%%qacc%d" % i] for i in stored}, stored))
    return result


def schedule_model(asm, grid, sk, tiles, kt_total):
    """Runs the work-item walk of the split-K kernel read off its PTX
    (splitk_item: the item count, the data-parallel item count, the tile of
    a data-parallel and of a split item, each rank's k range) for every CTA
    of a grid of `grid` CTAs in clusters of `sk`. Returns {cta: [(tile,
    k_begin, k_end, split)]} in walk order; tiles past the last are
    skipped as the kernel does."""
    def num(pattern):
        found = set(re.findall(pattern, asm))
        assert len(found) == 1, (pattern, found)
        return int(found.pop())
    items = num(r"setp\.ge\.u32 %qp1, %qw, (\d+)")
    dp_items = num(r"setp\.lt\.u32 %qp1, %qw, (\d+)")
    assert num(r"mad\.lo\.u32 %qt0, %qw, (\d+), %qrank") == sk
    offset = num(r"add\.u32 %qt1, %qw, (-?\d+)")
    per = num(r"mul\.lo\.u32 %qkb, %qrank, (\d+)")
    assert num(r"min\.u32 %qke, %qke, (\d+)") == kt_total
    assert num(r"selp\.u32 %qke, (\d+), %qke, %qp1") == kt_total
    assert num(r"selp\.u32 %qkb, (\d+), %qkb, %qp1") == 0      # data-parallel: from 0
    assert num(r"selp\.u32 %qsplit, (\d+), 1, %qp1") == 0
    assert num(r"setp\.ge\.u32 %qp1, %qtile, (\d+)") == tiles
    clusters = grid // sk
    walk = {}
    for cta in range(grid):
        cluster, rank = divmod(cta, sk)
        w, out = cluster, []
        while w < items:
            if w < dp_items:
                tile, kb, ke, split = sk * w + rank, 0, kt_total, False
            else:
                tile, kb, split = w + offset, rank * per, True
                ke = min(kb + per, kt_total)
            if tile < tiles:
                out.append((tile, kb, ke, split))
            w += clusters
        walk[cta] = out
    return walk


class SplitKTests(unittest.TestCase):
    BASE = {"m": 1000, "n": 1000, "k": 1000, "a_dtype": "f16", "c_dtype": "f32"}

    def test_reduction_order_and_layout(self):
        for extra, acc_regs, ct in (({"block_m": 128, "block_n": 128, "stages": 3,
                                      "split_k": 2}, 64, 256),
                                     ({"block_m": 64, "block_n": 64, "consumers": 1,
                                       "stages": 4, "split_k": 4}, 32, 128),
                                     ({"block_m": 128, "block_n": 192, "stages": 3,
                                       "split_k": 4}, 96, 256),
                                     ({"block_m": 64, "block_n": 128, "consumers": 1,
                                       "stages": 4, "split_k": 4, "accumulate": True,
                                       "epilogue": ["bias_n", "relu"]}, 64, 128)):
            spec = dict(self.BASE, **extra)
            ans = answer("nvidia_gemm_wgmma", spec)
            sk = extra["split_k"]
            self.assertEqual(ans["cluster"], [sk, 1, 1])
            self.assertEqual(ans["grid"][0] % sk, 0)
            ranks = reduction_model(ans["asm"], sk, acc_regs, ct)
            seen = set()
            for r, (order, stored) in enumerate(ranks):
                # each rank stores its own slice of the tile: disjoint, and
                # together every accumulator exactly once
                self.assertTrue(stored, "rank %d stores nothing" % r)
                self.assertFalse(stored & seen, "rank %d stores a column twice" % r)
                seen |= stored
                for i, terms in order.items():
                    self.assertEqual(terms, [(q, i) for q in range(sk)],
                                     "rank %d, accumulator %d" % (r, i))
            self.assertEqual(seen, set(range(acc_regs)))
            # every CTA starts at its own k-tile range; scale-d off at its first
            self.assertIn("mul.lo.u32 %qkb, %qrank,", ans["asm"])
            self.assertIn("setp.ne.u32 %qp5, %qkt, %qkb", ans["asm"])

    def test_schedule(self):
        """Data-parallel waves, then the last partial wave split across the
        ranks of a cluster: every k-tile of every tile computed exactly
        once; a split tile by all ranks of one cluster, as its last item
        (its partial tile overlays the stages, which no later load may
        overwrite); data-parallel tiles whole."""
        for (m, n, k, bm, bn, nc, sk, sms, dp, split) in (
                (16, 4096, 14336, 64, 64, 1, 2, 132, 0, 64),       # all split
                (4096, 11008, 4096, 128, 256, 2, 2, 132, 1320, 56),  # tail of 56
                (2000, 3000, 1504, 128, 256, 2, 2, 132, 132, 60),
                (4096, 4096, 4096, 128, 256, 2, 2, 132, 512, 0),   # tail 116 > 66
                (1000, 1000, 1000, 64, 64, 1, 4, 132, 256, 0),    # 256 = 132 + 124 > 33
                (640, 1000, 1000, 64, 64, 1, 4, 132, 132, 28),    # 160 = 132 + 28
                (512, 2048, 2048, 128, 128, 2, 2, 132, 0, 64)):   # 64 <= 66: all split
            tiles = -(-m // bm) * -(-n // bn)
            kt = -(-k // 64)
            spec = {"m": m, "n": n, "k": k, "a_dtype": "bf16", "c_dtype": "bf16",
                    "block_m": bm, "block_n": bn, "consumers": nc, "split_k": sk,
                    "sms": sms, "stages": 4 if bm * bn > 8192 else 6}
            ans = answer("nvidia_gemm_wgmma", spec)
            sched = ans["schedule"]
            grid = ans["grid"][0]
            self.assertEqual((sched["data_parallel_tiles"], sched["split_tiles"]),
                             (dp, split), spec)
            walk = schedule_model(ans["asm"], grid, sk, tiles, kt)
            done = {}
            for cta, its in walk.items():
                for i, (tile, kb, ke, is_split) in enumerate(its):
                    if is_split:
                        self.assertEqual(i, len(its) - 1, "split item not last: %s" % spec)
                    else:
                        self.assertEqual((kb, ke), (0, kt))
                    for kk in range(kb, ke):
                        done.setdefault((tile, kk), []).append((cta // sk, is_split))
            self.assertEqual(set(done), {(t, kk) for t in range(tiles) for kk in range(kt)},
                             spec)
            for key, who in done.items():
                self.assertEqual(len(who), 1, "%s computed %d times: %s" % (key, len(who), spec))
            # a split tile belongs to one cluster, all of whose ranks take part
            owners = {}
            for (tile, kk), [(cluster, is_split)] in done.items():
                if is_split:
                    owners.setdefault(tile, set()).add(cluster)
            self.assertEqual(len(owners), split, spec)
            for tile, cl in owners.items():
                self.assertEqual(len(cl), 1, "tile %d split over clusters %s" % (tile, cl))
            if split:
                # the consumers meet before the partial tile overwrites the
                # stages; the partial starts at the window (stage 0)
                pub = ans["asm"].split("split-K: reduce-scatter")[1]
                self.assertLess(pub.index("bar.sync 3, %d" % (128 * nc)),
                                pub.index("st.shared.v4.f32"))
                self.assertNotRegex(pub.split("st.shared.v4.f32")[0],
                                    r"add\.u32 %qt6, %qt6, \d+")

    def test_split_with_smem_store(self):
        """Data-parallel tiles go through the smem_tma store, the split
        tiles' slices through the register store; the shared memory is the
        unsplit kernel's and two barriers (the partial tile overlays the
        stages)."""
        spec = {"m": 4096, "n": 11008, "k": 4096, "a_dtype": "bf16", "c_dtype": "bf16",
                "block_m": 128, "block_n": 256, "stages": 4, "store": "smem_tma"}
        plain = answer("nvidia_gemm_wgmma", spec)
        split = answer("nvidia_gemm_wgmma", dict(spec, split_k=2))
        self.assertEqual(split["shared_bytes"], plain["shared_bytes"] + 16)
        asm = split["asm"]
        self.assertEqual(asm.count("cp.async.bulk.tensor.2d.global.shared::cta"),
                         plain["asm"].count("cp.async.bulk.tensor.2d.global.shared::cta"))
        reduce = asm.index("split-K: reduce-scatter")
        dp_part, split_part = asm[asm.index("bra Lq_sk_split"):reduce], asm[reduce:]
        self.assertIn("cp.async.bulk.tensor.2d.global.shared::cta", dp_part)
        self.assertNotIn("cp.async.bulk.tensor.2d.global", split_part)
        self.assertIn("st.global", split_part)
        self.assertEqual(split["params"][-1]["name"], "tmapC")

    def test_few_rows_reduction(self):
        """The few-rows kernel (block_m 8, 16, 32: C^T = B^T A^T) splits
        its accumulators (block_m / 2 per m64 block of C^T) in sk equal
        runs: v4, v2 or scalar loads of the peers' partials, partial 0 +
        1 + .. in rank order, every accumulator summed and stored by
        exactly one rank, only its own; the CTAs start at their k-range."""
        for bm, bn, nc, sk in ((8, 64, 1, 2), (8, 64, 1, 4), (16, 64, 1, 2), (16, 64, 1, 4),
                               (16, 128, 2, 4), (32, 64, 1, 2), (32, 256, 2, 4)):
            spec = {"m": 13 if bm > 8 else 5, "n": 4096, "k": 4096, "a_dtype": "bf16",
                    "c_dtype": "bf16", "block_m": bm, "block_n": bn, "consumers": nc,
                    "stages": 6, "split_k": sk}
            ans = answer("nvidia_gemm_wgmma", spec)
            self.assertEqual(ans["cluster"], [sk, 1, 1], spec)
            acc_regs = bn // nc // 64 * bm // 2
            ranks = reduction_model(ans["asm"], sk, acc_regs, 128 * nc)
            seen = set()
            for r, (order, stored) in enumerate(ranks):
                self.assertTrue(stored, "rank %d stores nothing: %s" % (r, spec))
                self.assertFalse(stored & seen, "rank %d stores an element twice" % r)
                seen |= stored
                for i, terms in order.items():
                    self.assertEqual(terms, [(q, i) for q in range(sk)],
                                     "rank %d, accumulator %d: %s" % (r, i, spec))
            # accumulator rr * bm / 2 + 4 g + 2 h + j holds row 8 g + j (+ the
            # lane's): those of rows past M are not stored
            live = {i for i in range(acc_regs)
                    if 8 * (i % (bm // 2) // 4) + i % 2 < spec["m"]}
            self.assertEqual(seen, live, spec)
            self.assertIn("setp.ne.u32 %qp5, %qkt, %qkb", ans["asm"])
            self.assertIn("barrier.cluster.wait.acquire;", ans["asm"])   # leave together

    def test_few_rows_and_narrow_schedule(self):
        """The few-rows and the narrow kernels walk the same work items as
        the plain one: every k-tile of every tile once, a split tile by
        one cluster as its last item."""
        for m, n, k, bm, bn, nc, sk, dp, split in (
                (13, 4096, 4096, 16, 64, 1, 2, 0, 64),       # 64 strips: all split
                (13, 4096, 4096, 16, 128, 2, 4, 0, 32),      # 32 strips of 128 in 4
                (24, 4096, 1000, 32, 64, 1, 4, 64, 0),       # 64 > 33 clusters: none
                (5, 8192, 4096, 8, 64, 1, 2, 128, 0),        # 128 > 66: data-parallel
                (16, 8448, 4096, 16, 64, 1, 2, 132, 0),      # one whole wave
                (16, 11008, 4096, 16, 64, 1, 2, 132, 40),    # a wave, then 40 split
                (8192, 24, 8192, 128, 32, 2, 2, 0, 64),      # narrow: 64 strips of A
                (8192, 16, 4096, 64, 16, 1, 2, 128, 0),      # 128 > 66: data-parallel
                (640, 24, 32768, 64, 32, 1, 8, 0, 10),       # narrow split 8: 80 CTAs
                (2000, 24, 8192, 64, 32, 1, 8, 32, 0),       # 32 > 16 clusters
                (1536, 16, 12288, 64, 16, 1, 4, 0, 24)):     # block_n 16 split 4
            tiles = -(-m // bm) * -(-n // bn)
            kt = -(-k // 64)
            spec = {"m": m, "n": n, "k": k, "a_dtype": "f16", "c_dtype": "f16",
                    "block_m": bm, "block_n": bn, "consumers": nc, "split_k": sk,
                    "stages": 6}
            ans = answer("nvidia_gemm_wgmma", spec)
            sched = ans["schedule"]
            grid = ans["grid"][0]
            self.assertEqual(grid, min(tiles, 132 // sk) * sk, spec)
            walk = schedule_model(ans["asm"], grid, sk, tiles, kt)
            done = {}
            for cta, its in walk.items():
                for i, (tile, kb, ke, is_split) in enumerate(its):
                    if is_split:
                        self.assertEqual(i, len(its) - 1, "split item not last: %s" % spec)
                    for kk in range(kb, ke):
                        done.setdefault((tile, kk), []).append(cta // sk)
            self.assertEqual(set(done), {(t, kk) for t in range(tiles) for kk in range(kt)},
                             spec)
            for key, who in done.items():
                self.assertEqual(len(who), 1, "%s computed %d times: %s" % (key, len(who), spec))
            self.assertEqual((sched["data_parallel_tiles"], sched["split_tiles"]), (dp, split),
                             spec)
            split_tiles = {w[0] for its in walk.values() for w in its if w[3]}
            self.assertEqual(len(split_tiles), split, spec)

    def test_narrow_reduction(self):
        """Narrow tiles (block_n 16 or 32) split in 8-column groups: each
        rank a slice, rank-ordered sums; split in twice as many ranks as
        groups (8 at block_n 32, 4 at 16), rank r sums and stores group r / 2's
        row half r % 2 (accumulators 4 g + 2 h, + 1) of every m64 block."""
        for bm, bn, nc, sk, extra in (
                (128, 32, 2, 2, {}), (128, 32, 2, 4, {}), (64, 16, 1, 2, {}),
                (64, 32, 1, 8, {}), (128, 32, 2, 8, {}), (64, 16, 1, 4, {}),
                (64, 32, 1, 8, {"c_dtype": "f32", "accumulate": True,
                                "epilogue": ["bias_n", "relu"]})):
            spec = dict({"m": 8192, "n": 24, "k": 8192, "a_dtype": "f16", "c_dtype": "f16",
                         "block_m": bm, "block_n": bn, "consumers": nc, "stages": 8,
                         "split_k": sk}, **extra)
            ans = answer("nvidia_gemm_wgmma", spec)
            self.assertEqual(ans["cluster"], [sk, 1, 1], spec)
            acc_regs = bm // nc // 64 * bn // 2
            ranks = reduction_model(ans["asm"], sk, acc_regs, 128 * nc)
            seen = set()
            for r, (order, stored) in enumerate(ranks):
                self.assertFalse(stored & seen)
                seen |= stored
                for i, terms in order.items():
                    self.assertEqual(terms, [(q, i) for q in range(sk)])
                if sk > bn // 8:
                    g, h = divmod(r, 2)
                    self.assertEqual(stored, {4 * g + 2 * h + j for j in range(2)},
                                     "rank %d: %s" % (r, spec))
            self.assertEqual(seen, set(range(acc_regs)), spec)

    def test_workspace_split(self):
        """split_reduce "workspace": every unit (tile, slice) writes its
        whole partial tile to its own slot of the workspace, the arrival
        that sees sk - 1 on the tile's counter is the one that sums, it
        resets the counter, and it adds partials 0 .. sk-1 in slice order
        into every accumulator before the store."""
        for bm, bn, nc, sk, n, extra in (
                (64, 32, 1, 13, 24, {}), (64, 16, 1, 8, 8, {}), (128, 32, 2, 3, 24, {}),
                (64, 32, 1, 5, 24, {"c_dtype": "f32", "accumulate": True,
                                    "epilogue": ["bias_n", "relu"]})):
            spec = dict({"m": 640, "n": n, "k": 32768, "a_dtype": "bf16", "c_dtype": "bf16",
                         "block_m": bm, "block_n": bn, "consumers": nc, "stages": 8,
                         "split_k": sk, "split_reduce": "workspace"}, **extra)
            ans = answer("nvidia_gemm_wgmma", spec)
            self.assertNotIn("cluster", ans)
            ct, acc_regs = 128 * nc, bm // nc // 64 * bn // 2
            ntiles = -(-640 // bm)
            partial = acc_regs * ct * 4
            self.assertEqual(ans["grid"][0], min(ntiles * sk, 132))
            self.assertEqual(ans["params"][-1], {"name": "SK_ws", "kind": "ptr"})
            ws = ans["workspace"]
            self.assertEqual(ws["zero"][0], ntiles * sk * partial)
            self.assertGreaterEqual(ws["zero"][1], 4 * ntiles)
            self.assertEqual(ws["bytes"], ws["zero"][0] + ws["zero"][1])
            asm = ans["asm"]
            fix = asm[asm.index("split-K through the workspace"):]
            # the partial: all accumulators, one slot group per 4
            stores = re.findall(r"st\.global\.v4\.f32 \[%qw64\+(\d+)\], \{([^}]*)\}", fix)
            self.assertEqual([int(o) for o, _ in stores],
                             [i // 4 * ct * 16 for i in range(0, acc_regs, 4)])
            self.assertEqual([r for _, regs in stores for r in regs.split(", ")],
                             ["%%qacc%d" % i for i in range(acc_regs)])
            # the counter: the arrival protocol of the PTX over 3 launches
            # with different arrival orders
            last_if = int(re.search(r"setp\.eq\.u32 %qp3, %qt5, (\d+)", fix).group(1))
            reset = re.search(r"@%qp3 st\.relaxed\.gpu\.global\.u32 \[%qw64\], (\d+)", fix)
            self.assertIn("atom.acq_rel.gpu.global.add.u32 %qt5, [%qw64], 1", fix)
            self.assertIn("add.s64 %%qw64, %%qw64, %d" % ws["zero"][0], fix)
            count = 0
            for order in (list(range(sk)), list(reversed(range(sk))),
                          list(range(1, sk)) + [0]):
                lasts = []
                for s_ in order:
                    old, count = count, count + 1
                    if old == last_if:
                        lasts.append(s_)
                        if reset:
                            count = int(reset.group(1))
                self.assertEqual(lasts, [order[-1]], spec)
                self.assertEqual(count, 0, spec)
            # the sums: partial 0 loaded into the accumulators, then
            # partials 1 .. sk-1 in slice order added to them
            sums = fix[fix.index("bar.red.or.pred"):]
            loads = re.findall(r"ld\.global\.cg\.v4\.f32 \{([^}]*)\}, \[%qw64\+(\d+)\]", sums)
            self.assertEqual(len(loads), sk * acc_regs // 4)
            for i in range(0, acc_regs, 4):
                grp = loads[i // 4 * sk:(i // 4 + 1) * sk]
                self.assertEqual([int(o) for _, o in grp],
                                 [q * partial + i // 4 * ct * 16 for q in range(sk)], spec)
                self.assertEqual(grp[0][0], ", ".join("%%qacc%d" % (i + q) for q in range(4)))
            adds = re.findall(r"add\.f32 (%qacc\d+), %qacc\d+, %qsk\d", sums)
            self.assertEqual(len(adds), (sk - 1) * acc_regs)

    def test_workspace_two_levels(self):
        """ws_groups: the reduction in two levels, run symbolically from
        the PTX's own constants over several arrival orders: a slice
        arrives on its group's counter (slice / g, after the tile
        counters), the group's last sums the group's slots in order and
        stores over the group's first slot, then arrives on the tile's
        counter, whose last sums the group slots in order. Whatever the
        order: each slot term once, in slice order, one final summer, every
        counter back at 0."""
        for bm, bn, nc, sk, groups, extra in (
                (64, 32, 1, 24, 4, {}), (64, 32, 1, 24, 6, {}), (128, 16, 2, 6, 3, {}),
                (64, 32, 1, 8, 2, {"c_dtype": "f32", "epilogue": ["bias_n", "relu"]})):
            n = 24 if bn == 32 else 8
            spec = dict({"m": 640, "n": n, "k": 32768, "a_dtype": "bf16", "c_dtype": "bf16",
                         "block_m": bm, "block_n": bn, "consumers": nc, "stages": 8,
                         "split_k": sk, "split_reduce": "workspace", "ws_groups": groups},
                        **extra)
            ans = answer("nvidia_gemm_wgmma", spec)
            ct, acc_regs = 128 * nc, bm // nc // 64 * bn // 2
            ntiles = -(-640 // bm)
            partial = acc_regs * ct * 4
            g = sk // groups
            ws = ans["workspace"]
            counters = ws["zero"][0]
            self.assertEqual(counters, ntiles * sk * partial)
            self.assertGreaterEqual(ws["zero"][1], 4 * ntiles * (1 + groups))
            self.assertEqual(ans["tile"]["ws_groups"], groups)
            fix = ans["asm"][ans["asm"].index("split-K through the workspace"):]
            one, two = fix.split("bar.red.or.pred", 1)[0], fix.split("bar.red.or.pred")[1:]
            self.assertEqual(len(two), 2, spec)          # two arrivals
            mid, final = two[0], two[1]
            # level 1: the group counter's address and its last arrival
            div = int(re.search(r"div\.u32 %qt6, %qslc, (\d+)", one).group(1))
            mad = int(re.search(r"mad\.lo\.u32 %qt6, %qtile, (\d+), %qt6", one).group(1))
            goff = int(re.search(r"add\.s64 %qcrow, %qcrow, (\d+)", one).group(1))
            glast = int(re.search(r"setp\.eq\.u32 %qp3, %qt5, (\d+)", one).group(1))
            self.assertIn("@%qp3 st.relaxed.gpu.global.u32 [%qcrow], 0", one)
            # the group's first slot: unit - slice % rem
            rem = int(re.search(r"rem\.u32 %qt6, %qslc, (\d+)", mid).group(1))
            loads1 = re.findall(r"ld\.global\.cg\.v4\.f32 \{[^}]*\}, \[%qw64\+(\d+)\]", mid)
            stores1 = re.findall(r"st\.global\.v4\.f32 \[%qw64\+(\d+)\]", mid)
            tlast = int(re.search(r"setp\.eq\.u32 %qp3, %qt5, (\d+)", mid).group(1))
            toff = int(re.search(r"add\.s64 %qw64, %qw64, (\d+)", mid).group(1))
            self.assertIn("@%qp3 st.relaxed.gpu.global.u32 [%qw64], 0", mid)
            loads2 = re.findall(r"ld\.global\.cg\.v4\.f32 \{[^}]*\}, \[%qw64\+(\d+)\]", final)
            # the slot offsets per accumulator group of 4 (as the flat sum)
            nacc = acc_regs // 4
            self.assertEqual(len(loads1), nacc * div, spec)
            self.assertEqual(len(stores1), nacc, spec)
            self.assertEqual(len(loads2), nacc * (len(loads2) // nacc), spec)
            step1 = sorted({int(o) // partial for o in loads1})
            step2 = [int(o) // partial for o in loads2[:len(loads2) // nacc]]
            for tile in range(2):
                for order in (list(range(sk)), list(reversed(range(sk))),
                              [s for r in range(g) for s in range(r, sk, g)]):
                    # the workspace: slot -> the slice terms it holds
                    slot = {tile * sk + s: [s] for s in range(sk)}
                    cnt = {}
                    finals = []
                    for s in order:
                        u = tile * sk + s
                        gaddr = counters + 4 * (tile * mad + s // div) - counters + goff
                        old = cnt.get(gaddr, 0)
                        cnt[gaddr] = old + 1
                        if old != glast:
                            continue
                        cnt[gaddr] = 0
                        first = u - s % rem
                        total = []
                        for q in step1:
                            total += slot[first + q]
                        slot[first] = total
                        taddr = 4 * tile + toff
                        old = cnt.get(taddr, 0)
                        cnt[taddr] = old + 1
                        if old != tlast:
                            continue
                        cnt[taddr] = 0
                        total = []
                        for q in step2:
                            total += slot[tile * sk + q]
                        finals.append(total)
                    self.assertEqual(finals, [list(range(sk))], (spec, order))
                    self.assertTrue(all(v == 0 for v in cnt.values()), (spec, order))
                    # the group counters lie after the tile counters
                    self.assertTrue(all(a >= counters + 4 * ntiles for a in cnt if a != 4 * tile + toff))
            self.assertLess(max(cnt) + 4, counters + ws["zero"][1] + 1)

    def test_workspace_arrivals_model(self):
        """The counter model: one last arrival per launch whatever the
        order, the counter back to 0 after every launch."""
        from tensorop_emit.wgmma_splitk import splitk_ws_arrivals
        out = splitk_ws_arrivals(4, [[0, 1, 2, 3], [3, 1, 0, 2], [2, 3, 1, 0]])
        self.assertEqual(out, [(3, [0, 1, 2, 3], 0), (2, [0, 1, 2, 3], 0),
                               (0, [0, 1, 2, 3], 0)])

    def test_narrow_share_rows(self):
        """A rank's row half is the rows it stores: h 0 the thread's row
        (m0 + 16 warp + lane / 4), h 1 eight below; and only its group's
        column pair (n0 + 8 g + 2 (lane % 4))."""
        spec = {"m": 640, "n": 32, "k": 32768, "a_dtype": "bf16", "c_dtype": "bf16",
                "block_m": 64, "block_n": 32, "consumers": 1, "stages": 16, "split_k": 8}
        asm = answer("nvidia_gemm_wgmma", spec)["asm"]
        labels = [m.start() for m in re.finditer(r"^Lq_sk_rank\d+_\d+:", asm, re.M)]
        end = re.search(r"^Lq_cnext_\d+:", asm, re.M).start()
        for r in range(8):
            seg = asm[labels[r]:labels[r + 1] if r < 7 else end]
            g, h = divmod(r, 2)
            # one row (the register store: row offset 8 h) and one group
            self.assertEqual(re.findall(r"add\.u32 %qt2, %qt0, (\d+)", seg), [str(8 * h)], r)
            self.assertEqual(re.findall(r"add\.u32 %qt3, %qt1, (\d+)", seg), [str(8 * g)], r)
            self.assertEqual(seg.count("st.global"), 1, r)

    def test_no_split_is_the_plain_kernel(self):
        plain = answer("nvidia_gemm_wgmma", self.BASE)
        one = answer("nvidia_gemm_wgmma", dict(self.BASE, split_k=1))
        self.assertEqual(plain["asm"], one["asm"])
        self.assertNotIn("cluster", plain)

    def test_refusals(self):
        for extra, why in (({"split_k": 3}, "split_k"),
                           ({"split_k": 2, "cluster_m": 2}, "split_k"),
                           ({"split_k": 4}, "split_k"),          # 128x256: spills
                           ({"split_k": 2, "k": 64}, "split_k"),  # one k-tile
                           ({"split_k": 8}, "split_k"),          # 8: narrow tiles only
                           ({"split_k": 4, "split_reduce": "workspace"},
                            "split_reduce"),                     # narrow tiles only
                           ({"split_k": 1, "n": 24, "block_m": 64, "block_n": 32,
                             "consumers": 1, "stages": 8, "split_reduce": "workspace"},
                            "split_reduce"),                     # needs a split
                           ({"split_k": 33, "n": 24, "block_m": 64, "block_n": 32,
                             "consumers": 1, "stages": 8, "split_reduce": "workspace"},
                            "split_k"),
                           ({"split_k": 24, "n": 24, "block_m": 64, "block_n": 32,
                             "consumers": 1, "stages": 8, "split_reduce": "workspace",
                             "ws_groups": 5}, "ws_groups"),      # 5 does not divide 24
                           ({"split_k": 4, "n": 24, "block_m": 64, "block_n": 32,
                             "consumers": 1, "stages": 8, "ws_groups": 2},
                            "ws_groups"),                        # not the workspace's
                           ({"split_k": 8, "n": 16, "block_m": 64, "block_n": 16,
                             "consumers": 1, "stages": 8}, "split_k"),  # 2 groups: 2, 4
                           ({"split_k": 8, "n": 24, "k": 448, "block_m": 64,
                             "block_n": 32, "consumers": 1, "stages": 8},
                            "split_k"),                          # 7 k-tiles
                           # the fp32 partial tile (128 KiB) overlays the
                           # stages: 2 of 48 KiB are too few
                           ({"split_k": 2, "block_m": 128, "block_n": 256, "stages": 2},
                            "stages")):
            spec = dict(self.BASE, **extra)
            r = run_emitter("nvidia_gemm_wgmma", spec)
            self.assertNotEqual(r.returncode, 0, spec)
            self.assertIn(why, r.stderr, spec)


if __name__ == "__main__":
    unittest.main()
