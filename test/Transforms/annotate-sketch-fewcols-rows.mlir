// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" | FileCheck %s --check-prefixes=CHECK,AVX2
// The builtin advisor's rows for few columns (9 <= N <= 16, M > 16) on
// AVX-512 (lib/Advisor/SkinnyGemm.cpp, fewColumnsRows): the broadcast
// kernel with as many rows of A as the registers hold (30), unless that
// puts more rows than the L1 ways (12) in one L1 set: rows 4096 bytes
// apart share a set (12 rows), rows 2048 bytes apart two sets (24).
// Without a software prefetch past 12 rows. AVX2 keeps its packed choice. The second RUN
// line on AVX-512 re-parses the output (the sketch verifier accepts it).

// N = 11, K = 4778 (the unseen set's 3026x11x4778): rows 19112 bytes
// apart, in different sets: 30 rows.
// CHECK-LABEL: func.func @n11
// AVX512: #tensorop.sketch<mc = 3030, nc = 16, kc = 4778, mr = 30, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>
// AVX2: pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma"
func.func @n11(%A: memref<3026x4778xf32>, %B: memref<4778x11xf32>, %C: memref<3026x11xf32>) {
  linalg.matmul ins(%A, %B : memref<3026x4778xf32>, memref<4778x11xf32>) outs(%C : memref<3026x11xf32>)
  return
}

// -----

// N = 16, K = 2048: every row in the same L1 set, 12 rows prefetched 128
// k values ahead (as before).
// CHECK-LABEL: func.func @n16_pow2
// AVX512: #tensorop.sketch<mc = 2052, nc = 16, kc = 2048, mr = 12, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0, prefetch_a = 128>
func.func @n16_pow2(%A: memref<2048x2048xf32>, %B: memref<2048x16xf32>, %C: memref<2048x16xf32>) {
  linalg.matmul ins(%A, %B : memref<2048x2048xf32>, memref<2048x16xf32>) outs(%C : memref<2048x16xf32>)
  return
}

// -----

// N = 16, K = 512: rows 2048 bytes apart alternate between two sets: 24.
// (With N <= 14 and K this short the kernel vectorized along K is chosen:
// annotate-sketch-kdot.mlir.)
// CHECK-LABEL: func.func @n16_k512
// AVX512: #tensorop.sketch<mc = 4104, nc = 16, kc = 512, mr = 24, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>
func.func @n16_k512(%A: memref<4096x512xf32>, %B: memref<512x16xf32>, %C: memref<4096x16xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x512xf32>, memref<512x16xf32>) outs(%C : memref<4096x16xf32>)
  return
}

// -----

// N = 10, K = 3072: rows 12288 bytes (three times 4096) apart, one set:
// 12 rows, prefetched.
// CHECK-LABEL: func.func @n10_k3072
// AVX512: #tensorop.sketch<mc = 1500, nc = 16, kc = 3072, mr = 12, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0, prefetch_a = 128>
func.func @n10_k3072(%A: memref<1500x3072xf32>, %B: memref<3072x10xf32>, %C: memref<1500x10xf32>) {
  linalg.matmul ins(%A, %B : memref<1500x3072xf32>, memref<3072x10xf32>) outs(%C : memref<1500x10xf32>)
  return
}

// -----

// N = 13, K = 2000: rows 8000 bytes apart, each in another set: 30.
// CHECK-LABEL: func.func @n13
// AVX512: #tensorop.sketch<mc = 3000, nc = 16, kc = 2000, mr = 30, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>
func.func @n13(%A: memref<3000x2000xf32>, %B: memref<2000x13xf32>, %C: memref<3000x13xf32>) {
  linalg.matmul ins(%A, %B : memref<3000x2000xf32>, memref<2000x13xf32>) outs(%C : memref<3000x13xf32>)
  return
}
