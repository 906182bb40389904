// tensorop-deallocate-buffers declares the dialects of the upstream
// buffer-deallocation-pipeline it runs, so plain memref input (no
// bufferization dialect loaded yet) works.

// RUN: tensorop-opt %s --tensorop-deallocate-buffers | FileCheck %s
// CHECK-LABEL: func.func @unfreed
// CHECK:         %[[A:.+]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.dealloc %[[A]] : memref<4xf32>
func.func @unfreed(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.store %x, %a[%c0] : memref<4xf32>
  %y = memref.load %a[%c0] : memref<4xf32>
  return %y : f32
}
