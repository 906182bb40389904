// RUN: tensorop-opt %s --split-input-file --tensorop-decompose-batch-matmul --tensorop-gpu-lower-matmul="target=nvidia-sm90" 2>/dev/null | FileCheck %s
// RUN: tensorop-opt %s --split-input-file --tensorop-pipeline="target=nvidia-sm90" 2>/dev/null | FileCheck %s --check-prefix=PIPE

// A batch matmul on NVIDIA targets (issue 15 item 2): a loop over the batch
// launching the sketched kernel on each slice. A slice sits at an offset in
// its buffer: the kernel gets its address (aligned pointer + offset), the
// tensor maps (A, B, and C's for the TMA store) are made from it, and the zero fill of C becomes each slice's
// beta = 0 (no fill left for the host).
// CHECK-LABEL: func.func @bf16_batch
// CHECK-NOT:   linalg.fill
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK:         %[[AS:.*]] = memref.subview %arg0[%[[I]], 0, 0] [1, 130, 72]
// CHECK:         memref.extract_aligned_pointer_as_index %[[AS]]
// CHECK:         memref.extract_strided_metadata %[[AS]]
// CHECK:         arith.muli %{{.*}}, %c2
// CHECK:         call @tensoropGpuTensorMap2D
// CHECK:         call @tensoropGpuTensorMap2D
// CHECK:         call @tensoropGpuTensorMap2D
// CHECK:         gpu.launch_func @bf16_batch_kernel_module::@bf16_batch_kernel {{.*}} args(%{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64)
// CHECK-NOT:   linalg.
// CHECK:       gpu.func @bf16_batch_kernel(%{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// PIPE-LABEL:  llvm.func @bf16_batch
// PIPE-NOT:    linalg.
// PIPE:        gpu.binary @bf16_batch_kernel_module
func.func @bf16_batch(%a: memref<3x130x72xbf16>, %b: memref<3x72x136xbf16>, %c: memref<3x130x136xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<3x130x136xf32>)
  linalg.batch_matmul ins(%a, %b : memref<3x130x72xbf16>, memref<3x72x136xbf16>) outs(%c : memref<3x130x136xf32>)
  return
}

// -----

// A batch-reduce: slice 0 with the fill (beta = 0), the rest accumulate
// into the same C.
// CHECK-LABEL: func.func @f16_reduce
// CHECK:       gpu.launch_func @f16_reduce_kernel_module::@f16_reduce_kernel
// CHECK:       scf.for
// CHECK:         gpu.launch_func @f16_reduce_kernel1_module::@f16_reduce_kernel1
// PIPE-LABEL:  llvm.func @f16_reduce
// PIPE-NOT:    linalg.
func.func @f16_reduce(%a: memref<4x64x64xf16>, %b: memref<4x64x128xf16>, %c: memref<64x128xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<64x128xf16>)
  linalg.batch_reduce_matmul ins(%a, %b : memref<4x64x64xf16>, memref<4x64x128xf16>) outs(%c : memref<64x128xf16>)
  return
}
