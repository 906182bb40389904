// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s
// A bf16 matmul marked tensorop.b_k_pairs (a panel of weights packed once
// into k pairs: the FFN block's gen_ffn.py --prepacked, gen's
// NAME_prepacked) reads B in place from wherever the weights are, not from
// an L2 block packed per call: the builtin advisor gives it one K block
// (kc = K rounded up to a pair: each C tile stays in registers over all of
// K) and B prefetched 8 pair rows ahead. The same matmul unmarked keeps the
// packed path's K blocks and no prefetch. Numerics of these kernels:
// test/Tools/tensorop-gen-bf16.test (NAME_prepacked), the FFN benchmark.

// The FFN block's second matmul at T = 16, D/H = 768/3072: one panel.
// CHECK-LABEL: func.func @w2_panel
// CHECK: kc = 3072, mr = 4, nr = 64
// CHECK-SAME: prefetch_b = 8
func.func @w2_panel(%A: memref<16x3072xbf16>, %Bp: memref<196608xbf16>, %C: memref<16x64xf32>) {
  %c0 = arith.constant 0 : index
  %b = memref.reinterpret_cast %Bp to offset: [%c0], sizes: [3072, 64], strides: [64, 2] : memref<196608xbf16> to memref<3072x64xbf16, strided<[64, 2], offset: ?>>
  linalg.matmul ins(%A, %b : memref<16x3072xbf16>, memref<3072x64xbf16, strided<[64, 2], offset: ?>>) outs(%C : memref<16x64xf32>) {tensorop.b_k_pairs}
  return
}

// -----

// An odd K: one K block of whole pairs (the last pair's second k is zero).
// CHECK-LABEL: func.func @odd_k
// CHECK: kc = 1002,
// CHECK-SAME: prefetch_b = 8
func.func @odd_k(%A: memref<97x1001xbf16>, %Bp: memref<64064xbf16>, %C: memref<97x64xf32>) {
  %c0 = arith.constant 0 : index
  %b = memref.reinterpret_cast %Bp to offset: [%c0], sizes: [1001, 64], strides: [64, 2] : memref<64064xbf16> to memref<1001x64xbf16, strided<[64, 2], offset: ?>>
  linalg.matmul ins(%A, %b : memref<97x1001xbf16>, memref<1001x64xbf16, strided<[64, 2], offset: ?>>) outs(%C : memref<97x64xf32>) {tensorop.b_k_pairs}
  return
}

// -----

// Unmarked (B packed per call): K in blocks, no prefetch.
// CHECK-LABEL: func.func @unmarked
// CHECK: kc = 512, mr = 4, nr = 64
// CHECK-SAME: prefetch_b = 0
func.func @unmarked(%A: memref<16x3072xbf16>, %B: memref<3072x64xbf16>, %C: memref<16x64xf32>) {
  linalg.matmul ins(%A, %B : memref<16x3072xbf16>, memref<3072x64xbf16>) outs(%C : memref<16x64xf32>)
  return
}

// -----

// bf16 operands are packed into k pairs (unmarked B), however few the row
// tiles that read each B block (annotate-sketch-few-row-tiles.mlir: fp32).
// CHECK-LABEL: func.func @bf16
// CHECK: pack_b = "kmajor_nr"
// CHECK-NOT: prefetch_b_cols
func.func @bf16(%A: memref<127x513xbf16>, %B: memref<513x1000xbf16>, %C: memref<127x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<127x513xbf16>, memref<513x1000xbf16>) outs(%C : memref<127x1000xf32>)
  return
}
