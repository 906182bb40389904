// The builtin advisor's wgmma tile where A's or B's rows are not 128-byte
// aligned (lib/GPU/GpuAdvisor.cpp, kWgmmaTilesRowsUnaligned: tiles that read
// A and B fewer times per flop, 256x192 and 256x128) and for TF32 GEMMs of at
// most 32 rows (kWgmmaTf32FewRowTiles: wgmma's N extent of 16 or 32 rows, B
// streamed in strips). Measured on the H200: docs/benchmarks/gpu-gemm.md,
// "Session 11".
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm90" | FileCheck %s

// 2000x3000x1504: rows of 3008 and 6000 bytes, not 128-byte aligned: one
// wave of 128 tiles of 256x192 (3 stages, the smem_tma store; measured 0.83x
// -> 0.99x the best library), not 256 of 128x192.
// CHECK-LABEL: func.func @rows_2000x3000x1504
//       CHECK:   kernel = "wgmma", precision = "bf16", block_m = 256, block_n = 192, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 3, group_m = 8, ctas = 128,
//  CHECK-SAME:   store = "smem_tma">
func.func @rows_2000x3000x1504(%A: memref<2000x1504xbf16>, %B: memref<1504x3000xbf16>, %C: memref<2000x3000xbf16>) {
  linalg.matmul ins(%A, %B : memref<2000x1504xbf16>, memref<1504x3000xbf16>) outs(%C : memref<2000x3000xbf16>)
  return
}

// -----
// 4096x4104x4112: 528 tiles of 256x128 (4 waves) instead of 1056 of
// 128x128 (0.65x -> 0.94x).
// CHECK-LABEL: func.func @rows_4096x4104x4112
//       CHECK:   block_m = 256, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4,
//  CHECK-SAME:   store = "smem_tma">
func.func @rows_4096x4104x4112(%A: memref<4096x4112xbf16>, %B: memref<4112x4104xbf16>, %C: memref<4096x4104xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4112xbf16>, memref<4112x4104xbf16>) outs(%C : memref<4096x4104xbf16>)
  return
}

// -----
// Padded copies (K = 4111 padded to 4112): the copies' rows are not
// 128-byte aligned either; N odd keeps the register store.
// CHECK-LABEL: func.func @rows_padded_4093x4099x4111
//       CHECK:   block_m = 256, block_n = 128,
//  CHECK-SAME:   source = "builtin">}
func.func @rows_padded_4093x4099x4111(%A: memref<4093x4111xbf16>, %B: memref<4111x4099xbf16>, %C: memref<4093x4099xbf16>) {
  linalg.matmul ins(%A, %B : memref<4093x4111xbf16>, memref<4111x4099xbf16>) outs(%C : memref<4093x4099xbf16>)
  return
}

// -----
// Aligned rows keep the aligned rates: 4096^3 in 128x256 tiles.
// CHECK-LABEL: func.func @aligned_4096
//       CHECK:   block_m = 128, block_n = 256,
func.func @aligned_4096(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xbf16>)
  return
}

// -----
// Fewer than 1024 columns (B streamed once): the aligned rates, 64x64 split
// in 2 (48 columns: 32 or fewer take narrow tiles, fewrows-advisor.mlir).
// CHECK-LABEL: func.func @narrow_4096x48x4096
//       CHECK:   block_m = 64, block_n = 64,
//  CHECK-SAME:   split_k = 2>
func.func @narrow_4096x48x4096(%A: memref<4096x4096xbf16>, %B: memref<4096x48xbf16>, %C: memref<4096x48xbf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x48xbf16>) outs(%C : memref<4096x48xbf16>)
  return
}

// -----
// Fewer than 1024 rows: the same (48 rows: 32 or fewer take the few-rows
// kernel).
// CHECK-LABEL: func.func @short_48x4104x4104
//       CHECK:   block_m = 64, block_n = 64,
//  CHECK-SAME:   split_k = 2>
func.func @short_48x4104x4104(%A: memref<48x4104xbf16>, %B: memref<4104x4104xbf16>, %C: memref<48x4104xbf16>) {
  linalg.matmul ins(%A, %B : memref<48x4104xbf16>, memref<4104x4104xbf16>) outs(%C : memref<48x4104xbf16>)
  return
}

