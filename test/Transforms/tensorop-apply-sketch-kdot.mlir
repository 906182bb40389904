// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-apply-sketch | FileCheck %s

// A sketch of the x86_gemm_kdot emitter (few columns, K in the vector
// lanes): B (K x N) is copied once into an N x K buffer, then one loop over
// C's rows in blocks of mr calls the kernel over all of K (one block of 6
// columns), reading A's rows in place (row stride 100 floats = 400 bytes) and the buffer's rows (K =
// 100 floats apart). The kernel is emitted for N = 6 columns; from a
// zeroed C it stores its tile ("_st") and the fill goes.

// CHECK-LABEL: func.func @kdot(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x100xf32>, %[[B:[a-z0-9_]+]]: memref<100x6xf32>, %[[C:[a-z0-9_]+]]: memref<50x6xf32>)
// CHECK-NOT:     linalg.fill
// CHECK:         %[[BT:.+]] = memref.alloc() {alignment = 64 : i64} : memref<6x100xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[B]] : memref<100x6xf32>) outs(%[[BT]] : memref<6x100xf32>)
// CHECK:         scf.for %[[I:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c4{{(_[0-9]+)?}} {
// CHECK:           %[[AR:.+]] = memref.subview %[[A]][%[[I]], 0] [%{{.+}}, 100] [1, 1]
// CHECK:           scf.for %[[J:[a-z0-9_]+]] = %{{.+}} to %c6{{(_[0-9]+)?}} step %c6{{(_[0-9]+)?}} {
// CHECK:             %[[BR:.+]] = memref.subview %[[BT]][%[[J]], 0] [6, 100] [1, 1]
// CHECK:             %[[CR:.+]] = memref.subview %[[C]][%[[I]], %[[J]]] [%{{.+}}, %{{.+}}] [1, 1]
// CHECK:           tensorop.ukernel "x86_avx512_f32_kdot_4x6_u2_lda400_ldbt400_pfa128_st"
// CHECK-SAME:        a(%[[AR]] : {{.+}}) b(%[[BR]] : {{.+}}) c(%[[CR]] : {{.+}})
// CHECK:         } {tensorop.sketch = #tensorop.sketch<
// CHECK:         memref.dealloc %[[BT]] : memref<6x100xf32>
// CHECK-NEXT:    return
func.func @kdot(%A: memref<50x100xf32>, %B: memref<100x6xf32>, %C: memref<50x6xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<50x6xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 52, nc = 6, kc = 100, mr = 4, nr = 6, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 128>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x100xf32>, memref<100x6xf32>) outs(%C : memref<50x6xf32>)
  return
}

// -----

// C += A*B (no zero fill): the accumulating kernel. B already stored N x K
// (matmul_transpose_b) is read in place: no copy, its row stride compiled
// in. Two threads: one chunk of rows each (an scf.forall), the row loop
// carries the sketch.
// CHECK-LABEL: func.func @kdot_bt_threads(
// CHECK-NOT:     memref.alloc
// CHECK:         scf.forall
// CHECK:           scf.for
// CHECK:             tensorop.ukernel "x86_avx512_f32_kdot_9x3_u2_lda260_ldbt260_pfa128"
// CHECK:           } {tensorop.sketch = #tensorop.sketch<
// CHECK-NOT:     memref.dealloc
func.func @kdot_bt_threads(%A: memref<100x65xf32>, %B: memref<3x65xf32>, %C: memref<100x3xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    {tensorop.sketch = #tensorop.sketch<mc = 108, nc = 3, kc = 65, mr = 9, nr = 3, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 128>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
    ins(%A, %B : memref<100x65xf32>, memref<3x65xf32>) outs(%C : memref<100x3xf32>)
  return
}

// -----

// N = 9 in blocks of nr = 4 columns: the copy of B has 12 rows (zeros
// past N, so the last block's kernel reads rows that exist), and each row
// block runs its column blocks one after the other, the last with 1 column.
// CHECK-LABEL: func.func @kdot_column_blocks(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x100xf32>, %[[B:[a-z0-9_]+]]: memref<100x9xf32>, %[[C:[a-z0-9_]+]]: memref<50x9xf32>)
// CHECK:         %[[BT:.+]] = memref.alloc() {alignment = 64 : i64} : memref<12x100xf32>
// CHECK:         linalg.fill ins(%{{.+}} : f32) outs(%[[BT]] : memref<12x100xf32>)
// CHECK:         %[[BV:.+]] = memref.subview %[[BT]][0, 0] [9, 100] [1, 1]
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[B]] : memref<100x9xf32>) outs(%[[BV]] :
// CHECK:         scf.for %[[I:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c6{{(_[0-9]+)?}} {
// CHECK:           scf.for %[[J:[a-z0-9_]+]] = %{{.+}} to %c9{{(_[0-9]+)?}} step %c4{{(_[0-9]+)?}} {
// CHECK:             memref.subview %[[BT]][%[[J]], 0] [4, 100] [1, 1]
// CHECK:             memref.subview %[[C]][%[[I]], %[[J]]]
// CHECK:             tensorop.ukernel "x86_avx512_f32_kdot_6x4_u2_lda400_ldbt400_pfa128"
func.func @kdot_column_blocks(%A: memref<50x100xf32>, %B: memref<100x9xf32>, %C: memref<50x9xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 54, nc = 12, kc = 100, mr = 6, nr = 4, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 128>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x100xf32>, memref<100x9xf32>) outs(%C : memref<50x9xf32>)
  return
}

// -----

func.func @kdot_a_transposed(%A: memref<100x50xf32>, %B: memref<100x6xf32>, %C: memref<50x6xf32>) {
  // expected-error @+1 {{needs A stored M x K (this GEMM reads A transposed)}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    {tensorop.sketch = #tensorop.sketch<mc = 52, nc = 6, kc = 100, mr = 4, nr = 6, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 128>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<100x50xf32>, memref<100x6xf32>) outs(%C : memref<50x6xf32>)
  return
}
