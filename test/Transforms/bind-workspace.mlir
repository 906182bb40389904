// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-bind-workspace | FileCheck %s

// Every buffer of a function with a workspace argument becomes a view of it,
// 64-byte aligned from the workspace's first 64-byte boundary; deallocations
// go; the size function returns the bytes (slack included): 4096 + 64 + 64.
// CHECK-LABEL: func.func @ws(
// CHECK-SAME: %[[WS:.*]]: memref<1xi8>)
// CHECK-NOT: tensorop.workspace
// CHECK: %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[WS]]
// CHECK: %[[ALL:.*]] = memref.reinterpret_cast %[[WS]] to offset: [0], sizes: [4224], strides: [1]
// CHECK: memref.view %[[ALL]][%{{.*}}][] : memref<4224xi8> to memref<32x32xf32>
// CHECK: memref.view %[[ALL]][%{{.*}}][] : memref<4224xi8> to memref<3xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @ws(%ws: memref<1xi8> {tensorop.workspace}) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32>
  %b = memref.alloc() : memref<3xf32>
  memref.dealloc %a : memref<32x32xf32>
  memref.dealloc %b : memref<3xf32>
  return
}

// A function without a workspace keeps its allocations.
// CHECK-LABEL: func.func @plain(
// CHECK: memref.alloc
// CHECK: memref.dealloc
func.func @plain() {
  %a = memref.alloc() : memref<8xf32>
  memref.dealloc %a : memref<8xf32>
  return
}

// Thread chunks: one region per iteration, offset by the induction variable
// times the chunk's bytes (2 x 1024 here).
// CHECK-LABEL: func.func @chunks(
// CHECK: scf.forall (%[[I:.*]]) in (2)
// CHECK: %[[STEP:.*]] = arith.muli %[[I]], %c1024
// CHECK: memref.view {{.*}} to memref<256xf32>
func.func @chunks(%ws: memref<1xi8> {tensorop.workspace}) {
  scf.forall (%i) in (2) {
    %a = memref.alloc() : memref<256xf32>
    memref.dealloc %a : memref<256xf32>
  }
  return
}

// CHECK-LABEL: func.func @size
// CHECK: %[[S:.*]] = arith.constant 4224 : index
// CHECK: return %[[S]]
func.func @size() -> index attributes {tensorop.workspace_size} {
  %c0 = arith.constant 0 : index
  return %c0 : index
}

// -----

// A buffer whose size is known only at run time cannot be laid out.
func.func @dynamic(%ws: memref<1xi8> {tensorop.workspace}, %n: index) {
  // expected-error @+1 {{cannot be placed in the workspace}}
  %a = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}
