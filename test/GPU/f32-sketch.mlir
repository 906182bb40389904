// The builtin advisor on fp32 and TF32 (issue 16 items 2 and 3): the GEMV
// kernel for f32 with M <= 16 and tf32 with M <= 4 (16-column strips, 32
// where that gives two CTAs per SM), the FFMA tile from whole waves
// (docs/benchmarks/gpu-gemm.md, "fp32 and TF32").
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm90" | FileCheck %s
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm90" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// One row: 16 warps (measured faster than 8 there).
// CHECK-LABEL: func.func @f32_decode_1
//       CHECK:   kernel = "gemv", precision = "f32", block_m = 1, block_n = 16, block_k = 8, warps_m = 1, warps_n = 16, consumers = 0, stages = 2, group_m = 1, ctas = 0,
func.func @f32_decode_1(%A: memref<1x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<1x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<1x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<1x4096xf32>)
  return
}

// -----

// 16 rows in two blocks of 8; 2 x 344 strips of 32 columns >= 2 x 132.
// CHECK-LABEL: func.func @f32_decode_16
//       CHECK:   kernel = "gemv", precision = "f32", block_m = 8, block_n = 32, block_k = 8, warps_m = 1, warps_n = 8,
func.func @f32_decode_16(%A: memref<16x4096xf32>, %B: memref<4096x11008xf32>, %C: memref<16x11008xf32>) {
  linalg.matmul ins(%A, %B : memref<16x4096xf32>, memref<4096x11008xf32>) outs(%C : memref<16x11008xf32>)
  return
}

// -----

// 17 rows: past the GEMV kernel; the FFMA tile of least whole-wave cost
// (32x64: 172 tiles in 2 waves, cheaper than 344 of 32x32 in 3).
// CHECK-LABEL: func.func @f32_rows_17
//       CHECK:   kernel = "ffma", precision = "f32", block_m = 32, block_n = 64, block_k = 16,
func.func @f32_rows_17(%A: memref<17x4096xf32>, %B: memref<4096x11008xf32>, %C: memref<17x11008xf32>) {
  linalg.matmul ins(%A, %B : memref<17x4096xf32>, memref<4096x11008xf32>) outs(%C : memref<17x11008xf32>)
  return
}

// -----

// A tf32 request on the GEMV kernel: computed in fp32, and a remark says so
// (the only remark here).
// REMARK-NOT: remark:
// REMARK: remark: tensorop: tf32 GEMM of 3 rows on the GEMV kernel: computed in full fp32 FMAs (inputs not rounded to tf32), at least as precise
// CHECK-LABEL: func.func @tf32_decode_3
//       CHECK:   kernel = "gemv", precision = "tf32", block_m = 3, block_n = 16,
// REMARK-NOT: remark:
func.func @tf32_decode_3(%A: memref<3x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<3x4096xf32>) {
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<3x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<3x4096xf32>)
  return
}

// -----

// tf32 with 16 rows stays on wgmma (measured faster than the GEMV kernel).
// CHECK-LABEL: func.func @tf32_decode_16
//       CHECK:   kernel = "wgmma", precision = "tf32"
func.func @tf32_decode_16(%A: memref<16x4096xf32>, %B: memref<4096x11008xf32>, %C: memref<16x11008xf32>) {
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<16x4096xf32>, memref<4096x11008xf32>) outs(%C : memref<16x11008xf32>)
  return
}

// -----

// K = 4100 is not a multiple of 8: no GEMV; the FFMA tile.
// CHECK-LABEL: func.func @f32_decode_unaligned
//       CHECK:   kernel = "ffma", precision = "f32"
func.func @f32_decode_unaligned(%A: memref<1x4100xf32>, %B: memref<4100x4096xf32>, %C: memref<1x4096xf32>) {
  linalg.matmul ins(%A, %B : memref<1x4100xf32>, memref<4100x4096xf32>) outs(%C : memref<1x4096xf32>)
  return
}

// -----

// 127x1000: 128x128 tiles give 8 CTAs; 32x32 give 128 of 2 warps (half
// an SM's schedulers each); the occupancy model splits 32x64 tiles in 4
// (256 CTAs, 9 of the 33 k-tiles per rank). Four cp.async buffers (the
// emitter's two fragment buffers keep one k-tile fewer in flight).
// CHECK-LABEL: func.func @f32_small
//       CHECK:   kernel = "ffma", precision = "f32", block_m = 32, block_n = 64, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 4,
//  CHECK-SAME:   split_k = 4>
func.func @f32_small(%A: memref<127x513xf32>, %B: memref<513x1000xf32>, %C: memref<127x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<127x513xf32>, memref<513x1000xf32>) outs(%C : memref<127x1000xf32>)
  return
}

// -----

// 1024^3: 64 tiles of 128x128 on 132 SMs; 128 of 64x128 (4 warps per SM);
// 128x128 split in 2: 128 CTAs of 8 warps, 32 + 3 k-tiles each.
// CHECK-LABEL: func.func @f32_mid
//       CHECK:   kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16,
//  CHECK-SAME:   split_k = 2>
func.func @f32_mid(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%C : memref<1024x1024xf32>)
  return
}

