// RUN: tensorop-opt %s | tensorop-opt | FileCheck %s

// CHECK-LABEL: func.func @sketch_roundtrip
// CHECK: tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", {{.*}}vector_bits = 512, vector_registers = 32>, source = "builtin">
func.func @sketch_roundtrip(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "builtin">}
    ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// threads is printed only when it is not the default 1.
// CHECK-LABEL: func.func @sketch_threads
// CHECK: source = "builtin", threads = 2>
// CHECK: source = "builtin">}
func.func @sketch_threads(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "builtin", threads = 2>}
    ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "builtin", threads = 1>}
    ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// CHECK-LABEL: func.func @ukernel_roundtrip
// CHECK: tensorop.ukernel "k" a(%{{.*}} : memref<4x6xf32>) b(%{{.*}} : memref<4x16xf32>) c(%{{.*}} : memref<6x16xf32, strided<[32, 1]>>) kc(%{{.*}}) m_rem(%{{.*}}) n_rem(%{{.*}}) {asm_dialect = "att", asm_string = "nop", constraints = "", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
func.func @ukernel_roundtrip(%a: memref<4x6xf32>, %b: memref<4x16xf32>, %c: memref<6x16xf32, strided<[32, 1]>>, %k: index) {
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32>) c(%c : memref<6x16xf32, strided<[32, 1]>>) kc(%k) m_rem(%k) n_rem(%k) {asm_dialect = "att", asm_string = "nop", constraints = "", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}
