#!/usr/bin/env bash
# The main job: install, build, then run the TensorOp pipeline on an example
# GEMM (97x131x67 fp32, primes: no dimension is a tile multiple), JIT-run it
# with mlir-runner and verify every element against an fp64 reference.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
export PATH="$PWD/build/bin:/usr/lib/llvm-22/bin:$PATH"
echo "== tensorop-opt --tensorop-pipeline=\"target=host\" examples/matmul_97x131x67.mlir | mlir-runner"
out=$(tensorop-opt --tensorop-pipeline="target=host advisor=builtin" examples/matmul_97x131x67.mlir \
  | mlir-runner -e main -entry-point-result=void -O3 \
      -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so)
echo "$out"
echo "$out" | grep -q "^failures: 0$" || { echo "main job: VERIFICATION FAILED"; exit 1; }
echo "main job: verified (every element within the MEASURE.md bound)"
