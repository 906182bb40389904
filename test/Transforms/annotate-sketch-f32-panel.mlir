// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s
// An fp32 matmul whose B is one panel of weights packed once (one index of
// a stack of K x W panels, W = 32 or 64: gen's NAME_prepacked, the models'
// prepacked FFN block) takes the few-rows sketch with B's rows prefetched
// 32 ahead: prefetching B's columns 2*nr ahead, as for any other B, lands
// only a row or two ahead in a panel that narrow. Any other B keeps the
// column prefetch. Numerics: test/Tools/tensorop-gen-f32-panel.test.

// The FFN block's first matmul at T = 16, D/H = 768/3072 (32-column
// panels), as gen's NAME_prepacked writes it (a memref view).
// CHECK-LABEL: func.func @panel_memref
// CHECK: mr = 8, nr = 32
// CHECK-SAME: prefetch_b = 32>
func.func @panel_memref(%A: memref<16x768xf32>, %Bp: memref<96x768x32xf32>, %C: memref<16x32xf32>, %q: index) {
  %b = memref.subview %Bp[%q, 0, 0] [1, 768, 32] [1, 1, 1] : memref<96x768x32xf32> to memref<768x32xf32, strided<[32, 1], offset: ?>>
  linalg.matmul ins(%A, %b : memref<16x768xf32>, memref<768x32xf32, strided<[32, 1], offset: ?>>) outs(%C : memref<16x32xf32>)
  return
}

// -----

// The partial last panel: its columns are fewer than the panel's.
// CHECK-LABEL: func.func @last_panel
// CHECK: prefetch_b = 32>
func.func @last_panel(%A: memref<40x3072xf32>, %Bp: memref<12x3072x64xf32>, %C: memref<40x40xf32>) {
  %b = memref.subview %Bp[11, 0, 0] [1, 3072, 40] [1, 1, 1] : memref<12x3072x64xf32> to memref<3072x40xf32, strided<[64, 1], offset: 2162688>>
  linalg.matmul ins(%A, %b : memref<40x3072xf32>, memref<3072x40xf32, strided<[64, 1], offset: 2162688>>) outs(%C : memref<40x40xf32>)
  return
}

// -----

// Tensor form (bench/models/gen_ffn.py --prepacked): the second matmul at
// T = 64, 64-column panels.
// CHECK-LABEL: func.func @panel_tensor
// CHECK: prefetch_b = 32>
func.func @panel_tensor(%x: tensor<64x3072xf32>, %w: tensor<12x3072x64xf32>, %q: index) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %wq = tensor.extract_slice %w[%q, 0, 0] [1, 3072, 64] [1, 1, 1] : tensor<12x3072x64xf32> to tensor<3072x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%x, %wq : tensor<64x3072xf32>, tensor<3072x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// Not panels: a whole matrix, the columns of a wider one, a panel's rows
// from the middle; each keeps the column prefetch.
// CHECK-LABEL: func.func @whole
// CHECK: prefetch_b = 0, prefetch_b_cols = 64>
func.func @whole(%A: memref<16x768xf32>, %B: memref<768x32xf32>, %C: memref<16x32xf32>) {
  linalg.matmul ins(%A, %B : memref<16x768xf32>, memref<768x32xf32>) outs(%C : memref<16x32xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @columns
// CHECK: prefetch_b = 0, prefetch_b_cols = 64>
func.func @columns(%A: memref<16x768xf32>, %B: memref<768x3072xf32>, %C: memref<16x32xf32>, %j: index) {
  %b = memref.subview %B[0, %j] [768, 32] [1, 1] : memref<768x3072xf32> to memref<768x32xf32, strided<[3072, 1], offset: ?>>
  linalg.matmul ins(%A, %b : memref<16x768xf32>, memref<768x32xf32, strided<[3072, 1], offset: ?>>) outs(%C : memref<16x32xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @middle_rows
// CHECK: prefetch_b = 0, prefetch_b_cols = 64>
func.func @middle_rows(%A: memref<16x700xf32>, %Bp: memref<96x768x32xf32>, %C: memref<16x32xf32>, %q: index) {
  %b = memref.subview %Bp[%q, 68, 0] [1, 700, 32] [1, 1, 1] : memref<96x768x32xf32> to memref<700x32xf32, strided<[32, 1], offset: ?>>
  linalg.matmul ins(%A, %b : memref<16x700xf32>, memref<700x32xf32, strided<[32, 1], offset: ?>>) outs(%C : memref<16x32xf32>)
  return
}
