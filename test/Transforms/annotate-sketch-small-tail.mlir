// The small path's tail kernels (N's remainder, A and B read in place):
// the hints' blocking.small_min_tail_accumulators (the file's 12, Zen 5)
// leaves out register blocks whose tail has fewer accumulators, unless no
// block avoids one. A copy of the file with the field at 0 shows the
// block the score alone takes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['small_min_tail_accumulators'] = 0; h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// (The file's hints less kdot_n_tail_min_saving_pct: N tails vectorized
// along K, which would compute some of these shapes' last columns apart,
// have their own test, annotate-sketch-n-tail.mlir.)
// RUN: mkdir -p %t/nokdot && %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/nokdot/x86-avx512.json
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/nokdot" | FileCheck %s --check-prefix=FILE
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" | FileCheck %s --check-prefix=ANY

// 84 columns: 4 x 64 leaves 20 to a 4 x 32 tail (8 accumulators); 4 x 48
// leaves 36 to a 4 x 48 tail (12), the same lanes. (Zen 5, 1 thread,
// quiet: 4 x 48 1.063x the 4 x 64 kernel's speed.)
// FILE-LABEL: func.func @narrow_tail
// FILE: mc = 76, nc = 96, kc = 111, mr = 4, nr = 48,
// ANY-LABEL: func.func @narrow_tail
// ANY: mc = 76, nc = 128, kc = 111, mr = 4, nr = 64,
func.func @narrow_tail(%A: memref<76x111xf32>, %B: memref<111x84xf32>, %C: memref<76x84xf32>) {
  linalg.matmul ins(%A, %B : memref<76x111xf32>, memref<111x84xf32>) outs(%C : memref<76x84xf32>)
  return
}

// -----

// 2 rows and 20 columns: every block's tail has at most 2 x 2
// accumulators, so the rule gives way and the score decides alone.
// FILE-LABEL: func.func @no_block_avoids
// FILE: mr = 2, nr = 32,
// ANY-LABEL: func.func @no_block_avoids
// ANY: mr = 2, nr = 32,
func.func @no_block_avoids(%A: memref<2x8xf32>, %B: memref<8x20xf32>, %C: memref<2x20xf32>) {
  linalg.matmul ins(%A, %B : memref<2x8xf32>, memref<8x20xf32>) outs(%C : memref<2x20xf32>)
  return
}
