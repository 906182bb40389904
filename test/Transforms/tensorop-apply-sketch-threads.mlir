// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch --canonicalize --cse | FileCheck %s

// threads > 1: an scf.forall over chunks of C, each a whole number of
// register blocks, with the sketch's loop nest inside its body. Each chunk
// packs into buffers allocated (and freed) inside the body, so no packed
// block is shared between threads. The buffers carry the sketch, which
// tensorop-omp-team-size looks for. Small tiles (mc=12 nc=32 kc=8, 6x16
// register block), as in tensorop-apply-sketch.mlir.

// 50x70: 9 row blocks against 5 column blocks, so the rows are split:
// chunks of roundUp(ceil(50/2), 6) = 30 rows (30 and 20).
// CHECK-LABEL: func.func @split_m(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<50x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c30 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c50, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c30 : index
// CHECK-NEXT:      %[[AS:.+]] = memref.subview %[[A]][%[[OFF]], 0] [%[[SIZE]], 37] [1, 1]
// CHECK-NEXT:      %[[CS:.+]] = memref.subview %[[C]][%[[OFF]], 0] [%[[SIZE]], 70] [1, 1]
// CHECK-NEXT:      %[[PA:.+]] = memref.alloc() {alignment = 64 : i64, tensorop.sketch = #tensorop.sketch<{{.+}}threads = 2>} : memref<2x8x6xf32>
// CHECK-NEXT:      %[[PB:.+]] = memref.alloc() {alignment = 64 : i64, tensorop.sketch = #tensorop.sketch<{{.+}}threads = 2>} : memref<2x8x16xf32>
// CHECK:           scf.for %{{.+}} = %c0 to %[[SIZE]] step %c12 {
// CHECK:             vector.transfer_read %[[AS]]
// CHECK:             vector.transfer_read %[[B]]
// CHECK:             memref.subview %[[CS]]
// CHECK:             tensorop.ukernel
// CHECK:           memref.dealloc %[[PA]]
// CHECK-NEXT:      memref.dealloc %[[PB]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @split_m(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}
// -----

