"""Tests of the wgmma kernel's store through shared memory (store = "smem_tma").

The store path (python_emitters/tensorop_emit/nvidia_smem_store.py) is
executed here for one consumer warpgroup (128 threads in lockstep) by a
small interpreter of the instructions it uses, with the documented
semantics of stmatrix.m8n8.x4 (lanes 8j..8j+7 give the row addresses of
matrix j; thread t holds row t/4, columns 2(t%4), +1 of every matrix) and
of a TMA store through a tensor map with 128-byte swizzle (16-byte chunk c
of box row r read from chunk c ^ (r % 8); elements outside the tensor are
not written). The accumulators hold wgmma's m64nNk16 layout, so the test
fails if a fragment lands in the wrong row, column or buffer, if the
swizzle of the writes and of TMA disagree, or if a chunk goes to the wrong
global coordinates. The ordering rules (waits, barriers, fences) are
checked on the instruction sequence.
"""

import json
import os
import struct
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EMITTERS = os.path.join(HERE, "..", "..", "python_emitters")
sys.path.insert(0, EMITTERS)

from tensorop_emit.nvidia_ptx import PtxBody  # noqa: E402
from tensorop_emit.nvidia_smem_store import BUFFER_BYTES, SmemTmaStore  # noqa: E402


def bf16_bits(x):
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


