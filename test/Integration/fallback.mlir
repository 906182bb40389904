// Matmuls the TensorOp path does not handle (f64) still go through
// --tensorop-pipeline: the advisor leaves them with a remark, the upstream
// lowering computes them, and the results are exact (small integers). A
// handled static f32 GEMM, a dynamic one and a batch matmul (decomposed into
// slices that take the sketch path) in the same module are checked too.
// REQUIRES: host-avx512
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" -verify-diagnostics | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s
// The static and the dynamic f32 GEMM and the batch matmul's slice get a
// microkernel; the f64 one does not.
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" -verify-diagnostics | FileCheck %s --check-prefix=ASM
// ASM-COUNT-3: llvm.inline_asm
// ASM-NOT:     llvm.inline_asm

// CHECK-LABEL: dynamic:
// CHECK-NEXT:  ( 1, 11, 6, 11, 6 )
// CHECK-NEXT:  ( -7, 9, 5, 11, 7 )
// CHECK-NEXT:  ( -15, 7, 4, 11, 8 )
// CHECK-LABEL: f64:
// CHECK-NEXT:  ( 1, 11, 6, 11, 6 )
// CHECK-NEXT:  ( -7, 9, 5, 11, 7 )
// CHECK-NEXT:  ( -15, 7, 4, 11, 8 )
// CHECK-LABEL: batch:
// CHECK-NEXT:  ( 1, -2, -1, -4 )
// CHECK-NEXT:  ( 0, 0, 0, 0 )
// CHECK-NEXT:  ( 0, 0, 0, 0 )
// CHECK-NEXT:  ( 2, 1, 4, -1 )
// CHECK-LABEL: static:
// CHECK-NEXT:  ( 1, 11, 6, 11, 6 )
// CHECK-NEXT:  ( -7, 9, 5, 11, 7 )
// CHECK-NEXT:  ( -15, 7, 4, 11, 8 )

memref.global "private" constant @A : memref<3x4xf32> = dense<[[-3.0, -1.0, 1.0, 3.0], [-2.0, 0.0, 2.0, 4.0], [-1.0, 1.0, 3.0, 5.0]]>
memref.global "private" constant @B : memref<4x5xf32> = dense<[[-2.0, -2.0, -2.0, -2.0, -2.0], [-2.0, -1.0, 0.0, 1.0, 2.0], [-2.0, 0.0, 2.0, -1.0, 1.0], [-2.0, 1.0, -1.0, 2.0, 0.0]]>
memref.global "private" constant @A64 : memref<3x4xf64> = dense<[[-3.0, -1.0, 1.0, 3.0], [-2.0, 0.0, 2.0, 4.0], [-1.0, 1.0, 3.0, 5.0]]>
memref.global "private" constant @B64 : memref<4x5xf64> = dense<[[-2.0, -2.0, -2.0, -2.0, -2.0], [-2.0, -1.0, 0.0, 1.0, 2.0], [-2.0, 0.0, 2.0, -1.0, 1.0], [-2.0, 1.0, -1.0, 2.0, 0.0]]>
memref.global "private" constant @BA : memref<2x2x3xf32> = dense<[[[0.0, -1.0, -2.0], [1.0, 0.0, -1.0]], [[1.0, 0.0, -1.0], [2.0, 1.0, 0.0]]]>
memref.global "private" constant @BB : memref<2x3x4xf32> = dense<[[[-1.0, 0.0, 1.0, 2.0], [1.0, 2.0, -1.0, 0.0], [-1.0, 0.0, 1.0, 2.0]], [[0.0, 1.0, 2.0, -1.0], [2.0, -1.0, 0.0, 1.0], [0.0, 1.0, 2.0, -1.0]]]>

