#!/usr/bin/env python3
"""Verifies TensorOp's GPU convolutions and times them against cuDNN as
PyTorch drives it, in one process, on PyTorch's stream (GPU machine).

  python3 conv_vs_torch.py CASES.json [--rounds 10] [--out results.jsonl]

CASES.json (written by bench/gpu/build-conv.sh): a list of
  {"id", "conv": {n, h, w, c, f, r, s, stride_h, ...}, "dtype", "c_dtype",
   and either "entry": [libpath, symbol]  (tensorop gen's NAME_async linked
                                           into a shared object)
   or "launch": launch.json path          (an emitter's cubin, launched
                                           through libtensorop_cuda_runtime)}

For each case:
1. verification: input and filter uniform in [-1, 1) rounded to the input
   type, output prefilled with NaN, one call; every element is checked
   against an fp64 convolution of the same rounded inputs with the bound of
   shared/MEASURE.md, |y - ref| <= 2 K u_in (|x| * |w|) + u_out |ref|,
   K = R*S*C; NaN/Inf anywhere fails. Then small integers in [-2, 2]
   (exact sums in fp32): the output must equal the reference rounded to the
   output type bit for bit.
2. timing on fresh inputs: rounds alternating (which side goes first
   alternates) between our kernel and torch.nn.functional.conv2d on
   channels_last tensors of the same type with
   torch.backends.cudnn.benchmark = True (cuDNN autotunes its engines at the
   first call of each shape, outside the timing); each sample is `reps`
   back-to-back calls (about 20 ms) timed with CUDA events, twice:
   "graph": the `reps` calls captured once in a CUDA graph per side and the
   graph replayed (GPU time of the kernels: no Python, PyTorch dispatch or
   launch cost on either side; the numbers to compare kernels by), and
   "eager": the calls issued from Python one by one (what a program calling
   each side per layer sees, host cost included: PyTorch's dispatch for
   cuDNN, ctypes + NAME_async for ours). After timing, the buffer our timed
   calls wrote is checked again against the reference.
One JSON line per case (to --out and stdout).
"""

import argparse
import ctypes
import json
import math
import os
import sys
import time

import torch
import torch.nn.functional as F

# tf32: fp32 tensors, multiplied on the tensor cores with 10 mantissa bits
# (cuDNN: torch.backends.cudnn.allow_tf32 for those cases only).
TORCH_DTYPE = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
               "tf32": torch.float32}
UNIT_ROUNDOFF = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11, "f32": 2.0 ** -24, "tf32": 2.0 ** -11}


def out_shape(g):
    return (g["n"], g["out_h"], g["out_w"], g["f"])


class RuntimeLauncher:
    """Launches an emitter's cubin the way gen's host code does: tensor maps
    from libtensorop_cuda_runtime, then mgpuLaunchKernel."""

    def __init__(self, lib_path, launch_path):
        self.lib = ctypes.CDLL(lib_path)
        L = self.lib
        L.mgpuModuleLoad.restype = ctypes.c_void_p
        L.mgpuModuleLoad.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        L.mgpuModuleGetFunction.restype = ctypes.c_void_p
        L.mgpuModuleGetFunction.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        L.tensoropGpuTensorMap2D.restype = ctypes.c_void_p
        L.tensoropGpuTensorMap2D.argtypes = [ctypes.c_void_p] + [ctypes.c_int64] * 7
        L.tensoropGpuTensorMapIm2colNHWC.restype = ctypes.c_void_p
        L.tensoropGpuTensorMapIm2colNHWC.argtypes = [ctypes.c_void_p] + [ctypes.c_int64] * 14
        L.mgpuLaunchKernel.restype = None
        L.mgpuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_ssize_t] * 6 + [
            ctypes.c_int32, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p,
            ctypes.c_size_t]
        L.tensoropGpuTakeLastError.restype = ctypes.c_char_p
        self.launch = json.load(open(launch_path))
        blob = open(os.path.join(os.path.dirname(launch_path), self.launch["cubin"]), "rb").read()
        self.blob = ctypes.create_string_buffer(blob, len(blob))
        self.module = L.mgpuModuleLoad(self.blob, len(blob))
        self.fn = L.mgpuModuleGetFunction(self.module, self.launch["name"].encode())
        if not self.fn:
            raise RuntimeError("cannot load %s: %s" % (launch_path, L.tensoropGpuTakeLastError()))

    def __call__(self, x, w, y, stream):
        L, ln = self.lib, self.launch
        ptrs = {"A": x.data_ptr(), "B": w.data_ptr(), "C": y.data_ptr()}
        values = []
        for p in ln["params"]:
            if p["kind"] == "ptr":
                values.append(ptrs[p["name"]])
            elif p["kind"] == "tensormap":
                values.append(L.tensoropGpuTensorMap2D(
                    ptrs[p["tensor"]], p["dtype"], p["dims"][0], p["dims"][1],
                    p["strides_bytes"][0], p["box"][0], p["box"][1], p["swizzle"]))
            else:
                c, wd, h, n = p["dims"]
                values.append(L.tensoropGpuTensorMapIm2colNHWC(
                    ptrs[p["tensor"]], p["dtype"], n, h, wd, c, p["lower"][0], p["lower"][1],
                    p["upper"][0], p["upper"][1], p["element_strides"][1],
                    p["element_strides"][2], p["channels"], p["pixels"], p["swizzle"]))
            if not values[-1]:
                raise RuntimeError("tensor map: %s" % L.tensoropGpuTakeLastError())
        args = (ctypes.c_uint64 * len(values))(*values)
        params = (ctypes.c_void_p * len(values))(
            *[ctypes.addressof(args) + 8 * i for i in range(len(values))])
        g = ln["grid"]
        L.mgpuLaunchKernel(self.fn, g[0], g[1], g[2], ln["threads"], 1, 1, ln["shared_bytes"],
                           stream, params, None, len(values))
        return 0


