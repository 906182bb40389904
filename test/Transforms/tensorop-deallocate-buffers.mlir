// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-deallocate-buffers | FileCheck %s

// What one-shot-bufferize leaves (allocations nobody frees) gets the
// upstream buffer-deallocation-pipeline. (Each case here also uses a
// bufferization op: without one the pass crashes today, see
// tensorop-deallocate-buffers-crash.mlir.)
// CHECK-LABEL: func.func @unfreed
// CHECK:         %[[A:.+]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[Y:.+]] = memref.load %[[A]]
// CHECK:         memref.dealloc %[[A]] : memref<4xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @unfreed(%x: f32, %m: memref<4xf32>) -> (f32, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.store %x, %a[%c0] : memref<4xf32>
  %y = memref.load %a[%c0] : memref<4xf32>
  %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  return %y, %t : f32, tensor<4xf32>
}

// -----

// A module that frees memory itself is left alone (the upstream pipeline
// rejects explicit deallocations), with a remark on a buffer it leaks.
// CHECK-LABEL: func.func @frees_itself
// CHECK:         %[[A:.+]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[B:.+]] = memref.alloc() : memref<8xf32>
// CHECK-NOT:     memref.dealloc %[[A]]
// CHECK:         memref.dealloc %[[B]] : memref<8xf32>
// CHECK-NOT:     memref.dealloc %[[A]]
// CHECK:         return
func.func @frees_itself(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-remark @+1 {{tensorop: the module frees memory itself, so upstream buffer deallocation is skipped and this buffer is not freed}}
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<8xf32>
  memref.store %x, %a[%c0] : memref<4xf32>
  memref.store %x, %b[%c0] : memref<8xf32>
  %y = memref.load %a[%c0] : memref<4xf32>
  memref.dealloc %b : memref<8xf32>
  return %y : f32
}

// -----

// Everything freed already: nothing to do, no remark.
// CHECK-LABEL: func.func @all_freed
// CHECK:         %[[A:.+]] = memref.alloc() : memref<4xf32>
// CHECK:         memref.dealloc %[[A]] : memref<4xf32>
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @all_freed(%x: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.store %x, %a[%c0] : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @no_alloc
// CHECK-NEXT:    return
func.func @no_alloc(%m: memref<4xf32>) {
  return
}
