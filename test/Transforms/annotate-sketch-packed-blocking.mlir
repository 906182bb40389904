// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" | FileCheck %s --check-prefixes=CHECK,AVX2
// The packed path's cache blocking comes from the target's hints
// ("blocking"): on AVX-512 (Zen 5, measured) the A micro-panel (mr x kc)
// takes at most a third of L1 and the packed B block (kc x nc) a quarter of
// L2; targets without the object keep a quarter of L1 and half of L2
// (AVX2 here). 1109^3, 11 x 32: kc = 1109 / 3 = 370 (4096 / 11 = 372 at
// most), nc = 160 (kc * nc * 4 <= 256 KiB); a quarter of L1 gave kc = 278
// (four K blocks) and half of L2 nc = 384.

// CHECK-LABEL: func.func @square
// AVX512: #tensorop.sketch<mc = 1111, nc = 160, kc = 370, mr = 11, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_fused",
// AVX2: #tensorop.sketch<mc = 1110, nc = 224, kc = 278, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr",
func.func @square(%A: memref<1109x1109xf32>, %B: memref<1109x1109xf32>, %C: memref<1109x1109xf32>) {
  linalg.matmul ins(%A, %B : memref<1109x1109xf32>, memref<1109x1109xf32>) outs(%C : memref<1109x1109xf32>)
  return
}

// -----

// 337x823x953, 13 x 32 (A read in place): kc = 953 / 4 = 239 (at most
// 315), nc = 224 (at most 274); before kc = 191 and nc = 416.
// CHECK-LABEL: func.func @irregular
// AVX512: #tensorop.sketch<mc = 338, nc = 224, kc = 239, mr = 13, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_fused",
// AVX2: #tensorop.sketch<mc = 340, nc = 176, kc = 318, mr = 5, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr",
func.func @irregular(%A: memref<337x953xf32>, %B: memref<953x823xf32>, %C: memref<337x823xf32>) {
  linalg.matmul ins(%A, %B : memref<337x953xf32>, memref<953x823xf32>) outs(%C : memref<337x823xf32>)
  return
}
