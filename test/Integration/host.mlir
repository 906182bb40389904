// target=host picks x86-avx512 or x86-avx2 from this CPU's features.
// REQUIRES: host-avx2
// DEFINE: %{run} = tensorop-opt --tensorop-pipeline="target=host" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils

// RUN: %gen_matmul 1 1 1 | %{run} | FileCheck %s
// RUN: %gen_matmul 5 7 1 | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 | %{run} | FileCheck %s
// RUN: %gen_matmul 127 257 513 | %{run} | FileCheck %s
// RUN: %gen_matmul 96 128 64 --transpose-a --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --values ints | %{run} | FileCheck %s --check-prefix=EXACT

// The default target is host.
// RUN: %gen_matmul 97 131 67 | tensorop-opt --tensorop-pipeline | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s
// RUN: %gen_matmul 8 8 8 | tensorop-opt --tensorop-annotate-sketch | FileCheck %s --check-prefix=TARGET
// TARGET: target = <name = "x86-{{avx512|avx2}}"

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
