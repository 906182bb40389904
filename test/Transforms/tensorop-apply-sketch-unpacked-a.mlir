// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-apply-sketch | FileCheck %s

// pack_a = "none": only B is packed; the microkernel gets the A tile's own
// rows from its row (a view of A with A's row stride, 37 floats = 148
// bytes, which the emitted code has compiled in: "_lda148").

// CHECK-LABEL: func.func @unpacked_a(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     vector.transfer_read %[[A]]
// CHECK:         scf.for %[[M:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c12{{(_[0-9]+)?}} {
// CHECK:           scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// CHECK:             scf.for %[[N:[a-z0-9_]+]] = %{{.+}} to %c70{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// CHECK:               vector.transfer_read %[[B]]
// CHECK:               %[[AT:.+]] = memref.subview %[[A]][%[[M]], %[[K]]] [%{{.+}}, %{{.+}}] [1, 1] : memref<50x37xf32> to memref<?x?xf32, strided<[37, 1], offset: ?>>
// CHECK:               scf.for %[[I:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c6{{(_[0-9]+)?}} {
// CHECK:                 scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                   %[[AP:.+]] = memref.subview %[[AT]][%[[I]], %{{.+}}] [%{{.+}}, %{{.+}}] [1, 1] : memref<?x?xf32, strided<[37, 1], offset: ?>> to memref<?x?xf32, strided<[37, 1], offset: ?>>
// CHECK:                   memref.subview %[[PB]]
// CHECK:                   tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_lda148"
// CHECK-SAME:                a(%[[AP]] : memref<?x?xf32, strided<[37, 1], offset: ?>>)
// CHECK:         memref.dealloc %[[PB]] : memref<2x8x16xf32>
// CHECK-NEXT:    return
func.func @unpacked_a(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// A strided view of A: its row stride (64 floats), not K, is compiled in.
// With B unpacked too, nothing is packed and no buffer is allocated.
// CHECK-LABEL: func.func @unpacked_a_and_b_views(
// CHECK-NOT:     memref.alloc
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_ldb128_lda256"
// CHECK-NOT:     memref.dealloc
// CHECK:         return
!Av = memref<37x29xf32, strided<[64, 1], offset: 129>>
!Bv = memref<29x23xf32, strided<[32, 1], offset: 7>>
func.func @unpacked_a_and_b_views(%A: !Av, %B: !Bv, %C: memref<37x23xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : !Av, !Bv) outs(%C : memref<37x23xf32>)
  return
}

// -----

// A transposed A (K x M) has no rows along K to read in place.
func.func @unpacked_a_transposed(%A: memref<37x50xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  // expected-error @+1 {{tensorop sketch pack_a "none" needs A stored M x K; this GEMM reads A transposed (use pack_a "kmajor_mr")}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<37x50xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// Elements of an A row two floats apart are not consecutive k values: A's
// layout is the program's, so A is packed as with "kmajor_mr" (a tuned
// sketch from the database, measured on a contiguous A, still applies).
// CHECK-LABEL: func.func @unpacked_a_column_stride(
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:      a(%{{.+}} : memref<8x6xf32, strided<[6, 1], offset: ?>>)
!As = memref<37x29xf32, strided<[64, 2], offset: 129>>
func.func @unpacked_a_column_stride(%A: !As, %B: memref<29x23xf32>, %C: memref<37x23xf32>) {
  // expected-remark @+1 {{tensorop: sketch pack_a "none" needs A with unit column stride and a static, positive row stride, got 'memref<37x29xf32, strided<[64, 2], offset: 129>>'; A is packed instead}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : !As, memref<29x23xf32>) outs(%C : memref<37x23xf32>)
  return
}

// -----

// A dynamic row stride cannot be compiled in: the kernel takes it as its
// last operand ("_ldar", a_stride_operand) and A is still read in place,
// only B packed (gen's NAME_ex_ws had packed A: 1.4x NAME's time at 100^3,
// 4x with 8 columns).
// CHECK-LABEL: func.func @unpacked_a_dynamic_stride(
// CHECK-NOT:     memref<2x8x6xf32>
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK-NOT:     memref.alloc
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_ldar"
// CHECK-SAME:      a(%{{.+}} : memref<?x?xf32, strided<[?, 1], offset: ?>>)
// CHECK-SAME:      a_stride_operand
!Ad = memref<37x29xf32, strided<[?, 1], offset: ?>>
func.func @unpacked_a_dynamic_stride(%A: !Ad, %B: memref<29x23xf32>, %C: memref<37x23xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : !Ad, memref<29x23xf32>) outs(%C : memref<37x23xf32>)
  return
}

// -----

// Two threads, nothing packed: each chunk reads its rows of A in place, and
// its register-block loops carry the sketch for tensorop-omp-team-size
// (there is no buffer to carry it).
// CHECK-LABEL: func.func @unpacked_threads(
// CHECK-NOT:     memref.alloc
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK:           %[[AC:.+]] = memref.subview %{{.+}}[%{{.+}}, 0] [%{{.+}}, 37] [1, 1] : memref<50x37xf32> to memref<?x37xf32, strided<[37, 1], offset: ?>>
// CHECK:           tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_ldb280_lda148"
// CHECK:           } {tensorop.sketch = #tensorop.sketch<
// CHECK:         } {tensorop.sketch = #tensorop.sketch<
func.func @unpacked_threads(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// B at a dynamic row stride too, with pack_b "none": both strides are
// operands ("_ldar_ldbr") and nothing is packed.
// CHECK-LABEL: func.func @unpacked_a_and_b_dynamic_strides(
// CHECK-NOT:     memref.alloc
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_ldar_ldbr"
// CHECK-SAME:      b(%{{.+}} : memref<?x?xf32, strided<[?, 1], offset: ?>>)
// CHECK-SAME:      a_stride_operand, {{.*}}b_stride_operand
!Ad2 = memref<37x29xf32, strided<[?, 1], offset: ?>>
!Bd2 = memref<29x23xf32, strided<[?, 1], offset: ?>>
func.func @unpacked_a_and_b_dynamic_strides(%A: !Ad2, %B: !Bd2, %C: memref<37x23xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : !Ad2, !Bd2) outs(%C : memref<37x23xf32>)
  return
}
