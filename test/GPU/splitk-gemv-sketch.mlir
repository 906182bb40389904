// The builtin advisor on skinny and irregular shapes (issue 16 item 2): the
// GEMV kernel for M <= 4 (sm_90 and sm_80), the wgmma tile from whole waves
// (3072^3 in 128x192 tiles: 384 tiles in 3 waves on 132 SMs), wgmma for
// M = 16 (the GEMV kernel's FFMAs are slower there, measured).
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm90" | FileCheck %s
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm80" | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: func.func @decode_1
//       CHECK:   kernel = "gemv", precision = "bf16", block_m = 1, block_n = 32, block_k = 8, warps_m = 1, warps_n = 8, consumers = 0, stages = 2, group_m = 1, ctas = 0,
// SM80-LABEL: func.func @decode_1
//       SM80:   kernel = "gemv", precision = "bf16", block_m = 1, block_n = 32,
func.func @decode_1(%A: memref<1x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<1x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<1x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<1x4096xbf16>)
  return
}

// -----

// N = 1024 gives 32 strips of 32 columns, fewer than half the SMs: 16.
// CHECK-LABEL: func.func @decode_3_narrow
//       CHECK:   kernel = "gemv", precision = "f16", block_m = 3, block_n = 16,
func.func @decode_3_narrow(%A: memref<3x4096xf16>, %B: memref<4096x1024xf16>, %C: memref<3x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<3x4096xf16>, memref<4096x1024xf16>) outs(%C : memref<3x1024xf32>)
  return
}

// -----

// 5..32 rows: the wgmma few-rows kernel (fewrows-advisor.mlir).
// CHECK-LABEL: func.func @decode_16
//       CHECK:   kernel = "wgmma", precision = "bf16", block_m = 16, block_n = 128,
func.func @decode_16(%A: memref<16x4096xbf16>, %B: memref<4096x11008xbf16>, %C: memref<16x11008xbf16>) {
  linalg.matmul ins(%A, %B : memref<16x4096xbf16>, memref<4096x11008xbf16>) outs(%C : memref<16x11008xbf16>)
  return
}

// -----

// K = 4100 is not a multiple of 8: no 16-byte loads, no GEMV; the wgmma
// kernel on a padded copy of A (pad-wgmma.mlir) where the cost model says
// so, as here.
// CHECK-LABEL: func.func @decode_unaligned
//       CHECK:   kernel = "wgmma"
func.func @decode_unaligned(%A: memref<1x4100xbf16>, %B: memref<4100x4096xbf16>, %C: memref<1x4096xbf16>) {
  linalg.matmul ins(%A, %B : memref<1x4100xbf16>, memref<4100x4096xbf16>) outs(%C : memref<1x4096xbf16>)
  return
}

// -----

// 128x192 takes 4 stages, not 5, to make room for the smem_tma store's
// buffers (measured at 2000x3000x1504: 0.70x -> 0.83x cuBLAS; that shape's
// rows are not 128-byte aligned and now takes 256x192, see
// rows-unaligned-advisor.mlir). 3072^3: 384 tiles of 128x192 in 3 waves.
// CHECK-LABEL: func.func @irregular
//       CHECK:   kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 192, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132,
//  CHECK-SAME:   store = "smem_tma"
func.func @irregular(%A: memref<3072x3072xbf16>, %B: memref<3072x3072xbf16>, %C: memref<3072x3072xbf16>) {
  linalg.matmul ins(%A, %B : memref<3072x3072xbf16>, memref<3072x3072xbf16>) outs(%C : memref<3072x3072xbf16>)
  return
}
