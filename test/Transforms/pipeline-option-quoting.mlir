// Option values reach the pass as values (never pasted into pipeline text),
// so a value with a space gets a diagnostic, not an abort.

// RUN: not tensorop-opt %s --tensorop-pipeline='target=x86-avx512 advisor="no such advisor"' 2>&1 | FileCheck %s
// CHECK: error: tensorop-pipeline: unknown advisor 'no such advisor'

func.func @gemm(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  linalg.matmul ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}
