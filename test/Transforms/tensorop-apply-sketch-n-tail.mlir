// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-apply-sketch | FileCheck %s

// A sketch with an n_tail: the GEMM splits in two on column ranges of B
// and C. The first 32 columns get the sketch's broadcast kernel (14 x 32,
// A and B read in place, B's row stride 34 floats = 136 bytes), the last 2
// the kernel vectorized along K (12 x 2 blocks, B's 2 columns copied
// transposed). The zero fill splits alike, so both kernels store their
// tiles ("_st") and no fill is left.

// CHECK-LABEL: func.func @n_tail(
// CHECK-SAME:    %[[A:[a-z0-9_]+]]: memref<84x131xf32>, %[[B:[a-z0-9_]+]]: memref<131x34xf32>, %[[C:[a-z0-9_]+]]: memref<84x34xf32>)
// CHECK-NOT:     linalg.fill
// CHECK-DAG:     memref.subview %[[B]][0, 0] [131, 32] [1, 1]
// CHECK-DAG:     memref.subview %[[C]][0, 0] [84, 32] [1, 1]
// CHECK-DAG:     %[[BT:.+]] = memref.subview %[[B]][0, 32] [131, 2] [1, 1]
// CHECK-DAG:     memref.subview %[[C]][0, 32] [84, 2] [1, 1]
// CHECK-NOT:     linalg.fill
// CHECK:         tensorop.ukernel "x86_avx512_f32_14x32_u4_explicit_ldb136_lda524_st"
// CHECK:         %[[COPY:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x131xf32>
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[BT]] : {{.+}}) outs(%{{.+}} : memref<2x131xf32>)
// CHECK:         tensorop.ukernel "x86_avx512_f32_kdot_12x2_u2_lda524_ldbt524_st"
// CHECK:         memref.dealloc %[[COPY]]
// CHECK-NOT:     linalg.matmul
func.func @n_tail(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<84x34xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", n_tail = <columns = 2, mr = 12, nr = 2, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>}
    ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

// Without a zero fill both parts add their product to C (no "_st").
// CHECK-LABEL: func.func @n_tail_accumulate(
// CHECK:         tensorop.ukernel "x86_avx512_f32_14x32_u4_explicit_ldb136_lda524"
// CHECK:         tensorop.ukernel "x86_avx512_f32_kdot_12x2_u2_lda524_ldbt524"
func.func @n_tail_accumulate(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", n_tail = <columns = 2, mr = 12, nr = 2, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>}
    ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

// A GEMM the split does not fit: a located error.
func.func @n_tail_transposed_b(%A: memref<84x131xf32>, %B: memref<34x131xf32>, %C: memref<84x34xf32>) {
  // expected-error @+1 {{tensorop: a sketch with an n_tail (the last 2 columns by x86_gemm_kdot) needs A stored M x K and B stored K x N (this GEMM reads one transposed)}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", n_tail = <columns = 2, mr = 12, nr = 2, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>}
    ins(%A, %B : memref<84x131xf32>, memref<34x131xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

func.func @n_tail_too_narrow(%A: memref<84x131xf32>, %B: memref<131x2xf32>, %C: memref<84x2xf32>) {
  // expected-error @+1 {{tensorop: a sketch with an n_tail (the last 2 columns by x86_gemm_kdot) needs more than 2 columns, got N = 2}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", n_tail = <columns = 2, mr = 12, nr = 2, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>}
    ins(%A, %B : memref<84x131xf32>, memref<131x2xf32>) outs(%C : memref<84x2xf32>)
  return
}