class StoreMachine:
    """Runs the store path's PTX lines for one consumer warpgroup."""

    def __init__(self, cdt, m, n, consumer, smem_base):
        self.cdt, self.m, self.n = cdt, m, n
        self.regs = [dict() for _ in range(128)]
        for t in range(128):
            r = self.regs[t]
            r.update({"%tid": 128 * (consumer + 1) + t, "%cons": consumer, "%smem": smem_base,
                      "%warp": 4 * (consumer + 1) + t // 32, "%lane": t % 32, "%n0": 0,
                      "%row0": 0})
        self.smem = {}            # byte address -> byte
        self.gmem = {}            # (row, col) -> element bits
        self.stores = []          # (x, y, smem address) of each TMA store

    def val(self, t, tok):
        tok = tok.strip()
        if tok in self.regs[t]:
            return self.regs[t][tok]
        return int(tok)

    def addr(self, t, tok):
        inner = tok.strip()[1:-1]
        if "+" in inner:
            reg, off = inner.split("+")
            return self.val(t, reg) + int(off)
        return self.val(t, inner)

    def run(self, lines):
        for line in lines:
            line = line.strip().rstrip(";")
            if not line or line.startswith("//"):
                continue
            pred = None
            if line.startswith("@"):
                pred, line = line.split(" ", 1)
                pred = pred[1:]
            op, _, rest = line.partition(" ")
            args = [a.strip() for a in rest.split(",")] if rest else []
            ths = [t for t in range(128) if pred is None or self.regs[t][pred]]
            self.step(op, rest, args, ths)

    def step(self, op, rest, args, ths):
        base = op.split(".")[0]
        if base in ("bar", "fence") or op.startswith("cp.async.bulk.commit_group") or \
                op.startswith("cp.async.bulk.wait_group"):
            return
        if op.startswith("stmatrix"):
            self.stmatrix(rest)
            return
        if op.startswith("cp.async.bulk.tensor"):
            assert len(ths) == 1, "one thread issues each TMA store"
            self.tma_store(ths[0], rest)
            return
        for t in ths:
            r = self.regs[t]
            v = lambda i: self.val(t, args[i])  # noqa: E731
            if op == "mov.b64" or op == "mov.u32":
                r[args[0]] = 0 if args[1].startswith("$") else v(1)
            elif op.startswith("and"):
                r[args[0]] = v(1) & v(2)
            elif op.startswith("shr"):
                r[args[0]] = v(1) >> v(2)
            elif op.startswith("shl"):
                r[args[0]] = (v(1) << v(2)) & 0xFFFFFFFF
            elif op.startswith("xor"):
                r[args[0]] = v(1) ^ v(2)
            elif op.startswith("add"):
                r[args[0]] = v(1) + v(2)
            elif op.startswith("mad.lo"):
                r[args[0]] = v(1) * v(2) + v(3)
            elif op.startswith("setp.eq"):
                r[args[0]] = v(1) == v(2)
            elif op.startswith("cvt.rn.") and op.endswith("x2.f32"):
                conv = bf16_bits if "bf16" in op else f16_bits
                r[args[0]] = (conv(r[args[1]]) << 16) | conv(r[args[2]])
            elif op == "st.shared.v2.f32":
                a = self.addr(t, args[0])
                for i, reg in enumerate(rest.split("{")[1].rstrip("}").split(",")):
                    bits = struct.unpack("<I", struct.pack("<f", r[reg.strip()]))[0]
                    for b in range(4):
                        self.smem[a + 4 * i + b] = (bits >> (8 * b)) & 0xFF
            else:
                raise AssertionError("instruction not modelled: " + op)

    def stmatrix(self, rest):
        addr_tok, regs_tok = rest.split("],", 1)
        regs = [x.strip() for x in regs_tok.strip().strip("{}").split(",")]
        for w in range(4):
            lanes = range(32 * w, 32 * w + 32)
            for j in range(4):
                for i in range(8):
                    row_addr = self.addr(32 * w + 8 * j + i, addr_tok + "]")
                    for q in range(4):          # threads 4i..4i+3 hold row i
                        word = self.regs[32 * w + 4 * i + q][regs[j]]
                        for b in range(4):
                            self.smem[row_addr + 4 * q + b] = (word >> (8 * b)) & 0xFF
            del lanes

    def tma_store(self, t, rest):
        # [map, {x, y}], [smem]: box of 128 bytes x 64 rows, 128B swizzle
        coords = rest.split("{")[1].split("}")[0].split(",")
        x, y = self.val(t, coords[0]), self.val(t, coords[1])
        src = self.addr(t, rest.rsplit(",", 1)[1].strip())
        assert src % 1024 == 0, "the swizzled box must be 1024-byte aligned"
        es = 4 if self.cdt == "f32" else 2
        self.stores.append((x, y, src))
        for row in range(64):
            for c in range(128 // es):
                byte = c * es
                chunk = (byte // 16) ^ (row % 8)
                a = src + row * 128 + chunk * 16 + byte % 16
                if y + row >= self.m or x + c >= self.n:
                    continue
                self.gmem[(y + row, x + c)] = sum(self.smem[a + b] << (8 * b) for b in range(es))


def run_store(cdt, m, n, block_n, wg_m, consumer=1, tiles=2):
    """One consumer's rows of `tiles` tiles at origin (0, 0), accumulators
    holding row * 1000 + column (exact in bf16 only for small values: the
    expected bits are converted the same way)."""
    b = PtxBody()
    st = SmemTmaStore(b, cdt, m, n, block_n, 2, wg_m, 197000, "$5")
    acc_n = block_n // 2
    mrep = wg_m // 64
    b.reg("f32", "%qacc", mrep * acc_n)
    st.declare()
    b.lines = []
    st.setup("%cons", "%smem", "%tid", "%warp", "%lane")
    setup = list(b.lines)
    b.lines = []
    st.store_tile(lambda r, g: ["%%qacc%d" % (r * acc_n + 4 * g + j) for j in range(4)],
                  "%row0", "%n0")
    tile = list(b.lines)
    mach = StoreMachine(cdt, m, n, consumer, 0)
    mach.run(setup)

    def value(row, col):
        return float((row % 61) * 64 + col % 64) / 8.0

    for t in range(128):
        w, lane = t // 32, t % 32
        for r in range(mrep):
            for g in range(block_n // 8):
                for j in range(4):
                    row = 64 * r + 16 * w + lane // 4 + 8 * (j // 2)
                    col = 8 * g + 2 * (lane % 4) + j % 2
                    mach.regs[t]["%%qacc%d" % (r * acc_n + 4 * g + j)] = value(row, col)
    for _ in range(tiles):
        mach.stores = []
        mach.run(tile)
    return st, mach, value, tile


class SmemStoreLayoutTests(unittest.TestCase):
    def check(self, cdt, m, n, block_n, wg_m):
        st, mach, value, _ = run_store(cdt, m, n, block_n, wg_m)
        conv = {"bf16": bf16_bits, "f16": f16_bits,
                "f32": lambda x: struct.unpack("<I", struct.pack("<f", x))[0]}[cdt]
        for row in range(min(m, wg_m)):
            for col in range(min(n, block_n)):
                self.assertEqual(mach.gmem.get((row, col)), conv(value(row, col)),
                                 "%s C[%d][%d]" % (cdt, row, col))
        # nothing written outside the tile's rows and C's columns
        self.assertTrue(all(r < min(m, wg_m) and c < min(n, block_n) for r, c in mach.gmem))
        # the buffers alternate and stay inside this consumer's 16 KiB
        bufs = [s[2] for s in mach.stores]
        self.assertEqual(len(set(bufs)), min(2, st.chunks))
        self.assertTrue(all(st.offset + BUFFER_BYTES * 2 <= a < st.offset + BUFFER_BYTES * 4
                            for a in bufs))

    def test_bf16_full_tile(self):
        self.check("bf16", 4096, 4096, 256, 64)

    def test_f16_two_m64_blocks(self):
        self.check("f16", 4096, 4096, 128, 128)

    def test_f32_st_shared(self):
        self.check("f32", 4096, 4096, 192, 64)

    def test_edges_are_clipped(self):
        self.check("bf16", 40, 72, 128, 64)
        self.check("f32", 50, 24, 64, 64)

    def test_odd_chunk_count_waits_for_all(self):
        # one chunk per tile: the tile's only buffer write must wait for the
        # previous tile's store of the same buffer (wait_group.read 0)
        _, _, _, tile = run_store("bf16", 64, 64, 64, 64)
        self.assertIn("@%qyissue cp.async.bulk.wait_group.read 0;", [l.strip() for l in tile])
        _, _, _, tile = run_store("bf16", 64, 128, 128, 64)
        waits = [l.strip() for l in tile if "wait_group" in l]
        self.assertEqual(waits, ["@%qyissue cp.async.bulk.wait_group.read 1;"] * 2)

    def test_ordering_of_each_chunk(self):
        _, _, _, tile = run_store("bf16", 4096, 4096, 256, 64)
        ops = [l.strip().rstrip(";").split(" ")[0] if not l.strip().startswith("@")
               else l.strip().rstrip(";").split(" ")[1] for l in tile]
        ops = [o for o in ops if o.split(".")[0] in ("bar", "fence", "stmatrix", "cp")]
        chunk = (["cp.async.bulk.wait_group.read", "bar.sync"] + ["stmatrix.sync.aligned.m8n8.x4.shared.b16"] * 4
                 + ["fence.proxy.async.shared::cta", "bar.sync",
                    "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group",
                    "cp.async.bulk.commit_group"])
        self.assertEqual(ops, chunk * 4)


class SmemStoreKernelTests(unittest.TestCase):
    SPEC = {"m": 2000, "n": 3000, "k": 1504, "a_dtype": "bf16", "c_dtype": "bf16"}

    def answer(self, spec):
        r = subprocess.run([sys.executable, os.path.join(EMITTERS, "nvidia_gemm_wgmma.py")],
                           input=json.dumps(spec), capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)

    def test_global_is_the_default(self):
        self.assertEqual(self.answer(self.SPEC), self.answer(dict(self.SPEC, store="global")))

    def test_tensor_map_of_c_is_the_last_parameter(self):
        a = self.answer(dict(self.SPEC, store="smem_tma", epilogue=["bias_n", "relu"]))
        self.assertEqual([p["name"] for p in a["params"]],
                         ["A", "B", "C", "tmapA", "tmapB", "bias", "tmapC"])
        self.assertEqual(a["params"][-1], {"name": "tmapC", "kind": "tensormap", "tensor": "C",
                                           "dtype": 9, "dims": [3000, 2000],
                                           "strides_bytes": [6000], "box": [64, 64],
                                           "swizzle": 128})
        self.assertIn("mov.b64 %qymap, $6;", a["asm"])
        self.assertIn("mov.u32 %qsmem, $7;", a["asm"])
        self.assertNotIn("st.global", a["asm"])
        f = self.answer(dict(self.SPEC, c_dtype="f32", store="smem_tma"))
        self.assertEqual(f["params"][-1]["box"], [32, 64])
        self.assertIn("st.shared.v2.f32", f["asm"])
        self.assertNotIn("stmatrix", f["asm"])

    def test_shared_memory_holds_the_buffers(self):
        g = self.answer(self.SPEC)
        s = self.answer(dict(self.SPEC, store="smem_tma"))
        self.assertEqual(s["shared_bytes"], (g["shared_bytes"] + 1023) // 1024 * 1024 + 2 * 2 * 8192)

    def test_accumulate_reads_c_then_stores_through_tma(self):
        a = self.answer(dict(self.SPEC, accumulate=True, store="smem_tma"))
        self.assertIn("@%qzok ld.global.b32", a["asm"])
        self.assertNotIn("st.global", a["asm"])
        self.assertNotIn("epilogue", a)

    def test_refusals(self):
        r = subprocess.run([sys.executable, os.path.join(EMITTERS, "nvidia_gemm_wgmma.py")],
                           input=json.dumps(dict(self.SPEC, store="smem")), capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("field 'store'", r.stderr)
        r = subprocess.run([sys.executable, os.path.join(EMITTERS, "nvidia_gemm_wgmma.py")],
                           input=json.dumps(dict(self.SPEC, store="smem_tma", block_m=256,
                                                 block_n=64, consumers=2, stages=5)),
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("shared memory", r.stderr)

    def test_convolution_stores_through_tma(self):
        # The implicit-GEMM convolution's output (N x OH x OW x F) is C's
        # M x N row-major matrix: the same TMA store, after the im2col map.
        conv = {"n": 1, "h": 8, "w": 8, "c": 64, "f": 64, "r": 1, "s": 1, "stride_h": 1,
                "stride_w": 1, "dilation_h": 1, "dilation_w": 1}
        a = self.answer({"m": 64, "n": 64, "k": 64, "a_dtype": "bf16", "block_m": 64,
                         "block_n": 64, "consumers": 1, "conv": conv, "store": "smem_tma"})
        kinds = [(p["kind"], p.get("tensor")) for p in a["params"]]
        self.assertEqual(kinds[3:], [("tensormap_im2col", "A"), ("tensormap", "B"),
                                     ("tensormap", "C")])
        self.assertEqual(a["params"][-1]["dims"], [64, 64])
        self.assertIn("cp.async.bulk.tensor.2d.global.shared::cta", a["asm"])
        self.assertNotIn("st.global", a["asm"])

if __name__ == "__main__":
    unittest.main()
