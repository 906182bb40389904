// JIT tests of the whole pipeline (advisor sketch, bufferization, packing,
// emitted microkernels) on GEMM shapes that stress edges: unit and prime
// dimensions, K = 1, exact multiples of the register block. Each program
// checks every element of C against an f64 reference (see
// gen_matmul_test.py --help).
// REQUIRES: host-avx512
// DEFINE: %{run} = tensorop-opt --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils

// RUN: %gen_matmul 1 1 1 | %{run} | FileCheck %s
// RUN: %gen_matmul 2 3 4 | %{run} | FileCheck %s
// RUN: %gen_matmul 5 7 1 | %{run} | FileCheck %s
// RUN: %gen_matmul 64 64 1 | %{run} | FileCheck %s
// RUN: %gen_matmul 1 131 67 | %{run} | FileCheck %s
// RUN: %gen_matmul 97 1 67 | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 300 | %{run} | FileCheck %s
// RUN: %gen_matmul 7 9 5 | %{run} | FileCheck %s
// RUN: %gen_matmul 3 3 25 | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 19 | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 | %{run} | FileCheck %s
// RUN: %gen_matmul 127 257 513 | %{run} | FileCheck %s
// RUN: %gen_matmul 96 128 64 | %{run} | FileCheck %s
// RUN: %gen_matmul 16 16 16 | %{run} | FileCheck %s
// RUN: %gen_matmul 255 17 3 | %{run} | FileCheck %s
// RUN: %gen_matmul 17 300 129 | %{run} | FileCheck %s
// RUN: %gen_matmul 300 300 300 | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --seed 7 | %{run} | FileCheck %s
// RUN: %gen_matmul 33 65 200 --seed 12345 | %{run} | FileCheck %s

// The GEMM does go through the microkernel (not the upstream fallback).
// RUN: %gen_matmul 97 131 67 | tensorop-opt --tensorop-pipeline="target=x86-avx512" | FileCheck %s --check-prefix=ASM
// ASM: llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "{{.*}}vfmadd231ps {{.*}}%zmm

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
