// A program written with tensors only: generated inputs, matmuls whose
// outputs start from linalg.fill of tensor.empty, one matmul feeding
// another, no explicit deallocation (so the upstream buffer-deallocation
// pipeline runs). Small integers make the checksum exact.
// REQUIRES: host-avx512
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s
// Both matmuls use the microkernel; all buffers are freed.
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" | FileCheck %s --check-prefix=ASM
// ASM-COUNT-2: llvm.inline_asm has_side_effects
// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512" --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --tensorop-deallocate-buffers --tensorop-apply-sketch | FileCheck %s --check-prefix=FREE
// FREE-LABEL: func.func @chain
// FREE:         %[[T:.+]] = memref.alloc() {{.*}} : memref<13x17xf32>
// FREE:         memref.dealloc %[[T]] : memref<13x17xf32>
// FREE-NEXT:    return

// CHECK:      checksum: 11544{{$}}
// CHECK-NEXT: D[0][0]: 7{{$}}
// CHECK-NEXT: D[5][7]: -15{{$}}
// CHECK-NEXT: D[12][10]: -15{{$}}

// D = 1 + (A * B) * E
func.func @chain(%A: tensor<13x19xf32>, %B: tensor<19x17xf32>, %E: tensor<17x11xf32>) -> tensor<13x11xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<13x17xf32>
  %t0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<13x17xf32>) -> tensor<13x17xf32>
  %t = linalg.matmul ins(%A, %B : tensor<13x19xf32>, tensor<19x17xf32>) outs(%t0 : tensor<13x17xf32>) -> tensor<13x17xf32>
  %e1 = tensor.empty() : tensor<13x11xf32>
  %d0 = linalg.fill ins(%one : f32) outs(%e1 : tensor<13x11xf32>) -> tensor<13x11xf32>
  %d = linalg.matmul ins(%t, %E : tensor<13x17xf32>, tensor<17x11xf32>) outs(%d0 : tensor<13x11xf32>) -> tensor<13x11xf32>
  return %d : tensor<13x11xf32>
}

// t[i][j] = ((i * p + j * q) mod r) - s
func.func @gen(%p: index, %q: index, %r: index, %s: index) -> tensor<13x19xf32> {
  %t = tensor.generate {
  ^bb0(%i: index, %j: index):
    %a = arith.muli %i, %p : index
    %b = arith.muli %j, %q : index
    %c = arith.addi %a, %b : index
    %m = arith.remui %c, %r : index
    %v = arith.subi %m, %s : index
    %vi = arith.index_cast %v : index to i64
    %f = arith.sitofp %vi : i64 to f32
    tensor.yield %f : f32
  } : tensor<13x19xf32>
  return %t : tensor<13x19xf32>
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %cM = arith.constant 13 : index
  %cL = arith.constant 11 : index
  %A = call @gen(%c3, %c5, %c7, %c3) : (index, index, index, index) -> tensor<13x19xf32>
  %B = tensor.generate {
  ^bb0(%k: index, %j: index):
    %a = arith.muli %k, %c2 : index
    %b = arith.muli %j, %c7 : index
    %c = arith.addi %a, %b : index
    %m = arith.remui %c, %c5 : index
    %v = arith.subi %m, %c2 : index
    %vi = arith.index_cast %v : index to i64
    %f = arith.sitofp %vi : i64 to f32
    tensor.yield %f : f32
  } : tensor<19x17xf32>
  %E = tensor.generate {
  ^bb0(%j: index, %l: index):
    %b = arith.muli %l, %c2 : index
    %c = arith.addi %j, %b : index
    %m = arith.remui %c, %c3 : index
    %v = arith.subi %m, %c1 : index
    %vi = arith.index_cast %v : index to i64
    %f = arith.sitofp %vi : i64 to f32
    tensor.yield %f : f32
  } : tensor<17x11xf32>
  %D = call @chain(%A, %B, %E) : (tensor<13x19xf32>, tensor<19x17xf32>, tensor<17x11xf32>) -> tensor<13x11xf32>
  // checksum = sum D[i][l] * (i * 11 + l + 1), in f64.
  %z = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %cM step %c1 iter_args(%acc = %z) -> (f64) {
    %row = scf.for %l = %c0 to %cL step %c1 iter_args(%acc2 = %acc) -> (f64) {
      %x = tensor.extract %D[%i, %l] : tensor<13x11xf32>
      %xd = arith.extf %x : f32 to f64
      %il = arith.muli %i, %cL : index
      %w0 = arith.addi %il, %l : index
      %w1 = arith.addi %w0, %c1 : index
      %wi = arith.index_cast %w1 : index to i64
      %wf = arith.sitofp %wi : i64 to f64
      %p = arith.mulf %xd, %wf : f64
      %n = arith.addf %acc2, %p : f64
      scf.yield %n : f64
    }
    scf.yield %row : f64
  }
  vector.print str "checksum: "
  vector.print %sum : f64
  %c12 = arith.constant 12 : index
  %c10 = arith.constant 10 : index
  %x00 = tensor.extract %D[%c0, %c0] : tensor<13x11xf32>
  %x57 = tensor.extract %D[%c5, %c7] : tensor<13x11xf32>
  %x1210 = tensor.extract %D[%c12, %c10] : tensor<13x11xf32>
  vector.print str "D[0][0]: "
  vector.print %x00 : f32
  vector.print str "D[5][7]: "
  vector.print %x57 : f32
  vector.print str "D[12][10]: "
  vector.print %x1210 : f32
  return
}
