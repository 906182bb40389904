// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-decompose-batch-matmul | FileCheck %s

// A batch matmul on memrefs: a loop over the batch of matmuls on
// rank-reduced subviews.
// CHECK-LABEL: func.func @memrefs
// CHECK:       scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK:         %[[A:.*]] = memref.subview %arg0[%[[I]], 0, 0] [1, 5, 4] [1, 1, 1] : memref<3x5x4xf32> to memref<5x4xf32, strided<[4, 1], offset: ?>>
// CHECK:         %[[B:.*]] = memref.subview %arg1[%[[I]], 0, 0] [1, 4, 7] [1, 1, 1]
// CHECK:         %[[C:.*]] = memref.subview %arg2[%[[I]], 0, 0] [1, 5, 7] [1, 1, 1]
// CHECK:         linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[C]] : {{.*}})
// CHECK-NOT:   linalg.batch_matmul
func.func @memrefs(%A: memref<3x5x4xf32>, %B: memref<3x4x7xf32>, %C: memref<3x5x7xf32>) {
  // expected-remark @+1 {{tensorop: batch matmul of 3 slices: each slice's matmul takes the sketch path}}
  linalg.batch_matmul ins(%A, %B : memref<3x5x4xf32>, memref<3x4x7xf32>) outs(%C : memref<3x5x7xf32>)
  return
}

// -----

// On tensors: the loop carries C, each slice is inserted back; a sketch on
// the batch op is every slice's sketch.
// CHECK-LABEL: func.func @tensors
// CHECK:       %[[R:.*]] = scf.for %[[I:.*]] = %c0 to %c2 step %c1 iter_args(%[[ACC:.*]] = %arg2)
// CHECK:         tensor.extract_slice %arg0[%[[I]], 0, 0] [1, 8, 16] [1, 1, 1] : tensor<2x8x16xf32> to tensor<8x16xf32>
// CHECK:         %[[CS:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0, 0] [1, 8, 32] [1, 1, 1]
// CHECK:         %[[MM:.*]] = linalg.matmul {tensorop.sketch = "given"} ins({{.*}}) outs(%[[CS]] : tensor<8x32xf32>) -> tensor<8x32xf32>
// CHECK:         %[[INS:.*]] = tensor.insert_slice %[[MM]] into %[[ACC]][%[[I]], 0, 0] [1, 8, 32] [1, 1, 1]
// CHECK:         scf.yield %[[INS]]
// CHECK:       return %[[R]]
func.func @tensors(%A: tensor<2x8x16xf32>, %B: tensor<2x16x32xf32>, %C: tensor<2x8x32xf32>) -> tensor<2x8x32xf32> {
  // expected-remark @+1 {{tensorop: batch matmul of 2 slices}}
  %r = linalg.batch_matmul ins(%A, %B : tensor<2x8x16xf32>, tensor<2x16x32xf32>) outs(%C : tensor<2x8x32xf32>) {tensorop.sketch = "given"} -> tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}

// -----

// A batch-reduce matmul accumulates every slice into the one 2-D C; B
// transposed (x . W^T) becomes the slice matmul's indexing maps.
// CHECK-LABEL: func.func @reduce_transposed
// CHECK:       scf.for
// CHECK:         linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins({{.*}} : memref<8x16xf32, strided<[16, 1], offset: ?>>, memref<32x16xf32, strided<[16, 1], offset: ?>>) outs(%arg2 : memref<8x32xf32>)
func.func @reduce_transposed(%A: memref<4x8x16xf32>, %B: memref<4x32x16xf32>, %C: memref<8x32xf32>) {
  // expected-remark @+1 {{tensorop: batch-reduce matmul of 4 slices}}
  linalg.batch_reduce_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>]
    ins(%A, %B : memref<4x8x16xf32>, memref<4x32x16xf32>) outs(%C : memref<8x32xf32>)
  return
}

// -----

