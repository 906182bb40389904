// Matmuls with dynamic dimensions through the sketch path: the sketch is
// chosen for a representative size (tensorop.size_hint or the default), the
// loops run to the runtime extents and the microkernel's m_rem/n_rem take
// the edges. Each program passes static buffers through ? types and checks
// every element against an f64 reference (gen_matmul_test.py --help),
// including runtime sizes 0 and 1.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{avx512} = tensorop-opt --tensorop-pipeline="target=x86-avx512"

// RUN: %gen_matmul 97 131 67 --dynamic=m | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dynamic=mnk | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 200 300 100 --dynamic=n | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 33 77 1027 --dynamic=k --size-hint=33,77,64 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 1000 64 513 --dynamic=m | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dynamic=mk --transpose-a --transpose-b | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dynamic=mnk --tensors | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 1 --dynamic=mnk | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 0 5 7 --dynamic=m | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 5 7 0 --dynamic=k | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 5 0 7 --dynamic=mnk | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dynamic=mnk | tensorop-opt --tensorop-pipeline="target=x86-avx2" | %{run} | FileCheck %s

// Two threads: a dynamic split dimension is chunked at run time (chunks may
// be empty), a static one is preferred.
// RUN: %gen_matmul 97 131 67 --dynamic=m | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dynamic=mnk | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_matmul 3 1000 67 --dynamic=mn | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 1 --dynamic=mnk | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s

// The microkernel is there (the upstream fallback would have none), and the
// remark says which size the sketch was chosen for.
// RUN: %gen_matmul 97 131 67 --dynamic=mnk | %{avx512} 2>&1 | FileCheck %s --check-prefix=ASM
// RUN: %gen_matmul 33 77 1027 --dynamic=k --size-hint=33,77,64 | %{avx512} 2>&1 | FileCheck %s --check-prefix=HINT

// CHECK: failures: 0
// ASM: remark: tensorop: dynamic dimensions: the sketch is chosen for M=512, N=512, K=512 (default; a tensorop.size_hint attribute sets it); the loops run to the runtime sizes
// ASM: llvm.inline_asm
// HINT: remark: tensorop: dynamic dimensions: the sketch is chosen for K=64 (tensorop.size_hint)
