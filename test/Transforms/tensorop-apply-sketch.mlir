// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-apply-sketch | FileCheck %s

// Small hand-written sketches (mc=12 nc=32 kc=8, 6x16 register block) on a
// 50x70x37 GEMM, so every loop runs several times with a partial last tile.
// The packed blocks are [mc/mr][kc][mr] = 2x8x6 for A and [nc/nr][kc][nr] =
// 2x8x16 for B. Each block is packed at the outermost loop level where it is
// fixed: A (m, k) inside the later of the m and k loops, B (k, n) inside the
// later of the k and n loops. The text order of the loops and the packing
// ops below pins that placement.
//
// Row-major A and B blocks are packed with vector transfers: A in mr x 16
// tiles transposed in registers and stored through a flat view of the A
// buffer, B one nr-wide row per k; edge tiles use masks, whose zero padding
// fills the panels. Transposed operands are packed with linalg ops instead:
// a K x M A with linalg.copy, an N x K B with a transposing linalg op; edge
// panels are then zeroed with linalg.fill.

// m, k, n: A is packed once per (m, k) block, B once per (m, k, n) block.
// CHECK-LABEL: func.func @order_mkn_mn(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         %[[PAF:.+]] = memref.collapse_shape %[[PA]] {{\[\[}}0, 1, 2]] : memref<2x8x6xf32> into memref<96xf32>
// CHECK:         scf.for %[[M:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c12{{(_[0-9]+)?}} {
// CHECK:           scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// CHECK:             scf.for %[[P:[a-z0-9_]+]] =
// CHECK:               scf.for %[[KK:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                 scf.if
// CHECK:                   %[[KA:.+]] = arith.addi %[[K]], %[[KK]] : index
// CHECK:                   %[[T:.+]] = vector.transfer_read %[[A]][%{{.+}}, %[[KA]]], %{{.+}} {in_bounds = [true, true]} : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                   %[[TT:.+]] = vector.transpose %[[T]], [1, 0] : vector<6x16xf32> to vector<16x6xf32>
// CHECK:                   %[[TF:.+]] = vector.shape_cast %[[TT]] : vector<16x6xf32> to vector<96xf32>
// CHECK:                   vector.transfer_write %[[TF]], %[[PAF]][%{{.+}}] {in_bounds = [true]} : vector<96xf32>, memref<96xf32>
// CHECK:                 } else {
// CHECK:                   %[[MASK:.+]] = vector.create_mask %{{.+}}, %{{.+}} : vector<6x16xi1>
// CHECK:                   vector.transfer_read %[[A]][%{{.+}}, %{{.+}}], %{{.+}}, %[[MASK]] : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                   vector.transfer_write %{{.+}}, %[[PAF]][%{{.+}}], %{{.+}} : vector<96xf32>, memref<96xf32>
// CHECK:             scf.for %[[N:[a-z0-9_]+]] = %{{.+}} to %c70{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// CHECK:               scf.for %[[Q:[a-z0-9_]+]] =
// CHECK:                 scf.for %[[KB:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c1{{(_[0-9]+)?}} {
// CHECK:                   %[[KB2:.+]] = arith.addi %[[K]], %[[KB]] : index
// CHECK:                   %[[BMASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK:                   %[[ROW:.+]] = vector.transfer_read %[[B]][%[[KB2]], %{{.+}}], %{{.+}}, %[[BMASK]] : memref<37x70xf32>, vector<16xf32>
// CHECK:                   vector.transfer_write %[[ROW]], %[[PB]][%[[Q]], %[[KB]], %{{.+}}] {in_bounds = [true]} : vector<16xf32>, memref<2x8x16xf32>
// CHECK:               scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c6{{(_[0-9]+)?}} {
// CHECK:                 scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                   memref.subview %[[PA]][%{{.+}}, 0, 0] [1, 8, 6] [1, 1, 1]
// CHECK:                   memref.subview %[[PB]][%{{.+}}, 0, 0] [1, 8, 16] [1, 1, 1]
// CHECK:                   tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:                a(%{{.+}} : memref<8x6xf32, strided<[6, 1], offset: ?>>) b(%{{.+}} : memref<8x16xf32, strided<[16, 1], offset: ?>>)
// CHECK-SAME:                c(%{{.+}} : memref<?x?xf32, strided<[70, 1], offset: ?>>) kc(%{{.+}}) m_rem(%{{.+}}) n_rem(%{{.+}})
// CHECK-SAME:                mr = 6 : i64, nr = 16 : i64
// CHECK:         } {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn"
// CHECK-NEXT:    memref.dealloc %[[PA]] : memref<2x8x6xf32>
// CHECK-NEXT:    memref.dealloc %[[PB]] : memref<2x8x16xf32>
// CHECK-NEXT:    return
func.func @order_mkn_mn(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// n, k, m with the register loops n outside m.
// CHECK-LABEL: func.func @order_nkm_nm(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         %[[PAF:.+]] = memref.collapse_shape %[[PA]] {{\[\[}}0, 1, 2]] : memref<2x8x6xf32> into memref<96xf32>
// CHECK:         scf.for %[[N:[a-z0-9_]+]] = %{{.+}} to %c70{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// CHECK:           scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// CHECK:             scf.for %[[Q:[a-z0-9_]+]] =
// CHECK:               scf.for %[[KB:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c1{{(_[0-9]+)?}} {
// CHECK:                 %[[KB2:.+]] = arith.addi %[[K]], %[[KB]] : index
// CHECK:                 %[[BMASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK:                 %[[ROW:.+]] = vector.transfer_read %[[B]][%[[KB2]], %{{.+}}], %{{.+}}, %[[BMASK]] : memref<37x70xf32>, vector<16xf32>
// CHECK:                 vector.transfer_write %[[ROW]], %[[PB]][%[[Q]], %[[KB]], %{{.+}}] {in_bounds = [true]} : vector<16xf32>, memref<2x8x16xf32>
// CHECK:             scf.for %[[M:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c12{{(_[0-9]+)?}} {
// CHECK:               scf.for %[[P:[a-z0-9_]+]] =
// CHECK:                 scf.for %[[KK:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                   scf.if
// CHECK:                     %[[KA:.+]] = arith.addi %[[K]], %[[KK]] : index
// CHECK:                     %[[T:.+]] = vector.transfer_read %[[A]][%{{.+}}, %[[KA]]], %{{.+}} {in_bounds = [true, true]} : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                     %[[TT:.+]] = vector.transpose %[[T]], [1, 0] : vector<6x16xf32> to vector<16x6xf32>
// CHECK:                     %[[TF:.+]] = vector.shape_cast %[[TT]] : vector<16x6xf32> to vector<96xf32>
// CHECK:                     vector.transfer_write %[[TF]], %[[PAF]][%{{.+}}] {in_bounds = [true]} : vector<96xf32>, memref<96xf32>
// CHECK:                   } else {
// CHECK:                     %[[MASK:.+]] = vector.create_mask %{{.+}}, %{{.+}} : vector<6x16xi1>
// CHECK:                     vector.transfer_read %[[A]][%{{.+}}, %{{.+}}], %{{.+}}, %[[MASK]] : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                     vector.transfer_write %{{.+}}, %[[PAF]][%{{.+}}], %{{.+}} : vector<96xf32>, memref<96xf32>
// CHECK:               scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                 scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c6{{(_[0-9]+)?}} {
// CHECK:                   memref.subview %[[PA]][%{{.+}}, 0, 0] [1, 8, 6] [1, 1, 1]
// CHECK:                   memref.subview %[[PB]][%{{.+}}, 0, 0] [1, 8, 16] [1, 1, 1]
// CHECK:                   tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:                a(%{{.+}} : memref<8x6xf32, strided<[6, 1], offset: ?>>) b(%{{.+}} : memref<8x16xf32, strided<[16, 1], offset: ?>>)
// CHECK-SAME:                c(%{{.+}} : memref<?x?xf32, strided<[70, 1], offset: ?>>) kc(%{{.+}}) m_rem(%{{.+}}) n_rem(%{{.+}})
// CHECK-SAME:                mr = 6 : i64, nr = 16 : i64
// CHECK:         } {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm"
// CHECK-NEXT:    memref.dealloc %[[PA]] : memref<2x8x6xf32>
// CHECK-NEXT:    memref.dealloc %[[PB]] : memref<2x8x16xf32>
// CHECK-NEXT:    return
func.func @order_nkm_nm(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// k outermost: A is packed inside the m loop, B inside the n loop.
// CHECK-LABEL: func.func @order_kmn_mn(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         %[[PAF:.+]] = memref.collapse_shape %[[PA]] {{\[\[}}0, 1, 2]] : memref<2x8x6xf32> into memref<96xf32>
// CHECK:         scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// CHECK:           scf.for %[[M:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c12{{(_[0-9]+)?}} {
// CHECK:             scf.for %[[P:[a-z0-9_]+]] =
// CHECK:               scf.for %[[KK:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                 scf.if
// CHECK:                   %[[KA:.+]] = arith.addi %[[K]], %[[KK]] : index
// CHECK:                   %[[T:.+]] = vector.transfer_read %[[A]][%{{.+}}, %[[KA]]], %{{.+}} {in_bounds = [true, true]} : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                   %[[TT:.+]] = vector.transpose %[[T]], [1, 0] : vector<6x16xf32> to vector<16x6xf32>
// CHECK:                   %[[TF:.+]] = vector.shape_cast %[[TT]] : vector<16x6xf32> to vector<96xf32>
// CHECK:                   vector.transfer_write %[[TF]], %[[PAF]][%{{.+}}] {in_bounds = [true]} : vector<96xf32>, memref<96xf32>
// CHECK:                 } else {
// CHECK:                   %[[MASK:.+]] = vector.create_mask %{{.+}}, %{{.+}} : vector<6x16xi1>
// CHECK:                   vector.transfer_read %[[A]][%{{.+}}, %{{.+}}], %{{.+}}, %[[MASK]] : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                   vector.transfer_write %{{.+}}, %[[PAF]][%{{.+}}], %{{.+}} : vector<96xf32>, memref<96xf32>
// CHECK:             scf.for %[[N:[a-z0-9_]+]] = %{{.+}} to %c70{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// CHECK:               scf.for %[[Q:[a-z0-9_]+]] =
// CHECK:                 scf.for %[[KB:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c1{{(_[0-9]+)?}} {
// CHECK:                   %[[KB2:.+]] = arith.addi %[[K]], %[[KB]] : index
// CHECK:                   %[[BMASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK:                   %[[ROW:.+]] = vector.transfer_read %[[B]][%[[KB2]], %{{.+}}], %{{.+}}, %[[BMASK]] : memref<37x70xf32>, vector<16xf32>
// CHECK:                   vector.transfer_write %[[ROW]], %[[PB]][%[[Q]], %[[KB]], %{{.+}}] {in_bounds = [true]} : vector<16xf32>, memref<2x8x16xf32>
// CHECK:               scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c6{{(_[0-9]+)?}} {
// CHECK:                 scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                   memref.subview %[[PA]][%{{.+}}, 0, 0] [1, 8, 6] [1, 1, 1]
// CHECK:                   memref.subview %[[PB]][%{{.+}}, 0, 0] [1, 8, 16] [1, 1, 1]
// CHECK:                   tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:                a(%{{.+}} : memref<8x6xf32, strided<[6, 1], offset: ?>>) b(%{{.+}} : memref<8x16xf32, strided<[16, 1], offset: ?>>)
// CHECK-SAME:                c(%{{.+}} : memref<?x?xf32, strided<[70, 1], offset: ?>>) kc(%{{.+}}) m_rem(%{{.+}}) n_rem(%{{.+}})
// CHECK-SAME:                mr = 6 : i64, nr = 16 : i64
// CHECK:         } {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "kmn", micro_order = "mn"
// CHECK-NEXT:    memref.dealloc %[[PA]] : memref<2x8x6xf32>
// CHECK-NEXT:    memref.dealloc %[[PB]] : memref<2x8x16xf32>
// CHECK-NEXT:    return
func.func @order_kmn_mn(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "kmn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @order_knm_nm(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         %[[PAF:.+]] = memref.collapse_shape %[[PA]] {{\[\[}}0, 1, 2]] : memref<2x8x6xf32> into memref<96xf32>
// CHECK:         scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// CHECK:           scf.for %[[N:[a-z0-9_]+]] = %{{.+}} to %c70{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// CHECK:             scf.for %[[Q:[a-z0-9_]+]] =
// CHECK:               scf.for %[[KB:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c1{{(_[0-9]+)?}} {
// CHECK:                 %[[KB2:.+]] = arith.addi %[[K]], %[[KB]] : index
// CHECK:                 %[[BMASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK:                 %[[ROW:.+]] = vector.transfer_read %[[B]][%[[KB2]], %{{.+}}], %{{.+}}, %[[BMASK]] : memref<37x70xf32>, vector<16xf32>
// CHECK:                 vector.transfer_write %[[ROW]], %[[PB]][%[[Q]], %[[KB]], %{{.+}}] {in_bounds = [true]} : vector<16xf32>, memref<2x8x16xf32>
// CHECK:             scf.for %[[M:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c12{{(_[0-9]+)?}} {
// CHECK:               scf.for %[[P:[a-z0-9_]+]] =
// CHECK:                 scf.for %[[KK:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                   scf.if
// CHECK:                     %[[KA:.+]] = arith.addi %[[K]], %[[KK]] : index
// CHECK:                     %[[T:.+]] = vector.transfer_read %[[A]][%{{.+}}, %[[KA]]], %{{.+}} {in_bounds = [true, true]} : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                     %[[TT:.+]] = vector.transpose %[[T]], [1, 0] : vector<6x16xf32> to vector<16x6xf32>
// CHECK:                     %[[TF:.+]] = vector.shape_cast %[[TT]] : vector<16x6xf32> to vector<96xf32>
// CHECK:                     vector.transfer_write %[[TF]], %[[PAF]][%{{.+}}] {in_bounds = [true]} : vector<96xf32>, memref<96xf32>
// CHECK:                   } else {
// CHECK:                     %[[MASK:.+]] = vector.create_mask %{{.+}}, %{{.+}} : vector<6x16xi1>
// CHECK:                     vector.transfer_read %[[A]][%{{.+}}, %{{.+}}], %{{.+}}, %[[MASK]] : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                     vector.transfer_write %{{.+}}, %[[PAF]][%{{.+}}], %{{.+}} : vector<96xf32>, memref<96xf32>
// CHECK:               scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                 scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c6{{(_[0-9]+)?}} {
// CHECK:                   memref.subview %[[PA]][%{{.+}}, 0, 0] [1, 8, 6] [1, 1, 1]
// CHECK:                   memref.subview %[[PB]][%{{.+}}, 0, 0] [1, 8, 16] [1, 1, 1]
// CHECK:                   tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:                a(%{{.+}} : memref<8x6xf32, strided<[6, 1], offset: ?>>) b(%{{.+}} : memref<8x16xf32, strided<[16, 1], offset: ?>>)
// CHECK-SAME:                c(%{{.+}} : memref<?x?xf32, strided<[70, 1], offset: ?>>) kc(%{{.+}}) m_rem(%{{.+}}) n_rem(%{{.+}})
// CHECK-SAME:                mr = 6 : i64, nr = 16 : i64
// CHECK:         } {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "knm", micro_order = "nm"
// CHECK-NEXT:    memref.dealloc %[[PA]] : memref<2x8x6xf32>
// CHECK-NEXT:    memref.dealloc %[[PB]] : memref<2x8x16xf32>
// CHECK-NEXT:    return
func.func @order_knm_nm(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "knm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// k innermost: both blocks are packed per k step, A first.
// CHECK-LABEL: func.func @order_mnk_nm(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         %[[PAF:.+]] = memref.collapse_shape %[[PA]] {{\[\[}}0, 1, 2]] : memref<2x8x6xf32> into memref<96xf32>
// CHECK:         scf.for %[[M:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c12{{(_[0-9]+)?}} {
// CHECK:           scf.for %[[N:[a-z0-9_]+]] = %{{.+}} to %c70{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// CHECK:             scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// CHECK:               scf.for %[[P:[a-z0-9_]+]] =
// CHECK:                 scf.for %[[KK:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                   scf.if
// CHECK:                     %[[KA:.+]] = arith.addi %[[K]], %[[KK]] : index
// CHECK:                     %[[T:.+]] = vector.transfer_read %[[A]][%{{.+}}, %[[KA]]], %{{.+}} {in_bounds = [true, true]} : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                     %[[TT:.+]] = vector.transpose %[[T]], [1, 0] : vector<6x16xf32> to vector<16x6xf32>
// CHECK:                     %[[TF:.+]] = vector.shape_cast %[[TT]] : vector<16x6xf32> to vector<96xf32>
// CHECK:                     vector.transfer_write %[[TF]], %[[PAF]][%{{.+}}] {in_bounds = [true]} : vector<96xf32>, memref<96xf32>
// CHECK:                   } else {
// CHECK:                     %[[MASK:.+]] = vector.create_mask %{{.+}}, %{{.+}} : vector<6x16xi1>
// CHECK:                     vector.transfer_read %[[A]][%{{.+}}, %{{.+}}], %{{.+}}, %[[MASK]] : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                     vector.transfer_write %{{.+}}, %[[PAF]][%{{.+}}], %{{.+}} : vector<96xf32>, memref<96xf32>
// CHECK:               scf.for %[[Q:[a-z0-9_]+]] =
// CHECK:                 scf.for %[[KB:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c1{{(_[0-9]+)?}} {
// CHECK:                   %[[KB2:.+]] = arith.addi %[[K]], %[[KB]] : index
// CHECK:                   %[[BMASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK:                   %[[ROW:.+]] = vector.transfer_read %[[B]][%[[KB2]], %{{.+}}], %{{.+}}, %[[BMASK]] : memref<37x70xf32>, vector<16xf32>
// CHECK:                   vector.transfer_write %[[ROW]], %[[PB]][%[[Q]], %[[KB]], %{{.+}}] {in_bounds = [true]} : vector<16xf32>, memref<2x8x16xf32>
// CHECK:               scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                 scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c6{{(_[0-9]+)?}} {
// CHECK:                   memref.subview %[[PA]][%{{.+}}, 0, 0] [1, 8, 6] [1, 1, 1]
// CHECK:                   memref.subview %[[PB]][%{{.+}}, 0, 0] [1, 8, 16] [1, 1, 1]
// CHECK:                   tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:                a(%{{.+}} : memref<8x6xf32, strided<[6, 1], offset: ?>>) b(%{{.+}} : memref<8x16xf32, strided<[16, 1], offset: ?>>)
// CHECK-SAME:                c(%{{.+}} : memref<?x?xf32, strided<[70, 1], offset: ?>>) kc(%{{.+}}) m_rem(%{{.+}}) n_rem(%{{.+}})
// CHECK-SAME:                mr = 6 : i64, nr = 16 : i64
// CHECK:         } {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mnk", micro_order = "nm"
// CHECK-NEXT:    memref.dealloc %[[PA]] : memref<2x8x6xf32>
// CHECK-NEXT:    memref.dealloc %[[PB]] : memref<2x8x16xf32>
// CHECK-NEXT:    return
func.func @order_mnk_nm(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mnk", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @order_nmk_mn(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         %[[PAF:.+]] = memref.collapse_shape %[[PA]] {{\[\[}}0, 1, 2]] : memref<2x8x6xf32> into memref<96xf32>
// CHECK:         scf.for %[[N:[a-z0-9_]+]] = %{{.+}} to %c70{{(_[0-9]+)?}} step %c32{{(_[0-9]+)?}} {
// CHECK:           scf.for %[[M:[a-z0-9_]+]] = %{{.+}} to %c50{{(_[0-9]+)?}} step %c12{{(_[0-9]+)?}} {
// CHECK:             scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8{{(_[0-9]+)?}} {
// CHECK:               scf.for %[[P:[a-z0-9_]+]] =
// CHECK:                 scf.for %[[KK:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                   scf.if
// CHECK:                     %[[KA:.+]] = arith.addi %[[K]], %[[KK]] : index
// CHECK:                     %[[T:.+]] = vector.transfer_read %[[A]][%{{.+}}, %[[KA]]], %{{.+}} {in_bounds = [true, true]} : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                     %[[TT:.+]] = vector.transpose %[[T]], [1, 0] : vector<6x16xf32> to vector<16x6xf32>
// CHECK:                     %[[TF:.+]] = vector.shape_cast %[[TT]] : vector<16x6xf32> to vector<96xf32>
// CHECK:                     vector.transfer_write %[[TF]], %[[PAF]][%{{.+}}] {in_bounds = [true]} : vector<96xf32>, memref<96xf32>
// CHECK:                   } else {
// CHECK:                     %[[MASK:.+]] = vector.create_mask %{{.+}}, %{{.+}} : vector<6x16xi1>
// CHECK:                     vector.transfer_read %[[A]][%{{.+}}, %{{.+}}], %{{.+}}, %[[MASK]] : memref<50x37xf32>, vector<6x16xf32>
// CHECK:                     vector.transfer_write %{{.+}}, %[[PAF]][%{{.+}}], %{{.+}} : vector<96xf32>, memref<96xf32>
// CHECK:               scf.for %[[Q:[a-z0-9_]+]] =
// CHECK:                 scf.for %[[KB:[a-z0-9_]+]] = %{{.+}} to %{{.+}} step %c1{{(_[0-9]+)?}} {
// CHECK:                   %[[KB2:.+]] = arith.addi %[[K]], %[[KB]] : index
// CHECK:                   %[[BMASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK:                   %[[ROW:.+]] = vector.transfer_read %[[B]][%[[KB2]], %{{.+}}], %{{.+}}, %[[BMASK]] : memref<37x70xf32>, vector<16xf32>
// CHECK:                   vector.transfer_write %[[ROW]], %[[PB]][%[[Q]], %[[KB]], %{{.+}}] {in_bounds = [true]} : vector<16xf32>, memref<2x8x16xf32>
// CHECK:               scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c6{{(_[0-9]+)?}} {
// CHECK:                 scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c16{{(_[0-9]+)?}} {
// CHECK:                   memref.subview %[[PA]][%{{.+}}, 0, 0] [1, 8, 6] [1, 1, 1]
// CHECK:                   memref.subview %[[PB]][%{{.+}}, 0, 0] [1, 8, 16] [1, 1, 1]
// CHECK:                   tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:                a(%{{.+}} : memref<8x6xf32, strided<[6, 1], offset: ?>>) b(%{{.+}} : memref<8x16xf32, strided<[16, 1], offset: ?>>)
// CHECK-SAME:                c(%{{.+}} : memref<?x?xf32, strided<[70, 1], offset: ?>>) kc(%{{.+}}) m_rem(%{{.+}}) n_rem(%{{.+}})
// CHECK-SAME:                mr = 6 : i64, nr = 16 : i64
// CHECK:         } {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nmk", micro_order = "mn"
// CHECK-NEXT:    memref.dealloc %[[PA]] : memref<2x8x6xf32>
// CHECK-NEXT:    memref.dealloc %[[PB]] : memref<2x8x16xf32>
// CHECK-NEXT:    return
func.func @order_nmk_mn(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nmk", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// A stored K x M: its panels are plain copies of A's rows, and the rows of
// an edge panel past the matrix are zeroed.
// CHECK-LABEL: func.func @transpose_a(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<37x50xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         scf.for %[[M:[a-z0-9_]+]] =
// CHECK:           scf.for %[[K:[a-z0-9_]+]] =
// CHECK:             %[[DA:.+]] = memref.subview %[[PA]]
// CHECK:             %[[SA:.+]] = memref.subview %[[A]][%[[K]], %{{.+}}]
// CHECK-NOT:         linalg.transpose
// CHECK-NOT:         linalg.generic
// CHECK:             linalg.copy ins(%[[SA]] : memref<?x?xf32, strided<[50, 1], offset: ?>>) outs(%[[DA]] : memref<?x?xf32, strided<[6, 1], offset: ?>>)
// CHECK:             %[[PADA:.+]] = memref.subview %[[PA]]
// CHECK:             linalg.fill ins(%{{.+}} : f32) outs(%[[PADA]] :
// CHECK:             vector.transfer_read %[[B]]
// CHECK:             tensorop.ukernel
// CHECK-NOT:     linalg.matmul
func.func @transpose_a(%A: memref<37x50xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<37x50xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// B stored N x K: its panels are transposes (A, row-major, is vectorized).
// CHECK-LABEL: func.func @transpose_b(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<70x37xf32>
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         scf.for %[[M:[a-z0-9_]+]] =
// CHECK:           scf.for %[[K:[a-z0-9_]+]] =
// CHECK:             vector.transfer_read %[[A]]
// CHECK:             vector.transpose
// CHECK:             %[[DB:.+]] = memref.subview %[[PB]]
// CHECK:             %[[SB:.+]] = memref.subview %[[B]][%{{.+}}, %[[K]]]
// CHECK-NOT:         linalg.copy
// CHECK:             linalg.{{transpose|generic}}{{.*}} ins(%[[SB]] : memref<?x?xf32, strided<[37, 1], offset: ?>>) outs(%[[DB]] : memref<?x?xf32, strided<[16, 1], offset: ?>>)
// CHECK:             %[[PADB:.+]] = memref.subview %[[PB]]
// CHECK:             linalg.fill ins(%{{.+}} : f32) outs(%[[PADB]] :
// CHECK:             tensorop.ukernel
// CHECK-NOT:     linalg.matmul
func.func @transpose_b(%A: memref<50x37xf32>, %B: memref<70x37xf32>, %C: memref<50x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                 affine_map<(d0, d1, d2) -> (d1, d2)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<70x37xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// Both transposed: A copied, B transposed.
// CHECK-LABEL: func.func @transpose_ab(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<37x50xf32>, %[[B:[a-z0-9_]+]]: memref<70x37xf32>
// CHECK:         scf.for %[[M:[a-z0-9_]+]] =
// CHECK:           scf.for %[[K:[a-z0-9_]+]] =
// CHECK:             %[[SA:.+]] = memref.subview %[[A]][%[[K]], %{{.+}}]
// CHECK:             linalg.copy ins(%[[SA]] :
// CHECK:             %[[SB:.+]] = memref.subview %[[B]][%{{.+}}, %[[K]]]
// CHECK:             linalg.{{transpose|generic}}{{.*}} ins(%[[SB]] :
// CHECK:             tensorop.ukernel
// CHECK-NOT:     linalg.matmul
func.func @transpose_ab(%A: memref<37x50xf32>, %B: memref<70x37xf32>, %C: memref<50x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d1, d2)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<37x50xf32>, memref<70x37xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// Tiles never exceed the (register-block padded) problem: a 1x1x1 GEMM
// gets one 6-row A panel and one 16-column B panel of depth 1.
// CHECK-LABEL: func.func @tiny
// CHECK:         %[[PA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1x1x6xf32>
// CHECK:         %[[PB:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1x1x16xf32>
// CHECK:         memref.subview %[[PA]][%{{.+}}, 0, 0] [1, 1, 6] [1, 1, 1] : memref<1x1x6xf32> to memref<1x6xf32
// CHECK:         memref.subview %[[PB]][%{{.+}}, 0, 0] [1, 1, 16] [1, 1, 1] : memref<1x1x16xf32> to memref<1x16xf32
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:      c(%{{.+}} : memref<?x?xf32, strided<[1, 1], offset: ?>>)
// CHECK:         memref.dealloc %[[PA]] : memref<1x1x6xf32>
// CHECK:         memref.dealloc %[[PB]] : memref<1x1x16xf32>
func.func @tiny(%A: memref<1x1xf32>, %B: memref<1x1xf32>, %C: memref<1x1xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<1x1xf32>, memref<1x1xf32>) outs(%C : memref<1x1xf32>)
  return
}

// -----

// Strided operands (views into larger buffers) are packed from their
// strides; only C needs a unit inner stride.
// CHECK-LABEL: func.func @strided_operands(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<8x8xf32, strided<[16, 1], offset: 4>>, %[[B:[a-z0-9_]+]]: memref<8x16xf32, strided<[32, 2]>>
// CHECK:         vector.transfer_read %[[A]][{{.*}} : memref<8x8xf32, strided<[16, 1], offset: 4>>, vector<6x16xf32>
// CHECK:         vector.transfer_read %[[B]][{{.*}} : memref<8x16xf32, strided<[32, 2]>>, vector<16xf32>
// CHECK:         tensorop.ukernel
// CHECK-SAME:      c(%{{.+}} : memref<?x?xf32, strided<[20, 1], offset: ?>>)
func.func @strided_operands(%A: memref<8x8xf32, strided<[16, 1], offset: 4>>, %B: memref<8x16xf32, strided<[32, 2]>>, %C: memref<8x16xf32, strided<[20, 1], offset: ?>>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<8x8xf32, strided<[16, 1], offset: 4>>, memref<8x16xf32, strided<[32, 2]>>) outs(%C : memref<8x16xf32, strided<[20, 1], offset: ?>>)
  return
}

// -----

// Two sketched GEMMs in one function get their own buffers and loop nests;
// a matmul without a sketch is left alone.
// CHECK-LABEL: func.func @two_gemms
// CHECK:         %[[PA1:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         %[[PB1:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:         scf.for
// CHECK:         tensorop.ukernel
// CHECK:         memref.dealloc %[[PA1]]
// CHECK:         memref.dealloc %[[PB1]]
// CHECK:         %[[PA2:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1x8x6xf32>
// CHECK:         %[[PB2:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1x8x16xf32>
// CHECK:         scf.for
// CHECK:         tensorop.ukernel
// CHECK:         memref.dealloc %[[PA2]]
// CHECK:         memref.dealloc %[[PB2]]
// CHECK:         linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x4xf32>, memref<4x4xf32>)
// CHECK-NEXT:    return
func.func @two_gemms(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>,
                     %D: memref<5x9xf32>, %E: memref<9x3xf32>, %F: memref<5x3xf32>,
                     %G: memref<4x4xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%D, %E : memref<5x9xf32>, memref<9x3xf32>) outs(%F : memref<5x3xf32>)
  linalg.matmul ins(%G, %G : memref<4x4xf32>, memref<4x4xf32>) outs(%G : memref<4x4xf32>)
  return
}

// -----

// The microkernel variant knobs reach the emitter: k_unroll 3, embedded
// broadcasts ({1to16}) and a B prefetch 8 k-steps ahead.
// CHECK-LABEL: func.func @ukernel_variant
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u3_embedded_pf8"
// CHECK-SAME:      asm_string = "{{[^"]*}}prefetcht0{{[^"]*}}vfmadd231ps ({{[^"]*}}){1to16}
// CHECK-SAME:      mr = 6 : i64, nr = 16 : i64
func.func @ukernel_variant(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 8>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// An AVX2 sketch: ymm registers, 8 lanes, a 4x24 register block.
// CHECK-LABEL: func.func @avx2
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<3x8x4xf32>
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<2x8x24xf32>
// CHECK:         tensorop.ukernel "x86_avx2_f32_4x24_u4_explicit"
// CHECK-SAME:      a(%{{.+}} : memref<8x4xf32, strided<[4, 1], offset: ?>>) b(%{{.+}} : memref<8x24xf32, strided<[24, 1], offset: ?>>)
// CHECK-SAME:      asm_string = "{{[^"]*}}vfmadd231ps %ymm{{[^"]*}}"
// CHECK-SAME:      constraints = "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,{{[^"]*}}~{ymm0}
// CHECK-SAME:      mr = 4 : i64, nr = 24 : i64
// CHECK-NOT:     zmm
func.func @avx2(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 48, kc = 8, mr = 4, nr = 24, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2,+fma,+bmi2", vector_bits = 256, vector_registers = 16>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// C with a non-unit inner stride cannot be handed to the microkernel: the
// sketch is dropped and the matmul left to the upstream lowering.
// CHECK-LABEL: func.func @c_column_major
// CHECK-NOT:     tensorop.sketch
// CHECK:         linalg.matmul ins(
// CHECK-NOT:     tensorop.sketch
// CHECK:         return
func.func @c_column_major(%A: memref<8x8xf32>, %B: memref<8x16xf32>, %C: memref<8x16xf32, strided<[1, 8]>>) {
  // expected-remark @+1 {{tensorop: C has a non-unit inner stride ('memref<8x16xf32, strided<[1, 8]>>'); lowered by the upstream pipeline}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<8x8xf32>, memref<8x16xf32>) outs(%C : memref<8x16xf32, strided<[1, 8]>>)
  return
}

// -----

func.func @tensors(%A: tensor<50x37xf32>, %B: tensor<37x70xf32>, %C: tensor<50x70xf32>) -> tensor<50x70xf32> {
  // expected-error @+1 {{tensorop-apply-sketch needs memref operands; run one-shot-bufferize first}}
  %r = linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : tensor<50x37xf32>, tensor<37x70xf32>) outs(%C : tensor<50x70xf32>) -> tensor<50x70xf32>
  return %r : tensor<50x70xf32>
}

// -----

// A sketch on a matmul the pass cannot handle is an error, not a silent skip.
func.func @f64_with_sketch(%A: memref<8x8xf64>, %B: memref<8x16xf64>, %C: memref<8x16xf64>) {
  // expected-error @+1 {{cannot apply the tensorop sketch: element types other than f32 x f32 -> f32, bf16 x bf16 -> f32 and f16 x f16 -> f32 are not supported on CPU targets yet (got f64 x f64 -> f64)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<8x8xf64>, memref<8x16xf64>) outs(%C : memref<8x16xf64>)
  return
}

// -----

// Dynamic dimensions: the loops run to the extents read from the operands
// (memref.dim), with the sketch's full tiles.
// CHECK-LABEL: func.func @dynamic_with_sketch
// CHECK:       memref.dim %arg2
// CHECK:       memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:       memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK:       scf.for %{{.*}} = %{{.*}} to %dim{{.*}} step %c12
// CHECK:         scf.for %{{.*}} = %{{.*}} to %dim{{.*}} step %c8
// CHECK:           scf.for %{{.*}} = %{{.*}} to %dim{{.*}} step %c32
// CHECK:       tensorop.ukernel
func.func @dynamic_with_sketch(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// -----

// The sketch's target needs a hints file (for the microkernel's ISA).
func.func @unknown_target(%A: memref<8x8xf32>, %B: memref<8x16xf32>, %C: memref<8x16xf32>) {
  // expected-error @+1 {{unknown target 'x86-nonexistent': no hints file}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 6, nc = 16, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-nonexistent", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<8x8xf32>, memref<8x16xf32>) outs(%C : memref<8x16xf32>)
  return
}
