"""C's store through shared memory and TMA for the wgmma kernel (store = "smem_tma").

The plain store path of nvidia_gemm_wgmma writes each thread's accumulator
pairs straight to global memory: 4- or 8-byte stores of two columns, eight
rows apart per warp instruction, so every store instruction touches 8 (or
16) half-used 32-byte sectors. This path instead writes the tile (after the
fused epilogue's steps, converted to C's type) to shared memory and has TMA
store it (cp.async.bulk.tensor ... global.shared::cta.bulk_group): whole
128-byte rows, and the store runs asynchronously while the consumer
warpgroup goes on to the next tile's main loop.

Layout: each consumer warpgroup owns two buffers of 64 rows x 128 bytes
(8 KiB each: 64 bf16/f16 or 32 f32 columns), 1024-byte aligned, in TMA's
128-byte swizzle (16-byte chunk c of row r sits at chunk c ^ (r % 8)), so
that the eight rows a store instruction writes fall into distinct banks.
A consumer's rows of the tile (wg_m = 64 or 128) x block_n columns go out
in chunks of 64 rows x one buffer width, alternating the two buffers:

    issuer: cp.async.bulk.wait_group.read P   (the buffer's previous store
            has read it; P = 1 lets the other buffer's store run on)
    bar.sync (the warpgroup's named barrier)
    all:    stmatrix.x4 (bf16/f16: four 8x8 matrices, two column groups of
            16 rows per warp) or st.shared.v2.f32 (f32: stmatrix moves only
            16-bit elements) into the buffer
    all:    fence.proxy.async.shared::cta (the generic-proxy writes become
            visible to the async proxy that TMA reads through)
    bar.sync
    issuer: cp.async.bulk.tensor.2d.global.shared::cta.bulk_group; commit

The issuer is the warpgroup's first thread (bulk async-groups belong to the
thread that committed them, so it also does every wait). The last chunks of
a tile are still being read when the consumers start the next tile's
k-loop; the first chunk of the next tile waits for its buffer only. Before
the kernel ends the issuer waits for all its stores (wait_group 0).

Edges: C's tensor map has C's extents, and TMA writes nothing outside them,
so rows >= M and columns >= N of an edge tile are simply not stored. The
map needs a 16-byte aligned C and rows of a multiple of 16 bytes (N * size
of C's type), which the kernel's own TMA rule (N a multiple of 8) gives.
Named barriers 1 and 2 are the consumers' (0 is the CTA-wide one).
"""

from .nvidia_ptx import ELEM_BYTES, TMA_DTYPE

__all__ = ["SmemTmaStore", "BUFFER_BYTES", "BUFFERS"]

BUFFER_BYTES = 64 * 128      # 64 rows of one 128-byte swizzle row
BUFFERS = 2                  # per consumer warpgroup: one filling, one being stored


def align(value, to):
    return (value + to - 1) // to * to


