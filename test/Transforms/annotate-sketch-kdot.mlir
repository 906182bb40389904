// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" | FileCheck %s --check-prefixes=CHECK,AVX2
// The builtin advisor's choice for few columns (N <= 8, M > 16) on AVX-512
// (lib/Advisor/SkinnyGemm.cpp, chooseKDotSketch): the x86_gemm_kdot kernel,
// vectorized along K, B copied transposed once (pack_b "transposed"), A's
// rows read in place and prefetched 256 k values ahead, all of K in one
// call; mr as large as the register file allows (at most 12), and where
// that is fewer than 3 rows, two blocks of columns. AVX2 keeps its packed
// choice. The second RUN line on AVX-512 re-parses the output (the sketch
// verifier accepts it).

// N = 6 (the unseen set's 3496x6x1930): 4 x 6, all of K in one call.
// CHECK-LABEL: func.func @n6
// AVX512: #tensorop.sketch<mc = 3496, nc = 6, kc = 1930, mr = 4, nr = 6, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 256>
// AVX2: pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma"
func.func @n6(%A: memref<3496x1930xf32>, %B: memref<1930x6xf32>, %C: memref<3496x6xf32>) {
  linalg.matmul ins(%A, %B : memref<3496x1930xf32>, memref<1930x6xf32>) outs(%C : memref<3496x6xf32>)
  return
}

// -----

// N = 1 (GEMV with A M x K): 12 rows, the most the L1 ways allow.
// CHECK-LABEL: func.func @n1
// AVX512: #tensorop.sketch<mc = 1008, nc = 1, kc = 1000, mr = 12, nr = 1, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 256>
// AVX2: pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma"
func.func @n1(%A: memref<1000x1000xf32>, %B: memref<1000x1xf32>, %C: memref<1000x1xf32>) {
  linalg.matmul ins(%A, %B : memref<1000x1000xf32>, memref<1000x1xf32>) outs(%C : memref<1000x1xf32>)
  return
}

// -----

// N = 3: 9 x 3 (27 accumulators + 3 B + 2 A vectors).
// CHECK-LABEL: func.func @n3
// AVX512: #tensorop.sketch<mc = 4104, nc = 3, kc = 1024, mr = 9, nr = 3, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 256>
func.func @n3(%A: memref<4096x1024xf32>, %B: memref<1024x3xf32>, %C: memref<4096x3xf32>) {
  linalg.matmul ins(%A, %B : memref<4096x1024xf32>, memref<1024x3xf32>) outs(%C : memref<4096x3xf32>)
  return
}

// -----

// N = 8: 2 x 8 would feed each B vector to two FMAs only; two column
// blocks of 4 instead, 6 rows each.
// CHECK-LABEL: func.func @n8
// AVX512: #tensorop.sketch<mc = 2004, nc = 8, kc = 2000, mr = 6, nr = 4, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 256>
// AVX2: pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma"
func.func @n8(%A: memref<2000x2000xf32>, %B: memref<2000x8xf32>, %C: memref<2000x8xf32>) {
  linalg.matmul ins(%A, %B : memref<2000x2000xf32>, memref<2000x8xf32>) outs(%C : memref<2000x8xf32>)
  return
}

// -----

// N = 7: 3 x 7.
// CHECK-LABEL: func.func @n7
// AVX512: #tensorop.sketch<mc = 1500, nc = 7, kc = 3000, mr = 3, nr = 7, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 256>
func.func @n7(%A: memref<1500x3000xf32>, %B: memref<3000x7xf32>, %C: memref<1500x7xf32>) {
  linalg.matmul ins(%A, %B : memref<1500x3000xf32>, memref<3000x7xf32>) outs(%C : memref<1500x7xf32>)
  return
}

// -----

// N = 9: more than kKDotColumns, the broadcast kernel (30 x 16 here: A's
// rows do not share L1 sets; annotate-sketch-fewcols-rows.mlir).
// CHECK-LABEL: func.func @n9
// AVX512: #tensorop.sketch<mc = 2010, nc = 16, kc = 2000, mr = 30, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>
func.func @n9(%A: memref<2000x2000xf32>, %B: memref<2000x9xf32>, %C: memref<2000x9xf32>) {
  linalg.matmul ins(%A, %B : memref<2000x2000xf32>, memref<2000x9xf32>) outs(%C : memref<2000x9xf32>)
  return
}

// -----

// 16 rows (not more than kFewColumns): the skinny path, as before.
// CHECK-LABEL: func.func @m16
// AVX512: #tensorop.sketch<mc = 16, nc = 16, kc = 250, mr = 16, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 32>
func.func @m16(%A: memref<16x2000xf32>, %B: memref<2000x6xf32>, %C: memref<16x6xf32>) {
  linalg.matmul ins(%A, %B : memref<16x2000xf32>, memref<2000x6xf32>) outs(%C : memref<16x6xf32>)
  return
}

// -----

// N = 9 with B's 9 x K (rows padded to 16 floats) in L1: the kernel
// vectorized along K, 3 x 9 with the rows' A vectors held and B streamed
// (27 accumulators + 3 A + 2 B vectors).
// CHECK-LABEL: func.func @n9_short_k
// AVX512: #tensorop.sketch<mc = 6000, nc = 9, kc = 777, mr = 3, nr = 9, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 256>
// AVX2: pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma"
func.func @n9_short_k(%A: memref<6000x777xf32>, %B: memref<777x9xf32>, %C: memref<6000x9xf32>) {
  linalg.matmul ins(%A, %B : memref<6000x777xf32>, memref<777x9xf32>) outs(%C : memref<6000x9xf32>)
  return
}

