#!/usr/bin/env bash
# Configures and builds TensorOp against Debian's LLVM/MLIR 22, with warnings
# as errors (CI builds this way; a clean build has none).
#
#   build.sh             build/: the normal (Release) build
#   build.sh --sanitize  build-asan/: our code with ASan and UBSan (every
#                        report fatal) and the libFuzzer harnesses of fuzz/;
#                        -O1, as sanitizer builds usually are
# ccache is used when it is installed (it is not needed).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build
extra=()
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-asan
  extra=(-DTENSOROP_SANITIZERS="address;undefined" -DTENSOROP_FUZZERS=ON
         -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG"
         -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG")
elif [ -n "${1:-}" ]; then
  echo "build.sh: unknown option '$1' (use --sanitize or nothing)" >&2
  exit 2
fi
if command -v ccache >/dev/null; then
  extra+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$dir/build.ninja" ]; then
  cmake -G Ninja -S . -B "$dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DTENSOROP_WERROR=ON "${extra[@]}"
fi
ninja -C "$dir"