// -----
// The split tail takes the unaligned table too: 800 tiles of 256x128, the
// last 8 split (0.38x -> 0.60x).
// CHECK-LABEL: func.func @rows_5000
//       CHECK:   block_m = 256, block_n = 128,
//  CHECK-SAME:   split_k = 2>
func.func @rows_5000(%A: memref<5000x5000xbf16>, %B: memref<5000x5000xbf16>, %C: memref<5000x5000xbf16>) {
  linalg.matmul ins(%A, %B : memref<5000x5000xbf16>, memref<5000x5000xbf16>) outs(%C : memref<5000x5000xbf16>)
  return
}

// -----
// TF32 with at most 32 rows: wgmma's N extent of 16 rows, strips of 128
// columns on two consumers (86 CTAs; 0.68x -> 1.06x).
// CHECK-LABEL: func.func @tf32_16x11008x4096
//       CHECK:   kernel = "wgmma", precision = "tf32", block_m = 16, block_n = 128, block_k = 32, warps_m = 0, warps_n = 0, consumers = 2, stages = 8, group_m = 8, ctas = 86,
func.func @tf32_16x11008x4096(%A: memref<16x4096xf32>, %B: memref<4096x11008xf32>, %C: memref<16x11008xf32>) {
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<16x4096xf32>, memref<4096x11008xf32>) outs(%C : memref<16x11008xf32>)
  return
}

// -----
// Few strips of 128 would leave CTAs short of B's bandwidth (32 CTAs
// measured 0.64x): strips of 64 on 64 CTAs (0.58x -> 0.88x).
// CHECK-LABEL: func.func @tf32_16x4096x14336
//       CHECK:   block_m = 16, block_n = 64, block_k = 32, warps_m = 0, warps_n = 0, consumers = 1, stages = 8, group_m = 8, ctas = 64,
func.func @tf32_16x4096x14336(%A: memref<16x14336xf32>, %B: memref<14336x4096xf32>, %C: memref<16x4096xf32>) {
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<16x14336xf32>, memref<14336x4096xf32>) outs(%C : memref<16x4096xf32>)
  return
}

// -----
// 17..32 rows: an N extent of 32.
// CHECK-LABEL: func.func @tf32_32x14336x4096
//       CHECK:   block_m = 32, block_n = 128, block_k = 32, warps_m = 0, warps_n = 0, consumers = 2, stages = 8, group_m = 8, ctas = 112,
func.func @tf32_32x14336x4096(%A: memref<32x4096xf32>, %B: memref<4096x14336xf32>, %C: memref<32x14336xf32>) {
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<32x4096xf32>, memref<4096x14336xf32>) outs(%C : memref<32x14336xf32>)
  return
}

// -----
// M <= 4 keeps the GEMV kernel; 33 rows and more the 64-row extents.
// CHECK-LABEL: func.func @tf32_1x4096x4096
//       CHECK:   kernel = "gemv", precision = "tf32",
func.func @tf32_1x4096x4096(%A: memref<1x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<1x4096xf32>) {
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<1x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<1x4096xf32>)
  return
}

// -----
// CHECK-LABEL: func.func @tf32_33x4096x4096
//       CHECK:   kernel = "wgmma", precision = "tf32", block_m = 64,
func.func @tf32_33x4096x4096(%A: memref<33x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<33x4096xf32>) {
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<33x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<33x4096xf32>)
  return
}

// -----
// Mid sizes keep the aligned rates (the small tiles' unaligned rates are
// estimates; 1000^3 64x128 measured 0.71x the best library, 128x64 0.68x).
// CHECK-LABEL: func.func @mid_1000
//       CHECK:   block_m = 64, block_n = 128,
func.func @mid_1000(%A: memref<1000x1000xbf16>, %B: memref<1000x1000xbf16>, %C: memref<1000x1000xbf16>) {
  linalg.matmul ins(%A, %B : memref<1000x1000xbf16>, memref<1000x1000xbf16>) outs(%C : memref<1000x1000xbf16>)
  return
}
