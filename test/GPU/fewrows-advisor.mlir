// The builtin advisor's choice for bf16/f16 GEMMs of 5..32 rows: the
// few-rows wgmma kernel (python_emitters/tensorop_emit/nvidia_wgmma_fewrows.py,
// C^T = B^T A^T with wgmma's N extent of 8, 16 or 32 over M;
// lib/GPU/GpuAdvisor.cpp, proposeWgmmaFewRows): B streamed in strips of 64
// columns (one consumer) or 128 (two), whichever the streaming model says
// is faster (1 us per wave on top), the first of equal ones (more CTAs);
// up to 16 stages. Measured on the H200: docs/benchmarks/gpu-gemm.md,
// "Session 12" (the first two tuned on; 8x8192x8192 changed to 64-wide
// strips after that run, then measured again: 0.84x -> 0.96x). Split-K 2
// (clusters of 2 CTAs, each half of a strip's K; streamSplitK) where every
// strip splits in one wave and the model saves 5%: operands that fit in
// the L2 stream at the full HBM rate, the others at 0.84 of it, a CTA at
// its measured rate ("Session 14").
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm90" | FileCheck %s

// 16x4096x14336: 64 strips of 64 columns (32 of 128 would stream at 32
// CTAs' rate), 16 stages of 10 KiB; not split: B (117 MB) streams from HBM
// at its share either way (measured split 1.01x -> 0.94x).
// CHECK-LABEL: func.func @few_16x4096x14336
//       CHECK:   kernel = "wgmma", precision = "bf16", block_m = 16, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 64,
//   CHECK-NOT:   split_k
//  CHECK-SAME:   source = "builtin">}
func.func @few_16x4096x14336(%A: memref<16x14336xbf16>, %B: memref<14336x4096xbf16>, %C: memref<16x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<16x14336xbf16>, memref<14336x4096xbf16>) outs(%C : memref<16x4096xbf16>)
  return
}

// -----
// 16x11008x4096 f16: 86 strips of 128 columns on two consumers, 12 stages
// (172 of 64 take two waves).
// CHECK-LABEL: func.func @few_16x11008x4096
//       CHECK:   kernel = "wgmma", precision = "f16", block_m = 16, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 12, group_m = 8, ctas = 86,
func.func @few_16x11008x4096(%A: memref<16x4096xf16>, %B: memref<4096x11008xf16>, %C: memref<16x11008xf16>) {
  linalg.matmul ins(%A, %B : memref<16x4096xf16>, memref<4096x11008xf16>) outs(%C : memref<16x11008xf16>)
  return
}

// -----
// 8 rows: wgmma's N extent of 8; 128 strips of 64 fill one wave as 64 of
// 128 do: the first, more CTAs.
// CHECK-LABEL: func.func @few_8x8192x8192
//       CHECK:   block_m = 8, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128,
func.func @few_8x8192x8192(%A: memref<8x8192xbf16>, %B: memref<8192x8192xbf16>, %C: memref<8x8192xbf16>) {
  linalg.matmul ins(%A, %B : memref<8x8192xbf16>, memref<8192x8192xbf16>) outs(%C : memref<8x8192xbf16>)
  return
}

// -----
// 13 rows: block_m 16; C's rows of 13 x 4096 stored from registers. B
// (33.5 MB) fits in the L2: 64 strips split in 2 on 128 CTAs (measured
// 43.8 -> 49.6 TFLOP/s).
// CHECK-LABEL: func.func @few_13x4096x4096
//       CHECK:   block_m = 16, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128,
//  CHECK-SAME:   split_k = 2>
func.func @few_13x4096x4096(%A: memref<13x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<13x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<13x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<13x4096xbf16>)
  return
}

// -----
// 20 rows (block_m 32) of a K not a multiple of 64: 47 strips of 64 would
// split in 2 (94 CTAs); 24 strips of 128 on one consumer split in 4 are 96
// CTAs (<= 96; 79 k-tiles, 20 per rank but the last's 19), 11 stages.
// CHECK-LABEL: func.func @few_20x3000x5000
//       CHECK:   block_m = 32, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 11, group_m = 8, ctas = 96,
//  CHECK-SAME:   split_k = 4>
func.func @few_20x3000x5000(%A: memref<20x5000xf16>, %B: memref<5000x3000xf16>, %C: memref<20x3000xf16>) {
  linalg.matmul ins(%A, %B : memref<20x5000xf16>, memref<5000x3000xf16>) outs(%C : memref<20x3000xf16>)
  return
}