func.func @dynamic_gemm(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  // expected-remark @+1 {{tensorop: dynamic dimensions: the sketch is chosen for M=512, N=512, K=512 (default; a tensorop.size_hint attribute sets it); the loops run to the runtime sizes}}
  linalg.matmul ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

func.func @f64_gemm(%A: memref<3x4xf64>, %B: memref<4x5xf64>, %C: memref<3x5xf64>) {
  // expected-remark @+1 {{tensorop: not handled (element types other than f32 x f32 -> f32, bf16 x bf16 -> f32 and f16 x f16 -> f32 are not supported on CPU targets yet (got f64 x f64 -> f64)); lowered by the upstream pipeline}}
  linalg.matmul ins(%A, %B : memref<3x4xf64>, memref<4x5xf64>) outs(%C : memref<3x5xf64>)
  return
}

func.func @batch_gemm(%A: memref<2x2x3xf32>, %B: memref<2x3x4xf32>, %C: memref<2x2x4xf32>) {
  // expected-remark @+1 {{tensorop: batch matmul of 2 slices: each slice's matmul takes the sketch path}}
  linalg.batch_matmul ins(%A, %B : memref<2x2x3xf32>, memref<2x3x4xf32>) outs(%C : memref<2x2x4xf32>)
  return
}

func.func @static_gemm(%A: memref<3x4xf32>, %B: memref<4x5xf32>, %C: memref<3x5xf32>) {
  linalg.matmul ins(%A, %B : memref<3x4xf32>, memref<4x5xf32>) outs(%C : memref<3x5xf32>)
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c0_i = arith.constant 0 : index
  %c1_i = arith.constant 1 : index
  %c2_i = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %one64 = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f32
  %A = memref.get_global @A : memref<3x4xf32>
  %B = memref.get_global @B : memref<4x5xf32>

  // Dynamic shapes: C = 1 + A * B through memref<?x?xf32>.
  %C = memref.alloc() : memref<3x5xf32>
  linalg.fill ins(%one : f32) outs(%C : memref<3x5xf32>)
  %Ad = memref.cast %A : memref<3x4xf32> to memref<?x?xf32>
  %Bd = memref.cast %B : memref<4x5xf32> to memref<?x?xf32>
  %Cd = memref.cast %C : memref<3x5xf32> to memref<?x?xf32>
  call @dynamic_gemm(%Ad, %Bd, %Cd) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  vector.print str "dynamic:\n"

  %r0 = vector.transfer_read %C[%c0_i, %c0], %zero : memref<3x5xf32>, vector<5xf32>
  vector.print %r0 : vector<5xf32>
  %r1 = vector.transfer_read %C[%c1_i, %c0], %zero : memref<3x5xf32>, vector<5xf32>
  vector.print %r1 : vector<5xf32>
  %r2 = vector.transfer_read %C[%c2_i, %c0], %zero : memref<3x5xf32>, vector<5xf32>
  vector.print %r2 : vector<5xf32>

  // The same in f64.
  %A64 = memref.get_global @A64 : memref<3x4xf64>
  %B64 = memref.get_global @B64 : memref<4x5xf64>
  %C64 = memref.alloc() : memref<3x5xf64>
  %zero64 = arith.constant 0.0 : f64
  linalg.fill ins(%one64 : f64) outs(%C64 : memref<3x5xf64>)
  call @f64_gemm(%A64, %B64, %C64) : (memref<3x4xf64>, memref<4x5xf64>, memref<3x5xf64>) -> ()
  vector.print str "f64:\n"
  %d0 = vector.transfer_read %C64[%c0_i, %c0], %zero64 : memref<3x5xf64>, vector<5xf64>
  vector.print %d0 : vector<5xf64>
  %d1 = vector.transfer_read %C64[%c1_i, %c0], %zero64 : memref<3x5xf64>, vector<5xf64>
  vector.print %d1 : vector<5xf64>
  %d2 = vector.transfer_read %C64[%c2_i, %c0], %zero64 : memref<3x5xf64>, vector<5xf64>
  vector.print %d2 : vector<5xf64>

  // Batch matmul onto zeros.
  %BA = memref.get_global @BA : memref<2x2x3xf32>
  %BB = memref.get_global @BB : memref<2x3x4xf32>
  %BC = memref.alloc() : memref<2x2x4xf32>
  linalg.fill ins(%zero : f32) outs(%BC : memref<2x2x4xf32>)
  call @batch_gemm(%BA, %BB, %BC) : (memref<2x2x3xf32>, memref<2x3x4xf32>, memref<2x2x4xf32>) -> ()
  vector.print str "batch:\n"
  %b00 = vector.transfer_read %BC[%c0_i, %c0_i, %c0], %zero : memref<2x2x4xf32>, vector<4xf32>
  vector.print %b00 : vector<4xf32>
  %b01 = vector.transfer_read %BC[%c0_i, %c1_i, %c0], %zero : memref<2x2x4xf32>, vector<4xf32>
  vector.print %b01 : vector<4xf32>
  %b10 = vector.transfer_read %BC[%c1_i, %c0_i, %c0], %zero : memref<2x2x4xf32>, vector<4xf32>
  vector.print %b10 : vector<4xf32>
  %b11 = vector.transfer_read %BC[%c1_i, %c1_i, %c0], %zero : memref<2x2x4xf32>, vector<4xf32>
  vector.print %b11 : vector<4xf32>

  // The handled static f32 GEMM gives the same numbers as the dynamic one.
  %S = memref.alloc() : memref<3x5xf32>
  linalg.fill ins(%one : f32) outs(%S : memref<3x5xf32>)
  call @static_gemm(%A, %B, %S) : (memref<3x4xf32>, memref<4x5xf32>, memref<3x5xf32>) -> ()
  vector.print str "static:\n"
  %s0 = vector.transfer_read %S[%c0_i, %c0], %zero : memref<3x5xf32>, vector<5xf32>
  vector.print %s0 : vector<5xf32>
  %s1 = vector.transfer_read %S[%c1_i, %c0], %zero : memref<3x5xf32>, vector<5xf32>
  vector.print %s1 : vector<5xf32>
  %s2 = vector.transfer_read %S[%c2_i, %c0], %zero : memref<3x5xf32>, vector<5xf32>
  vector.print %s2 : vector<5xf32>

  memref.dealloc %C : memref<3x5xf32>
  memref.dealloc %C64 : memref<3x5xf64>
  memref.dealloc %BC : memref<2x2x4xf32>
  memref.dealloc %S : memref<3x5xf32>
  return
}
