// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 threads=2" 2>/dev/null | FileCheck %s --check-prefix=TEAM
// The builtin advisor's skinny sketches (lib/Advisor/SkinnyGemm.cpp). On
// AVX-512, few rows (M <= 64): A and B read in place, M in row blocks of at
// most 14 rows as wide as registers allow (7 vectors at most), B swept along
// N in bands of K (of at most 384 rows where L3 holds B, 128 where it
// streams from memory, 64 there for at most 20 rows: the file's
// blocking.few_rows_band_rows and few_rows_band_max_rows) with B's row prefetched two blocks ahead, K not
// unrolled in blocks of three vectors (M <= 2:
// bands of 16 rows when B is larger than L3; with B in L3 each tile walks
// 512 rows down K, prefetched 32 rows ahead), all row blocks of a tile one
// after the other (micro order "nm");
// few columns (N <= 16, more rows): 12 x 16 blocks with embedded
// broadcasts, one K block (C kept in registers), rows of A prefetched 128 k
// values ahead. AVX2 keeps the earlier choices. The second RUN line on
// AVX-512 re-parses the output (the sketch verifier accepts it).

// CHECK-LABEL: func.func @rows16
// AVX512: #tensorop.sketch<mc = 16, nc = 2064, kc = 342, mr = 8, nr = 48, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 1, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 96>
// AVX2: pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 32>
func.func @rows16(%A: memref<16x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<16x2048xf32>) {
  linalg.matmul ins(%A, %B : memref<16x2048xf32>, memref<2048x2048xf32>) outs(%C : memref<16x2048xf32>)
  return
}

// -----

// One row (GEMV), B from memory (64 MB, more than L3): 1 x 112, swept in
// bands of 16 rows, each row's tiles prefetched two ahead (the file's
// gemv.column_prefetch). B's rows 16 KB apart all share one L1 set: bands
// of 12 rows (blocking.band_rows_per_l1_set), on one thread only (a team
// keeps bands of 16). Rows 20000 bytes apart spread over the sets: bands
// of 16.
// CHECK-LABEL: func.func @gemv
// AVX512: #tensorop.sketch<mc = 1, nc = 4144, kc = 12, mr = 1, nr = 112, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 224>
// AVX512: #tensorop.sketch<mc = 1, nc = 5040, kc = 16, mr = 1, nr = 112, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 224>
// TEAM-LABEL: func.func @gemv
// TEAM: mc = 1, nc = {{[0-9]+}}, kc = 16, mr = 1, nr = 112,
// TEAM: mc = 1, nc = {{[0-9]+}}, kc = 16, mr = 1, nr = 112,
func.func @gemv(%A: memref<1x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<1x4096xf32>,
                %A2: memref<1x4000xf32>, %B2: memref<4000x5000xf32>, %C2: memref<1x5000xf32>) {
  linalg.matmul ins(%A, %B : memref<1x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<1x4096xf32>)
  linalg.matmul ins(%A2, %B2 : memref<1x4000xf32>, memref<4000x5000xf32>) outs(%C2 : memref<1x5000xf32>)
  return
}

// -----

// Few rows from memory in blocks of three vectors (8 x 48): B's rows 16 KB
// (N = 4096) or 4 KB (N = 1024) apart all share one L1 set, so bands of 12
// rows (blocking.band_rows_per_l1_set), 4096 in 342 of 12, on one thread
// (a team keeps bands of 128, 3000 in 24 of 125); rows 20000 bytes apart (N = 5000) keep bands of 64, 3000
// in 47 of 64. Other blocks keep their bands whatever the sets (12 x 32,
// 3 x 112 and two blocks of 8 x 48 lost with bands of 12): 64, 4096 in 64
// of 64.
// CHECK-LABEL: func.func @rows_one_l1_set
// AVX512: kc = 12, mr = 8, nr = 48, loop_order = "mnk", micro_order = "mn",
// AVX512: kc = 12, mr = 8, nr = 48, loop_order = "mnk", micro_order = "mn",
// AVX512: kc = 64, mr = 8, nr = 48, loop_order = "mnk", micro_order = "mn",
// AVX512: kc = 64, mr = 12, nr = 32, loop_order = "mnk", micro_order = "mn",
// AVX512: kc = 64, mr = 3, nr = 112, loop_order = "mnk", micro_order = "mn",
// AVX512: kc = 64, mr = 8, nr = 48, loop_order = "mnk", micro_order = "nm",
// TEAM-LABEL: func.func @rows_one_l1_set
// TEAM: kc = 128, mr = 8, nr = 48,
// TEAM: kc = 128, mr = 8, nr = 48,
// TEAM: kc = 125, mr = 8, nr = 48,
func.func @rows_one_l1_set(%A: memref<8x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<8x4096xf32>,
                           %A2: memref<8x16384xf32>, %B2: memref<16384x1024xf32>, %C2: memref<8x1024xf32>,
                           %A3: memref<8x3000xf32>, %B3: memref<3000x5000xf32>, %C3: memref<8x5000xf32>,
                           %A4: memref<12x4096xf32>, %B4: memref<4096x4096xf32>, %C4: memref<12x4096xf32>,
                           %A5: memref<3x4096xf32>, %B5: memref<4096x4096xf32>, %C5: memref<3x4096xf32>,
                           %A6: memref<16x4096xf32>, %B6: memref<4096x4096xf32>, %C6: memref<16x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<8x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<8x4096xf32>)
  linalg.matmul ins(%A2, %B2 : memref<8x16384xf32>, memref<16384x1024xf32>) outs(%C2 : memref<8x1024xf32>)
  linalg.matmul ins(%A3, %B3 : memref<8x3000xf32>, memref<3000x5000xf32>) outs(%C3 : memref<8x5000xf32>)
  linalg.matmul ins(%A4, %B4 : memref<12x4096xf32>, memref<4096x4096xf32>) outs(%C4 : memref<12x4096xf32>)
  linalg.matmul ins(%A5, %B5 : memref<3x4096xf32>, memref<4096x4096xf32>) outs(%C5 : memref<3x4096xf32>)
  linalg.matmul ins(%A6, %B6 : memref<16x4096xf32>, memref<4096x4096xf32>) outs(%C6 : memref<16x4096xf32>)
  return
}