// -----
// K too short to split: 24 k-tiles (each half would have 12 < 16).
// CHECK-LABEL: func.func @few_16x4096x1536
//       CHECK:   block_m = 16, block_n = 64,
//   CHECK-NOT:   split_k
//  CHECK-SAME:   source = "builtin">}
func.func @few_16x4096x1536(%A: memref<16x1536xbf16>, %B: memref<1536x4096xbf16>, %C: memref<16x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<16x1536xbf16>, memref<1536x4096xbf16>) outs(%C : memref<16x4096xbf16>)
  return
}

// -----
// 32 rows: block_m 32, 112 strips of 128, 11 stages of 20 KiB.
// CHECK-LABEL: func.func @few_32x14336x4096
//       CHECK:   block_m = 32, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 112,
func.func @few_32x14336x4096(%A: memref<32x4096xbf16>, %B: memref<4096x14336xbf16>, %C: memref<32x14336xbf16>) {
  linalg.matmul ins(%A, %B : memref<32x4096xbf16>, memref<4096x14336xbf16>) outs(%C : memref<32x14336xbf16>)
  return
}

// -----
// Controls: 33 rows take 64-row tiles; 4 rows the GEMV kernel.
// CHECK-LABEL: func.func @rows_33
//       CHECK:   block_m = 64,
// CHECK-LABEL: func.func @rows_4
//       CHECK:   kernel = "gemv"
func.func @rows_33(%A: memref<33x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<33x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<33x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<33x4096xbf16>)
  return
}
func.func @rows_4(%A: memref<4x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<4x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4x4096xbf16>)
  return
}

// -----
// Few columns: the plain kernel with a narrow tile (block_n 16 or 32: B's
// box one 32- or 64-byte swizzle atom), A streamed in strips of 64 rows on
// 64 CTAs, 16 stages of 10 KiB.
// A (33.5 MB) fits in the L2: split in 2 on 128 CTAs (measured 51.3 ->
// 52.6 TFLOP/s); since Session 20 (kWsPairOverSplit2) 32 strips of 128
// rows on two consumers in 4 slices through the workspace instead (10.2
// -> 9.2 us).
// CHECK-LABEL: func.func @cols_4096x16x4096
//       CHECK:   kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 12, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "splitk_ws", split_k = 4>
func.func @cols_4096x16x4096(%A: memref<4096x4096xbf16>, %B: memref<4096x16xbf16>, %C: memref<4096x16xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x16xbf16>) outs(%C : memref<4096x16xbf16>)
  return
}

// -----
// 24 columns: block_n 32; 8192 rows stream at the HBM share in strips of
// 64 or 128 rows alike, in one wave: the first, 128 rows on two consumers
// (measured 0.86x the best library; 64 rows on 128 CTAs 0.77x). Split in 2:
// such a CTA streams 48 GB/s, so 64 of them stay below the HBM share
// (measured 73.4 -> 79.6 TFLOP/s).
// CHECK-LABEL: func.func @cols_8192x24x8192
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 128,
//  CHECK-SAME:   split_k = 2>
func.func @cols_8192x24x8192(%A: memref<8192x8192xf16>, %B: memref<8192x24xf16>, %C: memref<8192x24xf16>) {
  linalg.matmul ins(%A, %B : memref<8192x8192xf16>, memref<8192x24xf16>) outs(%C : memref<8192x24xf16>)
  return
}

// -----
// Few strips with long K: 16 strips of 128 columns split in 4 (64 CTAs)
// instead of 32 of 64 split in 2 (split in 4 they would be 128 CTAs, more
// than kWideSplitMaxCtas).
// CHECK-LABEL: func.func @few_16x2048x8192
//       CHECK:   block_m = 16, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 12, group_m = 8, ctas = 64,
//  CHECK-SAME:   split_k = 4>
func.func @few_16x2048x8192(%A: memref<16x8192xbf16>, %B: memref<8192x2048xbf16>, %C: memref<16x2048xbf16>) {
  linalg.matmul ins(%A, %B : memref<16x8192xbf16>, memref<8192x2048xbf16>) outs(%C : memref<16x2048xbf16>)
  return
}

