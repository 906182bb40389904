// RUN: rm -rf %t && mkdir -p %t
// (The file's hints less kdot_n_tail_min_saving_pct: N tails vectorized
// along K, which would compute some of these shapes' last columns apart,
// have their own test, annotate-sketch-n-tail.mlir.)
// RUN: mkdir -p %t/nokdot && %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/nokdot/x86-avx512.json
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/nokdot" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" | FileCheck %s --check-prefixes=CHECK,AVX2
// The packed path where more than 20 register-block rows share each B
// block (fewer read B in place: annotate-sketch-few-row-tiles.mlir): on
// AVX-512 B's copy is fused into each block's first row tile
// (pack_b = "kmajor_nr_fused", its in-place rows' next two tiles
// prefetched: prefetch_b_cols = 2 * nr), not a packing pass of its own
// (BuiltinAdvisor.cpp). AVX2 (no store_b_panel kernels), a B narrower
// than four register blocks and a transposed B keep the packing pass (bf16:
// annotate-sketch-bf16-pairs.mlir). The second RUN line re-parses the output
// (the sketch verifier accepts it).

// CHECK-LABEL: func.func @irregular
// AVX512: mr = 9, nr = 32, {{.*}} pack_a = "none", pack_b = "kmajor_nr_fused", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 64>
// AVX2: pack_b = "kmajor_nr"
// AVX2-NOT: prefetch_b_cols
func.func @irregular(%A: memref<333x555xf32>, %B: memref<555x777xf32>, %C: memref<333x777xf32>) {
  linalg.matmul ins(%A, %B : memref<333x555xf32>, memref<555x777xf32>) outs(%C : memref<333x777xf32>)
  return
}

// -----

// 200 rows, 8 x 48: 25 tiles, the fewest that keep B packed.
// CHECK-LABEL: func.func @tiles25
// AVX512: mr = 8, nr = 48, {{.*}} pack_b = "kmajor_nr_fused", {{.*}} prefetch_b_cols = 96>
func.func @tiles25(%A: memref<200x513xf32>, %B: memref<513x1000xf32>, %C: memref<200x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<200x513xf32>, memref<513x1000xf32>) outs(%C : memref<200x1000xf32>)
  return
}

// -----

// B narrower than four register blocks keeps the packing pass (not
// measured: the pass is small there).
// CHECK-LABEL: func.func @narrow_b
// AVX512: pack_b = "kmajor_nr"
// AVX512-NOT: prefetch_b_cols
func.func @narrow_b(%A: memref<512x512xf32>, %B: memref<512x17xf32>, %C: memref<512x17xf32>) {
  linalg.matmul ins(%A, %B : memref<512x512xf32>, memref<512x17xf32>) outs(%C : memref<512x17xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @transposed_b
// AVX512: pack_b = "kmajor_nr"
// AVX512-NOT: prefetch_b_cols
func.func @transposed_b(%A: memref<333x555xf32>, %B: memref<777x555xf32>, %C: memref<333x777xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%A, %B : memref<333x555xf32>, memref<777x555xf32>) outs(%C : memref<333x777xf32>)
  return
}