// -----

// N = 13, K = 500: the broadcast kernel. 13 columns of one 16-lane vector
// waste less than the K-vectorized tile's sums cost (kdotAheadOfBroadcast:
// at 1.3 times as fast, never for N >= 13); Emerald Rapids, 1 thread,
// against libxsmm: 2 x 13 K-vectorized 0.77x, 30 x 16 broadcast 0.98x
// (docs/benchmarks/cpu-gemm-classes.md, "Emerald Rapids in the
// thirty-ninth session").
// CHECK-LABEL: func.func @n13_short_k
// AVX512: #tensorop.sketch<mc = 4020, nc = 16, kc = 500, mr = 30, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>
func.func @n13_short_k(%A: memref<4000x500xf32>, %B: memref<500x13xf32>, %C: memref<4000x13xf32>) {
  linalg.matmul ins(%A, %B : memref<4000x500xf32>, memref<500x13xf32>) outs(%C : memref<4000x13xf32>)
  return
}

// -----

// N = 11, K = 1200: B's 11 x 1200 (52 KB) is past L1: the broadcast kernel.
// CHECK-LABEL: func.func @n11_long_k
// AVX512: #tensorop.sketch<mc = 3000, nc = 16, kc = 1200, mr = 30, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>
func.func @n11_long_k(%A: memref<3000x1200xf32>, %B: memref<1200x11xf32>, %C: memref<3000x11xf32>) {
  linalg.matmul ins(%A, %B : memref<3000x1200xf32>, memref<1200x11xf32>) outs(%C : memref<3000x11xf32>)
  return
}

// -----

// N = 15: one row per block would load a B vector per FMA: the broadcast
// kernel, whatever K.
// CHECK-LABEL: func.func @n15_short_k
// AVX512: #tensorop.sketch<mc = 2010, nc = 16, kc = 300, mr = 30, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>
func.func @n15_short_k(%A: memref<2000x300xf32>, %B: memref<300x15xf32>, %C: memref<2000x15xf32>) {
  linalg.matmul ins(%A, %B : memref<2000x300xf32>, memref<300x15xf32>) outs(%C : memref<2000x15xf32>)
  return
}

// -----

// N = 11, K = 1000: B's 11 x 1008 (44 KB) fits in L1 but leaves under a
// quarter of it to A, and 2 rows reload it often: the broadcast kernel.
// CHECK-LABEL: func.func @n11_k1000
// AVX512: #tensorop.sketch<mc = 1020, nc = 16, kc = 1000, mr = 30, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>
func.func @n11_k1000(%A: memref<1000x1000xf32>, %B: memref<1000x11xf32>, %C: memref<1000x11xf32>) {
  linalg.matmul ins(%A, %B : memref<1000x1000xf32>, memref<1000x11xf32>) outs(%C : memref<1000x11xf32>)
  return
}

// -----

// A streamed from memory (more than twice L3: 64 MiB in this file) in
// blocks of at most 3 rows (N = 7) or two column passes (N = 8): the
// few-columns broadcast kernel instead (30 x 16, embedded broadcasts), whose
// 30 row streams keep more of A's loads in flight (5024x7x7620, 153 MB:
// 0.85x libxsmm by the K-vectorized kernel, 0.97-1.00x by the broadcast
// one; docs/benchmarks/cpu-gemm-classes.md, "Zen 5: few columns from
// memory, N = 7 and 8"). AVX2 keeps its packed choice.
// CHECK-LABEL: func.func @n7_from_memory
// AVX512: mr = 30, nr = 16, {{.*}}pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded"
func.func @n7_from_memory(%A: memref<5024x7620xf32>, %B: memref<7620x7xf32>, %C: memref<5024x7xf32>) {
  linalg.matmul ins(%A, %B : memref<5024x7620xf32>, memref<7620x7xf32>) outs(%C : memref<5024x7xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @n8_from_memory
// AVX512: mr = 30, nr = 16, {{.*}}pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded"
func.func @n8_from_memory(%A: memref<4000x7500xf32>, %B: memref<7500x8xf32>, %C: memref<4000x8xf32>) {
  linalg.matmul ins(%A, %B : memref<4000x7500xf32>, memref<7500x8xf32>) outs(%C : memref<4000x8xf32>)
  return
}

// -----

// Not N = 6 (4 rows a block), however large A, nor N = 7 with A under
// twice L3 (2000x7x6000, 48 MB).
// CHECK-LABEL: func.func @n6_from_memory
// AVX512: mr = 4, nr = 6, {{.*}}ukernel = <emitter = "x86_gemm_kdot"
func.func @n6_from_memory(%A: memref<4000x7500xf32>, %B: memref<7500x6xf32>, %C: memref<4000x6xf32>) {
  linalg.matmul ins(%A, %B : memref<4000x7500xf32>, memref<7500x6xf32>) outs(%C : memref<4000x6xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @n7_in_cache
// AVX512: mr = 3, nr = 7, {{.*}}ukernel = <emitter = "x86_gemm_kdot"
func.func @n7_in_cache(%A: memref<2000x6000xf32>, %B: memref<6000x7xf32>, %C: memref<2000x7xf32>) {
  linalg.matmul ins(%A, %B : memref<2000x6000xf32>, memref<6000x7xf32>) outs(%C : memref<2000x7xf32>)
  return
}
