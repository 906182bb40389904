// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch --canonicalize --cse -verify-diagnostics | FileCheck %s

// Which dimension two threads split where B is packed: a row split gives
// each thread only its own rows' register tiles on every B block it packs.
// Where that leaves at most 20 tiles a block (kFewTilesPerBBlock) and the
// columns copy fewer elements a thread, the columns are split, with a
// remark; otherwise the rows, as before. (Small tiles, 6 x 16 blocks, as in
// tensorop-apply-sketch-threads.mlir.)

// 90x200x37, one M block (mc 96): 15 row tiles share each B block; a row
// split (chunks of 48 rows) would leave 8. Rows: 48 x 37 of A and 37 x 200
// of B a thread (9176 elements); columns (chunks of roundUp(100, 16) = 112):
// 90 x 37 and 37 x 112 (7474). The columns are split: 112 and 88.
// CHECK-LABEL: func.func @columns_keep_b_shared(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<90x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x200xf32>, %[[C:[a-z0-9_]+]]: memref<90x200xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c112 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c200, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c112 : index
// CHECK-NEXT:      memref.subview %[[B]][0, %[[OFF]]] [37, %[[SIZE]]] [1, 1]
// CHECK-NEXT:      memref.subview %[[C]][0, %[[OFF]]] [90, %[[SIZE]]] [1, 1]
func.func @columns_keep_b_shared(%A: memref<90x37xf32>, %B: memref<37x200xf32>, %C: memref<90x200xf32>) {
  // expected-remark @+1 {{tensorop: 2 threads split C's columns, in chunks of 112: a row split would leave each thread 8 row tiles on each B block it packs (at most 20), and a column split copies 7474 elements a thread instead of 9176}}
  linalg.matmul ins(%A, %B : memref<90x37xf32>, memref<37x200xf32>) outs(%C : memref<90x200xf32>) {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// The same GEMM in M blocks of 12 rows: each B block is shared by 2 row
// tiles whichever way the threads split, so the rows are split (chunks of
// 48), with no remark.
// CHECK-LABEL: func.func @rows_when_m_blocks_are_small(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<90x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x200xf32>, %[[C:[a-z0-9_]+]]: memref<90x200xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c48 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c90, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c48 : index
// CHECK-NEXT:      memref.subview %[[A]][%[[OFF]], 0] [%[[SIZE]], 37] [1, 1]
// CHECK-NEXT:      memref.subview %[[C]][%[[OFF]], 0] [%[[SIZE]], 200] [1, 1]
func.func @rows_when_m_blocks_are_small(%A: memref<90x37xf32>, %B: memref<37x200xf32>, %C: memref<90x200xf32>) {
  linalg.matmul ins(%A, %B : memref<90x37xf32>, memref<37x200xf32>) outs(%C : memref<90x200xf32>) {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// 90x64x37 with A packed: a column split (chunks of 32) would copy all of
// A, 90 x 37 + 37 x 32 = 4514 elements a thread, against 48 x 37 + 37 x 64
// = 4144 for a row split: the rows are split, with no remark.
// CHECK-LABEL: func.func @rows_when_a_costs_more(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<90x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x64xf32>, %[[C:[a-z0-9_]+]]: memref<90x64xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c48 : index
// CHECK-NEXT:      %[[REST:.+]] = arith.subi %c90, %[[OFF]] : index
// CHECK-NEXT:      %[[SIZE:.+]] = arith.minsi %[[REST]], %c48 : index
// CHECK-NEXT:      memref.subview %[[A]][%[[OFF]], 0] [%[[SIZE]], 37] [1, 1]
func.func @rows_when_a_costs_more(%A: memref<90x37xf32>, %B: memref<37x64xf32>, %C: memref<90x64xf32>) {
  linalg.matmul ins(%A, %B : memref<90x37xf32>, memref<37x64xf32>) outs(%C : memref<90x64xf32>) {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}

// -----

// The same GEMM with A read in place (pack_a "none"): only B is copied,
// 37 x 32 = 1184 elements a thread in columns against 37 x 64 = 2368 in
// rows, so the columns are split (32 and 32).
// CHECK-LABEL: func.func @columns_when_a_is_read_in_place(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<90x37xf32>, %[[B:[a-z0-9_]+]]: memref<37x64xf32>, %[[C:[a-z0-9_]+]]: memref<90x64xf32>)
// CHECK:         scf.forall (%[[T:.+]]) in (2) {
// CHECK-NEXT:      %[[OFF:.+]] = arith.muli %[[T]], %c32 : index
// CHECK:           memref.subview %[[B]][0, %[[OFF]]] [37, %{{.+}}] [1, 1]
func.func @columns_when_a_is_read_in_place(%A: memref<90x37xf32>, %B: memref<37x64xf32>, %C: memref<90x64xf32>) {
  // expected-remark @+1 {{tensorop: 2 threads split C's columns, in chunks of 32: a row split would leave each thread 8 row tiles on each B block it packs (at most 20), and a column split copies 1184 elements a thread instead of 2368}}
  linalg.matmul ins(%A, %B : memref<90x37xf32>, memref<37x64xf32>) outs(%C : memref<90x64xf32>) {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>}
  return
}
