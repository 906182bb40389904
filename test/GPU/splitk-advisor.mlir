// The builtin advisor's split-K (wave model, lib/GPU/GpuAdvisor.cpp
// splitKTile): every tile split in 2 where the unsplit tiles fill at most
// half of the 132 SMs and each half keeps at least 16 k-tiles; the last
// partial wave split where it has at most one tile per cluster of 2 and
// that saves at least 2% by the model; every other shape keeps its unsplit
// choice (no split_k printed, the smem_tma store).
// GEMMs of at most 32 rows or columns take the few-rows kernel or narrow
// tiles (fewrows-advisor.mlir), so the shapes below have 33 or more.
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm90" | FileCheck %s
// M = 48, K = 14336: 64 tiles of 64x64 fill half the SMs: 2 CTAs per tile
// (128 CTAs in clusters of 2), 8 stages, the register store.
// CHECK-LABEL: func.func @split_48x4096x14336
//       CHECK:   kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 8, group_m = 8, ctas = 128,
//  CHECK-SAME:   source = "builtin", split_k = 2>
func.func @split_48x4096x14336(%A: memref<48x14336xbf16>, %B: memref<14336x4096xbf16>, %C: memref<48x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<48x14336xbf16>, memref<14336x4096xbf16>) outs(%C : memref<48x4096xbf16>)
  return
}

// -----
// CHECK-LABEL: func.func @split_48x4096x14336_f16
//       CHECK:   kernel = "wgmma", precision = "f16", block_m = 64, block_n = 64,
//  CHECK-SAME:   split_k = 2>
func.func @split_48x4096x14336_f16(%A: memref<48x14336xf16>, %B: memref<14336x4096xf16>, %C: memref<48x4096xf16>) {
  linalg.matmul ins(%A, %B : memref<48x14336xf16>, memref<14336x4096xf16>) outs(%C : memref<48x4096xf16>)
  return
}

// -----
// N = 48: 64 tiles down M, 2 CTAs per tile.
// CHECK-LABEL: func.func @split_skinny_n
//       CHECK:   kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 64,
//  CHECK-SAME:   ctas = 128, {{.*}}split_k = 2>
func.func @split_skinny_n(%A: memref<4096x4096xbf16>, %B: memref<4096x48xbf16>, %C: memref<4096x48xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x48xbf16>) outs(%C : memref<4096x48xbf16>)
  return
}

// -----
// M = 40: 32 k-tiles per half.
// CHECK-LABEL: func.func @split_40x4096x4096
//       CHECK:   kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 64,
//  CHECK-SAME:   split_k = 2>
func.func @split_40x4096x4096(%A: memref<40x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<40x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<40x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<40x4096xbf16>)
  return
}

// -----
// 128 tiles of 64x64 read B twice (two tile rows); 64 tiles of 128x64 split
// in 2 read it once on as many CTAs (measured 0.82x -> 1.03x cuBLAS; a
// split of 64x128 tiles, still reading B twice, gained 2%).
// CHECK-LABEL: func.func @taller_128x4096x11008
//       CHECK:   block_m = 128, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 8, group_m = 8, ctas = 128,
//  CHECK-SAME:   split_k = 2>
func.func @taller_128x4096x11008(%A: memref<128x11008xbf16>, %B: memref<11008x4096xbf16>, %C: memref<128x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<128x11008xbf16>, memref<11008x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}

// -----
// 86 tiles of 64x128: more than half the SMs, no split.
// CHECK-LABEL: func.func @keep_48x11008x4096
//       CHECK:   block_m = 64, block_n = 128,
//   CHECK-NOT:   split_k
//       CHECK-SAME:   store = "smem_tma">
func.func @keep_48x11008x4096(%A: memref<48x4096xbf16>, %B: memref<4096x11008xbf16>, %C: memref<48x11008xbf16>) {
  linalg.matmul ins(%A, %B : memref<48x4096xbf16>, memref<4096x11008xbf16>) outs(%C : memref<48x11008xbf16>)
  return
}

// -----
// CHECK-LABEL: func.func @keep_64x8192x8192
//       CHECK:   block_m = 64, block_n = 64,
//   CHECK-NOT:   split_k
//       CHECK-SAME:   store = "smem_tma">
func.func @keep_64x8192x8192(%A: memref<64x8192xbf16>, %B: memref<8192x8192xbf16>, %C: memref<64x8192xbf16>) {
  linalg.matmul ins(%A, %B : memref<64x8192xbf16>, memref<8192x8192xbf16>) outs(%C : memref<64x8192xbf16>)
  return
}

// -----
// 112 tiles either way: 64x256 with one consumer (m64n256 wgmmas) over
// 128x128 (measured 0.97x against 0.94x cuBLAS); not split (112 > 66).
// CHECK-LABEL: func.func @keep_128x14336x4096
//       CHECK:   block_m = 64, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 5,
//   CHECK-NOT:   split_k
//       CHECK-SAME:   store = "smem_tma">
func.func @keep_128x14336x4096(%A: memref<128x4096xbf16>, %B: memref<4096x14336xbf16>, %C: memref<128x14336xbf16>) {
  linalg.matmul ins(%A, %B : memref<128x4096xbf16>, memref<4096x14336xbf16>) outs(%C : memref<128x14336xbf16>)
  return
}

// -----
// CHECK-LABEL: func.func @keep_4096_cubed
//       CHECK:   block_m = 128, block_n = 256,
//   CHECK-NOT:   split_k
//       CHECK-SAME:   store = "smem_tma">
func.func @keep_4096_cubed(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xbf16>)
  return
}

// -----
// 1376 tiles of 128x256: 10 whole waves and 56 tiles, fewer than the 66
// clusters of 2: the waves run data-parallel (smem_tma), the 56 tiles split
// (10.56 tile times instead of 11).
// CHECK-LABEL: func.func @tail_4096x11008x4096
//       CHECK:   block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132,
//  CHECK-SAME:   store = "smem_tma", split_k = 2>
func.func @tail_4096x11008x4096(%A: memref<4096x4096xbf16>, %B: memref<4096x11008xbf16>, %C: memref<4096x11008xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x11008xbf16>) outs(%C : memref<4096x11008xbf16>)
  return
}

// -----
// 64 tiles but only 16 k-tiles: 8 per half are too few, no split.
// CHECK-LABEL: func.func @keep_short_k
//       CHECK:   block_m = 64, block_n = 64,
//   CHECK-NOT:   split_k
//       CHECK-SAME:   store = "smem_tma">
func.func @keep_short_k(%A: memref<48x1024xbf16>, %B: memref<1024x4096xbf16>, %C: memref<48x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<48x1024xbf16>, memref<1024x4096xbf16>) outs(%C : memref<48x4096xbf16>)
  return
}

// -----
// 8192 tiles of 128x256: 62 waves and 8 tiles; splitting those 8 would save
// under 1% by the model: unsplit.
// CHECK-LABEL: func.func @keep_16384_cubed
//       CHECK:   block_m = 128, block_n = 256,
//   CHECK-NOT:   split_k
//       CHECK-SAME:   store = "smem_tma">
func.func @keep_16384_cubed(%A: memref<16384x16384xbf16>, %B: memref<16384x16384xbf16>, %C: memref<16384x16384xbf16>) {
  linalg.matmul ins(%A, %B : memref<16384x16384xbf16>, memref<16384x16384xbf16>) outs(%C : memref<16384x16384xbf16>)
  return
}
