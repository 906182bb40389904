"""Tests of the implicit-GEMM convolution in the wgmma emitter
(python_emitters/tensorop_emit/nvidia_conv.py) without a GPU.

The kernel's producer walks (channel chunk, tap) and loads, per tile, the
im2col box that TMA builds from the tensor map's bounding box. A model of
TMA's im2col traversal (PTX ISA "im2col mode": pixels walked from the
instruction's base in steps of the traversal stride inside
[lower corner, extent - 1 + upper corner], wrapping to the next row and
image; the im2col offsets added when reading; outside the tensor: zero) is
run on the coordinates and corners the emitter computes and compared with
the direct definition of the convolution's im2col matrix, over many
geometries (padding, uneven padding, strides, dilation, 1x1, tiles that
straddle rows and images). The device run in docs/benchmarks/gpu-conv.md
checks the same kernels on the H200.
"""

import json
import os
import random
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EMITTERS = os.path.join(HERE, "..", "..", "python_emitters")
sys.path.insert(0, EMITTERS)

from tensorop_emit import nvidia_conv as NC  # noqa: E402
from tensorop_emit.common import SpecError  # noqa: E402


def geometry(n, h, w, c, f, r, s, sh=1, sw=1, dh=1, dw=1, pt=0, pl=0, pb=0, pr=0):
    g = {"n": n, "h": h, "w": w, "c": c, "f": f, "r": r, "s": s, "stride_h": sh,
         "stride_w": sw, "dilation_h": dh, "dilation_w": dw, "pad_top": pt, "pad_left": pl,
         "pad_bottom": pb, "pad_right": pr}
    oh = (h + pt + pb - (dh * (r - 1) + 1)) // sh + 1
    ow = (w + pl + pr - (dw * (s - 1) + 1)) // sw + 1
    return g, n * oh * ow, f, r * s * c


def tma_im2col_pixels(g, lower, upper, base, offsets, count):
    """Input pixel (n, y, x) or None (zero fill) of each of `count` box rows."""
    wl, hl = lower
    wu, hu = upper
    w_hi, h_hi = g["w"] - 1 + wu, g["h"] - 1 + hu
    x, y, n = base
    ox, oy = offsets
    out = []
    for _ in range(count):
        px, py = x + ox, y + oy
        inside = 0 <= px < g["w"] and 0 <= py < g["h"] and 0 <= n < g["n"]
        out.append((n, py, px) if inside else None)
        x += g["stride_w"]
        if x > w_hi:
            x = wl
            y += g["stride_h"]
            if y > h_hi:
                y = hl
                n += 1
    return out


def direct_pixels(g, m0, count, r, s):
    """The input pixel tap (r, s) of output pixels m0.. reads (None: padding)."""
    ohw = g["out_h"] * g["out_w"]
    out = []
    for m in range(m0, m0 + count):
        n, rem = divmod(m, ohw)
        oh, ow = divmod(rem, g["out_w"])
        y = oh * g["stride_h"] - g["pad_top"] + r * g["dilation_h"]
        x = ow * g["stride_w"] - g["pad_left"] + s * g["dilation_w"]
        inside = 0 <= x < g["w"] and 0 <= y < g["h"] and n < g["n"]
        out.append((n, y, x) if inside else None)
    return out


