// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch | FileCheck %s

// C = A*B from a zeroed C over several K blocks: the first K block's
// kernel stores its tiles ("_st", c_update "store"), the later blocks' add
// to them, and the zero fill goes (it wrote all of C for the first block
// to read back).

// CHECK-LABEL: func.func @first_k_block_stores(
// CHECK-NOT:     linalg.fill
// CHECK:         scf.for %{{.+}} = %{{.+}} to %c50{{(_[0-9]+)?}} step %c12
// CHECK:           scf.for %[[K:[a-z0-9_]+]] = %{{.+}} to %c37{{(_[0-9]+)?}} step %c8
// CHECK:             scf.for %{{.+}} = %{{.+}} to %c70{{(_[0-9]+)?}} step %c32
// CHECK:               %[[FIRST:.+]] = arith.cmpi eq, %[[K]], %c0{{(_[0-9]+)?}} : index
// CHECK-NEXT:          scf.if %[[FIRST]] {
// CHECK:                 tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_st"
// CHECK-NOT:             tensorop.ukernel
// CHECK:               } else {
// CHECK:                 tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-NOT:             tensorop.ukernel
// CHECK:               }
// CHECK:         return
func.func @first_k_block_stores(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<50x70xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// B read in place with a tail kernel for the N remainder (70 = 64 + 6):
// both column blocks get their store form for the first K block (the
// one-vector tail with embedded broadcasts).
// CHECK-LABEL: func.func @first_k_block_stores_tail(
// CHECK-NOT:     linalg.fill
// CHECK:         scf.if
// CHECK-DAG:       tensorop.ukernel "x86_avx512_f32_6x32_u4_explicit_ldb280_st"
// CHECK-DAG:       tensorop.ukernel "x86_avx512_f32_6x16_u4_embedded_ldb280_st"
// CHECK:         } else {
// CHECK-DAG:       tensorop.ukernel "x86_avx512_f32_6x32_u4_explicit_ldb280"
// CHECK-DAG:       tensorop.ukernel "x86_avx512_f32_6x16_u4_embedded_ldb280"
// CHECK:         }
func.func @first_k_block_stores_tail(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<50x70xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 96, kc = 8, mr = 6, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// A fill of anything but +0.0 stays, and every K block adds.
// CHECK-LABEL: func.func @nonzero_fill_stays(
// CHECK:         linalg.fill
// CHECK-NOT:     _st"
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-NOT:     _st"
// CHECK:         return
func.func @nonzero_fill_stays(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%C : memref<50x70xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// A dynamic K may be 0, where no K block runs and only the fill writes C:
// the fill stays.
// CHECK-LABEL: func.func @dynamic_k_keeps_fill(
// CHECK:         linalg.fill
// CHECK-NOT:     _st"
// CHECK:         return
func.func @dynamic_k_keeps_fill(%A: memref<50x?xf32>, %B: memref<?x70xf32>, %C: memref<50x70xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<50x70xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x?xf32>, memref<?x70xf32>) outs(%C : memref<50x70xf32>)
  return
}
