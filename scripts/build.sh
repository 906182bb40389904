#!/usr/bin/env bash
# Configures and builds TensorOp in build/ against Debian's LLVM/MLIR 22,
# with warnings as errors (CI builds this way; a clean build has none).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DTENSOROP_WERROR=ON
fi
ninja -C build