// -----
// Narrow 128-row strips on two consumers with an A the size of the L2
// (6000x20x4096: 49 MB): not split (measured 22.1 -> 22.9 us split).
// CHECK-LABEL: func.func @narrow_6000x20x4096
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 47,
//   CHECK-NOT:   split_k
func.func @narrow_6000x20x4096(%A: memref<6000x4096xf16>, %B: memref<4096x20xf16>, %C: memref<6000x20xf16>) {
  linalg.matmul ins(%A, %B : memref<6000x4096xf16>, memref<4096x20xf16>) outs(%C : memref<6000x20xf16>)
  return
}

// -----
// Few strips with long K whose 64-column strips split in 4 fit in
// kWideSplitMaxCtas: 24 strips of 64 columns split in 4 (96 CTAs), not 12
// of 128 (48 CTAs; "Session 16": 8.8 us against 10.2).
// CHECK-LABEL: func.func @few_24x1536x8192
//       CHECK:   block_m = 32, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 96,
//  CHECK-SAME:   split_k = 4>
func.func @few_24x1536x8192(%A: memref<24x8192xbf16>, %B: memref<8192x1536xbf16>, %C: memref<24x1536xbf16>) {
  linalg.matmul ins(%A, %B : memref<24x8192xbf16>, memref<8192x1536xbf16>) outs(%C : memref<24x1536xbf16>)
  return
}

// -----
// 128-row strips on two consumers split in 4 when that is at most 96 CTAs,
// whatever N (N = 24, "Session 16": 19.2 us against 23.9 for 47 strips of
// 64 split in 2; N = 32, "Session 17": 2048x32x8192 9.9 us against 14.7).
// CHECK-LABEL: func.func @narrow_3000x24x8192
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 96,
//  CHECK-SAME:   split_k = 4>
// CHECK-LABEL: func.func @narrow_3000x32x8192
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 96,
//  CHECK-SAME:   split_k = 4>
// Session 18c: kept (128-row strips on two consumers: the workspace split
// did not gain there).
// CHECK-LABEL: func.func @narrow_2048x32x8192
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 64,
//  CHECK-SAME:   split_k = 4>
func.func @narrow_3000x24x8192(%A: memref<3000x8192xbf16>, %B: memref<8192x24xbf16>, %C: memref<3000x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<3000x8192xbf16>, memref<8192x24xbf16>) outs(%C : memref<3000x24xbf16>)
  return
}
func.func @narrow_3000x32x8192(%A: memref<3000x8192xbf16>, %B: memref<8192x32xbf16>, %C: memref<3000x32xbf16>) {
  linalg.matmul ins(%A, %B : memref<3000x8192xbf16>, memref<8192x32xbf16>) outs(%C : memref<3000x32xbf16>)
  return
}
func.func @narrow_2048x32x8192(%A: memref<2048x8192xbf16>, %B: memref<8192x32xbf16>, %C: memref<2048x32xbf16>) {
  linalg.matmul ins(%A, %B : memref<2048x8192xbf16>, memref<8192x32xbf16>) outs(%C : memref<2048x32xbf16>)
  return
}

// -----
// Few 128-row strips (split in 4, at most 40 CTAs): 64-row strips on one
// consumer split in 4 instead ("Session 17", gpu17b: 1200x24x16384 40 ->
// 76 CTAs 18.3 -> 14.7 us, 1024x32x16384 f16 32 -> 64 CTAs 14.7 -> 12.1);
// from 48 CTAs (1536 rows) the 128-row strips stay (1536x32x16384 18.8 us
// against 19.3).
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow_1200x24x16384
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 114,
//  CHECK-SAME:   store = "splitk_ws", split_k = 6>
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow_1024x32x16384
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "splitk_ws", split_k = 8>
// Session 18c: kept (128-row strips on two consumers: the workspace split
// did not gain there).
// CHECK-LABEL: func.func @narrow_1536x32x16384
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 48,
//  CHECK-SAME:   split_k = 4>
func.func @narrow_1200x24x16384(%A: memref<1200x16384xbf16>, %B: memref<16384x24xbf16>, %C: memref<1200x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<1200x16384xbf16>, memref<16384x24xbf16>) outs(%C : memref<1200x24xbf16>)
  return
}
func.func @narrow_1024x32x16384(%A: memref<1024x16384xf16>, %B: memref<16384x32xf16>, %C: memref<1024x32xf16>) {
  linalg.matmul ins(%A, %B : memref<1024x16384xf16>, memref<16384x32xf16>) outs(%C : memref<1024x32xf16>)
  return
}
func.func @narrow_1536x32x16384(%A: memref<1536x16384xbf16>, %B: memref<16384x32xbf16>, %C: memref<1536x32xbf16>) {
  linalg.matmul ins(%A, %B : memref<1536x16384xbf16>, memref<16384x32xbf16>) outs(%C : memref<1536x32xbf16>)
  return
}

