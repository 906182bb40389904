// RUN: tensorop-opt %s --tensorop-decompose-batch-matmul -o /dev/null 2>&1 | FileCheck %s

// The remark on a decomposed batch matmul with a fill of C: its "see
// current operation" note prints the op with its operands. The fill used
// to be erased first, its user's operands dropped, and the note printed
// <<NULL VALUE>> and <<NULL TYPE>> for them.
// CHECK:     remark: tensorop: batch matmul of 2 slices: each slice's matmul takes the sketch path
// CHECK:     note: see current operation: %{{.*}} = linalg.batch_matmul ins(%arg0, %arg1 : tensor<2x8x16xf32>, tensor<2x16x32xf32>) outs(%{{.*}} : tensor<2x8x32xf32>)
// CHECK-NOT: NULL
func.func @fill(%A: tensor<2x8x16xf32>, %B: tensor<2x16x32xf32>) -> tensor<2x8x32xf32> {
  %e = tensor.empty() : tensor<2x8x32xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  %r = linalg.batch_matmul ins(%A, %B : tensor<2x8x16xf32>, tensor<2x16x32xf32>) outs(%f : tensor<2x8x32xf32>) -> tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}
