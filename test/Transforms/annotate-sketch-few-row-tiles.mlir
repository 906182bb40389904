// A file whose b_in_place_max_row_tiles is 20 (Zen 4's, cpus.znver4), the
// shipped file (0, Zen 5's), and AVX2.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['b_in_place_max_row_tiles'] = 20; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX512,INPLACE
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX512,PACKED
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" | FileCheck %s --check-prefixes=CHECK,AVX2
// The packed path with few register-block rows per M block (at most the
// hints' b_in_place_max_row_tiles mr-row tiles read each B block): on
// AVX-512 B is read in place, each row's next tiles prefetched two tiles
// (2 * nr columns) ahead, instead of packed per K x N block, whose copy no
// FMA hides (BuiltinAdvisor.cpp). Where the hints say 0 (the shipped
// file, Zen 5), B is packed, its copy fused into the first row tile. More
// tiles, and AVX2 (not measured), keep packed B. The AVX-512 RUN lines
// re-parse the output (the sketch verifier accepts it).

// 127 rows, 8 x 48: 16 tiles.
// CHECK-LABEL: func.func @tiles16
// INPLACE: #tensorop.sketch<mc = 128, nc = 240, kc = 257, mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 96>
// PACKED: #tensorop.sketch<mc = 128, nc = 240, kc = 257, mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_fused", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 96>
// AVX2: pack_b = "kmajor_nr"
func.func @tiles16(%A: memref<127x513xf32>, %B: memref<513x1000xf32>, %C: memref<127x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<127x513xf32>, memref<513x1000xf32>) outs(%C : memref<127x1000xf32>)
  return
}

// -----

// 160 rows, 8 x 48: 20 tiles, the most that reads B in place at 20.
// CHECK-LABEL: func.func @tiles20
// INPLACE: mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 96>
// PACKED: mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_fused", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 96>
func.func @tiles20(%A: memref<160x800xf32>, %B: memref<800x1000xf32>, %C: memref<160x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<160x800xf32>, memref<800x1000xf32>) outs(%C : memref<160x1000xf32>)
  return
}

// -----

// 200 rows, 8 x 48: 25 tiles share each packed B block.
// CHECK-LABEL: func.func @tiles25
// AVX512: mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_fused", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 96>
func.func @tiles25(%A: memref<200x513xf32>, %B: memref<513x1000xf32>, %C: memref<200x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<200x513xf32>, memref<513x1000xf32>) outs(%C : memref<200x1000xf32>)
  return
}

// -----

// A transposed B (N x K) is packed, whatever the tiles.
// CHECK-LABEL: func.func @transposed_b
// AVX512: pack_b = "kmajor_nr"
func.func @transposed_b(%A: memref<127x513xf32>, %B: memref<1000x513xf32>, %C: memref<127x1000xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<127x513xf32>, memref<1000x513xf32>) outs(%C : memref<127x1000xf32>)
  return
}

