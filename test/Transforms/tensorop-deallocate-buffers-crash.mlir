// KNOWN BUG: tensorop-deallocate-buffers runs the upstream
// buffer-deallocation-pipeline as a dynamic pipeline but declares no
// dependent dialects, so on input that has not loaded the bufferization
// dialect yet (plain memref code) creating bufferization.dealloc segfaults
// (in DeallocOp::getODSOperandIndexAndLength). Inside --tensorop-pipeline
// one-shot-bufferize has loaded the dialect, which hides it.
// XFAIL: *

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
