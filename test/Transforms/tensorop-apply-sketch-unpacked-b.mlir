// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-apply-sketch | FileCheck %s

// pack_b = "none": only A is packed; the microkernel gets the B tile's own
// rows from its column (a view of B with B's row stride, 70 floats = 280
// bytes, which the emitted code has compiled in: "_ldb280").

// CHECK-LABEL: func.func @unpacked_b(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     vector.transfer_read %[[B]]
// CHECK:         scf.for %[[M:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c12{{(_[0-9]+)?}} {
// CHECK:           scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// CHECK:             scf.for %[[N:[a-z0-9_]+]] = %{{.+}} to %c70{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// CHECK:               %[[BT:.+]] = memref.subview %[[B]][%[[K]], %[[N]]] [%{{.+}}, %{{.+}}] [1, 1] : memref<37x70xf32> to memref<?x?xf32, strided<[70, 1], offset: ?>>
// CHECK:               scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c6{{(_[0-9]+)?}} {
// CHECK:                 scf.for %[[J:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                   memref.subview %[[PA]][%{{.+}}, 0, 0] [1, 8, 6] [1, 1, 1]
// CHECK:                   %[[BP:.+]] = memref.subview %[[BT]][%{{.+}}, %[[J]]] [%{{.+}}, %{{.+}}] [1, 1] : memref<?x?xf32, strided<[70, 1], offset: ?>> to memref<?x?xf32, strided<[70, 1], offset: ?>>
// CHECK:                   tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_ldb280"
// CHECK-SAME:                b(%[[BP]] : memref<?x?xf32, strided<[70, 1], offset: ?>>)
// CHECK:         memref.dealloc %[[PA]] : memref<2x8x6xf32>
// CHECK-NEXT:    return
func.func @unpacked_b(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// A strided view of B: its row stride (64 floats), not N, is compiled in.
// CHECK-LABEL: func.func @unpacked_b_view(
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_ldb256"
!Bv = memref<29x23xf32, strided<[64, 1], offset: 129>>
func.func @unpacked_b_view(%A: memref<37x29xf32>, %B: !Bv, %C: memref<37x23xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<37x29xf32>, !Bv) outs(%C : memref<37x23xf32>)
  return
}

// -----

// A transposed B (N x K) has no rows along N to read in place.
func.func @unpacked_b_transposed(%A: memref<50x37xf32>, %B: memref<70x37xf32>, %C: memref<50x70xf32>) {
  // expected-error @+1 {{tensorop sketch pack_b "none" needs B stored K x N; this GEMM reads B transposed (use pack_b "kmajor_nr")}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<70x37xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// Columns of B two floats apart cannot be loaded as one vector: B's layout
// is the program's, so B is packed as with "kmajor_nr" (a tuned sketch from
// the database, measured on a contiguous B, still applies).
// CHECK-LABEL: func.func @unpacked_b_column_stride(
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:      b(%{{.+}} : memref<8x16xf32, strided<[16, 1], offset: ?>>)
!Bs = memref<29x23xf32, strided<[64, 2], offset: 129>>
func.func @unpacked_b_column_stride(%A: memref<37x29xf32>, %B: !Bs, %C: memref<37x23xf32>) {
  // expected-remark @+1 {{tensorop: sketch pack_b "none" needs B with unit column stride and a static, positive row stride, got 'memref<29x23xf32, strided<[64, 2], offset: 129>>'; B is packed instead}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<37x29xf32>, !Bs) outs(%C : memref<37x23xf32>)
  return
}