// -----
// N <= 16 with as few strips: block_n 32 (block_n 16 splits only in 2),
// 64-row strips split in 4 ("Session 17", gpu17b call 2, variants:
// 1024x16x16384 19.1 us on 32 CTAs of 64x16 split 2 -> 12.1 on 64 of
// 64x32 split 4; 1024x8x16384 f16 19.3 -> 12.1); 2048 rows (64 CTAs of
// 128x32 split 4) keep 64x16 split 2.
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow_1024x16x16384
//       CHECK:   block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "splitk_ws", split_k = 8>
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow_1024x8x16384
//       CHECK:   block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "splitk_ws", split_k = 8>
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow_2048x16x16384
//       CHECK:   block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "splitk_ws", split_k = 4>
func.func @narrow_1024x16x16384(%A: memref<1024x16384xbf16>, %B: memref<16384x16xbf16>, %C: memref<1024x16xbf16>) {
  linalg.matmul ins(%A, %B : memref<1024x16384xbf16>, memref<16384x16xbf16>) outs(%C : memref<1024x16xbf16>)
  return
}
func.func @narrow_1024x8x16384(%A: memref<1024x16384xf16>, %B: memref<16384x8xf16>, %C: memref<1024x8xf16>) {
  linalg.matmul ins(%A, %B : memref<1024x16384xf16>, memref<16384x8xf16>) outs(%C : memref<1024x8xf16>)
  return
}
func.func @narrow_2048x16x16384(%A: memref<2048x16384xbf16>, %B: memref<16384x16xbf16>, %C: memref<2048x16xbf16>) {
  linalg.matmul ins(%A, %B : memref<2048x16384xbf16>, memref<16384x16xbf16>) outs(%C : memref<2048x16xbf16>)
  return
}

// -----
// More than 96 CTAs (32 strips of 128 rows split in 4: 128 CTAs in clusters
// of 4 lost, "Session 15"): 64-row strips split in 2, whatever N; since
// Session 20 (kWsPairOverSplit2) the same 128 CTAs as 32 strips of 128
// rows in 4 slices through the workspace (4096x24x6144 19.6 -> 19.0 us;
// 4096x32x6144 17.1 -> 18.3, the one loss measured).
// CHECK-LABEL: func.func @narrow_4096x24x6144
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "splitk_ws", split_k = 4>
// CHECK-LABEL: func.func @narrow_4096x32x6144
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "splitk_ws", split_k = 4>
func.func @narrow_4096x24x6144(%A: memref<4096x6144xbf16>, %B: memref<6144x24xbf16>, %C: memref<4096x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x6144xbf16>, memref<6144x24xbf16>) outs(%C : memref<4096x24xbf16>)
  return
}
func.func @narrow_4096x32x6144(%A: memref<4096x6144xbf16>, %B: memref<6144x32xbf16>, %C: memref<4096x32xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x6144xbf16>, memref<6144x32xbf16>) outs(%C : memref<4096x32xbf16>)
  return
}

