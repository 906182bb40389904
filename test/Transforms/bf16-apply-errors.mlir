// A bf16 sketch written by hand is checked when applied: its kc must be even
// where K takes several tiles (k pairs must not straddle tiles), and its
// target must have the bf16 dot product.
// RUN: not tensorop-opt %s -split-input-file --tensorop-apply-sketch 2>&1 | FileCheck %s

// CHECK: error: tensorop: a bf16 GEMM needs an even kc (its k pairs must not straddle K tiles), got kc=33
func.func @odd_kc(%A: memref<64x100xbf16>, %B: memref<100x64xbf16>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x100xbf16>, memref<100x64xbf16>) outs(%C : memref<64x64xf32>) {tensorop.sketch = #tensorop.sketch<mc = 66, nc = 64, kc = 33, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
  return
}

// -----

// CHECK: error: tensorop: bf16 GEMMs need a bf16 dot product with fp32 accumulation (AVX512_BF16's vdpbf16ps); target 'x86-avx2' has none
func.func @avx2(%A: memref<64x100xbf16>, %B: memref<100x64xbf16>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x100xbf16>, memref<100x64xbf16>) outs(%C : memref<64x64xf32>) {tensorop.sketch = #tensorop.sketch<mc = 66, nc = 64, kc = 32, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2,+fma,+bmi2", vector_bits = 256, vector_registers = 16>, source = "test">}
  return
}

// -----

// An unpacked operand is packed anyway (bf16 rows are not fp32 rows).
// CHECK: remark: tensorop: sketch pack_b "none" reads fp32 rows in place; this GEMM's bf16 operands are packed instead
// CHECK: tensorop.ukernel "x86_avx512_bf16_6x64_u4_embedded"
func.func @unpacked(%A: memref<64x100xbf16>, %B: memref<100x64xbf16>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x100xbf16>, memref<100x64xbf16>) outs(%C : memref<64x64xf32>) {tensorop.sketch = #tensorop.sketch<mc = 66, nc = 64, kc = 100, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
  return
}
