// tensorop-static-scratch: the static temporaries a function frees itself
// become views of one module-level area claimed per call (an atomic busy
// flag; a claimed area means another call is in flight, which then
// allocates its own region and frees it). Buffers that outlive the call,
// dynamic ones, and functions over max-bytes keep their allocations.
// RUN: tensorop-opt %s --tensorop-static-scratch | FileCheck %s
// RUN: tensorop-opt %s --tensorop-static-scratch="max-bytes=4096" | FileCheck %s --check-prefix=SMALL

// CHECK-DAG: memref.global "private" @__tensorop_scratch_two : memref<4224xi8> = uninitialized {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" @__tensorop_scratch_busy_two : memref<1xi32> = dense<0>
// CHECK-LABEL: func.func @two(
// CHECK: %[[FLAG:.*]] = memref.get_global @__tensorop_scratch_busy_two
// CHECK: %[[OLD:.*]] = memref.atomic_rmw assign %{{.*}}, %[[FLAG]][%{{.*}}] : (i32, memref<1xi32>) -> i32
// CHECK: %[[OWN:.*]] = arith.cmpi eq, %[[OLD]]
// CHECK: %[[REGION:.*]] = scf.if %[[OWN]] -> (memref<4224xi8>) {
// CHECK:   memref.get_global @__tensorop_scratch_two
// CHECK: } else {
// CHECK:   memref.alloc() {alignment = 64 : i64} : memref<4224xi8>
// CHECK: memref.view {{.*}} to memref<32x32xf32>
// CHECK-NOT: memref.alloc
// CHECK: memref.view {{.*}} to memref<16xf32>
// CHECK-NOT: memref.dealloc %{{.*}} : memref<32x32xf32>
// CHECK: scf.if %[[OWN]] {
// CHECK:   memref.atomic_rmw assign %{{.*}}, %[[FLAG]]
// CHECK: } else {
// CHECK:   memref.dealloc %[[REGION]] : memref<4224xi8>
// CHECK: return
// SMALL-LABEL: func.func @two(
// SMALL-NOT: atomic_rmw
// SMALL: memref.alloc() : memref<32x32xf32>
func.func @two(%a: memref<32x32xf32>, %out: memref<16xf32>) {
  %t = memref.alloc() : memref<32x32xf32>
  memref.copy %a, %t : memref<32x32xf32> to memref<32x32xf32>
  %u = memref.alloc() : memref<16xf32>
  %s = memref.subview %t[0, 0] [1, 16] [1, 1] : memref<32x32xf32> to memref<16xf32, strided<[1]>>
  memref.copy %s, %u : memref<16xf32, strided<[1]>> to memref<16xf32>
  memref.copy %u, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %t : memref<32x32xf32>
  memref.dealloc %u : memref<16xf32>
  return
}

// A buffer the function returns, a dynamic one, one aligned to a page and
// one whose address leaves MLIR (a guard page is mprotect'ed behind it)
// stay allocations; the function has no other temporary, so nothing is
// made for it.
// CHECK-LABEL: func.func @escapes(
// CHECK-NOT: atomic_rmw
// CHECK: memref.alloc() : memref<8xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.alloc() {alignment = 4096 : i64} : memref<8xf32>
// CHECK: memref.alloc() : memref<16xf32>
// CHECK: return
func.func @escapes(%n: index) -> (memref<8xf32>, index) {
  %r = memref.alloc() : memref<8xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  %p = memref.alloc() {alignment = 4096 : i64} : memref<8xf32>
  memref.dealloc %p : memref<8xf32>
  %g = memref.alloc() : memref<16xf32>
  %addr = memref.extract_aligned_pointer_as_index %g : memref<16xf32> -> index
  memref.dealloc %g : memref<16xf32>
  return %r, %addr : memref<8xf32>, index
}
