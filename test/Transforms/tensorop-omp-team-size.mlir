// RUN: tensorop-opt %s -split-input-file --scf-forall-to-parallel --convert-scf-to-openmp --tensorop-omp-team-size | FileCheck %s

// A constant trip count sizes the team: 3 iterations, 3 threads.
// CHECK-LABEL: func.func @constant
// CHECK:         %[[N:.+]] = arith.constant 3 : i32
// CHECK-NEXT:    omp.parallel num_threads(%[[N]] : i32) {
// CHECK:           omp.wsloop
func.func @constant(%buf: memref<3xf32>) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (3) {
    memref.store %one, %buf[%i] : memref<3xf32>
  }
  return
}

// -----

// A trip count known only at run time leaves the team to the runtime.
// CHECK-LABEL: func.func @dynamic
// CHECK:         omp.parallel {
func.func @dynamic(%buf: memref<?xf32>, %n: index) {
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (%n) {
    memref.store %one, %buf[%i] : memref<?xf32>
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
