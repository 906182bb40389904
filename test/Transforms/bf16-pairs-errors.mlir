// tensorop.b_k_pairs says B's memory holds k pairs: anything that cannot read
// it that way is an error, never a silent wrong result.
// RUN: not tensorop-opt %s -split-input-file --tensorop-apply-sketch 2>&1 | FileCheck %s

// Without a sketch the upstream lowering would read the pairs as a K x N
// matrix.
// CHECK: error: tensorop: a matmul whose B is packed into k pairs ('tensorop.b_k_pairs') has no #tensorop.sketch: only the sketch path reads the packed layout
func.func @unsketched(%A: memref<16x100xbf16>, %B: memref<100x64xbf16, strided<[64, 2]>>, %C: memref<16x64xf32>) {
  linalg.matmul ins(%A, %B : memref<16x100xbf16>, memref<100x64xbf16, strided<[64, 2]>>) outs(%C : memref<16x64xf32>) {tensorop.b_k_pairs}
  return
}

// -----

// CHECK: error: tensorop: a matmul marked 'tensorop.b_k_pairs' (B packed once into k pairs) needs a view with strides [S, 2] and a static S >= N; got B of type 'memref<100x64xbf16>'
func.func @plain_b(%A: memref<16x100xbf16>, %B: memref<100x64xbf16>, %C: memref<16x64xf32>) {
  linalg.matmul ins(%A, %B : memref<16x100xbf16>, memref<100x64xbf16>) outs(%C : memref<16x64xf32>) {tensorop.b_k_pairs, tensorop.sketch = #tensorop.sketch<mc = 18, nc = 64, kc = 100, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
  return
}

// -----

// CHECK: error: tensorop: a matmul marked 'tensorop.b_k_pairs' (B packed once into k pairs) needs bf16 operands; got B of type 'memref<100x64xf32, strided<[64, 2]>>'
func.func @f32(%A: memref<16x100xf32>, %B: memref<100x64xf32, strided<[64, 2]>>, %C: memref<16x64xf32>) {
  linalg.matmul ins(%A, %B : memref<16x100xf32>, memref<100x64xf32, strided<[64, 2]>>) outs(%C : memref<16x64xf32>) {tensorop.b_k_pairs, tensorop.sketch = #tensorop.sketch<mc = 18, nc = 64, kc = 100, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
  return
}