// -----
// Few 64-row strips split in 4 (at most 12) split in 8 where every rank
// keeps 16 k-tiles: 640x24x32768 40 -> 80 CTAs, 768x24x24576 f16 48 -> 96
// ("Session 17/18 confirmation": 42-46 GB/s per CTA there). Controls:
// 1000x24x16384 f16 (16 strips: 128 CTAs would pass kNarrowSplitMaxCtas)
// and 640x24x4096 (64 k-tiles, 8 per rank) keep split 4.
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow8_640x24x32768
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 130,
//  CHECK-SAME:   store = "splitk_ws", split_k = 13>
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow8_768x24x24576
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 132,
//  CHECK-SAME:   store = "splitk_ws", split_k = 11>
// Up to kNarrowSplitMaxCtas = 120 (15 clusters of 8, "Session 18b"):
// 800x32x16384 13 strips 52 -> 104 CTAs, 960x16x12288 f16 60 -> 120.
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow8_800x32x16384
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 130,
//  CHECK-SAME:   store = "splitk_ws", split_k = 10>
// CHECK-LABEL: func.func @narrow8_960x16x12288
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 120,
//  CHECK-SAME:   split_k = 8>
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow8_1000x24x16384
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "splitk_ws", split_k = 8>
// CHECK-LABEL: func.func @narrow8_640x24x4096
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 40,
//  CHECK-SAME:   split_k = 4>
func.func @narrow8_640x24x32768(%A: memref<640x32768xbf16>, %B: memref<32768x24xbf16>, %C: memref<640x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<640x32768xbf16>, memref<32768x24xbf16>) outs(%C : memref<640x24xbf16>)
  return
}
func.func @narrow8_768x24x24576(%A: memref<768x24576xf16>, %B: memref<24576x24xf16>, %C: memref<768x24xf16>) {
  linalg.matmul ins(%A, %B : memref<768x24576xf16>, memref<24576x24xf16>) outs(%C : memref<768x24xf16>)
  return
}
func.func @narrow8_800x32x16384(%A: memref<800x16384xbf16>, %B: memref<16384x32xbf16>, %C: memref<800x32xbf16>) {
  linalg.matmul ins(%A, %B : memref<800x16384xbf16>, memref<16384x32xbf16>) outs(%C : memref<800x32xbf16>)
  return
}
func.func @narrow8_960x16x12288(%A: memref<960x12288xf16>, %B: memref<12288x16xf16>, %C: memref<960x16xf16>) {
  linalg.matmul ins(%A, %B : memref<960x12288xf16>, memref<12288x16xf16>) outs(%C : memref<960x16xf16>)
  return
}
func.func @narrow8_1000x24x16384(%A: memref<1000x16384xf16>, %B: memref<16384x24xf16>, %C: memref<1000x24xf16>) {
  linalg.matmul ins(%A, %B : memref<1000x16384xf16>, memref<16384x24xf16>) outs(%C : memref<1000x24xf16>)
  return
}
func.func @narrow8_640x24x4096(%A: memref<640x4096xbf16>, %B: memref<4096x24xbf16>, %C: memref<640x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<640x4096xbf16>, memref<4096x24xbf16>) outs(%C : memref<640x24xbf16>)
  return
}

// -----
// N <= 16 on 64-row strips split in 2, more than 10 strips of 128 rows:
// split in 4 (a column group's row half per rank) up to 120 CTAs
// (1536x16x12288 48 -> 96). Control: 2048x8x16384 (128 CTAs) keeps 2.
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow16s4_1536x16x12288
//       CHECK:   block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 120,
//  CHECK-SAME:   store = "splitk_ws", split_k = 5>
// Up to 120 CTAs (30 clusters of 4, "Session 18b"): 1792x8x12288 f16
// 56 -> 112, 1920x16x16384 60 -> 120.
// CHECK-LABEL: func.func @narrow16s4_1792x8x12288
//       CHECK:   block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 112,
//  CHECK-SAME:   split_k = 4>
// CHECK-LABEL: func.func @narrow16s4_1920x16x16384
//       CHECK:   block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 120,
//  CHECK-SAME:   split_k = 4>
// Session 18c: split K through a global workspace (store "splitk_ws"), one
// unit per SM, 64-row strips (kWsSplitMinGain, kWsSplitMaxStrips).
// CHECK-LABEL: func.func @narrow16s4_2048x8x16384
//       CHECK:   block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "splitk_ws", split_k = 4>
func.func @narrow16s4_1536x16x12288(%A: memref<1536x12288xbf16>, %B: memref<12288x16xbf16>, %C: memref<1536x16xbf16>) {
  linalg.matmul ins(%A, %B : memref<1536x12288xbf16>, memref<12288x16xbf16>) outs(%C : memref<1536x16xbf16>)
  return
}
func.func @narrow16s4_1792x8x12288(%A: memref<1792x12288xf16>, %B: memref<12288x8xf16>, %C: memref<1792x8xf16>) {
  linalg.matmul ins(%A, %B : memref<1792x12288xf16>, memref<12288x8xf16>) outs(%C : memref<1792x8xf16>)
  return
}
func.func @narrow16s4_1920x16x16384(%A: memref<1920x16384xbf16>, %B: memref<16384x16xbf16>, %C: memref<1920x16xbf16>) {
  linalg.matmul ins(%A, %B : memref<1920x16384xbf16>, memref<16384x16xbf16>) outs(%C : memref<1920x16xbf16>)
  return
}
func.func @narrow16s4_2048x8x16384(%A: memref<2048x16384xbf16>, %B: memref<16384x8xbf16>, %C: memref<2048x8xbf16>) {
  linalg.matmul ins(%A, %B : memref<2048x16384xbf16>, memref<16384x8xbf16>) outs(%C : memref<2048x8xbf16>)
  return
}

