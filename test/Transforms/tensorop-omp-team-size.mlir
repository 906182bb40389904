// RUN: tensorop-opt %s -split-input-file --scf-forall-to-parallel --convert-scf-to-openmp --tensorop-omp-team-size | FileCheck %s

// The chunks of a threaded sketch (apply-sketch leaves the sketch on the
// outermost loop of each chunk): a constant trip count sizes the team, 3
// iterations, 3 threads. (Only the attribute's presence matters here.)
// CHECK-LABEL: func.func @sketch_chunks
// CHECK:         %[[N:.+]] = arith.constant 3 : i32
// CHECK-NEXT:    omp.parallel num_threads(%[[N]] : i32) {
// CHECK:           omp.wsloop
func.func @sketch_chunks(%buf: memref<3xf32>) {
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.forall (%i) in (3) {
    scf.for %j = %c0 to %c1 step %c1 {
      memref.store %one, %buf[%i] : memref<3xf32>
    } {tensorop.sketch = "any"}
  }
  return
}

// -----

// A parallel loop of the input itself keeps the runtime's default team,
// even with a constant trip count.
// CHECK-LABEL: func.func @not_a_sketch
// CHECK:         omp.parallel {
func.func @not_a_sketch(%buf: memref<1000xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (1000) {
    memref.store %one, %buf[%i] : memref<1000xf32>
  }
  return
}

// -----

// A trip count known only at run time leaves the team to the runtime.
// CHECK-LABEL: func.func @dynamic
// CHECK:         omp.parallel {
func.func @dynamic(%buf: memref<?xf32>, %n: index) {
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.forall (%i) in (%n) {
    scf.for %j = %c0 to %c1 step %c1 {
      memref.store %one, %buf[%i] : memref<?xf32>
    } {tensorop.sketch = "any"}
  }
  return
}

// -----

// An explicit team size is kept.
// CHECK-LABEL: func.func @explicit
// CHECK:         %[[N:.+]] = arith.constant 7 : i32
// CHECK:         omp.parallel num_threads(%[[N]] : i32) {
func.func @explicit(%buf: memref<3xf32>) {
  %n = arith.constant 7 : i32
  omp.parallel num_threads(%n : i32) {
    omp.terminator
  }
  return
}
