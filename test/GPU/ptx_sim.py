"""A small PTX interpreter for the NVIDIA emitters' kernels (tests only).

CI has no GPU, so the kernels the emitters print are executed here, slowly,
on tiny shapes: one CTA at a time, all threads in lockstep (the kernels only
branch uniformly, except predicated instructions), with the documented
semantics of the instructions they use (PTX ISA: cp.async, ldmatrix,
mma.sync m16n8k16 / m16n8k8, the cvt roundings).  It catches indexing,
layout and pipeline bugs; it says nothing about speed or about races the
hardware could expose (bar.sync is a no-op in lockstep).

Thread-block clusters are modelled for the FFMA kernel's split-K: the CTAs
of a cluster run in turns, each up to its next barrier.cluster.wait (one
legal interleaving), mapa tags a shared address with the peer's rank and
ld.shared::cluster reads that peer's window.

wgmma, TMA and mbarriers are not modelled: the wgmma kernel is checked by
ptxas and on the GPU (test/GPU/README).
"""

import math
import re
import struct


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def bits_f32(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def round_f32(x):
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def bf16_bits(x):
    """Round to nearest even bf16."""
    u = f32_bits(round_f32(x))
    if (u & 0x7FFFFFFF) > 0x7F800000:
        return 0x7FC0
    u += 0x7FFF + ((u >> 16) & 1)
    return (u >> 16) & 0xFFFF


def bits_bf16(h):
    return bits_f32((h & 0xFFFF) << 16)


def f16_bits(x):
    return struct.unpack("<H", struct.pack("<e", x))[0]


def bits_f16(h):
    return struct.unpack("<e", struct.pack("<H", h & 0xFFFF))[0]


def tf32_rna(bits):
    """cvt.rna.tf32.f32: round to nearest, ties away, 10 mantissa bits."""
    if (bits & 0x7F800000) == 0x7F800000:
        return bits
    bits = (bits + 0x1000) & 0xFFFFFFFF
    return bits & 0xFFFFE000


class Memory:
    """Byte-addressed memory made of allocations (global) or one window."""

    def __init__(self):
        self.regions = []   # (base, bytearray)
        self.next = 1 << 20

    def alloc(self, data):
        base = self.next
        self.regions.append((base, data))
        self.next += (len(data) + 4096) & ~255
        return base

    def _find(self, addr, size):
        for base, data in self.regions:
            if base <= addr and addr + size <= base + len(data):
                return data, addr - base
        raise IndexError("out-of-bounds access of %d bytes at 0x%x" % (size, addr))

    def read(self, addr, size):
        data, off = self._find(addr, size)
        return int.from_bytes(data[off:off + size], "little")

    def write(self, addr, size, value):
        data, off = self._find(addr, size)
        data[off:off + size] = (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


_PEER_SHIFT = 28   # mapa's tag: (rank + 1) << 28 | shared address

_TYPE_BYTES = {"b16": 2, "u16": 2, "s16": 2, "b32": 4, "u32": 4, "s32": 4, "f32": 4,
               "b64": 8, "u64": 8, "s64": 8, "f16": 2, "bf16": 2}


def _split_operands(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Kernel:
    """A parsed kernel body (the inline-asm text with operands substituted)."""

    def __init__(self, body):
        self.instrs = []
        self.labels = {}
        for raw in body.splitlines():
            line = raw.split("//")[0].strip()
            if not line or line in ("{", "}") or line.startswith(".reg"):
                continue
            if line.endswith(":"):
                self.labels[line[:-1]] = len(self.instrs)
                continue
            line = line.rstrip(";").strip()
            guard = None
            m = re.match(r"@(!?)(%\w+)\s+(.*)", line)
            if m:
                guard = (m.group(1) == "!", m.group(2))
                line = m.group(3)
            parts = line.split(None, 1)
            op = parts[0]
            args = _split_operands(parts[1]) if len(parts) > 1 else []
            self.instrs.append((guard, op, args))


class Cta:
    """Executes one CTA of a kernel in lockstep."""

    def __init__(self, kernel, gmem, params, ctaid, nctaid, threads, smem_bytes, rank=0):
        self.k = kernel
        self.peers = [self]   # the CTAs of the cluster, by rank
        self.g = gmem
        self.s = Memory()
        self.s.next = 0
        self.smem_base = self.s.alloc(bytearray(smem_bytes))
        self.threads = threads
        self.regs = [dict() for _ in range(threads)]
        for t in range(threads):
            r = self.regs[t]
            for i, p in enumerate(params):
                r["%%qparam%d" % i] = p
            r["%qsm"] = self.smem_base
            r["%tid.x"] = t
            r["%ctaid.x"] = ctaid
            r["%nctaid.x"] = nctaid
            r["%cluster_ctarank"] = rank

    # -- operand access ---------------------------------------------------
    def val(self, t, text):
        text = text.strip()
        r = self.regs[t]
        if text.startswith("%"):
            if text not in r:
                raise KeyError("register %s read before written (thread %d)" % (text, t))
            return r[text]
        if text.startswith("0f"):
            return int(text[2:], 16)
        return int(text, 0)

    def addr(self, t, text):
        inner = text.strip()[1:-1].strip()
        m = re.match(r"(%\w+)\s*(?:\+\s*(-?\d+))?$", inner)
        return self.val(t, m.group(1)) + (int(m.group(2)) if m.group(2) else 0)

    def vec(self, text):
        return [x.strip() for x in text.strip()[1:-1].split(",")]

    def set(self, t, name, value):
        self.regs[t][name] = value

    # -- execution -------------------------------------------------------------
    def run(self, max_steps=10_000_000):
        for _ in self.steps(max_steps):
            raise RuntimeError("barrier.cluster.wait outside a cluster")

    def steps(self, max_steps):
        """Runs the CTA, yielding at each barrier.cluster.wait."""
        pc = 0
        steps = 0
        instrs = self.k.instrs
        active = [True] * self.threads   # threads that have not exited
        while pc < len(instrs):
            steps += 1
            if steps > max_steps:
                raise RuntimeError("too many steps")
            guard, op, args = instrs[pc]
            ths = [t for t in range(self.threads) if active[t]]
            if not ths:
                break
            if guard:
                neg, p = guard
                ths = [t for t in ths if self.regs[t][p] != neg]
            if op == "bra":
                target = self.k.labels[args[0]]
                taking = set(ths)
                live = [t for t in range(self.threads) if active[t]]
                if taking and len(taking) != len(live):
                    raise RuntimeError("divergent branch at %d (%s)" % (pc, args[0]))
                pc = target if taking else pc + 1
                continue
            if op == "ret":
                break
            if op.startswith("barrier.cluster."):
                if len(ths) != self.threads:
                    raise RuntimeError("barrier.cluster with %d of %d threads at %d"
                                       % (len(ths), self.threads, pc))
                if op.startswith("barrier.cluster.wait"):
                    yield pc
                pc += 1
                continue
            if op.startswith("ldmatrix"):
                self.ldmatrix(op, args, ths)
            elif op.startswith("mma.sync"):
                self.mma(op, args, ths)
            else:
                for t in ths:
                    self.exec1(t, op, args)
            pc += 1

    def exec1(self, t, op, args):
        o = op.split(".")
        base = o[0]
        R = self.regs[t]
        if base == "mov":
            dst = args[0]
            if dst.startswith("{"):           # unpack b32 -> 2 x b16
                v = self.val(t, args[1])
                d = self.vec(dst)
                R[d[0]] = v & 0xFFFF
                R[d[1]] = (v >> 16) & 0xFFFF
            elif args[1].startswith("{"):     # pack
                srcs = self.vec(args[1])
                width = 16 if o[-1] == "b32" else 32
                v = 0
                for i, s in enumerate(srcs):
                    v |= (self.val(t, s) & ((1 << width) - 1)) << (width * i)
                R[dst] = v
            else:
                R[dst] = self.val(t, args[1])
            return
        if base in ("add", "sub", "mul", "mad", "div", "rem", "min", "max", "shl", "shr",
                    "and", "or", "xor") and o[-1] != "f32" and o[-1] != "pred":
            ty = o[-1]
            bits = 64 if "64" in ty else 32
            if base in ("mul", "mad") and o[1] == "wide":
                bits = 64
            mask = (1 << bits) - 1
            a = self.val(t, args[1])
            b = self.val(t, args[2]) if len(args) > 2 else 0
            if base == "add":
                v = a + b
            elif base == "sub":
                v = a - b
            elif base == "mul":
                v = (a & 0xFFFFFFFF) * (b & 0xFFFFFFFF) if o[1] == "wide" else a * b
            elif base == "mad":
                c = self.val(t, args[3])
                v = ((a & 0xFFFFFFFF) * (b & 0xFFFFFFFF) if o[1] == "wide" else a * b) + c
            elif base == "div":
                v = (a & 0xFFFFFFFF) // (b & 0xFFFFFFFF)
            elif base == "rem":
                v = (a & 0xFFFFFFFF) % (b & 0xFFFFFFFF)
            elif base == "min":
                v = min(a & mask, b & mask)
            elif base == "max":
                v = max(a & mask, b & mask)
            elif base == "shl":
                v = a << b
            elif base == "shr":
                v = (a & mask) >> b
            elif base == "and":
                v = a & b
            elif base == "or":
                v = a | b
            else:
                v = a ^ b
            R[args[0]] = v & mask
            return
        if base == "and" and o[-1] == "pred":
            R[args[0]] = R[args[1]] and R[args[2]]
            return
        if base == "setp":
            cmp = o[1]
            a = self.val(t, args[1])
            b = self.val(t, args[2])
            if o[2] in ("s32", "s64"):
                w = 32 if o[2] == "s32" else 64
                a &= (1 << w) - 1       # negative immediates too
                b &= (1 << w) - 1
                a = a - (1 << w) if a >> (w - 1) & 1 else a
                b = b - (1 << w) if b >> (w - 1) & 1 else b
            else:
                a &= 0xFFFFFFFF if o[2] in ("u32", "b32") else a
                b &= 0xFFFFFFFF if o[2] in ("u32", "b32") else b
            R[args[0]] = {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b,
                          "eq": a == b, "ne": a != b}[cmp]
            return
        if base == "selp":
            R[args[0]] = self.val(t, args[1]) if R[args[3]] else self.val(t, args[2])
            return
        if base == "cvt":
            self.cvt(t, o, args)
            return
        if base == "fma":
            a, b, c = (bits_f32(self.val(t, x)) for x in args[1:4])
            R[args[0]] = f32_bits(round_f32(a * b + c))
            return
        if base in ("add", "mul", "div") and o[-1] == "f32":
            # add/mul/div.rn.f32: exact in double, then rounded once to fp32
            # (division too: double is wide enough for a correctly rounded
            # fp32 quotient)
            a, b = (bits_f32(self.val(t, x)) for x in args[1:3])
            v = a + b if base == "add" else a * b if base == "mul" else a / b
            R[args[0]] = f32_bits(round_f32(v))
            return
        if base in ("max", "min") and o[-1] == "f32":
            # a NaN operand gives the other one
            a, b = (bits_f32(self.val(t, x)) for x in args[1:3])
            if math.isnan(a) or math.isnan(b):
                v = b if math.isnan(a) else a
            else:
                v = max(a, b) if base == "max" else min(a, b)
            R[args[0]] = f32_bits(v)
            return
        if base in ("ld", "st"):
            self.ldst(t, o, args)
            return
        if base == "cp":
            if o[1] == "async" and o[2] in ("cg", "ca"):
                dst = self.addr(t, args[0])
                src = self.addr(t, args[1])
                size = int(args[2])
                src_size = self.val(t, args[3]) if len(args) > 3 else size
                for i in range(size):
                    v = self.g.read(src + i, 1) if i < src_size else 0
                    self.s.write(dst + i, 1, v)
                return
            if o[1] == "async" and o[2] in ("commit_group", "wait_group"):
                return
        if base == "bar":
            return
        if op == "mapa.shared::cluster.u32":   # the peer's window, tagged by rank
            self.regs[t][args[0]] = ((self.val(t, args[2]) + 1) << _PEER_SHIFT) | (
                self.val(t, args[1]) & ((1 << _PEER_SHIFT) - 1))
            return
        raise NotImplementedError("instruction %s %s" % (op, args))

    def cvt(self, t, o, args):
        R = self.regs[t]
        # cvt.rna.tf32.f32, cvt.rn.bf16x2.f32, cvt.rn.f16x2.f32, cvt.rn.bf16.f32,
        # cvt.f32.bf16, cvt.f32.f16, cvt.u32.u64
        if o[1:] == ["rna", "tf32", "f32"]:
            R[args[0]] = tf32_rna(self.val(t, args[1]))
        elif o[1] == "rn" and o[2] in ("bf16x2", "f16x2"):
            hi = bits_f32(self.val(t, args[1]))
            lo = bits_f32(self.val(t, args[2]))
            f = bf16_bits if o[2] == "bf16x2" else f16_bits
            R[args[0]] = (f(hi) << 16) | f(lo)
        elif o[1] == "rn" and o[2] in ("bf16", "f16"):
            f = bf16_bits if o[2] == "bf16" else f16_bits
            R[args[0]] = f(bits_f32(self.val(t, args[1])))
        elif o[1] == "f32" and o[2] in ("bf16", "f16"):
            g = bits_bf16 if o[2] == "bf16" else bits_f16
            R[args[0]] = f32_bits(g(self.val(t, args[1])))
        elif o[1:] == ["u32", "u64"]:
            R[args[0]] = self.val(t, args[1]) & 0xFFFFFFFF
        else:
            raise NotImplementedError("cvt " + ".".join(o))

    def ldst(self, t, o, args):
        space = o[1]
        mem = self.g if space == "global" else self.s
        if space == "shared::cluster" and o[0] == "ld":
            a = self.addr(t, args[1])
            if a >> _PEER_SHIFT:
                mem = self.peers[(a >> _PEER_SHIFT) - 1].s
        rest = [x for x in o[2:] if x not in ("nc",)]
        nvec = 1
        if rest[0].startswith("v"):
            nvec = int(rest[0][1:])
            rest = rest[1:]
        size = _TYPE_BYTES[rest[0]]
        if o[0] == "ld":
            a = self.addr(t, args[1]) & ((1 << _PEER_SHIFT) - 1)
            dst = self.vec(args[0]) if nvec > 1 else [args[0]]
            for i, d in enumerate(dst):
                self.regs[t][d] = mem.read(a + i * size, size)
        else:
            a = self.addr(t, args[0])
            src = self.vec(args[1]) if nvec > 1 else [args[1]]
            for i, s in enumerate(src):
                mem.write(a + i * size, size, self.val(t, s))

    # -- warp-collective ---------------------------------------------------------
    def warps(self, ths):
        ws = {}
        for t in ths:
            ws.setdefault(t // 32, []).append(t)
        for w, lanes in ws.items():
            if len(lanes) != 32:
                raise RuntimeError("warp-collective instruction with %d lanes" % len(lanes))
            yield w, lanes

    def ldmatrix(self, op, args, ths):
        trans = ".trans" in op
        num = int(re.search(r"\.x(\d)", op).group(1))
        dst = self.vec(args[0])
        for _, lanes in self.warps(ths):
            rows = [self.addr(t, args[1]) for t in lanes]
            for mi in range(num):
                # matrix mi: rows given by lanes 8 mi .. 8 mi + 7, 8 x b16 each
                mat = [[self.s.read(rows[8 * mi + r] + 2 * c, 2) for c in range(8)]
                       for r in range(8)]
                for lane, t in enumerate(lanes):
                    g, q = lane // 4, lane % 4
                    if trans:
                        lo, hi = mat[2 * q][g], mat[2 * q + 1][g]
                    else:
                        lo, hi = mat[g][2 * q], mat[g][2 * q + 1]
                    self.regs[t][dst[mi]] = lo | (hi << 16)

    def mma(self, op, args, ths):
        o = op.split(".")
        shape = o[3]
        atype = o[7]
        d, a, b, c = (self.vec(x) for x in args)
        for _, lanes in self.warps(ths):
            if shape == "m16n8k16":
                conv = bits_bf16 if atype == "bf16" else bits_f16
                A = [[0.0] * 16 for _ in range(16)]
                B = [[0.0] * 8 for _ in range(16)]
                for lane, t in enumerate(lanes):
                    g, q = lane // 4, lane % 4
                    ra = [self.val(t, x) for x in a]
                    for ri, (row, col) in enumerate(((g, 2 * q), (g + 8, 2 * q),
                                                     (g, 2 * q + 8), (g + 8, 2 * q + 8))):
                        A[row][col] = conv(ra[ri] & 0xFFFF)
                        A[row][col + 1] = conv(ra[ri] >> 16)
                    rb = [self.val(t, x) for x in b]
                    for ri, k0 in enumerate((2 * q, 2 * q + 8)):
                        B[k0][g] = conv(rb[ri] & 0xFFFF)
                        B[k0 + 1][g] = conv(rb[ri] >> 16)
                kdim = 16
            elif shape == "m16n8k8":
                A = [[0.0] * 8 for _ in range(16)]
                B = [[0.0] * 8 for _ in range(8)]
                for lane, t in enumerate(lanes):
                    g, q = lane // 4, lane % 4
                    ra = [self.val(t, x) for x in a]
                    for ri, (row, col) in enumerate(((g, q), (g + 8, q), (g, q + 4), (g + 8, q + 4))):
                        A[row][col] = bits_f32(ra[ri] & 0xFFFFE000)
                    rb = [self.val(t, x) for x in b]
                    B[q][g] = bits_f32(rb[0] & 0xFFFFE000)
                    B[q + 4][g] = bits_f32(rb[1] & 0xFFFFE000)
                kdim = 8
            else:
                raise NotImplementedError(op)
            results = {}
            for lane, t in enumerate(lanes):
                g, q = lane // 4, lane % 4
                cv = [bits_f32(self.val(t, x)) for x in c]
                out = []
                for ri, (row, col) in enumerate(((g, 2 * q), (g, 2 * q + 1),
                                                 (g + 8, 2 * q), (g + 8, 2 * q + 1))):
                    s = sum(A[row][kk] * B[kk][col] for kk in range(kdim))
                    out.append(f32_bits(round_f32(cv[ri] + s)))
                results[t] = out
            for t, out in results.items():
                for name, v in zip(d, out):
                    self.regs[t][name] = v


def substitute(body, nparams):
    for i in reversed(range(nparams + 1)):
        name = "%%qparam%d" % i if i < nparams else "%qsm"
        body = body.replace("$%d" % i, name)
    return body


def run_kernel(answer, gmem, params):
    """Runs every CTA of an emitter answer (its JSON) on `gmem`."""
    nparams = len(answer["params"])
    kernel = Kernel(substitute(answer["asm"], nparams))
    grid = answer["grid"][0]
    size = answer.get("cluster", [1])[0]
    for first in range(0, grid, size):
        ctas = [Cta(kernel, gmem, params, first + r, grid, answer["threads"],
                    answer["shared_bytes"], r) for r in range(size)]
        for cta in ctas:
            cta.peers = ctas
        runs = [cta.steps(10_000_000) for cta in ctas]
        while True:   # each CTA in turn up to its next cluster barrier
            at = [next(run, None) for run in runs]
            if all(pc is None for pc in at):
                break
            if any(pc is None for pc in at) or len(set(at)) != 1:
                raise RuntimeError("the CTAs of a cluster met different barriers: %s" % at)
