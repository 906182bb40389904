// RUN: tensorop-opt %s | tensorop-opt | FileCheck %s

// CHECK-LABEL: func.func @sketch_roundtrip
// CHECK: tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", {{.*}}vector_bits = 512, vector_registers = 32>, source = "builtin">
func.func @sketch_roundtrip(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "builtin">}
    ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// Embedded broadcasts need no broadcast register: 7 x 64 fills the 32
// registers with 28 accumulators and 4 B vectors (x86_gemm_fma's budget).
// CHECK-LABEL: func.func @sketch_embedded_full_register_file
// CHECK: mr = 7, nr = 64, {{.*}} broadcast = "embedded"
func.func @sketch_embedded_full_register_file(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 98, nc = 256, kc = 8, mr = 7, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">}
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

// GPU sketches the verifier accepts: a wgmma cluster on sm_90, mma.sync on
// sm_80 (tf32), plain fp32 ffma.
// CHECK-LABEL: func.func @gpu_sketch_roundtrip
// CHECK: tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "f16", block_m = 128, block_n = 192, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 5, group_m = 16, ctas = 2, target = <name = "nvidia-sm90", {{.*}}>, source = "t", cluster_m = 2>
// CHECK: tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "tf32", block_m = 64, block_n = 64, block_k = 16, warps_m = 2, warps_n = 2, consumers = 0, stages = 3, group_m = 1, ctas = 0, target = <name = "nvidia-sm80", {{.*}}>, source = "t">
// CHECK: tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 2, group_m = 8, ctas = 0, target = <name = "nvidia-sm80", {{.*}}>, source = "t">
func.func @gpu_sketch_roundtrip(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32>,
                                %X: memref<256x256xf32>, %Y: memref<256x256xf32>, %Z: memref<256x256xf32>) {
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "f16", block_m = 128, block_n = 192, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 5, group_m = 16, ctas = 2, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t", cluster_m = 2, cluster_n = 1>}
    ins(%A, %B : memref<256x256xf16>, memref<256x256xf16>) outs(%C : memref<256x256xf32>)
  linalg.matmul {tensorop.precision = "tf32", tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "tf32", block_m = 64, block_n = 64, block_k = 16, warps_m = 2, warps_n = 2, consumers = 0, stages = 3, group_m = 1, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">}
    ins(%X, %Y : memref<256x256xf32>, memref<256x256xf32>) outs(%Z : memref<256x256xf32>)
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 2, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">}
    ins(%X, %Y : memref<256x256xf32>, memref<256x256xf32>) outs(%Z : memref<256x256xf32>)
  return
}

// An N tail: the last 2 columns by the kernel vectorized along K; its
// threads (default 1) printed only where set.
// CHECK-LABEL: func.func @sketch_n_tail
// CHECK: source = "builtin", threads = 2, n_tail = <columns = 2, mr = 12, nr = 2, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 256>, threads = 2>>
// CHECK: source = "builtin", n_tail = <columns = 3, mr = 9, nr = 3, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>
func.func @sketch_n_tail(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "builtin", threads = 2, n_tail = #tensorop.n_tail<columns = 2, mr = 12, nr = 2, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 256>, threads = 2>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "builtin", n_tail = <columns = 3, mr = 9, nr = 3, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}
