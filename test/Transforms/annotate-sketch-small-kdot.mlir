// Small GEMMs (every dimension at most 128) on AVX-512
// (lib/Advisor/SkinnyGemm.cpp, chooseSmallKDotSketch; BuiltinAdvisor.cpp,
// chooseRegisterBlockWith):
// - at most 8 columns where the K-vectorized kernel is 1.3 times as fast by
//   the count of vector instructions (M * K broadcast FMAs against
//   M * N * (ceil(K / 16) + 2) plus N * K / 8 for B's transposed copy):
//   the x86_gemm_kdot kernel, vectorized along K,
//   A's rows in place and not prefetched (a small A is in cache), N = 8 in
//   one block of 2 rows;
// - otherwise one-vector blocks of up to as many rows as the register file
//   holds (no longer at most 16), so M takes fewer, taller tiles.
// AVX2 keeps its broadcast blocks. The second RUN line re-parses the output
// (the sketch verifier accepts it).
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" | FileCheck %s --check-prefixes=CHECK,AVX2

// N = 3, K = 77 (111 * 77 against 1.3 * (111 * 3 * 7 + 3 * 77 / 8)): 9 x 3,
// all of K in one call.
// CHECK-LABEL: func.func @n3
// AVX512: #tensorop.sketch<mc = 117, nc = 3, kc = 77, mr = 9, nr = 3, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>, target
// AVX2: ukernel = <emitter = "x86_gemm_fma"
func.func @n3(%A: memref<111x77xf32>, %B: memref<77x3xf32>, %C: memref<111x3xf32>) {
  linalg.matmul ins(%A, %B : memref<111x77xf32>, memref<77x3xf32>) outs(%C : memref<111x3xf32>)
  return
}

// -----

// N = 8, K = 64, M = 120: one block of 2 x 8, not two of 4 columns.
// CHECK-LABEL: func.func @n8
// AVX512: #tensorop.sketch<mc = 120, nc = 8, kc = 64, mr = 2, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>, target
func.func @n8(%A: memref<120x64xf32>, %B: memref<64x8xf32>, %C: memref<120x8xf32>) {
  linalg.matmul ins(%A, %B : memref<120x64xf32>, memref<64x8xf32>) outs(%C : memref<120x8xf32>)
  return
}

// -----

// N = 8, K = 40 (64 * 40 < 1.3 * (64 * 8 * 5 + 8 * 40 / 8)): the broadcast
// kernel, one vector of columns, 16 rows (M = 64 in four tiles fills every
// row).
// CHECK-LABEL: func.func @n8_short_k
// AVX512: #tensorop.sketch<mc = 64, nc = 16, kc = 40, mr = 16, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded"
func.func @n8_short_k(%A: memref<64x40xf32>, %B: memref<40x8xf32>, %C: memref<64x8xf32>) {
  linalg.matmul ins(%A, %B : memref<64x40xf32>, memref<40x8xf32>) outs(%C : memref<64x8xf32>)
  return
}

// -----

// N = 4, K = 8: one vector along K would be half empty: broadcast kernel.
// CHECK-LABEL: func.func @n4_k8
// AVX512: ukernel = <emitter = "x86_gemm_fma"
func.func @n4_k8(%A: memref<90x8xf32>, %B: memref<8x4xf32>, %C: memref<90x4xf32>) {
  linalg.matmul ins(%A, %B : memref<90x8xf32>, memref<8x4xf32>) outs(%C : memref<90x4xf32>)
  return
}

// -----

// N = 13 (past 8 columns): one-vector blocks; M = 47 in two tiles of 24
// rows rather than three of 16.
// CHECK-LABEL: func.func @n13
// AVX512: #tensorop.sketch<mc = 48, nc = 16, kc = 89, mr = 24, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded"
// AVX2: ukernel = <emitter = "x86_gemm_fma"
func.func @n13(%A: memref<47x89xf32>, %B: memref<89x13xf32>, %C: memref<47x13xf32>) {
  linalg.matmul ins(%A, %B : memref<47x89xf32>, memref<89x13xf32>) outs(%C : memref<47x13xf32>)
  return
}

// -----

// N = 16, M = 128: five tiles of 26 rows (130) rather than eight of 16.
// CHECK-LABEL: func.func @n16
// AVX512: #tensorop.sketch<mc = 130, nc = 16, kc = 128, mr = 26, nr = 16,
func.func @n16(%A: memref<128x128xf32>, %B: memref<128x16xf32>, %C: memref<128x16xf32>) {
  linalg.matmul ins(%A, %B : memref<128x128xf32>, memref<128x16xf32>) outs(%C : memref<128x16xf32>)
  return
}

// -----

// One row, N = 8, K = 128: B's transposed copy would cost more than the GEMM
// (128 < 1.3 * (8 * 10 + 8 * 128 / 8)): the broadcast kernel. With N = 2 the
// broadcast kernel's lanes are idle enough that kdot pays even so.
// CHECK-LABEL: func.func @one_row_n8
// AVX512: ukernel = <emitter = "x86_gemm_fma"
func.func @one_row_n8(%A: memref<1x128xf32>, %B: memref<128x8xf32>, %C: memref<1x8xf32>) {
  linalg.matmul ins(%A, %B : memref<1x128xf32>, memref<128x8xf32>) outs(%C : memref<1x8xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @one_row_n2
// AVX512: #tensorop.sketch<mc = 1, nc = 2, kc = 100, mr = 1, nr = 2, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot"
func.func @one_row_n2(%A: memref<1x100xf32>, %B: memref<100x2xf32>, %C: memref<1x2xf32>) {
  linalg.matmul ins(%A, %B : memref<1x100xf32>, memref<100x2xf32>) outs(%C : memref<1x2xf32>)
  return
}
