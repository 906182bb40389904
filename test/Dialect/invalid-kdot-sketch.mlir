// RUN: tensorop-opt %s -split-input-file -verify-diagnostics
// Sketches of the x86_gemm_kdot emitter (vectorized along K) that cannot work.

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch register block 2x15 vectorized along K needs 34 vector registers but x86-avx512 has 32}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 15, kc = 8, mr = 2, nr = 15, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 128>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "transposed" and the x86_gemm_kdot emitter go together, with pack_a "none"; got emitter 'x86_gemm_kdot', pack_a "kmajor_mr", pack_b "transposed"}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 8, kc = 8, mr = 2, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 128>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "transposed" and the x86_gemm_kdot emitter go together}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 2, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{the x86_gemm_kdot emitter needs an x86 target with 512-bit vectors, got x86-avx2}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 4, kc = 8, mr = 2, nr = 4, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 128>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2,+fma", vector_bits = 256, vector_registers = 16>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+2 {{ukernel broadcast must be "none" with the x86_gemm_kdot emitter, got "explicit"}}
  // expected-error @+1 {{failed to parse TensorOp_SketchAttr parameter 'ukernel'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 4, kc = 8, mr = 2, nr = 4, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+2 {{ukernel broadcast must be "explicit" or "embedded", got "none"}}
  // expected-error @+1 {{failed to parse TensorOp_SketchAttr parameter 'ukernel'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 2, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 2, broadcast = "none", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}