class Im2colModel(unittest.TestCase):
    CASES = [
        geometry(32, 56, 56, 64, 64, 3, 3, pt=1, pl=1, pb=1, pr=1),
        geometry(2, 56, 56, 128, 128, 3, 3, 2, 2, pt=1, pl=1, pb=1, pr=1),
        geometry(2, 14, 14, 64, 64, 1, 1),
        geometry(2, 56, 56, 256, 512, 1, 1, 2, 2),
        geometry(3, 17, 23, 64, 72, 3, 5, 2, 1, 1, 2, 1, 2, 0, 1),
        geometry(4, 30, 30, 128, 96, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2),
        geometry(1, 7, 7, 512, 512, 3, 3, pt=1, pl=1, pb=1, pr=1),
        geometry(2, 224, 224, 64, 64, 7, 7, 2, 2, pt=3, pl=3, pb=3, pr=3),
        geometry(5, 9, 11, 64, 40, 5, 5, 3, 2, 1, 1, 0, 4, 2, 1),
    ]

    def test_boxes_match_the_convolution(self):
        rnd = random.Random(1)
        for spec, m, n, k in self.CASES:
            g = NC.conv_geometry({"conv": spec}, m, n, k)
            NC.check_tma_im2col(g, 2)
            lower, upper = NC.im2col_corners(g)
            for bm in (64, 128):
                starts = sorted({0, m - 1, (m // bm) * bm} |
                                {rnd.randrange(0, m, bm) for _ in range(12)})
                for m0 in starts:
                    ohw = g["out_h"] * g["out_w"]
                    nb, rem = divmod(m0, ohw)
                    hb = (rem // g["out_w"]) * g["stride_h"] - g["pad_top"]
                    wb = (rem % g["out_w"]) * g["stride_w"] - g["pad_left"]
                    for r in range(g["r"]):
                        for s in range(g["s"]):
                            offs = (s * g["dilation_w"], r * g["dilation_h"])
                            got = tma_im2col_pixels(g, lower, upper, (wb, hb, nb), offs, bm)
                            want = direct_pixels(g, m0, bm, r, s)
                            self.assertEqual(got, want, "%s m0=%d tap=(%d,%d)"
                                             % (spec, m0, r, s))


def emit(spec, fmt=None):
    args = [sys.executable, os.path.join(EMITTERS, "nvidia_gemm_wgmma.py")]
    if fmt:
        args.append("--format=" + fmt)
    return subprocess.run(args, input=json.dumps(spec), capture_output=True, text=True)


class ConvSpec(unittest.TestCase):
    BASE = {"a_dtype": "bf16", "c_dtype": "bf16", "block_m": 128, "block_n": 64}

    def spec(self, **conv):
        g, m, n, k = geometry(**conv)
        return dict(self.BASE, m=m, n=n, k=k, conv=g)

    def test_launch_description(self):
        r = emit(self.spec(n=32, h=56, w=56, c=64, f=64, r=3, s=3, pt=1, pl=1, pb=1, pr=1))
        self.assertEqual(r.returncode, 0, r.stderr)
        ans = json.loads(r.stdout)
        tmap = ans["params"][3]
        self.assertEqual(tmap["kind"], "tensormap_im2col")
        self.assertEqual(tmap["dims"], [64, 56, 56, 32])
        self.assertEqual(tmap["strides_bytes"], [128, 128 * 56, 128 * 56 * 56])
        self.assertEqual((tmap["lower"], tmap["upper"]), ([-1, -1], [-1, -1]))
        self.assertEqual((tmap["channels"], tmap["pixels"]), (64, 128))
        self.assertEqual(ans["params"][4]["dims"], [64, 576])   # filter as [R*S*C][F]
        self.assertIn(".im2col.mbarrier::complete_tx::bytes", ans["asm"])
        self.assertEqual(ans["asm"].count("cp.async.bulk.tensor.4d"), 1)

    def test_gemm_unchanged_without_conv(self):
        r = emit({"m": 256, "n": 256, "k": 256, "a_dtype": "bf16"})
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("im2col", r.stdout)

    def refused(self, spec, field, text):
        r = emit(spec)
        self.assertEqual(r.returncode, 2)
        err = json.loads(r.stdout)["error"]
        self.assertIn("field '%s'" % field, err)
        self.assertIn(text, err)

    def test_channels_multiple_of_64(self):
        self.refused(self.spec(n=1, h=8, w=8, c=32, f=64, r=3, s=3), "conv",
                     "C must be a multiple of 64")

    def test_tf32_loads_32_channels_per_tap(self):
        # TF32: one 128-byte row is 32 fp32 channels; the tap walk advances
        # by 32 and wraps at C, the im2col box is block_m pixels x 32.
        spec = self.spec(n=2, h=14, w=14, c=96, f=36, r=3, s=3, pt=1, pl=1, pb=1, pr=1)
        spec.update(a_dtype="tf32", c_dtype="f32", block_m=128, block_n=64, consumers=1)
        r = emit(spec)
        self.assertEqual(r.returncode, 0, r.stderr)
        ans = json.loads(r.stdout)
        tmap = ans["params"][3]
        self.assertEqual(tmap["kind"], "tensormap_im2col")
        self.assertEqual((tmap["channels"], tmap["pixels"]), (32, 128))
        self.assertEqual(tmap["strides_bytes"], [96 * 4, 96 * 4 * 14, 96 * 4 * 14 * 14])
        self.assertEqual(ans["params"][4]["dims"], [36, 864])   # filter as [R*S*C][F]
        self.assertIn(".im2col.mbarrier::complete_tx::bytes", ans["asm"])
        self.assertIn("add.u32 %qc0, %qc0, 32", ans["asm"])
        self.assertIn("setp.eq.u32 %qp6, %qc0, 96", ans["asm"])
        self.assertIn(".f32.tf32", ans["asm"])
        self.assertEqual(ans["conv"]["c"], 96)

    def test_tf32_channels_multiple_of_32(self):
        spec = self.spec(n=1, h=8, w=8, c=48, f=64, r=3, s=3)
        spec.update(a_dtype="tf32", c_dtype="f32", block_m=128, block_n=64, consumers=1)
        self.refused(spec, "conv", "C must be a multiple of 32")

    def test_gemm_extents_must_match(self):
        spec = self.spec(n=1, h=8, w=8, c=64, f=64, r=3, s=3)
        spec["m"] += 1
        self.refused(spec, "conv", "N*OH*OW")

    def test_no_clusters(self):
        spec = self.spec(n=2, h=16, w=16, c=64, f=64, r=3, s=3, pt=1, pl=1, pb=1, pr=1)
        spec["cluster_m"] = 2
        self.refused(spec, "cluster_m", "without clusters")

    def test_corner_range(self):
        self.refused(self.spec(n=1, h=8, w=8, c=64, f=64, r=1, s=1, pt=200, pl=0, pb=0, pr=0),
                     "conv", "[-128, 127]")

    def test_unknown_conv_field(self):
        spec = self.spec(n=1, h=8, w=8, c=64, f=64, r=3, s=3)
        spec["conv"]["groups"] = 2
        self.refused(spec, "conv", "unknown field 'groups'")

    def test_filter_does_not_fit(self):
        with self.assertRaises(SpecError):
            NC.conv_geometry({"conv": geometry(1, 2, 2, 64, 64, 3, 3)[0]}, 1, 64, 576)


sys.path.insert(0, HERE)
import ptx_sim as S  # noqa: E402


def simulate_conv(spec, seed=5):
    """Runs the sm_80 (mma.sync) convolution kernel in test/GPU/ptx_sim.py on
    small integers; returns the number of wrong output elements."""
    g = spec["conv"]
    r = subprocess.run([sys.executable, os.path.join(EMITTERS, "nvidia_gemm_mma.py")],
                       input=json.dumps(spec), capture_output=True, text=True)
    if r.returncode:
        raise AssertionError(r.stdout + r.stderr)
    ans = json.loads(r.stdout)
    oh = (g["h"] + g["pad_top"] + g["pad_bottom"] - (g["dilation_h"] * (g["r"] - 1) + 1)) \
        // g["stride_h"] + 1
    ow = (g["w"] + g["pad_left"] + g["pad_right"] - (g["dilation_w"] * (g["s"] - 1) + 1)) \
        // g["stride_w"] + 1
    rnd = random.Random(seed)
    x = [rnd.randint(-2, 2) for _ in range(g["n"] * g["h"] * g["w"] * g["c"])]
    w = [rnd.randint(-2, 2) for _ in range(g["r"] * g["s"] * g["c"] * g["f"])]
    mem = S.Memory()
    bits = S.bf16_bits if spec["a_dtype"] == "bf16" else S.f16_bits
    px = mem.alloc(bytearray(b"".join(bits(v).to_bytes(2, "little") for v in x)))
    pw = mem.alloc(bytearray(b"".join(bits(v).to_bytes(2, "little") for v in w)))
    out_n = g["n"] * oh * ow * g["f"]
    po = mem.alloc(bytearray((0x7FC00000).to_bytes(4, "little") * out_n))
    S.run_kernel(ans, mem, [px, pw, po])
    bad = 0
    for b_ in range(g["n"]):
        for y in range(oh):
            for xo in range(ow):
                for f in range(g["f"]):
                    want = 0
                    for i in range(g["r"]):
                        for j in range(g["s"]):
                            iy = y * g["stride_h"] - g["pad_top"] + i * g["dilation_h"]
                            ix = xo * g["stride_w"] - g["pad_left"] + j * g["dilation_w"]
                            if not (0 <= iy < g["h"] and 0 <= ix < g["w"]):
                                continue
                            for c in range(g["c"]):
                                want += (x[((b_ * g["h"] + iy) * g["w"] + ix) * g["c"] + c]
                                         * w[((i * g["s"] + j) * g["c"] + c) * g["f"] + f])
                    at = (((b_ * oh + y) * ow + xo) * g["f"] + f) * 4
                    if S.bits_f32(mem.read(po + at, 4)) != want:
                        bad += 1
    return bad


class Sm80ConvSimulated(unittest.TestCase):
    """The cp.async kernel's computed addresses: padding (uneven), strides,
    dilation, 1x1, images that share a tile, K tails (C = 8, 24), and C not
    a multiple of 8 (element loads: C = 3, 5)."""

    def run_case(self, dtype="bf16", **conv):
        g, m, n, k = geometry(**conv)
        spec = {"m": m, "n": n, "k": k, "a_dtype": dtype, "c_dtype": "f32", "sm": 80,
                "block_m": 32, "block_n": 16, "block_k": 16, "warps_m": 1, "warps_n": 1,
                "stages": 2, "conv": g}
        self.assertEqual(simulate_conv(spec), 0, conv)

    def test_padded_3x3(self):
        self.run_case(n=2, h=5, w=6, c=16, f=16, r=3, s=3, pt=1, pl=1, pb=1, pr=1)

    def test_strided_dilated_uneven(self):
        self.run_case("f16", n=2, h=7, w=6, c=8, f=16, r=2, s=3, sh=2, sw=1, dh=1, dw=2,
                      pt=1, pl=2, pb=0, pr=1)

    def test_1x1_k_tail(self):
        self.run_case(n=1, h=4, w=5, c=24, f=16, r=1, s=1)

    def test_three_channels_element_loads(self):
        # conv1's shape class: C = 3 (a chunk of 8 k values spans taps), a
        # 7x7-like strided window with padding; elements loaded one by one.
        self.run_case(n=2, h=9, w=8, c=3, f=16, r=3, s=3, sh=2, sw=2, pt=1, pl=1, pb=1, pr=1)

    def test_odd_channels_dilated_uneven(self):
        self.run_case("f16", n=1, h=7, w=9, c=5, f=16, r=2, s=3, sh=1, sw=2, dh=2, dw=1,
                      pt=0, pl=2, pb=1, pr=0)

    def test_refuses_f_not_multiple_of_8(self):
        g, m, n, k = geometry(1, 4, 4, 8, 12, 3, 3)
        r = subprocess.run([sys.executable, os.path.join(EMITTERS, "nvidia_gemm_mma.py")],
                           input=json.dumps({"m": m, "n": n, "k": k, "a_dtype": "bf16",
                                             "sm": 80, "conv": g}),
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("F must be a multiple of 8", r.stdout)

if __name__ == "__main__":
    unittest.main()
