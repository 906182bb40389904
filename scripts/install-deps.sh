#!/usr/bin/env bash
# Installs everything TensorOp needs on a fresh Debian 12 machine (as root, or
# with sudo). Safe to run again: apt-get skips what is already there.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
PACKAGES=(
  # LLVM/MLIR 22 (libraries, tools, lit/FileCheck), clang for C harnesses
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
  # clang-22's sanitizer runtimes and libFuzzer (the ASan+UBSan build and
  # the fuzzers of fuzz/, docs/Reliability.md)
  libclang-rt-22-dev
  # LLVM's OpenMP runtime: sketches with threads > 1 lower to OpenMP
  libomp-22-dev
  # build
  cmake ninja-build g++ python3
  # readelf: the install test checks what the consumer links
  binutils
  # baselines and libraries the tools link
  libopenblas-dev nlohmann-json3-dev libcurl4-openssl-dev libsqlite3-dev
  # oneDNN: the strongest CPU baseline for tensorop bench
  libdnnl-dev
  # libxsmm: the small-GEMM baseline of tensorop bench (optional at configure
  # time; bench/cpu/run.sh links it)
  libxsmm-dev
  # sandbox for LLM-written emitter scripts (setpriv is in util-linux); pgrep
  # for its tests
  bubblewrap util-linux procps
  # lit --timeout needs psutil
  python3-psutil
  # RISC-V and AArch64: cross C libraries for static test programs, qemu-user
  # to run them
  qemu-user gcc-riscv64-linux-gnu gcc-aarch64-linux-gnu
  libc6-dev-riscv64-cross libc6-dev-arm64-cross
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
echo "install-deps: all packages present"