// 20x200: 10 rows per thread are too thin to re-pack all of B for, and
// there are 4 row blocks against 13 column blocks, so the columns are split:
// chunks of roundUp(100, 16) = 112 columns (112 and 88); A is read whole.
// CHECK-LABEL: func.func @split_n(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<20x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x200xf32>, %[[C:[a-z0-9_]+]]: memref<20x200xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c112 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c200, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c112 : index
// CHECK-NEXT:      %[[BS:.+]] = memref.subview %[[B]][0, %[[OFF]]] [37, %[[SIZE]]] [1, 1]
// CHECK-NEXT:      %[[CS:.+]] = memref.subview %[[C]][0, %[[OFF]]] [20, %[[SIZE]]] [1, 1]
// CHECK-NEXT:      memref.alloc() {alignment = 64 : i64, tensorop.sketch = {{.+}}} : memref<2x8x6xf32>
// CHECK-NEXT:      memref.alloc() {alignment = 64 : i64, tensorop.sketch = {{.+}}} : memref<2x8x16xf32>
// CHECK:           vector.transfer_read %[[A]]
// CHECK:           scf.for %{{.+}} = %c0 to %[[SIZE]] step %c32 {
// A full B panel is read without a mask (only edge panels need one, and a
// mask on a chunk of dynamic width is expensive to build).
// CHECK:             %[[FULL:.+]] = arith.cmpi eq, %{{.+}}, %c16 : index
// CHECK-NEXT:        scf.if %[[FULL]] {
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            arith.addi
// CHECK-NEXT:            vector.transfer_read %[[BS]][%{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]}
// CHECK:               } else {
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            arith.addi
// CHECK-NEXT:            %[[MASK:.+]] = vector.create_mask %{{.+}} : vector<16xi1>
// CHECK-NEXT:            vector.transfer_read %[[BS]][%{{.+}}, %{{.+}}], %{{.+}}, %[[MASK]]
// CHECK:             memref.subview %[[CS]]
// CHECK:             tensorop.ukernel
func.func @split_n(%A: memref<20x37xf32>, %B: memref<37x200xf32>, %C: memref<20x200xf32>) {
  linalg.matmul ins(%A, %B : memref<20x37xf32>, memref<37x200xf32>) outs(%C : memref<20x200xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}
// -----

// A stored K x M: its chunk is a range of columns.
// CHECK-LABEL: func.func @split_m_transposed_a(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<37x50xf32>, %[[B:[a-z0-9_]+]]: memref<37x70xf32>, %[[C:[a-z0-9_]+]]: memref<50x70xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK:           %[[AS:.+]] = memref.subview %[[A]][0, %[[OFF:.+]]] [37, %[[SIZE:.+]]] [1, 1]
// CHECK-NEXT:      memref.subview %[[C]][%[[OFF]], 0] [%[[SIZE]], 70] [1, 1]
// CHECK:           memref.subview %[[AS]]
// CHECK:           linalg.copy
func.func @split_m_transposed_a(%A: memref<37x50xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%A, %B : memref<37x50xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}
// -----

// One register block in each direction: nothing to split, no forall (and
// buffers without the sketch).
// CHECK-LABEL: func.func @too_small(
// CHECK-NOT:     scf.forall
// CHECK:         memref.alloc() {alignment = 64 : i64} : memref<1x3x6xf32>
// CHECK:         tensorop.ukernel
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @too_small(%A: memref<5x3xf32>, %B: memref<3x7xf32>, %C: memref<5x7xf32>) {
  linalg.matmul ins(%A, %B : memref<5x3xf32>, memref<3x7xf32>) outs(%C : memref<5x7xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}
// -----

// Three threads: chunks of roundUp(17, 6) = 18 rows (18, 18, 14).
// CHECK-LABEL: func.func @three_threads(
// CHECK:         scf.forall (%[[T:.+]]) in (3) {
// CHECK-NEXT:      arith.muli %[[T]], %c18 : index
func.func @three_threads(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 3>}
  return
}

// -----

// 64x100 with 16-row blocks: 4 row blocks against 7 column blocks, but 32
// rows per thread are thick enough, B is less than twice as wide as A is
// tall, and the row chunks are even, so M is split (see planThreadSplit):
// chunks of roundUp(32, 16) = 32 rows (32 and 32).
// CHECK-LABEL: func.func @thick_rows(
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c32 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c64, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c32 : index
// CHECK-NEXT:      memref.subview %{{.+}}[%[[OFF]], 0] [%[[SIZE]], 37] [1, 1]
func.func @thick_rows(%A: memref<64x37xf32>, %B: memref<37x100xf32>, %C: memref<64x100xf32>) {
  linalg.matmul ins(%A, %B : memref<64x37xf32>, memref<37x100xf32>) outs(%C : memref<64x100xf32>) {tensorop.sketch = #tensorop.sketch<mc = 16, nc = 32, kc = 8, mr = 16, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// The same rows in 14-row blocks split unevenly (roundUp(32, 14) = 42:
// 42 and 22). B is packed, so packedSplitCosts weighs the largest chunks:
// 42 rows x 112 columns + 8 x (100 B columns + 42 A rows) = 5840 against
// 70 rows x 64 columns + 8 x (64 + 64) = 5504, 6% less, and N is split:
// chunks of roundUp(50, 16) = 64 columns (64 and 36).
// CHECK-LABEL: func.func @uneven_rows_packed_b(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<64x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x100xf32>, %[[C:[a-z0-9_]+]]: memref<64x100xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c64 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c100, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c64 : index
// CHECK-NEXT:      memref.subview %[[B]][0, %[[OFF]]] [37, %[[SIZE]]] [1, 1]
func.func @uneven_rows_packed_b(%A: memref<64x37xf32>, %B: memref<37x100xf32>, %C: memref<64x100xf32>) {
  linalg.matmul ins(%A, %B : memref<64x37xf32>, memref<37x100xf32>) outs(%C : memref<64x100xf32>) {tensorop.sketch = #tensorop.sketch<mc = 14, nc = 32, kc = 8, mr = 14, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// The same GEMM in bf16: the cost model was measured on fp32 only, so
// the rows are split as before (42 and 22).
// CHECK-LABEL: func.func @uneven_rows_packed_b_bf16(
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c42 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c64, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c42 : index
// CHECK-NEXT:      memref.subview %{{.+}}[%[[OFF]], 0] [%[[SIZE]], 38] [1, 1]
func.func @uneven_rows_packed_b_bf16(%A: memref<64x38xbf16>, %B: memref<38x100xbf16>, %C: memref<64x100xf32>) {
  linalg.matmul ins(%A, %B : memref<64x38xbf16>, memref<38x100xbf16>) outs(%C : memref<64x100xf32>) {tensorop.sketch = #tensorop.sketch<mc = 14, nc = 32, kc = 8, mr = 14, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2,+avx512bf16", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// 266x600 in 14-row blocks: packedSplitCosts prefers columns (140 x 608 +
// 8 x 740 = 91040 against 266 x 304 + 8 x 570 = 85424), but 133 rows per
// thread are more than kPackedColumnSplitMaxRows, so M is split: chunks of
// roundUp(133, 14) = 140 rows (140 and 126).
// CHECK-LABEL: func.func @tall_rows_packed_b(
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c140 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c266, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c140 : index
// CHECK-NEXT:      memref.subview %{{.+}}[%[[OFF]], 0] [%[[SIZE]], 37] [1, 1]
func.func @tall_rows_packed_b(%A: memref<266x37xf32>, %B: memref<37x600xf32>, %C: memref<266x600xf32>) {
  linalg.matmul ins(%A, %B : memref<266x37xf32>, memref<37x600xf32>) outs(%C : memref<266x600xf32>) {tensorop.sketch = #tensorop.sketch<mc = 14, nc = 32, kc = 8, mr = 14, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// 64x1000x1100: thick rows too, but B is at least twice as wide as A is
// tall and more than four times L2 (4.4 MB): a row chunk would pack all of
// B, a column chunk packs half of it and all of the (smaller) A, so N is
// split: chunks of roundUp(500, 16) = 512 columns (512 and 488).
// CHECK-LABEL: func.func @wide_b(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<64x1100xf32>, %[[B:[a-z0-9_]+]]: memref<1100x1000xf32>, %[[C:[a-z0-9_]+]]: memref<64x1000xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c512 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c1000, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c512 : index
// CHECK-NEXT:      memref.subview %[[B]][0, %[[OFF]]] [1100, %[[SIZE]]] [1, 1]
// CHECK-NEXT:      memref.subview %[[C]][0, %[[OFF]]] [64, %[[SIZE]]] [1, 1]
func.func @wide_b(%A: memref<64x1100xf32>, %B: memref<1100x1000xf32>, %C: memref<64x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<64x1100xf32>, memref<1100x1000xf32>) outs(%C : memref<64x1000xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// 160x1000x37: B as wide, but packed (kmajor_nr) and small (148 KB):
// packing all of it per thread is cheap (packedSplitCosts: 80 x 1008 + 8
// x 1080 = 89280 against 160 x 512 + 8 x 672 = 87296, 2% more), and the
// rows are split: chunks of roundUp(80, 8) = 80 rows.
// CHECK-LABEL: func.func @wide_b_in_l2(
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c80 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c160, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c80 : index
// CHECK-NEXT:      memref.subview %{{.+}}[%[[OFF]], 0] [%[[SIZE]], 37] [1, 1]
func.func @wide_b_in_l2(%A: memref<160x37xf32>, %B: memref<37x1000xf32>, %C: memref<160x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<160x37xf32>, memref<37x1000xf32>) outs(%C : memref<160x1000xf32>) {tensorop.sketch = #tensorop.sketch<mc = 16, nc = 32, kc = 8, mr = 8, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// 160x1000x300: B past L2 (1.2 MB) but not four times past it: packing
// all of it per thread still measured no slower, and the rows are split.
// CHECK-LABEL: func.func @wide_b_past_l2(
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c80 : index
func.func @wide_b_past_l2(%A: memref<160x300xf32>, %B: memref<300x1000xf32>, %C: memref<160x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<160x300xf32>, memref<300x1000xf32>) outs(%C : memref<160x1000xf32>) {tensorop.sketch = #tensorop.sketch<mc = 16, nc = 32, kc = 8, mr = 8, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// 64x1000x37 with B read in place (pack_b "none"): a row chunk would
// stream all of B for each of its row blocks, so N is split.
// CHECK-LABEL: func.func @wide_b_in_place(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<64x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x1000xf32>, %[[C:[a-z0-9_]+]]: memref<64x1000xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c512 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c1000, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c512 : index
// CHECK-NEXT:      memref.subview %[[B]][0, %[[OFF]]] [37, %[[SIZE]]] [1, 1]
func.func @wide_b_in_place(%A: memref<64x37xf32>, %B: memref<37x1000xf32>, %C: memref<64x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<64x37xf32>, memref<37x1000xf32>) outs(%C : memref<64x1000xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// Few rows, B read in place in blocks of 96 columns (6 vectors): the
// column chunks are whole vectors, not whole blocks, so both threads
// stream the same share of B: roundUp(512, 16) = 512 and 512 (in blocks of
// 96: 576 and 448).
// CHECK-LABEL: func.func @few_rows_vector_chunks(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<4x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x1024xf32>, %[[C:[a-z0-9_]+]]: memref<4x1024xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c512 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c1024, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c512 : index
// CHECK-NEXT:      memref.subview %[[B]][0, %[[OFF]]] [37, %[[SIZE]]] [1, 1]
func.func @few_rows_vector_chunks(%A: memref<4x37xf32>, %B: memref<37x1024xf32>, %C: memref<4x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<4x37xf32>, memref<37x1024xf32>) outs(%C : memref<4x1024xf32>) {tensorop.sketch = #tensorop.sketch<mc = 4, nc = 1056, kc = 37, mr = 4, nr = 96, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// 48x137x102, B read in place in 12 x 32 blocks: wide enough for a column
// split, but A, B and C fit in L2 and the column chunks (80 + 57 columns,
// 5 vectors for each of 48 rows: 240) compute more than the row chunks
// (24 + 24 rows of 9 vectors: 216), so the rows are split. Zen 5, 2
// threads, gen's objects against the column split, 12 drawn shapes: 10
// faster, geomean 1.047; docs/benchmarks/cpu-gemm-classes.md, "Zen 5 in
// the forty-fourth session".
// CHECK-LABEL: func.func @balanced_rows_in_l2(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<48x102xf32>, %[[B:[a-z0-9_]+]]: memref<102x137xf32>, %[[C:[a-z0-9_]+]]: memref<48x137xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c24 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c48, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c24 : index
// CHECK-NEXT:      memref.subview %[[A]][%[[OFF]], 0] [%[[SIZE]], 102] [1, 1]
func.func @balanced_rows_in_l2(%A: memref<48x102xf32>, %B: memref<102x137xf32>, %C: memref<48x137xf32>) {
  linalg.matmul ins(%A, %B : memref<48x102xf32>, memref<102x137xf32>) outs(%C : memref<48x137xf32>) {tensorop.sketch = #tensorop.sketch<mc = 48, nc = 160, kc = 102, mr = 12, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}