// -----

// Large shapes whose 128x256 tiles fill whole waves take them, with 3
// buffers (2048^3: 128 tiles, one wave, against 256 of 128x128 in two);
// not split (a full wave of 8-warp CTAs).
// CHECK-LABEL: func.func @f32_large
//       CHECK:   kernel = "ffma", precision = "f32", block_m = 128, block_n = 256, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 3,
//   CHECK-NOT:   split_k
func.func @f32_large(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<2048x2048xf32>) {
  linalg.matmul ins(%A, %B : memref<2048x2048xf32>, memref<2048x2048xf32>) outs(%C : memref<2048x2048xf32>)
  return
}

// -----

// 3072^3: 288 tiles of 128x256 are 2.2 waves (3 by the model), 1152 of
// 64x128 8.7 (9): 64x128; no split (every tile's grid is past 2 per SM).
// CHECK-LABEL: func.func @f32_3072
//       CHECK:   kernel = "ffma", precision = "f32", block_m = 64, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 4,
//   CHECK-NOT:   split_k
func.func @f32_3072(%A: memref<3072x3072xf32>, %B: memref<3072x3072xf32>, %C: memref<3072x3072xf32>) {
  linalg.matmul ins(%A, %B : memref<3072x3072xf32>, memref<3072x3072xf32>) outs(%C : memref<3072x3072xf32>)
  return
}

// -----

// 2000x3000: 192 tiles of 128x256 (two waves) against 384 of 128x128 (three).
// CHECK-LABEL: func.func @f32_2000x3000
//       CHECK:   kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 4,
func.func @f32_2000x3000(%A: memref<2000x1504xf32>, %B: memref<1504x3000xf32>, %C: memref<2000x3000xf32>) {
  linalg.matmul ins(%A, %B : memref<2000x1504xf32>, memref<1504x3000xf32>) outs(%C : memref<2000x3000xf32>)
  return
}

// -----

// FFMA split-K (occupancy model, docs/benchmarks/gpu-gemm.md "Session 15"):
// 600x700x3000 in 64x64 tiles is 110 CTAs of 2 warps; 128x128 split in 4
// is 120 CTAs of 8 warps, 47 + 3 k-tiles each.
// CHECK-LABEL: func.func @f32_split_600x700x3000
//       CHECK:   kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 4,
//  CHECK-SAME:   split_k = 4>
func.func @f32_split_600x700x3000(%A: memref<600x3000xf32>, %B: memref<3000x700xf32>, %C: memref<600x700xf32>) {
  linalg.matmul ins(%A, %B : memref<600x3000xf32>, memref<3000x700xf32>) outs(%C : memref<600x700xf32>)
  return
}

// -----

// K too short: 300x2000x96 has 6 k-tiles of 16 (fewer than 8 per rank).
// CHECK-LABEL: func.func @f32_short_k
//       CHECK:   kernel = "ffma"
//   CHECK-NOT:   split_k
func.func @f32_short_k(%A: memref<300x96xf32>, %B: memref<96x2000xf32>, %C: memref<300x2000xf32>) {
  linalg.matmul ins(%A, %B : memref<300x96xf32>, memref<96x2000xf32>) outs(%C : memref<300x2000xf32>)
  return
}

// -----

// Grids larger than the SMs hold at once (kFfmaResident, the tail penalty;
// docs/benchmarks/gpu-gemm.md "Session 16"): 3000x500x1500 in 128x128
// split 4 is 384 CTAs of which 264 are held (2 per SM: 128 registers), in
// 64x128 split 2 376 of 396 held: 64x128 split 2 (43.1 TFLOP/s measured,
// 128x128 split 4 30.5).
// CHECK-LABEL: func.func @f32_tail_3000x500x1500
//       CHECK:   kernel = "ffma", precision = "f32", block_m = 64, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 4,
//  CHECK-SAME:   split_k = 2>
func.func @f32_tail_3000x500x1500(%A: memref<3000x1500xf32>, %B: memref<1500x500xf32>, %C: memref<3000x500xf32>) {
  linalg.matmul ins(%A, %B : memref<3000x1500xf32>, memref<1500x500xf32>) outs(%C : memref<3000x500xf32>)
  return
}

// -----

// A tail that still pays: 777x1333x999 in 64x128 split 4 is 572 CTAs of
// which 396 are held, 16 + 3 k-tiles each (measured 30.0 TFLOP/s against
// 26.9 split 2, "Session 15").
// CHECK-LABEL: func.func @f32_tail_777x1333x999
//       CHECK:   kernel = "ffma", precision = "f32", block_m = 64, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 4,
//  CHECK-SAME:   split_k = 4>
func.func @f32_tail_777x1333x999(%A: memref<777x999xf32>, %B: memref<999x1333xf32>, %C: memref<777x1333xf32>) {
  linalg.matmul ins(%A, %B : memref<777x999xf32>, memref<999x1333xf32>) outs(%C : memref<777x1333xf32>)
  return
}