class EntryLauncher:
    """tensorop gen's int NAME_async(input, filter, output, stream)."""

    def __init__(self, lib_path, symbol):
        self.lib = ctypes.CDLL(lib_path)
        self.fn = getattr(self.lib, symbol + "_async")
        self.fn.restype = ctypes.c_int
        self.fn.argtypes = [ctypes.c_void_p] * 4

    def __call__(self, x, w, y, stream):
        return self.fn(x.data_ptr(), w.data_ptr(), y.data_ptr(), stream)


def padding_of(g, x_nchw):
    """conv2d pads symmetrically: uneven padding goes through F.pad first
    (only the odd shapes have any; their cuDNN time includes that pad)."""
    if g["pad_top"] == g["pad_bottom"] and g["pad_left"] == g["pad_right"]:
        return x_nchw, (g["pad_top"], g["pad_left"])
    return F.pad(x_nchw, (g["pad_left"], g["pad_right"], g["pad_top"], g["pad_bottom"])), (0, 0)


def torch_conv(g, x_nhwc, w_fcrs):
    """cuDNN through PyTorch: NHWC memory (channels_last), NHWF result."""
    x, pad = padding_of(g, x_nhwc.permute(0, 3, 1, 2))
    y = F.conv2d(x, w_fcrs, stride=(g["stride_h"], g["stride_w"]), padding=pad,
                 dilation=(g["dilation_h"], g["dilation_w"]))
    return y


def reference(g, x, w):
    """fp64 convolution of the rounded inputs and of their magnitudes (NHWF)."""
    xd, pad = padding_of(g, x.double().permute(0, 3, 1, 2))
    wd = w.double().permute(3, 2, 0, 1)            # HWCF -> FCHW
    kw = dict(stride=(g["stride_h"], g["stride_w"]), padding=pad,
              dilation=(g["dilation_h"], g["dilation_w"]))
    ref = F.conv2d(xd, wd, **kw).permute(0, 2, 3, 1)
    mag = F.conv2d(xd.abs(), wd.abs(), **kw).permute(0, 2, 3, 1)
    return ref, mag


def check(g, y, ref, mag, dtype, c_dtype):
    k = g["r"] * g["s"] * g["c"]
    yd = y.double()
    finite = torch.isfinite(yd)
    bad_nonfinite = int((~finite).sum())
    err = (yd - ref).abs()
    bound = 2 * k * UNIT_ROUNDOFF[dtype] * mag + UNIT_ROUNDOFF[c_dtype] * ref.abs()
    ratio = torch.where(finite, err / bound.clamp_min(1e-300), torch.full_like(err, math.inf))
    worst = float(ratio.max())
    fails = int((ratio > 1).sum())
    out = {"nonfinite": bad_nonfinite, "fails": fails, "max_err_over_bound": worst,
           "elements": y.numel()}
    if fails:
        idx = int(ratio.flatten().argmax())
        out["first_bad"] = {"index": idx, "got": float(yd.flatten()[idx]),
                            "want": float(ref.flatten()[idx])}
    return out


