// RUN: tensorop-opt %s -split-input-file -verify-diagnostics
// Sketches whose n_tail (the last columns by the kernel vectorized along K,
// #tensorop.n_tail) cannot work.

func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  // expected-error @+2 {{failed to parse TensorOp_SketchAttr parameter 'n_tail'}}
  // expected-error @+1 {{n_tail needs the x86_gemm_kdot emitter (the kernel vectorized along K), got 'x86_gemm_fma'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t", n_tail = <columns = 2, mr = 12, nr = 2, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  // expected-error @+2 {{failed to parse TensorOp_SketchAttr parameter 'n_tail'}}
  // expected-error @+1 {{n_tail columns must be in [1, 15] (part of one 16-lane vector), got 16}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t", n_tail = <columns = 16, mr = 2, nr = 8, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  // expected-error @+2 {{failed to parse TensorOp_SketchAttr parameter 'n_tail'}}
  // expected-error @+1 {{n_tail nr must be in [1, columns = 2], got 4}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t", n_tail = <columns = 2, mr = 6, nr = 4, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  // expected-error @+2 {{failed to parse TensorOp_SketchAttr parameter 'n_tail'}}
  // expected-error @+1 {{n_tail mr must be in [1, 1024], got 0}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t", n_tail = <columns = 2, mr = 0, nr = 2, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  // expected-error @+2 {{failed to parse TensorOp_SketchAttr parameter 'n_tail'}}
  // expected-error @+1 {{n_tail threads must be in [1, 1024], got 0}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t", n_tail = <columns = 2, mr = 12, nr = 2, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>, threads = 0>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  // expected-error @+1 {{sketch n_tail block 12x4 vectorized along K needs 62 vector registers but x86-avx512 has 32}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t", n_tail = <columns = 4, mr = 12, nr = 4, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  // expected-error @+1 {{a sketch n_tail cannot go with an epilogue: its x86_gemm_kdot kernel applies none}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t", epilogue = #tensorop.epilogue<steps = ["relu"]>, n_tail = <columns = 2, mr = 12, nr = 2, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  // expected-error @+1 {{a sketch n_tail needs a main kernel that vectorizes along N; x86_gemm_kdot covers every column itself}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 2, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t", n_tail = <columns = 2, mr = 12, nr = 2, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}

// -----

func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  // expected-error @+1 {{a sketch n_tail (x86_gemm_kdot) needs an x86 target with 512-bit vectors, got x86-avx2}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 4, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2,+fma", vector_bits = 256, vector_registers = 16>, source = "t", n_tail = <columns = 2, mr = 12, nr = 2, ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>} ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}