// -----
// Session 19: many strips (an unsplit grid of more strips than half the
// SMs): 128-row strips on two consumers split through the workspace in
// G = SMs / strips slices where the slowest CTA streams at most
// kWsPairMaxRatio of the choice's before (kWsPairSplitEnabled): 5000 rows
// 40 strips x 3 (main's 79 unsplit 64-row strips). Controls: 6144x8x4096
// (48 unsplit pair strips, A the size of the L2: kept whole by the
// streaming model), 4096x16x8192 (64 strips of 64 rows, A from HBM: kept
// whole by it too), 4500x24x16384 (A 147 MB, past kWsPairMaxL2Share of
// the L2) and 12000x8x4096 (94 strips: one slice) keep theirs;
// 3500x24x4096 (64-row strips split in 2 on 110 CTAs) takes the pairs
// since Session 20 (kWsPairOverSplit2, below).
// CHECK-LABEL: func.func @pairws_5000x24x4096
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 120,
//  CHECK-SAME:   store = "splitk_ws", split_k = 3>
// CHECK-LABEL: func.func @pairws_5000x8x6144
//       CHECK:   block_m = 128, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 12, group_m = 8, ctas = 120,
//  CHECK-SAME:   store = "splitk_ws", split_k = 3>
// CHECK-LABEL: func.func @pairws_4800x32x4096
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 114,
//  CHECK-SAME:   store = "splitk_ws", split_k = 3>
// CHECK-LABEL: func.func @pairws_4096x16x8192
//       CHECK:   block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 64,
//   CHECK-NOT:   split_k
// CHECK-LABEL: func.func @pairws_4500x24x16384
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 71,
//   CHECK-NOT:   split_k
// CHECK-LABEL: func.func @pairws_6144x8x4096
//       CHECK:   block_m = 128, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 12, group_m = 8, ctas = 48,
//   CHECK-NOT:   split_k
// CHECK-LABEL: func.func @pairws_3500x24x4096
//       CHECK:   block_m = 128, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 11, group_m = 8, ctas = 112,
//  CHECK-SAME:   store = "splitk_ws", split_k = 4>
// CHECK-LABEL: func.func @pairws_12000x8x4096
//       CHECK:   block_m = 128, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 12, group_m = 8, ctas = 94,
//   CHECK-NOT:   split_k
func.func @pairws_5000x24x4096(%A: memref<5000x4096xbf16>, %B: memref<4096x24xbf16>, %C: memref<5000x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<5000x4096xbf16>, memref<4096x24xbf16>) outs(%C : memref<5000x24xbf16>)
  return
}
func.func @pairws_5000x8x6144(%A: memref<5000x6144xbf16>, %B: memref<6144x8xbf16>, %C: memref<5000x8xbf16>) {
  linalg.matmul ins(%A, %B : memref<5000x6144xbf16>, memref<6144x8xbf16>) outs(%C : memref<5000x8xbf16>)
  return
}
func.func @pairws_4800x32x4096(%A: memref<4800x4096xbf16>, %B: memref<4096x32xbf16>, %C: memref<4800x32xbf16>) {
  linalg.matmul ins(%A, %B : memref<4800x4096xbf16>, memref<4096x32xbf16>) outs(%C : memref<4800x32xbf16>)
  return
}
func.func @pairws_4096x16x8192(%A: memref<4096x8192xbf16>, %B: memref<8192x16xbf16>, %C: memref<4096x16xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x8192xbf16>, memref<8192x16xbf16>) outs(%C : memref<4096x16xbf16>)
  return
}
func.func @pairws_4500x24x16384(%A: memref<4500x16384xbf16>, %B: memref<16384x24xbf16>, %C: memref<4500x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<4500x16384xbf16>, memref<16384x24xbf16>) outs(%C : memref<4500x24xbf16>)
  return
}
func.func @pairws_6144x8x4096(%A: memref<6144x4096xbf16>, %B: memref<4096x8xbf16>, %C: memref<6144x8xbf16>) {
  linalg.matmul ins(%A, %B : memref<6144x4096xbf16>, memref<4096x8xbf16>) outs(%C : memref<6144x8xbf16>)
  return
}
func.func @pairws_3500x24x4096(%A: memref<3500x4096xbf16>, %B: memref<4096x24xbf16>, %C: memref<3500x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<3500x4096xbf16>, memref<4096x24xbf16>) outs(%C : memref<3500x24xbf16>)
  return
}
func.func @pairws_12000x8x4096(%A: memref<12000x4096xbf16>, %B: memref<4096x8xbf16>, %C: memref<12000x8xbf16>) {
  linalg.matmul ins(%A, %B : memref<12000x4096xbf16>, memref<4096x8xbf16>) outs(%C : memref<12000x8xbf16>)
  return
}