def captured(fn, reps):
    """A CUDA graph of `reps` calls of fn (warmed up on a side stream first,
    as PyTorch requires before capturing cuDNN)."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(reps):
            fn()
    torch.cuda.synchronize()
    return graph


def time_pair(ours, theirs, rounds, graphs):
    """Alternating rounds of `reps` back-to-back calls each, CUDA events;
    with `graphs`, each side's calls replayed from a CUDA graph."""
    stream = torch.cuda.current_stream()
    graph_of = {}

    def sample(fn, reps):
        if graphs:
            if fn not in graph_of:
                graph_of[fn] = captured(fn, reps)
            run = graph_of[fn].replay
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(stream)
        if graphs:
            run()
        else:
            for _ in range(reps):
                fn()
        b.record(stream)
        b.synchronize()
        return a.elapsed_time(b) / reps
    # reps for ~20 ms per sample, from a few calls
    for fn in (ours, theirs):
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    probe = time_pair_probe(ours, theirs)
    reps = max(3, min(2000, int(20.0 / max(probe, 1e-3))))
    # warm-up: at least 1 s of alternating samples
    start = time.time()
    while time.time() - start < 1.0:
        sample(ours, reps)
        sample(theirs, reps)
    ts_ours, ts_theirs = [], []
    for i in range(rounds):
        if i % 2 == 0:
            ts_ours.append(sample(ours, reps))
            ts_theirs.append(sample(theirs, reps))
        else:
            ts_theirs.append(sample(theirs, reps))
            ts_ours.append(sample(ours, reps))
    return ts_ours, ts_theirs, reps


def time_pair_probe(ours, theirs):
    """The slower side's time per call (ms) over 5 eager calls."""
    stream = torch.cuda.current_stream()
    worst = 0.0
    for fn in (ours, theirs):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(stream)
        for _ in range(5):
            fn()
        b.record(stream)
        b.synchronize()
        worst = max(worst, a.elapsed_time(b) / 5)
    return worst


