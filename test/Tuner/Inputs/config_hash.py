#!/usr/bin/env python3
"""Recomputes a tuning-database row's config_hash from its sketch.

Reads `tensorop db show` JSON on stdin and prints "hash ok" when the stored
config_hash is the first 16 hex digits of SHA-256 over the canonical text
that databases have used since before the threads knob:
"mc=.. nc=.. kc=.. mr=.. nr=.. loop=.. micro=.. pack_a=.. pack_b=..
emitter=.. k_unroll=.. broadcast=.. prefetch_b=.." with " threads=N"
appended only when the sketch has threads other than 1 (after
" prefetch_b_cols=N" and " prefetch_a=N", likewise only when set), then,
for a sketch with an N tail, " n_tail=C block=MRxNR k_unroll=U
prefetch_a=P threads=T". A change of that
formula would orphan every record of existing databases. A
#tensorop.conv_sketch row (a CPU convolution) has its own text, "conv mr=..
nr=.. cb=.. taps=.. loop=.. pack_input=.. pack_filter=.. emitter=..
k_unroll=.. broadcast=.. prefetch_b=.. threads=..".
"""
import hashlib
import json
import re
import sys

row = json.load(sys.stdin)
# A GEMM sketch's N tail (#tensorop.n_tail, last) has fields of the same
# names: the main sketch's are read before it, the tail's from it.
cfg, _, tail = row["config"].partition(", n_tail = <")


def field(name, quoted, text=None):
    pat = r'\b%s = "([^"]*)"' % name if quoted else r"\b%s = (\d+)" % name
    m = re.search(pat, cfg if text is None else text)
    return m.group(1) if m else None


if cfg.startswith("#tensorop.conv_sketch"):
    # A CPU convolution's sketch (canonicalConvConfig): every knob, threads
    # always (1 when the sketch leaves it out).
    text = ("conv mr={} nr={} cb={} taps={} loop={} pack_input={} "
            "pack_filter={} emitter={} k_unroll={} broadcast={} prefetch_b={} "
            "threads={}").format(
        field("mr", False), field("nr", False), field("cb", False),
        field("taps", True), field("loop_order", True),
        field("pack_input", True), field("pack_filter", True),
        field("emitter", True), field("k_unroll", False),
        field("broadcast", True), field("prefetch_b", False),
        field("threads", False) or "1")
    want = hashlib.sha256(text.encode()).hexdigest()[:16]
    print("hash ok" if want == row["config_hash"] else
          "hash MISMATCH: stored %s, canonical %s for %r"
          % (row["config_hash"], want, text))
    sys.exit(0)

text = ("mc={} nc={} kc={} mr={} nr={} loop={} micro={} pack_a={} pack_b={} "
        "emitter={} k_unroll={} broadcast={} prefetch_b={}").format(
    field("mc", False), field("nc", False), field("kc", False),
    field("mr", False), field("nr", False), field("loop_order", True),
    field("micro_order", True), field("pack_a", True), field("pack_b", True),
    field("emitter", True), field("k_unroll", False), field("broadcast", True),
    field("prefetch_b", False))
for knob in ("prefetch_b_cols", "prefetch_a"):
    value = field(knob, False)
    if value is not None and value != "0":
        text += " %s=%s" % (knob, value)
threads = field("threads", False)
if threads is not None and threads != "1":
    text += " threads=" + threads
if tail:
    # canonicalConfig: " n_tail=C block=MRxNR k_unroll=U prefetch_a=P
    # threads=T", every field, after the main sketch's.
    text += " n_tail={} block={}x{} k_unroll={} prefetch_a={} threads={}".format(
        field("columns", False, tail), field("mr", False, tail),
        field("nr", False, tail), field("k_unroll", False, tail),
        field("prefetch_a", False, tail) or "0",
        field("threads", False, tail) or "1")
want = hashlib.sha256(text.encode()).hexdigest()[:16]
if want == row["config_hash"]:
    print("hash ok")
else:
    print("hash MISMATCH: stored %s, canonical %s for %r"
          % (row["config_hash"], want, text))
