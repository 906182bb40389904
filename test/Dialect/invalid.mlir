// RUN: tensorop-opt %s -split-input-file -verify-diagnostics
// Illegal sketches, targets and microkernels are rejected where they are written.

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch tile 'kc' must be positive, got 0}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 0, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch tile 'mr' must be positive, got -6}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = -6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

// mr at 2^62 (an LLM answer's) would wrap the register count into a
// small one that passes.
func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch tile 'mr' must be at most 1024 (a register block's side), got 4611686018427387904}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 4611686018427387904, nc = 256, kc = 8, mr = 4611686018427387904, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch loop_order "mkk" is not a permutation of "mnk"}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkk", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch micro_order "mm" is not a permutation of "mn"}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch register block 8x64 needs 37 vector registers but x86-avx512 has 32}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 8, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

// An explicit broadcast takes a register: 7 x 64 needs 28 + 4 + 1. (Embedded
// broadcasts need none: the same block with them is valid, roundtrip.mlir.)
func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch register block 7x64 needs 33 vector registers but x86-avx512 has 32}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 98, nc = 256, kc = 8, mr = 7, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch register block 8x16 needs 19 vector registers but x86-avx2 has 16}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 8, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2", vector_bits = 256, vector_registers = 16>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch nr (24) must be a multiple of the target's f32 lanes (16 on x86-avx512)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 240, kc = 8, mr = 6, nr = 24, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch mc (100) must be a multiple of mr (6)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 100, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch nc (100) must be a multiple of nr (64)}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 100, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_a "rowmajor" is not a known layout (expected "kmajor_mr" or "none")}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "rowmajor", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{embedded broadcasts need 512-bit vectors}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2", vector_bits = 256, vector_registers = 16>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+2 {{ukernel k_unroll must be in [1, 16], got 0}}
  // expected-error @+1 {{failed to parse TensorOp_SketchAttr parameter 'ukernel'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 0, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+2 {{ukernel broadcast must be "explicit" or "embedded", got "gather"}}
  // expected-error @+1 {{failed to parse TensorOp_SketchAttr parameter 'ukernel'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "gather", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+2 {{ukernel emitter must be a non-empty identifier}}
  // expected-error @+1 {{failed to parse TensorOp_SketchAttr parameter 'ukernel'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "../evil", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+2 {{vector_bits must be a positive multiple of 32, got 100}}
  // expected-error @+1 {{failed to parse TensorOp_SketchAttr parameter 'target'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x", triple = "x86_64", cpu = "", features = "", vector_bits = 100, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch source (provenance) must not be empty}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @ukernel_bad_c(%a: memref<4x6xf32>, %b: memref<4x16xf32>, %c: memref<6x16xf32, strided<[1, 6]>>, %k: index) {
  // expected-error @+1 {{C must have unit inner stride}}
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32>) c(%c : memref<6x16xf32, strided<[1, 6]>>) kc(%k) m_rem(%k) n_rem(%k) {asm_dialect = "att", asm_string = "nop", constraints = "", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

func.func @ukernel_f16(%a: memref<4x6xf16>, %b: memref<4x16xf32>, %c: memref<6x16xf32>, %k: index) {
  // expected-error @+1 {{operands must be f32 memrefs}}
  tensorop.ukernel "k" a(%a : memref<4x6xf16>) b(%b : memref<4x16xf32>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) {asm_dialect = "att", asm_string = "nop", constraints = "", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

func.func @ukernel_empty(%a: memref<4x6xf32>, %b: memref<4x16xf32>, %c: memref<6x16xf32>, %k: index) {
  // expected-error @+1 {{carries no emitted code}}
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) {asm_dialect = "att", asm_string = "", constraints = "", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch threads must be in [1, 1024], got 0}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t", threads = 0>} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "rowmajor" is not a known layout (expected "kmajor_nr", "kmajor_nr_shared", "kmajor_nr_fused", "none" or "transposed")}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "rowmajor", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "kmajor_nr_shared" (one packed B block shared by the threads) needs threads > 1, got 1 (use "kmajor_nr")}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_shared", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "none" needs a vector register for the B mask: register block 4x24 needs 17 but x86-avx2 has 16}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 240, kc = 8, mr = 4, nr = 24, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2", vector_bits = 256, vector_registers = 16>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "none" needs an x86 target, got arm-neon}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 4, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "arm_gemm_neon", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "none" needs the x86_gemm_fma emitter, got 'llm_gemm'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "llm_gemm", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "none" needs nr <= 112, got 128}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 1, nr = 128, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_a "none" needs an x86 target, got arm-neon}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 4, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "arm_gemm_neon", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_a "none" needs an x86 target, got riscv-rvv}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 4, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "generic-rv64", features = "+v", vector_bits = 256, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_a "none" needs the x86_gemm_fma emitter, got 'llm_gemm'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "llm_gemm", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

// pack_a "none" needs no register beyond the block's: the full AVX2
// register file (6x16: 12 accumulators, 2 B vectors, 2 broadcasts) is legal,
// while the block's own budget is still checked.
func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2", vector_bits = 256, vector_registers = 16>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  // expected-error @+1 {{sketch register block 8x16 needs 19 vector registers but x86-avx2 has 16}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 8, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2", vector_bits = 256, vector_registers = 16>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

// Row prefetches (prefetch_b_cols, prefetch_a) follow operands read in place.
func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch ukernel prefetch_b_cols needs pack_b "none" or "kmajor_nr_fused" (B read in place), got "kmajor_nr"}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 128>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch ukernel prefetch_a needs pack_a "none" (A read in place), got "kmajor_mr"}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_a = 64>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+2 {{ukernel prefetch_b_cols and prefetch_b exclude each other (got 64 and 8)}}
  // expected-error @+1 {{failed to parse TensorOp_SketchAttr parameter 'ukernel'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 8, prefetch_b_cols = 64>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+2 {{ukernel prefetch_a must be in [0, 65536], got 65537}}
  // expected-error @+1 {{failed to parse TensorOp_SketchAttr parameter 'ukernel'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_a = 65537>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+2 {{ukernel prefetch_a needs the x86_gemm_fma emitter, got 'riscv_gemm_rvv'}}
  // expected-error @+1 {{failed to parse TensorOp_SketchAttr parameter 'ukernel'}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "riscv_gemm_rvv", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_a = 64>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

