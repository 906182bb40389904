#!/usr/bin/env python3
"""A stand-in for tensorop-gpu-runner in CI (no GPU there): the same command
line and JSON protocol, so the tuner's GPU worker path (process per
candidate, wall-clock limit, classification, database, batches) is tested.

Speeds are a made-up deterministic function of the sketch; faults are chosen
by FAKE_GPU_FAULTS, e.g. "stages=3:crash,group_m=4:hang,block_n=64:wrong",
matched against the fields of the launch description's sketch. Kinds: crash
(a CUDA launch failure), oob (CUDA_ERROR_ILLEGAL_ADDRESS), hang (never
returns; with FAKE_GPU_LOG it starts a child that would outlive it), wrong (not verified), segv (the process dies of a signal),
nodevice (cuInit fails). FAKE_GPU_NONE=1 makes --device-info fail as on a
machine without a GPU. Every measurement appends the launch file's name and
the GPU it saw (CUDA_VISIBLE_DEVICES) to FAKE_GPU_LOG. Several GPUs:
FAKE_GPU_MODELS="1=Fake A100" names the model of GPU 1 (else Fake H200);
FAKE_GPU_SLEEP=S makes each measurement take S seconds.
"""
import json
import os
import re
import signal
import sys
import time


def die(code, msg):
    print(json.dumps({"error": msg}))
    sys.exit(code)


def main():
    args = sys.argv[1:]
    if "--device-info" in args:
        if os.environ.get("FAKE_GPU_NONE") == "1":
            die(2, "cuInit(0) failed: CUDA_ERROR_NO_DEVICE")
        gpu = os.environ.get("CUDA_VISIBLE_DEVICES", "")
        models = dict(m.split("=", 1) for m in
                      filter(None, os.environ.get("FAKE_GPU_MODELS", "").split(",")))
        print(json.dumps({"name": models.get(gpu, "Fake H200"), "compute_capability": "9.0",
                          "sms": 132, "driver": 13000}))
        return
    launch_path = next(a for a in args if a.endswith(".json"))
    with open(launch_path) as f:
        launch = json.load(f)
    log = os.environ.get("FAKE_GPU_LOG")
    if log:
        with open(log, "a") as f:
            f.write("%s gpu=%s\n" % (os.path.basename(launch_path),
                                     os.environ.get("CUDA_VISIBLE_DEVICES", "default")))
    time.sleep(float(os.environ.get("FAKE_GPU_SLEEP", "0")))
    # The binary the launch names must exist (what the real runner loads).
    binary = os.path.join(os.path.dirname(launch_path), launch["cubin"])
    if not os.path.exists(binary):
        die(2, "cannot read " + binary)
    fields = dict((k, int(v)) for k, v in
                  re.findall(r"(\w+) = (\d+)", launch.get("sketch", "")))
    for rule in filter(None, os.environ.get("FAKE_GPU_FAULTS", "").split(",")):
        cond, kind = rule.split(":")
        key, value = cond.split("=")
        if fields.get(key) != int(value):
            continue
        if kind == "crash":
            die(2, "cuStreamQuery failed: CUDA_ERROR_LAUNCH_FAILED")
        if kind == "oob":
            die(2, "kernel (random inputs) failed: CUDA_ERROR_ILLEGAL_ADDRESS")
        if kind == "hang":
            if log:
                # A helper process that would outlive a runner killed on its
                # own; the tuner kills the runner's whole process tree.
                import subprocess
                subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)",
                                  log + ".hang-child"])
            time.sleep(1000)
        if kind == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        if kind == "nodevice":
            die(2, "cuInit(0) failed: CUDA_ERROR_NO_DEVICE")
        if kind == "wrong":
            print(json.dumps({"verified": False, "verification": {
                "random": {"max_error_ratio": 12.5, "elements_over_bound": 4096}},
                "timing": {"performed": False}}))
            sys.exit(1)
    bm, bn = fields.get("block_m", 128), fields.get("block_n", 128)
    tflops = (300 + 0.8 * bm + 0.6 * bn - 12 * abs(fields.get("stages", 4) - 5)
              - 3 * abs(fields.get("group_m", 8) - 4))
    m, n, k = launch["m"], launch["n"], launch["k"]
    ms = 2.0 * m * n * k / (tflops * 1e12) * 1e3
    timing = {"performed": True, "tensorop_tflops_median": tflops,
              "tensorop_tflops_best": tflops * 1.01, "tensorop_ms_median": ms,
              "faster_than_peak": False}
    if "--no-cublas" not in args:
        timing["cublas_tflops_median"] = 700.0
        timing["ratio_median"] = tflops / 700.0
    print(json.dumps({"tool": "fake-gpu-runner", "verified": True,
                      "device": {"name": "Fake H200"},
                      "verification": {"random": {"max_error_ratio": 0.01}},
                      "timing": timing}))


main()
