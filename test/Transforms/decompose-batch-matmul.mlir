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
  // expected-remark @+1 {{tensorop: batch matmul not handled (element types other than f32 are not supported on CPU targets yet); lowered by the upstream pipeline}}
  linalg.batch_matmul ins(%D, %E : memref<2x5x4xf64>, memref<2x4x7xf64>) outs(%F : memref<2x5x7xf64>)
  return
}
