"""Fused GEMM epilogues: the spec's step list and the constants they need.

An epilogue is what a microkernel applies to a C tile after its last K
panel, instead of a separate pass over C:

    x = C_old + sum_k A*B,  then each step in order,  then C = x

Steps (the spec's "epilogue" list; C++ writes the same strings into the
sketch's #tensorop.epilogue):
    bias_n          x += bias[col]      (bias: N floats)
    bias_m          x += bias[row]      (bias: M floats)
    residual        x += R[row][col]    (R: M x N, its own row stride)
    scale(s)        x *= s
    clamp(lo,hi)    x = min(max(x, lo), hi)
    relu            x = max(x, 0)
    tanh            x = tanh(x)
    sigmoid         x = 1 / (1 + exp(-x))   (= 0.5 + 0.5 tanh(x/2))
    silu            x = x * sigmoid(x)
    gelu_tanh       x = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    gelu_erf        x = 0.5 x (1 + erf(x / sqrt(2)))
    to_bf16         last step only: the output is bf16, x rounded to nearest
                    even (vcvtneps2bf16); C stays fp32 (see below)
    to_f16          likewise f16 (vcvtps2ph, round to nearest even)

With an output step the kernel reads C (fp32: the partial sums of the K
blocks before, unless c_update is "store") but writes the rounded x to the
output tile instead (its address and row stride in bytes in the block's
header), so a GEMM whose K is split into blocks keeps fp32 partial sums in C
and rounds once, on the last block. Only emitters that pass outputs=True to
parse_epilogue (x86 AVX-512) take them.

tanh and erf are odd rational approximations x P(x^2) / Q(x^2) on a
clamped input (the fp32 approximations of Eigen's generic_fast_tanh_float
and perf_erf_float; only mul/fma/div/min/max, no table, no exp). Measured in
emulated fp32 without FMA over [-20, 20] in steps of 1e-4: tanh's absolute
error <= 3.3e-7, erf's <= 4.2e-7 (scripts in the docs: docs/Epilogues.md).

The epilogue block (the microkernel's 8th operand, written by the pass):
    bytes  0.. 7  address of the bias, at the tile's first row/column
    bytes  8..15  address of R at the tile's first element
    bytes 16..23  R's row stride in bytes
    bytes 24..31  address of the output tile (output steps only)
    bytes 32..39  the output's row stride in bytes (output steps only)
    bytes 64 + 64*i   constant i, 16 copies (a full vector on any ISA)
    then the scratch tile the kernel spills its accumulators to
"""

import math
import re
import struct

from .common import SpecError

KINDS = ("bias_n", "bias_m", "residual", "scale", "clamp", "relu", "tanh",
         "sigmoid", "silu", "gelu_tanh", "gelu_erf", "to_bf16", "to_f16")
OUTPUT_KINDS = ("to_bf16", "to_f16")
ARITY = {"scale": 1, "clamp": 2}
MAX_STEPS = 16

HEADER_BYTES = 64
CONSTANT_BYTES = 64

TANH_CLAMP = 7.90531110763549805
TANH_P = (4.89352455891786e-03, 6.37261928875436e-04, 1.48572235717979e-05,
          5.12229709037114e-08, -8.60467152213735e-11, 2.00018790482477e-13,
          -2.76076847742355e-16)
TANH_Q = (4.89352518554385e-03, 2.26843463243900e-03, 1.18534705686654e-04,
          1.19825839466702e-06)
ERF_CLAMP = 4.0
ERF_P = (-1.60960333262415e-02, -2.95459980854025e-03, -7.34990630326855e-04,
         -5.69250639462346e-05, -2.10102402082508e-06, 2.77068142495902e-08,
         -2.72614225801306e-10)
ERF_Q = (-1.42647390514189e-02, -7.37332916720468e-03, -1.68282697438203e-03,
         -2.13374055278905e-04, -1.45660718464996e-05)
