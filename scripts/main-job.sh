#!/usr/bin/env bash
# The main job: install, build, then
#  1. tensorop gen: a verified fp32 GEMM kernel (object, header, reports)
#     from a one-line request with the builtin advisor, for this CPU, timed
#     against OpenBLAS (1 thread) and verified before and after timing;
#  2. the same pipeline from MLIR: tensorop-opt on an example module
#     (97x131x67, primes), JIT-run by mlir-runner, every element verified.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
export PATH="$PWD/build/bin:/usr/lib/llvm-22/bin:$PATH"

echo "== tensorop gen \"127x1000x513 fp32 GEMM for this CPU\" -o build/main-job"
# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE (set on some machines of this kind)
# would pin the OpenBLAS baseline to older kernels: unset them for the timing
# only. OpenBLAS's own result is verified like ours.
OPENBLAS_NUM_THREADS=1 OPENBLAS_CORETYPE= OPENBLAS_L2_SIZE= tensorop gen "127x1000x513 fp32 GEMM for this CPU" -o build/main-job
echo "report: build/main-job/report.md"

echo "== tensorop-opt --tensorop-pipeline=\"target=host\" examples/matmul_97x131x67.mlir | mlir-runner"
out=$(tensorop-opt --tensorop-pipeline="target=host advisor=builtin" examples/matmul_97x131x67.mlir \
  | mlir-runner -e main -entry-point-result=void -O3 \
      -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so)
echo "$out"
echo "$out" | grep -q "^failures: 0$" || { echo "main job: VERIFICATION FAILED"; exit 1; }
echo "main job: verified (every element within the MEASURE.md bound)"
