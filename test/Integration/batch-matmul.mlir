// linalg.batch_matmul and linalg.batch_reduce_matmul through the sketch
// path: tensorop-decompose-batch-matmul turns them into loops of slice
// matmuls that get microkernels. Each program checks every element against
// an f64 reference (see gen_batch_matmul_test.py --help); the ASM runs check
// the microkernel is there (the upstream fallback would have none).
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = tensorop-opt --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils

// RUN: %gen_batch_matmul 3 5 7 4 | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 2 97 131 67 | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 1 1 1 1 | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 4 33 17 1 --transpose-b | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 3 64 48 33 --tensors | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 3 20 40 30 --reduce | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 2 20 40 30 --reduce --transpose-b --tensors | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 5 37 29 53 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2 min-flops-per-thread=0" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp | FileCheck %s
// RUN: %gen_batch_matmul 5 37 29 53 | tensorop-opt --tensorop-pipeline="target=x86-avx2" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s

// Dynamic batch and matrix dimensions (runtime batch 0 included).
// RUN: %gen_batch_matmul 3 5 7 4 --dynamic=b | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 0 5 7 4 --dynamic=b | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 3 97 131 67 --dynamic=bmnk | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 2 20 40 30 --reduce --dynamic=bk --tensors | %{run} | FileCheck %s
// RUN: %gen_batch_matmul 4 33 17 9 --transpose-b --dynamic=bm | %{run} | FileCheck %s

// RUN: %gen_batch_matmul 2 97 131 67 | tensorop-opt --tensorop-pipeline="target=x86-avx512" | FileCheck %s --check-prefix=ASM
// RUN: %gen_batch_matmul 3 97 131 67 --dynamic=bmnk | tensorop-opt --tensorop-pipeline="target=x86-avx512" | FileCheck %s --check-prefix=ASM
// RUN: %gen_batch_matmul 2 20 40 30 --reduce --tensors | tensorop-opt --tensorop-pipeline="target=x86-avx512" | FileCheck %s --check-prefix=ASM

// CHECK: failures: 0
// ASM: llvm.inline_asm