// pack_b = "kmajor_nr_fused": the first row tile's kernel stores the panel
// with full zmm vectors (x86_gemm_fma's store_b_panel, AVX-512 only).
func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "kmajor_nr_fused" needs an AVX-512 x86 target, got x86-avx2}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_fused", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2", vector_bits = 256, vector_registers = 16>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

func.func @f(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-error @+1 {{sketch pack_b "kmajor_nr_fused" needs nr <= 112, got 128}}
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 96, nc = 256, kc = 8, mr = 1, nr = 128, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_fused", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

// b_panel_out: only with a kernel emitted for it (its eighth asm operand).
func.func @f(%a: memref<4x6xf32>, %b: memref<4x16xf32, strided<[100, 1]>>, %c: memref<6x16xf32>, %p: memref<4x16xf32>, %k: index) {
  // expected-error @+1 {{'tensorop.ukernel' op b_panel_out needs a kernel emitted for it (8 asm operands, store_b_panel), but 'k' declares 7}}
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32, strided<[100, 1]>>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) b_panel_out(%p : memref<4x16xf32>) {asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

func.func @f(%a: memref<4x6xf32>, %b: memref<4x16xf32, strided<[100, 1]>>, %c: memref<6x16xf32>, %p: memref<4x16xf32>, %e: memref<256xi8>, %k: index) {
  // expected-error @+1 {{'tensorop.ukernel' op b_panel_out does not go with an epilogue block}}
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32, strided<[100, 1]>>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) epilogue(%e : memref<256xi8>) b_panel_out(%p : memref<4x16xf32>) {asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

func.func @f(%a: memref<4x6xf32>, %b: memref<4x16xf32, strided<[100, 1]>>, %c: memref<6x16xf32>, %p: memref<4x16xi32>, %k: index) {
  // expected-error @+1 {{'tensorop.ukernel' op b_panel_out needs an f32 B and an f32 panel, got 'memref<4x16xi32>'}}
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32, strided<[100, 1]>>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) b_panel_out(%p : memref<4x16xi32>) {asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

// a_stride_operand: only with a kernel emitted for it (one asm operand more,
// A's row stride, last) ...
func.func @ukernel_a_stride_operand_count(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<4x16xf32>, %c: memref<6x16xf32>, %k: index) {
  // expected-error @+1 {{'tensorop.ukernel' op a run-time row stride needs a kernel emitted for it (8 asm operands, a_stride_operand / b_stride_operand), but 'k' declares 7}}
  tensorop.ukernel "k" a(%a : memref<?x?xf32, strided<[?, 1], offset: ?>>) b(%b : memref<4x16xf32>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) {a_stride_operand, asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

// ... and an f32 A whose rows have unit inner stride (the code reads them).
func.func @ukernel_a_stride_operand_layout(%a: memref<?x?xf32, strided<[?, 2], offset: ?>>, %b: memref<4x16xf32>, %c: memref<6x16xf32>, %k: index) {
  // expected-error @+1 {{'tensorop.ukernel' op a_stride_operand needs an f32 A with unit inner stride, got 'memref<?x?xf32, strided<[?, 2], offset: ?>>'}}
  tensorop.ukernel "k" a(%a : memref<?x?xf32, strided<[?, 2], offset: ?>>) b(%b : memref<4x16xf32>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) {a_stride_operand, asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

// b_stride_operand: one operand more again (9 with A's), a B of unit inner
// stride.
func.func @ukernel_b_stride_operand_count(%a: memref<?x?xf32, strided<[?, 1], offset: ?>>, %b: memref<4x16xf32, strided<[?, 1], offset: ?>>, %c: memref<6x16xf32>, %k: index) {
  // expected-error @+1 {{'tensorop.ukernel' op a run-time row stride needs a kernel emitted for it (9 asm operands, a_stride_operand / b_stride_operand), but 'k' declares 8}}
  tensorop.ukernel "k" a(%a : memref<?x?xf32, strided<[?, 1], offset: ?>>) b(%b : memref<4x16xf32, strided<[?, 1], offset: ?>>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) {a_stride_operand, b_stride_operand, asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

// -----

func.func @ukernel_b_stride_operand_layout(%a: memref<4x6xf32>, %b: memref<4x16xf32, strided<[?, 3], offset: ?>>, %c: memref<6x16xf32>, %k: index) {
  // expected-error @+1 {{'tensorop.ukernel' op b_stride_operand needs an f32 B with unit inner stride and no b_panel_out, got 'memref<4x16xf32, strided<[?, 3], offset: ?>>'}}
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32, strided<[?, 3], offset: ?>>) c(%c : memref<6x16xf32>) kc(%k) m_rem(%k) n_rem(%k) {b_stride_operand, asm_dialect = "att", asm_string = "nop", constraints = "=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}
