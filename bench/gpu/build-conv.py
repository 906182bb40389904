#!/usr/bin/env python3
"""Builds, here (no GPU needed), what bench/gpu/conv_vs_torch.py runs on the
GPU machine, into STAGE (git-ignored; the device tool carries it):

  build-conv.py --build build --stage STAGE [--mode gen|emitter]
                [--batches 32,1] [--dtypes bf16,f16] [--only SUBSTRING]

gen (default): `tensorop gen "<request>"` per layer (one-line requests,
  bench/gpu/conv_layers.py), every object linked with
  libtensorop_cuda_runtime.a into one shared object, libconvs.so, whose
  NAME_async entry points the harness calls on PyTorch's stream.
emitter: the kernels straight from python_emitters/nvidia_gemm_wgmma.py
  (no MLIR; tile as the builtin advisor would choose), launched by the
  harness through libtensorop_cuda_runtime.so.
A layer gen refuses (e.g. conv1's 3 input channels) is listed in
STAGE/refused.txt with gen's message, not silently dropped.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import conv_layers  # noqa: E402

CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda")


def emitter_case(stage, cid, g, dtype, tile=None):
    m = g["n"] * g["out_h"] * g["out_w"]
    f = g["f"]
    bn = 64 if f <= 64 else 128 if f <= 128 else 256
    bm, consumers = 128, 2
    if tile:
        bm, bn, consumers = tile
    stages = min(6, (232448 - 1024) // ((bm + bn) * 128))
    conv = {k: v for k, v in g.items() if k not in ("out_h", "out_w")}
    spec = {"name": "k_" + cid, "m": m, "n": f, "k": g["r"] * g["s"] * g["c"],
            "a_dtype": dtype, "c_dtype": "f32" if dtype == "tf32" else dtype, "sm": 90,
            "block_m": bm, "block_n": bn,
            "consumers": consumers, "stages": stages, "sms": 132, "conv": conv}
    script = os.path.join(ROOT, "python_emitters", "nvidia_gemm_wgmma.py")
    text = json.dumps(spec)
    res = subprocess.run([sys.executable, script], input=text, capture_output=True, text=True)
    if res.returncode:
        return None, res.stdout + res.stderr
    launch = json.loads(res.stdout)
    ptx = subprocess.run([sys.executable, script, "--format=ptx"], input=text,
                         capture_output=True, text=True, check=True).stdout
    ptx_path = os.path.join(stage, cid + ".ptx")
    open(ptx_path, "w").write(ptx)
    r = subprocess.run([os.path.join(CUDA, "bin", "ptxas"), "-arch=sm_90a", "-v", ptx_path,
                        "-o", os.path.join(stage, cid + ".cubin")], capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr
    os.remove(ptx_path)
    del launch["asm"]
    launch["cubin"] = cid + ".cubin"
    launch["ptxas"] = [l for l in r.stderr.splitlines() if "Used" in l or "spill" in l]
    json.dump(launch, open(os.path.join(stage, cid + ".launch.json"), "w"), indent=1)
    return {"launch": cid + ".launch.json"}, None


def gen_case(build, stage, cid, request):
    out = os.path.join(stage, "gen", cid)
    r = subprocess.run([os.path.join(build, "bin", "tensorop"), "gen", request, "-o", out,
                        "--name=" + cid], capture_output=True, text=True)
    if r.returncode:
        return None, r.stdout + r.stderr
    return {"entry": ["libconvs.so", cid], "object": os.path.join(out, cid + ".o"),
            "launch_json": os.path.join(out, cid + ".launch.json")}, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--stage", required=True)
    ap.add_argument("--mode", choices=("gen", "emitter"), default="gen")
    ap.add_argument("--batches", default="32,1")
    ap.add_argument("--no-odd", action="store_true", help="leave out the odd shapes")
    ap.add_argument("--target", default="nvidia-sm90", help="gen mode: nvidia-sm90 or nvidia-sm80")
    ap.add_argument("--dtypes", default="bf16,f16")
    ap.add_argument("--only", default="")
    ap.add_argument("--tiles", default="",
                    help="emitter mode: BMxBNxCONSUMERS,... one case per tile (a sweep)")
    args = ap.parse_args()
    stage = os.path.abspath(args.stage)
    build = os.path.abspath(args.build)
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    cases, refused, objects = [], [], []
    for dtype in args.dtypes.split(","):
        for n in [int(b) for b in args.batches.split(",")]:
            for layer in conv_layers.RESNET50:
                cid = "%s_n%d_%s" % (layer[0], n, dtype)
                if args.only and args.only not in cid:
                    continue
                g = conv_layers.geometry(n, layer)
                request = conv_layers.request(n, layer, dtype).replace("nvidia-sm90",
                                                                        args.target)
                tiles = [tuple(int(x) for x in t.split("x")) for t in args.tiles.split(",")
                         if t] or [None]
                for tile in tiles:
                    tid = cid + ("_t%dx%dx%d" % tile if tile else "")
                    if args.mode == "emitter":
                        made, why = emitter_case(stage, tid, g, dtype, tile)
                    else:
                        made, why = gen_case(build, stage, tid, request)
                    if made is None:
                        refused.append("%s: %s\n  %s" % (tid, request,
                                                         why.strip().replace("\n", "\n  ")))
                        print("refused:", tid, file=sys.stderr)
                        continue
                    case = {"id": tid, "request": request, "conv": g, "dtype": dtype,
                            "c_dtype": "f32" if dtype == "tf32" else dtype}
                    if tile:
                        case["tile"] = list(tile)
                    if "object" in made:
                        objects.append(made.pop("object"))
                        launch = json.load(open(made.pop("launch_json")))
                        case["sketch"] = launch.get("sketch")
                    case.update(made)
                    cases.append(case)
                    print("built:", tid, file=sys.stderr)
    for dtype in ([] if args.no_odd else args.dtypes.split(",")):
        for odd in conv_layers.ODD:
            cid = "%s_%s" % (odd[0], dtype)
            if args.only and args.only not in cid:
                continue
            g = conv_layers.odd_geometry(odd)
            request = conv_layers.odd_request(odd, dtype).replace("nvidia-sm90", args.target)
            if args.mode == "emitter":
                made, why = emitter_case(stage, cid, g, dtype)
            else:
                made, why = gen_case(build, stage, cid, request)
            if made is None:
                refused.append("%s: %s\n  %s" % (cid, request, why.strip()))
                continue
            case = {"id": cid, "request": request, "conv": g, "dtype": dtype,
                    "c_dtype": "f32" if dtype == "tf32" else dtype}
            if "object" in made:
                objects.append(made.pop("object"))
                launch = json.load(open(made.pop("launch_json")))
                case["sketch"] = launch.get("sketch")
            case.update(made)
            cases.append(case)
    if objects:
        subprocess.run(["clang++-22", "-shared", "-o", os.path.join(stage, "libconvs.so")]
                       + objects + [os.path.join(build, "lib", "libtensorop_cuda_runtime.a"),
                                    "-L" + os.path.join(CUDA, "lib64", "stubs"), "-lcuda",
                                    "-static-libstdc++", "-static-libgcc"], check=True)
        shutil.rmtree(os.path.join(stage, "gen"))
    else:
        shutil.copy(os.path.join(build, "lib", "libtensorop_cuda_runtime.so"), stage)
    json.dump(cases, open(os.path.join(stage, "cases.json"), "w"), indent=1)
    open(os.path.join(stage, "refused.txt"), "w").write("\n".join(refused) + "\n")
    for f in ("conv_vs_torch.py", "run-conv.sh"):
        shutil.copy(os.path.join(HERE, f), stage)
    print("%d cases, %d refused -> %s" % (len(cases), len(refused), stage))


if __name__ == "__main__":
    main()