// -----

// One row, B in L3 (24 MB of 32): each tile walks down 500 rows of B,
// prefetched 32 rows ahead.
// CHECK-LABEL: func.func @gemv_l3
// AVX512: #tensorop.sketch<mc = 1, nc = 2016, kc = 500, mr = 1, nr = 112, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 32>
func.func @gemv_l3(%A: memref<1x3000xf32>, %B: memref<3000x2000xf32>, %C: memref<1x2000xf32>) {
  linalg.matmul ins(%A, %B : memref<1x3000xf32>, memref<3000x2000xf32>) outs(%C : memref<1x2000xf32>)
  return
}

// -----

// 33 rows: three blocks of 11 x 32; 12 rows: one block of 12 x 32; 24 rows:
// two blocks of 12 x 32. B in L3 (3 to 18 MB of 32): K in equal bands of at
// most 384 rows, 1027 in 3 of 343, 1500 in 4 of 375, 1024 in 3 of 342; B
// from memory (12 and 24 x 5000 x 4000, 80 MB): for 12 rows (at most the
// file's 20) bands of at most 64 rows, 4000 in 63 of 64; for 24 rows bands
// of at most 128, 4000 in 32 of 125. On a team of threads bands of 128 for
// 12 rows too (the short bands lost there: 2 threads geomean -1.1%).
// CHECK-LABEL: func.func @rows_more
// AVX512: kc = 343, mr = 11, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none"
// AVX512: kc = 375, mr = 12, nr = 32, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none"
// AVX512: kc = 342, mr = 12, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none"
// AVX512: kc = 64, mr = 12, nr = 32, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none"
// TEAM-LABEL: func.func @rows_more
// TEAM: kc = 125, mr = 12, nr = 32, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none"
// TEAM-NEXT: kc = 125, mr = 12, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none"
// AVX512: kc = 125, mr = 12, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none"
func.func @rows_more(%A: memref<33x1027xf32>, %B: memref<1027x777xf32>, %C: memref<33x777xf32>,
                     %A2: memref<12x1500xf32>, %B2: memref<1500x3000xf32>, %C2: memref<12x3000xf32>,
                     %A3: memref<24x1024xf32>, %B3: memref<1024x4096xf32>, %C3: memref<24x4096xf32>,
                     %A4: memref<12x4000xf32>, %B4: memref<4000x5000xf32>, %C4: memref<12x5000xf32>,
                     %A5: memref<24x4000xf32>, %B5: memref<4000x5000xf32>, %C5: memref<24x5000xf32>) {
  linalg.matmul ins(%A, %B : memref<33x1027xf32>, memref<1027x777xf32>) outs(%C : memref<33x777xf32>)
  linalg.matmul ins(%A2, %B2 : memref<12x1500xf32>, memref<1500x3000xf32>) outs(%C2 : memref<12x3000xf32>)
  linalg.matmul ins(%A3, %B3 : memref<24x1024xf32>, memref<1024x4096xf32>) outs(%C3 : memref<24x4096xf32>)
  linalg.matmul ins(%A4, %B4 : memref<12x4000xf32>, memref<4000x5000xf32>) outs(%C4 : memref<12x5000xf32>)
  linalg.matmul ins(%A5, %B5 : memref<24x4000xf32>, memref<4000x5000xf32>) outs(%C5 : memref<24x5000xf32>)
  return
}

// -----

