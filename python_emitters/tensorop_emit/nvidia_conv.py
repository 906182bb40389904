"""Convolutions as implicit GEMMs for the NVIDIA emitters.

``linalg.conv_2d_nhwc_hwcf`` is the GEMM C[M][N] = A[M][K] * B[K][N] with
  M = N_img * OH * OW (output pixels, NHW order: C is the NHWF output),
  N = F (filters: B is the HWCF filter, read as a [R*S*C][F] matrix),
  K = R * S * C (filter taps outer, channels inner),
and A the im2col matrix of the NHWC input, which is never built: the
sm_90a kernel loads it with TMA in im2col mode (cuTensorMapEncodeIm2col),
one box of `block_m` output pixels x one 128-byte row of channels (64
bf16/f16, 32 tf32) per filter tap and channel chunk. The tensor map's bounding box (lower corner -pad, upper
corner chosen so that exactly OW (OH) base positions fit, traversal step =
stride) makes TMA walk the output pixels in NHW order, wrapping at the row
and image ends, and fill whatever lies in the padding or past the last
image with zeros; the tap is the load's im2col offset (s * dilation,
r * dilation). Hence the GEMM kernel only changes where it loads A.

The spec's "conv" object: n, h, w, c, f, r, s, stride_h, stride_w,
dilation_h, dilation_w, pad_top, pad_left, pad_bottom, pad_right.
"""

from .common import SpecError, get_int

CONV_FIELDS = ("n", "h", "w", "c", "f", "r", "s", "stride_h", "stride_w",
               "dilation_h", "dilation_w", "pad_top", "pad_left", "pad_bottom",
               "pad_right")
ROW_BYTES = 128             # channels per im2col box: one 128-byte swizzled row


def channel_block(elem_bytes):
    """Channels per im2col box and per k tile: 64 bf16/f16, 32 tf32."""
    return ROW_BYTES // elem_bytes


def conv_geometry(spec, m, n, k):
    """The checked "conv" object of the spec, with out_h / out_w added;
    None for a plain GEMM. m, n, k must be the implicit GEMM's."""
    conv = spec.get("conv")
    if conv is None:
        return None
    if not isinstance(conv, dict):
        raise SpecError("conv", "must be an object with fields %s" % ", ".join(CONV_FIELDS))
    for key in conv:
        if key not in CONV_FIELDS:
            raise SpecError("conv", "unknown field '%s' (allowed: %s)" % (key, ", ".join(CONV_FIELDS)))
    g = {}
    for key in CONV_FIELDS:
        if key.startswith("pad_"):
            g[key] = get_int(conv, key, default=0, lo=0, hi=1 << 20)
        else:
            g[key] = get_int(conv, key, lo=1, hi=1 << 20)
    eh = g["dilation_h"] * (g["r"] - 1) + 1
    ew = g["dilation_w"] * (g["s"] - 1) + 1
    span_h = g["h"] + g["pad_top"] + g["pad_bottom"] - eh
    span_w = g["w"] + g["pad_left"] + g["pad_right"] - ew
    if span_h < 0 or span_w < 0:
        raise SpecError("conv", "the %dx%d filter (dilated) does not fit the padded %dx%d input"
                        % (g["r"], g["s"], g["h"], g["w"]))
    g["out_h"] = span_h // g["stride_h"] + 1
    g["out_w"] = span_w // g["stride_w"] + 1
    if m != g["n"] * g["out_h"] * g["out_w"] or n != g["f"] or k != g["r"] * g["s"] * g["c"]:
        raise SpecError("conv", "m, n, k must be N*OH*OW = %d, F = %d, R*S*C = %d (got %d, %d, %d)"
                        % (g["n"] * g["out_h"] * g["out_w"], g["f"], g["r"] * g["s"] * g["c"],
                           m, n, k))
    return g


def im2col_corners(g):
    """(lower, upper) bounding-box corners {W, H} of the im2col tensor map:
    base positions run from -pad to (OW - 1) * stride - pad, and the upper
    corner is an offset from the last pixel (W - 1)."""
    lower = [-g["pad_left"], -g["pad_top"]]
    upper = [(g["out_w"] - 1) * g["stride_w"] - g["pad_left"] - (g["w"] - 1),
             (g["out_h"] - 1) * g["stride_h"] - g["pad_top"] - (g["h"] - 1)]
    return lower, upper