// Dynamic dimensions: the loop runs to the runtime batch and the slices
// keep the dynamic extents (the sketch path handles dynamic matmuls).
// CHECK-LABEL: func.func @dynamic
// CHECK:       %[[B:.*]] = memref.dim %arg0, %c0
// CHECK:       scf.for %{{.*}} = %c0 to %[[B]] step %c1
// CHECK:         linalg.matmul ins({{.*}} : memref<?x4xf32, strided<[4, 1], offset: ?>>, memref<4x?xf32, strided<[?, 1], offset: ?>>)
func.func @dynamic(%A: memref<?x?x4xf32>, %B: memref<?x4x?xf32>, %C: memref<?x?x?xf32>) {
  // expected-remark @+1 {{tensorop: batch matmul of a dynamic number of slices: each slice's matmul takes the sketch path}}
  linalg.batch_matmul ins(%A, %B : memref<?x?x4xf32>, memref<?x4x?xf32>) outs(%C : memref<?x?x?xf32>)
  return
}

// -----

// What it leaves, with the reason, marked so later passes stay quiet.
// CHECK-LABEL: func.func @left
// CHECK:       linalg.batch_matmul {{.*}}tensorop.batch_not_handled
func.func @left(%D: memref<2x5x4xf64>, %E: memref<2x4x7xf64>, %F: memref<2x5x7xf64>) {
  // expected-remark @+1 {{tensorop: batch matmul not handled (element types other than f32, bf16 and f16 are not supported); lowered by the upstream pipeline}}
  linalg.batch_matmul ins(%D, %E : memref<2x5x4xf64>, memref<2x4x7xf64>) outs(%F : memref<2x5x7xf64>)
  return
}

// -----

// A fill of the whole C just before the batch matmul becomes a fill of each
// slice right before its matmul (on GPUs: the kernel's beta = 0).
// CHECK-LABEL: func.func @fill_memref
// CHECK-NOT:   linalg.fill
// CHECK:       scf.for
// CHECK:         %[[CS:.*]] = memref.subview %arg2
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[CS]] :
// CHECK-NEXT:    linalg.matmul {{.*}} outs(%[[CS]] :
func.func @fill_memref(%a: memref<3x5x4xbf16>, %b: memref<3x4x7xbf16>, %c: memref<3x5x7xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<3x5x7xf32>)
  // expected-remark @+1 {{tensorop: batch matmul of 3 slices: each slice's matmul takes the sketch path}}
  linalg.batch_matmul ins(%a, %b : memref<3x5x4xbf16>, memref<3x4x7xbf16>) outs(%c : memref<3x5x7xf32>)
  return
}

// -----

// A batch-reduce shares C: its fill goes before slice 0's matmul, peeled off
// the loop, which runs from 1.
// CHECK-LABEL: func.func @fill_reduce
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.*]] = arith.constant 1 : index
// CHECK:       memref.subview %arg0[%[[C0]], 0, 0]
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%arg2 : memref<5x7xf32>)
// CHECK-NEXT:  linalg.matmul {{.*}} outs(%arg2 : memref<5x7xf32>)
// CHECK-NEXT:  scf.for %{{.*}} = %[[C1]] to
// CHECK-NOT:   linalg.fill
// CHECK:         linalg.matmul
func.func @fill_reduce(%a: memref<3x5x4xf32>, %b: memref<3x4x7xf32>, %c: memref<5x7xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<5x7xf32>)
  // expected-remark @+1 {{tensorop: batch-reduce matmul of 3 slices}}
  linalg.batch_reduce_matmul ins(%a, %b : memref<3x5x4xf32>, memref<3x4x7xf32>) outs(%c : memref<5x7xf32>)
  return
}

// -----

// On tensors the loop starts from the fill's init; each slice is filled.
// CHECK-LABEL: func.func @fill_tensor
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<3x5x7xf32>
// CHECK-NOT:   linalg.fill
// CHECK:       scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[E]])
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[ACC]]
// CHECK-NEXT:    %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[S]] : tensor<5x7xf32>)
// CHECK-NEXT:    linalg.matmul {{.*}} outs(%[[F]] : tensor<5x7xf32>)
func.func @fill_tensor(%a: tensor<3x5x4xf32>, %b: tensor<3x4x7xf32>) -> tensor<3x5x7xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5x7xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  // expected-remark @+1 {{tensorop: batch matmul of 3 slices}}
  %r = linalg.batch_matmul ins(%a, %b : tensor<3x5x4xf32>, tensor<3x4x7xf32>) outs(%f : tensor<3x5x7xf32>) -> tensor<3x5x7xf32>
  return %r : tensor<3x5x7xf32>
}
