# The device-side preamble of a GPU call script (bench/gpu/gpuNN-callM.sh),
# sourced, not run: the script copies it into its stage folder S beside
# itself and, on the GPU machine, does
#   S=$(cd "$(dirname "$0")" && pwd); . "$S/device-env.sh"
# It needs OUT (the device tool's output folder) and S (the stage folder,
# holding tensorop-gpu-runner), and then:
#   - R=$OUT/r exists: the raw files go there;
#   - LD_LIBRARY_PATH has the CUDA toolkit and the NVIDIA libraries of the
#     Python wheels (cuBLAS, cuBLASLt, ... of the nvidia.* packages), which
#     is where the device machine keeps them;
#   - $R/info.txt holds the date, load, nvidia-smi and the runner's
#     --device-info (device_env_end adds the end date);
#   - `step NAME` appends "NAME at <seconds since sourcing> s" to
#     $R/steps.txt (and stdout), so the raw files say how long each step ran.
# Call scripts before session 21 carry this inline (they are records of what
# ran and stay as they are).
: "${OUT:?device-env.sh: OUT is not set (the device tool sets it)}"
: "${S:?device-env.sh: S (the stage folder) is not set}"
R=$OUT/r
mkdir -p "$R"
NV=$(python3 -c 'import nvidia, os
print(":".join(os.path.join(p, d, "lib") for p in nvidia.__path__ for d in sorted(os.listdir(p))))' 2>/dev/null)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$NV:$LD_LIBRARY_PATH
{ date -u; uptime; nvidia-smi; "$S/tensorop-gpu-runner" --device-info; } > "$R/info.txt" 2>&1
device_env_t0=$(date +%s)
step() { echo "$1 at $(( $(date +%s) - device_env_t0 )) s" | tee -a "$R/steps.txt"; }
device_env_end() { date -u >> "$R/info.txt"; }