def check_tma_im2col(g, elem_bytes):
    """The limits of a 4-D im2col tensor map (cuda.h) and of this kernel."""
    cb = channel_block(elem_bytes)
    if g["c"] % cb:
        raise SpecError("conv", "the TMA im2col kernel loads %d channels per tap: C must be a "
                                "multiple of %d (got C=%d)" % (cb, cb, g["c"]))
    if (g["f"] * elem_bytes) % 16:
        raise SpecError("conv", "TMA needs 16-byte filter rows: F must be a multiple of %d "
                                "(got F=%d)" % (16 // elem_bytes, g["f"]))
    if g["stride_h"] > 8 or g["stride_w"] > 8:
        raise SpecError("conv", "TMA im2col traverses with strides of at most 8")
    lower, upper = im2col_corners(g)
    for v in lower + upper:
        if v < -128 or v > 127:
            raise SpecError("conv", "the im2col bounding box corner %d is outside [-128, 127] "
                                    "(4-D tensor maps)" % v)
    for tap in ((g["r"] - 1) * g["dilation_h"], (g["s"] - 1) * g["dilation_w"]):
        if tap > 65535:
            raise SpecError("conv", "im2col offsets are 16-bit")


def im2col_tensor_map(g, tma_dtype, elem_bytes, pixels):
    """The launch description of A's im2col tensor map (innermost first)."""
    lower, upper = im2col_corners(g)
    c, w, h = g["c"], g["w"], g["h"]
    return {"name": "tmapA", "kind": "tensormap_im2col", "tensor": "A", "dtype": tma_dtype,
            "dims": [c, w, h, g["n"]],
            "strides_bytes": [c * elem_bytes, w * c * elem_bytes, h * w * c * elem_bytes],
            "lower": lower, "upper": upper,
            "element_strides": [1, g["stride_w"], g["stride_h"], 1],
            "channels": channel_block(elem_bytes), "pixels": pixels, "swizzle": 128}


def emit_tile_origin(b, g, m0, wb, hb, nb, tmp):
    """The im2col base of output pixel m0 (a register): image nb, input
    row hb = oh * stride_h - pad_top, column wb = ow * stride_w - pad_left."""
    ohw = g["out_h"] * g["out_w"]
    b.ins("div.u32 %s, %s, %d" % (nb, m0, ohw))
    b.ins("rem.u32 %s, %s, %d" % (tmp, m0, ohw))
    b.ins("div.u32 %s, %s, %d" % (hb, tmp, g["out_w"]))
    b.ins("rem.u32 %s, %s, %d" % (wb, tmp, g["out_w"]))
    b.ins("mad.lo.s32 %s, %s, %d, %d" % (hb, hb, g["stride_h"], -g["pad_top"]))
    b.ins("mad.lo.s32 %s, %s, %d, %d" % (wb, wb, g["stride_w"], -g["pad_left"]))


def emit_im2col_load(b):
    """The producer's TMA load of A: the im2col box of block_m output pixels
    from the tile origin (%qwb, %qhb, %qnb), channels %qc0.., shifted by the
    filter tap (offsets {%qso, %qro}), into stage %qdst on barrier %qt3."""
    b.ins("cvt.u16.u32 %qoff0, %qso")
    b.ins("cvt.u16.u32 %qoff1, %qro")
    b.ins("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
          " [%qdst], [%qmapA, {%qc0, %qwb, %qhb, %qnb}], [%qt3], {%qoff0, %qoff1}")


def emit_tap_start(b, g, first_kt, bk, c0, soff, roff, tmp, elem_bytes=2):
    """The (channel chunk, tap) of k-tile `first_kt` (a register; split-K's
    ranks start inside K): k0 = first_kt * bk = tap * C + c0 (C is a
    multiple of the channel block, so a k tile never spans taps), tap = r *
    S + s, the offsets s * dilation_w and r * dilation_h."""
    assert bk == channel_block(elem_bytes)
    b.ins("mul.lo.u32 %s, %s, %d" % (tmp, first_kt, bk))
    b.ins("rem.u32 %s, %s, %d" % (c0, tmp, g["c"]))
    b.ins("div.u32 %s, %s, %d" % (tmp, tmp, g["c"]))      # tap
    b.ins("rem.u32 %s, %s, %d" % (soff, tmp, g["s"]))
    b.ins("div.u32 %s, %s, %d" % (roff, tmp, g["s"]))
    b.ins("mul.lo.u32 %s, %s, %d" % (soff, soff, g["dilation_w"]))
    b.ins("mul.lo.u32 %s, %s, %d" % (roff, roff, g["dilation_h"]))


def emit_tap_advance(b, g, c0, soff, roff, pred, elem_bytes=2):
    """The next (channel chunk, tap) of the K loop: c0 += the channel block;
    at C the next column tap (soff += dilation_w); at S taps the next row
    (roff)."""
    b.ins("add.u32 %s, %s, %d" % (c0, c0, channel_block(elem_bytes)))
    b.ins("setp.eq.u32 %s, %s, %d" % (pred, c0, g["c"]))
    b.ins("@%s mov.u32 %s, 0" % (pred, c0))
    b.ins("@%s add.u32 %s, %s, %d" % (pred, soff, soff, g["dilation_w"]))
    b.ins("setp.eq.u32 %s, %s, %d" % (pred, soff, g["s"] * g["dilation_w"]))
    b.ins("@%s mov.u32 %s, 0" % (pred, soff))
    b.ins("@%s add.u32 %s, %s, %d" % (pred, roff, roff, g["dilation_h"]))