// -----
// Session 20: (A) at block_n 32 the workspace split takes at most 16 slices
// (kWsSplitMaxWide: 24 spill in the last unit's flat sum): 256x24x32768 4
// strips x 16; block_n 16 keeps 24 (320x16x32768). (B) the pair strips
// through the workspace also over the cluster split 2 of 64-row strips, in
// at least kWsPairMinSplit = 4 slices (kWsPairOverSplit2): 3000x8x8192 f16
// 24 pairs x 5. Controls: 3500x24x2048 (16 k-tiles per slice allow only 2:
// keeps split 2), 3600x24x16384 (A 118 MB, past kWsPairMaxL2Share of the
// L2: keeps split 2).
// CHECK-LABEL: func.func @s20_256x24x32768
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 64,
//  CHECK-SAME:   store = "splitk_ws", split_k = 16>
// CHECK-LABEL: func.func @s20_320x16x32768
//       CHECK:   block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 120,
//  CHECK-SAME:   store = "splitk_ws", split_k = 24>
// CHECK-LABEL: func.func @s20_3000x8x8192
//       CHECK:   block_m = 128, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 12, group_m = 8, ctas = 120,
//  CHECK-SAME:   store = "splitk_ws", split_k = 5>
// CHECK-LABEL: func.func @s20_3500x24x2048
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 110,
//  CHECK-SAME:   split_k = 2>
// CHECK-LABEL: func.func @s20_3600x24x16384
//       CHECK:   block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 114,
//  CHECK-SAME:   split_k = 2>
func.func @s20_256x24x32768(%A: memref<256x32768xbf16>, %B: memref<32768x24xbf16>, %C: memref<256x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<256x32768xbf16>, memref<32768x24xbf16>) outs(%C : memref<256x24xbf16>)
  return
}
func.func @s20_320x16x32768(%A: memref<320x32768xbf16>, %B: memref<32768x16xbf16>, %C: memref<320x16xbf16>) {
  linalg.matmul ins(%A, %B : memref<320x32768xbf16>, memref<32768x16xbf16>) outs(%C : memref<320x16xbf16>)
  return
}
func.func @s20_3000x8x8192(%A: memref<3000x8192xf16>, %B: memref<8192x8xf16>, %C: memref<3000x8xf16>) {
  linalg.matmul ins(%A, %B : memref<3000x8192xf16>, memref<8192x8xf16>) outs(%C : memref<3000x8xf16>)
  return
}
func.func @s20_3500x24x2048(%A: memref<3500x2048xbf16>, %B: memref<2048x24xbf16>, %C: memref<3500x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<3500x2048xbf16>, memref<2048x24xbf16>) outs(%C : memref<3500x24xbf16>)
  return
}
func.func @s20_3600x24x16384(%A: memref<3600x16384xbf16>, %B: memref<16384x24xbf16>, %C: memref<3600x24xbf16>) {
  linalg.matmul ins(%A, %B : memref<3600x16384xbf16>, memref<16384x24xbf16>) outs(%C : memref<3600x24xbf16>)
  return
}
