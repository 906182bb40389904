// A bf16 matmul marked tensorop.b_k_pairs (one panel of gen's NAME_prepacked:
// B packed once into rows of k pairs, seen through a [W, 2]-strided view)
// reads the pairs in place, whatever the sketch's pack_b says: no B buffer is
// packed, the kernel steps 4*W bytes per pair row (b_stride_bytes); a
// row-major A with an even K is read in place too (its rows hold the pairs),
// an odd K's A is packed into pairs. Numerics: test/Tools/tensorop-gen-bf16.test.
// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @panel
// CHECK-NOT: remark
// CHECK-NOT: memref.alloc
// W = 64 pairs per row: 256 bytes per pair row; A's rows 200 bytes apart.
// CHECK: tensorop.ukernel "x86_avx512_bf16_6x64_u4_embedded_ldb256_lda200"
func.func @panel(%A: memref<16x100xbf16>, %Bp: memref<6400xbf16>, %C: memref<16x64xf32>) {
  %c0 = arith.constant 0 : index
  %b = memref.reinterpret_cast %Bp to offset: [%c0], sizes: [100, 64], strides: [64, 2] : memref<6400xbf16> to memref<100x64xbf16, strided<[64, 2], offset: ?>>
  linalg.matmul ins(%A, %b : memref<16x100xbf16>, memref<100x64xbf16, strided<[64, 2], offset: ?>>) outs(%C : memref<16x64xf32>) {tensorop.b_k_pairs, tensorop.sketch = #tensorop.sketch<mc = 18, nc = 64, kc = 100, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
  return
}

// -----

// A partial last panel (40 of 64 columns): the kernel is as wide as the
// remainder in whole vectors (48 columns) and still steps 256 bytes.
// An odd K (99): A is packed into pairs ([mc/mr][kc2][mr] i32), B is not.
// CHECK-LABEL: func.func @last_panel
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<3x50x6xi32>
// CHECK-NOT: memref.alloc
// CHECK: tensorop.ukernel "x86_avx512_bf16_6x48_u4_embedded_ldb256"
func.func @last_panel(%A: memref<16x99xbf16>, %Bp: memref<6400xbf16>, %C: memref<16x40xf32>) {
  %c0 = arith.constant 0 : index
  %b = memref.reinterpret_cast %Bp to offset: [%c0], sizes: [99, 40], strides: [64, 2] : memref<6400xbf16> to memref<99x40xbf16, strided<[64, 2], offset: ?>>
  linalg.matmul ins(%A, %b : memref<16x99xbf16>, memref<99x40xbf16, strided<[64, 2], offset: ?>>) outs(%C : memref<16x40xf32>) {tensorop.b_k_pairs, tensorop.sketch = #tensorop.sketch<mc = 18, nc = 64, kc = 99, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
  return
}
