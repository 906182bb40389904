// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch --canonicalize --cse | FileCheck %s

// pack_b = "kmajor_nr_shared": the k and n cache-tile loops run outside the
// thread teams; in each (k, n) block one scf.forall packs the B block into
// the single buffer allocated before the loops (each thread a contiguous
// share of the panels), and a second runs the chunks of C on it. No buffer
// is allocated inside a forall: the packed B is shared, not copied per
// thread. Small tiles (mc=12 nc=32 kc=8, 6x16 register block) as in
// tensorop-apply-sketch-threads.mlir.

// 97 rows: 49 a thread, so the rows are split, in chunks of
// roundUp(49, 6) = 54. With k outside n ("mkn"), each chunk packs its A
// rows (9 panels) once per K block, at the first n block, into its slice of
// one buffer.
// CHECK-LABEL: func.func @shared_rows(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<97x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<97x70xf32>)
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK-NEXT:    %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x9x8x6xf32>
// CHECK-NEXT:    scf.for %[[K:.+]] = %c0 to %c37 step %c8 {
// CHECK-NEXT:      scf.for %[[N:.+]] = %c0 to %c70 step %c32 {
// CHECK-NOT:         memref.alloc
// CHECK:             scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:          %[[PANELS:.+]] = arith.ceildivui %{{.+}}, %c16 : index
// CHECK-NEXT:          %[[SHARE:.+]] = arith.ceildivui %[[PANELS]], %c2 : index
// CHECK-NEXT:          %[[FIRST:.+]] = arith.muli %[[T]], %[[SHARE]] : index
// CHECK-NEXT:          %[[END:.+]] = arith.addi %[[FIRST]], %[[SHARE]] : index
// CHECK-NEXT:          %[[LAST:.+]] = arith.minsi %[[PANELS]], %[[END]] : index
// CHECK-NEXT:          scf.for %[[Q:.+]] = %[[FIRST]] to %[[LAST]] step %c1 {
// CHECK:                 vector.transfer_read %[[B]]
// CHECK-NEXT:            vector.transfer_write %{{.+}}, %[[PB]][%[[Q]], %{{.+}}, %c0]
// CHECK:               } {tensorop.sketch = #tensorop.sketch<{{.+}}threads = 2>}
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.forall (%[[T2:.+]]) in (2) {
// CHECK-NEXT:          %[[MOFF:.+]] = arith.muli %[[T2]], %c54 : index
// CHECK-NEXT:          %[[MTOP:.+]] = arith.addi %[[MOFF]], %c54 : index
// CHECK-NEXT:          %[[MEND:.+]] = arith.minsi %[[MTOP]], %c97 : index
// CHECK:               %[[BVIEW:.+]] = memref.subview %[[PB]][0, 0, 0]
// CHECK-NEXT:          %[[AVIEW:.+]] = memref.subview %[[PA]][%[[T2]], 0, 0, 0] [1, 9, 8, 6]
// CHECK-NEXT:          %[[FIRSTN:.+]] = arith.cmpi eq, %[[N]], %c0 : index
// CHECK-NEXT:          scf.if %[[FIRSTN]] {
// CHECK-NEXT:            scf.for %{{.+}} = %[[MOFF]] to %[[MEND]] step %c12 {
// CHECK:                   vector.transfer_read %[[A]]
// CHECK:               scf.for %[[M:.+]] = %[[MOFF]] to %[[MEND]] step %c12 {
// CHECK-NOT:             vector.transfer_read
// CHECK:                 memref.subview %[[C]][%[[M]], %[[N]]]
// CHECK:                 tensorop.ukernel
// CHECK:         memref.dealloc %[[PB]]
// CHECK-NEXT:    memref.dealloc %[[PA]]
// CHECK-NEXT:    return
func.func @shared_rows(%A: memref<97x37xf32>, %B: memref<37x70xf32>, %C: memref<97x70xf32>) {
  linalg.matmul ins(%A, %B : memref<97x37xf32>, memref<37x70xf32>) outs(%C : memref<97x70xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_shared", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// 20 rows (10 a thread) are too thin to split: the two chunks are columns
// of each B block, roundUp(ceil(32 / 2), 16) = 16 of them, whose panels the
// chunk reads from the shared buffer at its own offset. With n outside k
// ("nkm") the A block is packed in every (k, n) block, into the chunk's
// slice (2 panels: mc = 12).
// CHECK-LABEL: func.func @shared_columns(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<20x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x200xf32>, %[[C:[a-z0-9_]+]]: memref<20x200xf32>)
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK-NEXT:    %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x2x8x6xf32>
// CHECK-NEXT:    scf.for %[[N:.+]] = %c0 to %c200 step %c32 {
// CHECK-NEXT:      scf.for %[[K:.+]] = %c0 to %c37 step %c8 {
// CHECK-NOT:         memref.alloc
// CHECK:             scf.forall
// CHECK:             scf.forall (%[[T2:.+]]) in (2) {
// CHECK:               %[[NOFF:.+]] = arith.muli %[[T2]], %{{.+}} : index
// CHECK:               %[[P0:.+]] = arith.divui %[[NOFF]], %c16 : index
// CHECK:               memref.subview %[[PB]][%[[P0]], 0, 0]
// CHECK:               memref.subview %[[PA]][%[[T2]], 0, 0, 0] [1, 2, 8, 6]
// CHECK-NOT:           scf.if
// CHECK:               scf.for %[[M:.+]] = %c0 to %c20 step %c12 {
// CHECK:                 vector.transfer_read %[[A]]
// CHECK:                 %[[COL:.+]] = arith.addi %[[N]], %[[NOFF]] : index
// CHECK:                 memref.subview %[[C]][%[[M]], %[[COL]]]
// CHECK:                 tensorop.ukernel
// CHECK:         memref.dealloc %[[PB]]
// CHECK-NEXT:    memref.dealloc %[[PA]]
func.func @shared_columns(%A: memref<20x37xf32>, %B: memref<37x200xf32>, %C: memref<20x200xf32>) {
  linalg.matmul ins(%A, %B : memref<20x37xf32>, memref<37x200xf32>) outs(%C : memref<20x200xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_shared", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}