// Few columns: 12 x 16, embedded broadcasts, kc = K, A prefetched.
// CHECK-LABEL: func.func @cols16
// AVX512: #tensorop.sketch<mc = 2052, nc = 16, kc = 2048, mr = 12, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0, prefetch_a = 128>
// AVX2-NOT: prefetch_a
func.func @cols16(%A: memref<2048x2048xf32>, %B: memref<2048x16xf32>, %C: memref<2048x16xf32>) {
  linalg.matmul ins(%A, %B : memref<2048x2048xf32>, memref<2048x16xf32>) outs(%C : memref<2048x16xf32>)
  return
}

// -----

// Not skinny: 65 rows and 17 columns keep the general path; a transposed
// B and a column-strided A too. (65 rows are 13 row tiles of 5 on AVX-512:
// with the file's hints the general path packs B for them, its copy fused
// into the first row tile; annotate-sketch-few-row-tiles.mlir.)
// CHECK-LABEL: func.func @not_skinny
// AVX512: mc = 65, nc = 128, kc = 512, mr = 5, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_fused", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 128>
// CHECK-NOT: prefetch_b_cols
// CHECK-NOT: prefetch_a
// CHECK: return
func.func @not_skinny(%A: memref<65x512xf32>, %B: memref<512x512xf32>, %C: memref<65x512xf32>,
                      %A2: memref<512x512xf32>, %B2: memref<512x17xf32>, %C2: memref<512x17xf32>,
                      %At: memref<16x512xf32, strided<[1, 16]>>, %C3: memref<16x512xf32>) {
  linalg.matmul ins(%A, %B : memref<65x512xf32>, memref<512x512xf32>) outs(%C : memref<65x512xf32>)
  linalg.matmul ins(%A2, %B2 : memref<512x512xf32>, memref<512x17xf32>) outs(%C2 : memref<512x17xf32>)
  linalg.matmul ins(%At, %B : memref<16x512xf32, strided<[1, 16]>>, memref<512x512xf32>) outs(%C3 : memref<16x512xf32>)
  return
}

// -----

// On tensors (a model's GEMM, before bufferization) the same sketch: A's
// rows will be in place once bufferized (a function argument at the
// pipeline's identity-layout boundaries), so the few-rows path applies.
// CHECK-LABEL: func.func @rows16_tensors
// AVX512: #tensorop.sketch<mc = 16, nc = 2064, kc = 342, mr = 8, nr = 48, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 1, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 96>
func.func @rows16_tensors(%A: tensor<16x2048xf32>, %B: tensor<2048x2048xf32>, %C: tensor<16x2048xf32>) -> tensor<16x2048xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<16x2048xf32>, tensor<2048x2048xf32>) outs(%C : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  return %r : tensor<16x2048xf32>
}

// -----

// A tensor over a memref whose rows are 4096 floats apart (to_tensor): in
// place, with that stride.
// CHECK-LABEL: func.func @rows16_to_tensor_strided
// AVX512: pack_a = "none", pack_b = "none"
func.func @rows16_to_tensor_strided(%Am: memref<16x2048xf32, strided<[4096, 1]>>, %B: tensor<2048x2048xf32>, %C: tensor<16x2048xf32>) -> tensor<16x2048xf32> {
  %A = bufferization.to_tensor %Am restrict : memref<16x2048xf32, strided<[4096, 1]>> to tensor<16x2048xf32>
  %r = linalg.matmul ins(%A, %B : tensor<16x2048xf32>, tensor<2048x2048xf32>) outs(%C : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  return %r : tensor<16x2048xf32>
}

// -----

// ... and over a dynamic row stride, which the kernel takes as an operand
// (x86_gemm_fma's a_stride_operand) ...
// CHECK-LABEL: func.func @rows16_to_tensor_dynamic_stride
// AVX512: pack_a = "none", pack_b = "none"
func.func @rows16_to_tensor_dynamic_stride(%Am: memref<16x2048xf32, strided<[?, 1]>>, %B: tensor<2048x2048xf32>, %C: tensor<16x2048xf32>) -> tensor<16x2048xf32> {
  %A = bufferization.to_tensor %Am restrict : memref<16x2048xf32, strided<[?, 1]>> to tensor<16x2048xf32>
  %r = linalg.matmul ins(%A, %B : tensor<16x2048xf32>, tensor<2048x2048xf32>) outs(%C : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  return %r : tensor<16x2048xf32>
}

// -----

// ... but not through a slice that skips columns: A is packed and the
// few-rows path does not apply.
// CHECK-LABEL: func.func @rows16_strided_slice
// AVX512: pack_a = "kmajor_mr"
func.func @rows16_strided_slice(%X: tensor<16x4096xf32>, %B: tensor<2048x2048xf32>, %C: tensor<16x2048xf32>) -> tensor<16x2048xf32> {
  %A = tensor.extract_slice %X[0, 0] [16, 2048] [1, 2] : tensor<16x4096xf32> to tensor<16x2048xf32>
  %r = linalg.matmul ins(%A, %B : tensor<16x2048xf32>, tensor<2048x2048xf32>) outs(%C : tensor<16x2048xf32>) -> tensor<16x2048xf32>
  return %r : tensor<16x2048xf32>
}