# 2^f = 1 + f*P(f) on [-0.5, 0.5] (Cephes exp2f's minimax polynomial,
# relative error 2e-9 before fp32 rounding): the AVX-512 GELU (tanh form)
# as x / (1 + 2^t) with 2^t = 2^f * 2^round(t) (x86_epilogue.py).
EXP2_P = (1.535336188319500e-04, 1.339887440266574e-03, 9.618437357674640e-03,
          5.550332471162809e-02, 2.402264791363012e-01, 6.931472028550421e-01)
SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
GELU_CUBIC = 0.044715

_STEP_RE = re.compile(r"([a-z_0-9]+)(?:\(([^()]*)\))?")


class Step:
    def __init__(self, kind, args):
        self.kind = kind
        self.args = args

    def __repr__(self):
        if not self.args:
            return self.kind
        return "%s(%s)" % (self.kind, ",".join(repr(a) for a in self.args))


def _fits_f32(value):
    """Whether value rounds to a finite f32 (to nearest even)."""
    try:
        struct.pack("<f", value)
        return True
    except OverflowError:
        return False


def parse_epilogue(spec, field="epilogue", outputs=False):
    """The spec's step list as Steps (empty if absent), checked. Output
    steps (to_bf16, to_f16) only with `outputs`, and only last."""
    value = spec.get(field, [])
    if not isinstance(value, list):
        raise SpecError(field, "must be a list of step strings")
    if len(value) > MAX_STEPS:
        raise SpecError(field, "at most %d steps, got %d" % (MAX_STEPS, len(value)))
    steps = []
    for text in value:
        if not isinstance(text, str):
            raise SpecError(field, "steps must be strings, got %r" % (text,))
        m = _STEP_RE.fullmatch(text.replace(" ", ""))
        if not m or m.group(1) not in KINDS:
            raise SpecError(field, "unknown step %r (known: %s)" % (text, ", ".join(KINDS)))
        kind = m.group(1)
        args = []
        if m.group(2) is not None and m.group(2) != "":
            try:
                args = [float(a) for a in m.group(2).split(",")]
            except ValueError:
                raise SpecError(field, "step %r: arguments must be numbers" % text)
        if len(args) != ARITY.get(kind, 0):
            raise SpecError(field, "step %r takes %d argument(s), got %d"
                            % (text, ARITY.get(kind, 0), len(args)))
        if any(math.isnan(a) or math.isinf(a) for a in args):
            raise SpecError(field, "step %r: arguments must be finite" % text)
        # The steps compute in fp32: 1e40 is finite here but inf there (and
        # struct.pack("<f") raised OverflowError on it).
        if any(not _fits_f32(a) for a in args):
            raise SpecError(field, "step %r: out of range for f32, the type the "
                            "epilogue computes in (at most 3.4e38 in magnitude)" % text)
        if kind == "clamp" and args[0] > args[1]:
            raise SpecError(field, "step %r: lo > hi" % text)
        if kind in OUTPUT_KINDS and not outputs:
            raise SpecError(field, "step %r: this kernel writes C in its own type "
                            "(an output step is built for x86 AVX-512 only)" % text)
        steps.append(Step(kind, args))
    for s in steps[:-1]:
        if s.kind in OUTPUT_KINDS:
            raise SpecError(field, "the output step %r must be the last" % s.kind)
    for group in (("bias_n", "bias_m"), ("residual",)):
        if sum(1 for s in steps if s.kind in group) > 1:
            raise SpecError(field, "at most one of %s" % " / ".join(group))
    return steps


class ConstantTable:
    """Constants of the epilogue block, deduplicated, in first-use order."""

    def __init__(self):
        self.values = []

    def offset(self, value):
        """Byte offset of `value`'s slot in the epilogue block."""
        v = float(value)
        for i, known in enumerate(self.values):
            if known == v and math.copysign(1, known) == math.copysign(1, v):
                return HEADER_BYTES + CONSTANT_BYTES * i
        self.values.append(v)
        return HEADER_BYTES + CONSTANT_BYTES * (len(self.values) - 1)

    def scratch_offset(self):
        return HEADER_BYTES + CONSTANT_BYTES * len(self.values)
