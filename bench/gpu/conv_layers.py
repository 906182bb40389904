"""The convolution layers the GPU conv benchmark measures: ResNet-50's
(torchvision v1.5 layout: the stride sits on the 3x3 convolution), NHWC."""

# name: (H, W, C, F, R, S, stride, pad)
RESNET50 = [
    ("conv1_7x7s2", 224, 224, 3, 64, 7, 7, 2, 3),
    ("l1_3x3_56x56x64", 56, 56, 64, 64, 3, 3, 1, 1),
    ("l2_3x3_28x28x128", 28, 28, 128, 128, 3, 3, 1, 1),
    ("l3_3x3_14x14x256", 14, 14, 256, 256, 3, 3, 1, 1),
    ("l4_3x3_7x7x512", 7, 7, 512, 512, 3, 3, 1, 1),
    ("l2_3x3s2_56to28x128", 56, 56, 128, 128, 3, 3, 2, 1),
    ("l3_3x3s2_28to14x256", 28, 28, 256, 256, 3, 3, 2, 1),
    ("l4_3x3s2_14to7x512", 14, 14, 512, 512, 3, 3, 2, 1),
    ("l1_1x1_56x56x64to256", 56, 56, 64, 256, 1, 1, 1, 0),
    ("l1_1x1_56x56x256to64", 56, 56, 256, 64, 1, 1, 1, 0),
    ("l2_1x1_28x28x128to512", 28, 28, 128, 512, 1, 1, 1, 0),
    ("l3_1x1_14x14x1024to256", 14, 14, 1024, 256, 1, 1, 1, 0),
    ("l4_1x1_7x7x2048to512", 7, 7, 2048, 512, 1, 1, 1, 0),
    ("l2_1x1s2_56to28x256to512", 56, 56, 256, 512, 1, 1, 2, 0),
]


def geometry(n, layer):
    name, h, w, c, f, r, s, stride, pad = layer
    g = {"n": n, "h": h, "w": w, "c": c, "f": f, "r": r, "s": s, "stride_h": stride,
         "stride_w": stride, "dilation_h": 1, "dilation_w": 1, "pad_top": pad,
         "pad_left": pad, "pad_bottom": pad, "pad_right": pad}
    g["out_h"] = (h + 2 * pad - r) // stride + 1
    g["out_w"] = (w + 2 * pad - s) // stride + 1
    return g


def request(n, layer, dtype):
    """The one-line `tensorop gen` request of a layer."""
    name, h, w, c, f, r, s, stride, pad = layer
    return ("conv2d N=%d H=%d W=%d C=%d F=%d R=%d S=%d stride=%d pad=%d %s for nvidia-sm90"
            % (n, h, w, c, f, r, s, stride, pad, dtype))


# Odd geometries (correctness across the im2col corner cases, timed too):
# (name, n, h, w, c, f, r, s, stride_h, stride_w, dil_h, dil_w, pad t, l, b, r)
ODD = [
    ("odd_3x5_s2x1_d1x2", 3, 17, 23, 64, 72, 3, 5, 2, 1, 1, 2, 1, 2, 0, 1),
    ("odd_5x5_p2_c192", 2, 9, 11, 192, 40, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2),
    ("odd_3x3_d2_p2", 4, 30, 30, 128, 96, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2),
]


def odd_geometry(case):
    (name, n, h, w, c, f, r, s, sh, sw, dh, dw, pt, pl, pb, pr) = case
    g = {"n": n, "h": h, "w": w, "c": c, "f": f, "r": r, "s": s, "stride_h": sh,
         "stride_w": sw, "dilation_h": dh, "dilation_w": dw, "pad_top": pt,
         "pad_left": pl, "pad_bottom": pb, "pad_right": pr}
    g["out_h"] = (h + pt + pb - (dh * (r - 1) + 1)) // sh + 1
    g["out_w"] = (w + pl + pr - (dw * (s - 1) + 1)) // sw + 1
    return g


def odd_request(case, dtype):
    g = odd_geometry(case)
    return ("conv2d N=%(n)d H=%(h)d W=%(w)d C=%(c)d F=%(f)d R=%(r)d S=%(s)d "
            "stride_h=%(stride_h)d stride_w=%(stride_w)d dilation_h=%(dilation_h)d "
            "dilation_w=%(dilation_w)d pad_top=%(pad_top)d pad_left=%(pad_left)d "
            "pad_bottom=%(pad_bottom)d pad_right=%(pad_right)d " % g) + dtype + " for nvidia-sm90"