def median(v):
    s = sorted(v)
    return s[len(s) // 2] if len(s) % 2 else 0.5 * (s[len(s) // 2 - 1] + s[len(s) // 2])


def run_case(case, runtime_lib, rounds, modes=("graph", "eager")):
    g = case["conv"]
    dtype, c_dtype = case["dtype"], case["c_dtype"]
    tin, tout = TORCH_DTYPE[dtype], TORCH_DTYPE[c_dtype]
    torch.backends.cudnn.allow_tf32 = dtype == "tf32"
    if "entry" in case:
        launcher = EntryLauncher(*case["entry"])
    else:
        launcher = RuntimeLauncher(runtime_lib, case["launch"])
    stream = torch.cuda.current_stream().cuda_stream
    gen = torch.Generator(device="cuda").manual_seed(42)
    result = {"id": case["id"], "conv": g, "dtype": dtype, "c_dtype": c_dtype,
              "flops": 2.0 * g["n"] * g["out_h"] * g["out_w"] * g["f"] * g["r"] * g["s"] * g["c"]}
    x = (torch.rand((g["n"], g["h"], g["w"], g["c"]), device="cuda", generator=gen) * 2 - 1).to(tin)
    w = (torch.rand((g["r"], g["s"], g["c"], g["f"]), device="cuda", generator=gen) * 2 - 1).to(tin)
    y = torch.full(out_shape(g), float("nan"), device="cuda", dtype=tout)
    rc = launcher(x, w, y, stream)
    torch.cuda.synchronize()
    result["call_status"] = rc
    ref, mag = reference(g, x, w)
    result["verify_random"] = check(g, y, ref, mag, dtype, c_dtype)
    # small integers: exact in fp32, so bitwise equal after rounding
    xi = torch.randint(-2, 3, x.shape, device="cuda", generator=gen).to(tin)
    wi = torch.randint(-2, 3, w.shape, device="cuda", generator=gen).to(tin)
    yi = torch.full(out_shape(g), float("nan"), device="cuda", dtype=tout)
    launcher(xi, wi, yi, stream)
    torch.cuda.synchronize()
    refi, _ = reference(g, xi, wi)
    mism = int((yi.double() != refi.to(tout).double()).sum())
    result["verify_integers"] = {"mismatches": mism}
    ok = (rc == 0 and result["verify_random"]["fails"] == 0
          and result["verify_random"]["nonfinite"] == 0 and mism == 0)
    result["verified"] = ok
    if not ok:
        return result
    # timing on fresh inputs
    x = (torch.rand(x.shape, device="cuda", generator=gen) * 2 - 1).to(tin)
    w = (torch.rand(w.shape, device="cuda", generator=gen) * 2 - 1).to(tin)
    y = torch.full(out_shape(g), float("nan"), device="cuda", dtype=tout)
    wt = w.permute(3, 2, 0, 1).contiguous(memory_format=torch.channels_last)
    torch_conv(g, x, wt)                       # cuDNN autotuning, untimed
    torch.cuda.synchronize()
    # the stream is read at each call: inside a graph capture it is the
    # capturing stream
    def ours():
        return launcher(x, w, y, torch.cuda.current_stream().cuda_stream)

    def theirs():
        return torch_conv(g, x, wt)

    timings = {}
    for mode in modes:
        try:
            t_ours, t_theirs, reps = time_pair(ours, theirs, rounds, mode == "graph")
        except Exception as e:  # say so; the other mode still runs
            torch.cuda.synchronize()
            timings[mode] = {"error": repr(e)}
            continue
        torch.cuda.synchronize()
        mo, mt = median(t_ours), median(t_theirs)
        timings[mode] = {"reps": reps, "ours_ms": t_ours, "cudnn_ms": t_theirs,
                         "ours_tflops_median": result["flops"] / mo / 1e9,
                         "cudnn_tflops_median": result["flops"] / mt / 1e9,
                         "ratio_cudnn_time_over_ours": mt / mo,
                         "ours_spread": (max(t_ours) - min(t_ours)) / mo,
                         "cudnn_spread": (max(t_theirs) - min(t_theirs)) / mt}
    result["timing"] = timings
    ref, mag = reference(g, x, w)
    result["verify_after_timing"] = check(g, y, ref, mag, dtype, c_dtype)
    yt = torch_conv(g, x, wt).permute(0, 2, 3, 1)
    result["verify_cudnn"] = check(g, yt, ref, mag, dtype, c_dtype)
    result["verified"] = ok and result["verify_after_timing"]["fails"] == 0 \
        and result["verify_after_timing"]["nonfinite"] == 0
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--runtime", default=None, help="libtensorop_cuda_runtime.so")
    ap.add_argument("--out", default=None)
    ap.add_argument("--modes", default="graph,eager", help="timing modes (graph, eager)")
    args = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.cuda.init()
    torch.zeros(1, device="cuda")              # the primary context is current now
    cases = json.load(open(args.cases))
    base = os.path.dirname(os.path.abspath(args.cases))
    runtime = args.runtime or os.path.join(base, "libtensorop_cuda_runtime.so")
    env = {"torch": torch.__version__, "cuda": torch.version.cuda,
           "cudnn": torch.backends.cudnn.version(), "device": torch.cuda.get_device_name(0)}
    print(json.dumps({"environment": env}), flush=True)
    out = open(args.out, "w") if args.out else None
    if out:
        out.write(json.dumps({"environment": env}) + "\n")
    for case in cases:
        for key in ("launch",):
            if key in case:
                case[key] = os.path.join(base, case[key])
        if "entry" in case:
            case["entry"][0] = os.path.join(base, case["entry"][0])
        try:
            r = run_case(case, runtime, args.rounds, args.modes.split(","))
        except Exception as e:  # one broken case must not hide the others
            r = {"id": case["id"], "verified": False, "error": repr(e)}
            torch.cuda.synchronize()
        line = json.dumps(r)
        summary = {k: r.get(k) for k in ("id", "verified", "error")}
        for mode, t in r.get("timing", {}).items():
            if "error" in t:
                summary[mode] = t["error"]
                continue
            summary[mode] = [round(t["ours_tflops_median"], 1),
                             round(t["cudnn_tflops_median"], 1),
                             round(t["ratio_cudnn_time_over_ours"], 3)]
        if "verify_random" in r:
            summary["max_err_over_bound"] = r["verify_random"]["max_err_over_bound"]
            summary["fails"] = r["verify_random"]["fails"]
            summary["int_mismatches"] = r["verify_integers"]["mismatches"]
        print(json.dumps(summary), flush=True)
        if out:
            out.write(line + "\n")
            out.flush()


if __name__ == "__main__":
    main()