class SmemTmaStore:
    """Emits the shared-memory + TMA store of one consumer warpgroup's rows."""

    def __init__(self, body, c_dtype, m, n, block_n, consumers, wg_m, smem_offset, map_operand):
        self.b = body
        self.cdt = c_dtype
        self.oes = ELEM_BYTES[c_dtype]
        self.m, self.n = m, n
        self.bn = block_n
        self.nc = consumers
        self.wg_m = wg_m
        self.mrep = wg_m // 64
        self.box_n = 128 // self.oes                 # columns of one buffer
        self.col_chunks = block_n // self.box_n
        self.chunks = self.mrep * self.col_chunks    # per consumer and tile
        self.offset = align(smem_offset, 1024)       # the buffers' start in the window
        self.map_operand = map_operand

    def end(self):
        """First byte of the window after the buffers."""
        return self.offset + self.nc * BUFFERS * BUFFER_BYTES

    def tensor_map(self):
        """C's tensor map: rows of N elements, boxes of 64 rows x 128 bytes."""
        return {"name": "tmapC", "kind": "tensormap", "tensor": "C",
                "dtype": TMA_DTYPE[self.cdt], "dims": [self.n, self.m],
                "strides_bytes": [self.n * self.oes], "box": [self.box_n, 64],
                "swizzle": 128}

    def declare(self):
        R = self.b.reg
        R("b64", "%qymap")
        R("b32", "%qyrow"), R("b32", "%qyh"), R("b32", "%qybar"), R("b32", "%qybuf")
        R("b32", "%qyt", 3), R("b32", "%qypk", 4)
        R("pred", "%qyissue")

    def setup(self, consumer, smem, tid, warp, lane):
        """Once per consumer thread (registers `consumer`: consumer index, `tid`,
        `smem`: the window's address, `warp`, `lane`)."""
        b = self.b
        b.ins("mov.b64 %%qymap, %s" % self.map_operand)
        # the warpgroup's first thread issues and waits for the TMA stores
        b.ins("and.b32 %%qyt0, %s, 127" % tid)
        b.ins("setp.eq.u32 %qyissue, %qyt0, 0")
        b.ins("add.u32 %%qybar, %s, 1" % consumer)
        # %qyrow: the address in buffer 0 of this thread's first row, %qyh:
        # the bits its row XORs into the 16-byte chunk index (pre-shifted)
        b.ins("mad.lo.u32 %%qybuf, %s, %d, %s" % (consumer, BUFFERS * BUFFER_BYTES, smem))
        b.ins("add.u32 %%qybuf, %%qybuf, %d" % self.offset)
        b.ins("and.b32 %%qyt0, %s, 3" % warp)
        b.ins("shl.b32 %qyt0, %qyt0, 11")                  # 16 rows of 128 bytes per warp
        b.ins("add.u32 %qyrow, %qybuf, %qyt0")
        if self.oes == 2:
            # stmatrix.x4: lanes 8j..8j+7 address the rows of matrix j, whose
            # rows are 8 (j % 2) + lane % 8 and column group 2q + j / 2
            b.ins("and.b32 %%qyt0, %s, 7" % lane)
            b.ins("shr.u32 %%qyt1, %s, 3" % lane)
            b.ins("and.b32 %qyt1, %qyt1, 1")
            b.ins("shl.b32 %qyt1, %qyt1, 3")
            b.ins("add.u32 %qyt1, %qyt1, %qyt0")                # row in the warp's 16
            b.ins("mad.lo.u32 %qyrow, %qyt1, 128, %qyrow")
            b.ins("shr.u32 %%qyt1, %s, 4" % lane)                 # j / 2
            b.ins("xor.b32 %qyh, %qyt1, %qyt0")
        else:
            # st.shared.v2.f32: row lane / 4 (and + 8), bytes 8 (lane % 4) of
            # the group's 32; chunk 2 g + (lane % 4) / 2, half (lane % 2)
            b.ins("shr.u32 %%qyt0, %s, 2" % lane)
            b.ins("mad.lo.u32 %qyrow, %qyt0, 128, %qyrow")
            b.ins("and.b32 %%qyt1, %s, 1" % lane)
            b.ins("mad.lo.u32 %qyrow, %qyt1, 8, %qyrow")
            b.ins("shr.u32 %%qyt1, %s, 1" % lane)
            b.ins("and.b32 %qyt1, %qyt1, 1")
            b.ins("xor.b32 %qyh, %qyt1, %qyt0")
        b.ins("shl.b32 %qyh, %qyh, 4")

    def store_tile(self, acc, row0, col0):
        """The consumer's rows of one tile; acc(r, g) -> the four registers
        of m64 block r, column group g (8 columns): [row, row] then
        [row + 8, row + 8], as wgmma leaves them. row0 / col0: registers with
        the tile's first row of this consumer and first column."""
        b = self.b
        for j in range(self.chunks):
            r, cb = divmod(j, self.col_chunks)
            buf = j % BUFFERS
            # The buffer's previous store: the chunk before this one used the
            # other buffer unless this is a tile's first chunk and a tile has
            # an odd number of chunks.
            pending = 1 if (j > 0 or self.chunks % BUFFERS == 0) else 0
            b.ins("@%%qyissue cp.async.bulk.wait_group.read %d" % pending)
            b.ins("bar.sync %qybar, 128")
            if self.oes == 2:
                self._stmatrix(acc, r, cb, buf)
            else:
                self._st_f32(acc, r, cb, buf)
            b.ins("fence.proxy.async.shared::cta")
            b.ins("bar.sync %qybar, 128")
            b.ins("add.u32 %%qyt1, %s, %d" % (col0, cb * self.box_n))
            b.ins("add.u32 %%qyt2, %s, %d" % (row0, 64 * r))
            b.ins("add.u32 %%qyt0, %%qybuf, %d" % (buf * BUFFER_BYTES))
            b.ins("@%qyissue cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
                  "[%qymap, {%qyt1, %qyt2}], [%qyt0]")
            b.ins("@%qyissue cp.async.bulk.commit_group")

    def _stmatrix(self, acc, r, cb, buf):
        b = self.b
        for q in range(self.box_n // 16):
            g0 = cb * (self.box_n // 8) + 2 * q
            lo, hi = acc(r, g0), acc(r, g0 + 1)
            # matrices: rows 0-7 / 8-15 of group g0, then of group g0 + 1
            for i, (x0, x1) in enumerate(((lo[0], lo[1]), (lo[2], lo[3]),
                                          (hi[0], hi[1]), (hi[2], hi[3]))):
                # the first column goes to the low half
                b.ins("cvt.rn.%sx2.f32 %%qypk%d, %s, %s" % (self.cdt, i, x1, x0))
            b.ins("xor.b32 %%qyt0, %%qyh, %d" % (32 * q))
            b.ins("add.u32 %qyt0, %qyt0, %qyrow")
            b.ins("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%%qyt0+%d], "
                  "{%%qypk0, %%qypk1, %%qypk2, %%qypk3}" % (buf * BUFFER_BYTES))

    def _st_f32(self, acc, r, cb, buf):
        b = self.b
        for g in range(self.box_n // 8):
            regs = acc(r, cb * (self.box_n // 8) + g)
            b.ins("xor.b32 %%qyt0, %%qyh, %d" % (32 * g))
            b.ins("add.u32 %qyt0, %qyt0, %qyrow")
            off = buf * BUFFER_BYTES
            b.ins("st.shared.v2.f32 [%%qyt0+%d], {%s, %s}" % (off, regs[0], regs[1]))
            b.ins("st.shared.v2.f32 [%%qyt0+%d], {%s, %s}" % (off + 8 * 128, regs[2], regs[3]))

    def drain(self):
        """Before the kernel ends: the issuer's stores are complete."""
        self.b.ins("@%qyissue cp.async.bulk.wait_group 0")
