// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch -verify-diagnostics | FileCheck %s

// pack_b = "kmajor_nr_fused": no packing pass over B; the first row tile
// (i = 0) of each B block calls the kernel that reads B in place (at B's
// row stride, 70 floats = 280 bytes) and stores the block's panels
// (b_panel_out, "_sb"), the other row tiles the packed-B kernel on them.
// The M loop is outside the B block's loop here ("mkn": B is packed again
// for every M block), so every cache tile is the first for its block.

// CHECK-LABEL: func.func @fused_m_outside(
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK-NOT:     vector.transfer_write {{.*}}%[[PB]]
// CHECK:         %[[TRUE:.+]] = arith.constant true
// CHECK:         scf.for %[[I:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c6
// CHECK:           scf.for %[[J:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c16
// CHECK:             %[[I0:.+]] = arith.cmpi eq, %[[I]], %c0{{(_[0-9]+)?}} : index
// CHECK:             %[[FIRST:.+]] = arith.andi %[[TRUE]], %[[I0]] : i1
// CHECK:             scf.if %[[FIRST]] {
// CHECK:               tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_ldb280_sb" a({{.+}}) b(%{{.+}} : memref<?x?xf32, strided<[70, 1], offset: ?>>) c({{.+}}) kc({{.+}}) m_rem({{.+}}) n_rem({{.+}}) b_panel_out(%{{.+}} : memref<8x16xf32, strided<[16, 1], offset: ?>>)
// CHECK:             } else {
// CHECK:               tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit" a({{.+}}) b(%{{.+}} : memref<8x16xf32, strided<[16, 1], offset: ?>>)
// CHECK-NOT:           b_panel_out
// CHECK:             }
// CHECK:         return
func.func @fused_m_outside(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_fused", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// The M loop inside the B block's loop ("nkm"): the block is written by the
// first M block's first row tile only (ivM equal to the M loop's lower
// bound), and read by every later M block. Zero-filled C over several K
// blocks: the first K block's fused kernel stores C too ("_sb_st").
// CHECK-LABEL: func.func @fused_m_inside(
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %{{.+}} = %[[NLB:.+]] to %c70{{(_[0-9]+)?}} step %c32
// CHECK:           scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8
// CHECK:             scf.for %[[M:[a-z0-9_]+]] = %[[MLB:.+]] to %c50{{(_[0-9]+)?}} step %c12
// CHECK:               %[[MFIRST:.+]] = arith.cmpi eq, %[[M]], %[[MLB]] : index
// CHECK:               scf.if
// CHECK:                 arith.andi %[[MFIRST]]
// CHECK:                 tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_ldb280_sb_st"
// CHECK:                 tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_st"
// CHECK:               } else {
// CHECK:                 arith.andi %[[MFIRST]]
// CHECK:                 tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_ldb280_sb"
// CHECK:                 tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK:         return
func.func @fused_m_inside(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<50x70xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr_fused", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// A transposed B cannot be read in place along N: packed by its pass, as
// with "kmajor_nr", with a remark.
// CHECK-LABEL: func.func @transposed_b_packed(
// CHECK:         vector.transfer_write
// CHECK-NOT:     b_panel_out
// CHECK:         return
func.func @transposed_b_packed(%A: memref<50x37xf32>, %B: memref<70x37xf32>, %C: memref<50x70xf32>) {
  // expected-remark @+1 {{tensorop: sketch pack_b "kmajor_nr_fused" needs B stored K x N; B is packed by its own pass instead}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_fused", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<70x37xf32>) outs(%C : memref<50x70xf32>)
  return
}
