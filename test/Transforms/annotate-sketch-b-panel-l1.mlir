// Packed B's micro-panels kept in L1 for register blocks of few rows: the
// hints' blocking.b_panel_l1_max_mr (the file's 4, Zen 5) runs the register
// blocks' loops n outside m ("nm") with kc sized so that a B micro-panel
// (kc x nr fp32) takes two thirds of the file's 48 KiB L1. A copy of the
// file with the field at 0, and a team of two threads, keep the A
// micro-panel in L1 ("mn", kc from a_panel_l1_share). The copy also sets
// b_in_l2_in_place_max_rows to 0 (annotate-sketch-b-in-l2.mlir), which
// reads a B in half of L2 in place under 400 rows in taller blocks.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['b_panel_l1_max_mr'] = 0; h['blocking']['b_in_l2_in_place_max_rows'] = 0; h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// (The file's hints less kdot_n_tail_min_saving_pct: N tails vectorized
// along K, which would compute some of these shapes' last columns apart,
// have their own test, annotate-sketch-n-tail.mlir.)
// RUN: mkdir -p %t/nokdot && %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/nokdot/x86-avx512.json
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/nokdot" | FileCheck %s --check-prefix=FILE
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" | FileCheck %s --check-prefix=OFF
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 threads=2 hints-dir=%t/nokdot" 2>/dev/null | FileCheck %s --check-prefix=TEAM

// 4 x 64 blocks: 32 KiB / 256 bytes per k = 128 rows of B per panel.
// (512 rows: past b_in_l2_in_place_max_rows, B stays packed.)
// FILE-LABEL: func.func @square_512
// FILE: mc = 512, nc = 128, kc = 128, mr = 4, nr = 64, loop_order = "mkn", micro_order = "nm", pack_a = "none", pack_b = "kmajor_nr_fused"
// OFF-LABEL: func.func @square_512
// OFF: mc = 512, nc = 128, kc = 512, mr = 4, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_fused"
// TEAM-LABEL: func.func @square_512
// TEAM: micro_order = "mn"
func.func @square_512(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512x512xf32>) {
  linalg.matmul ins(%A, %B : memref<512x512xf32>, memref<512x512xf32>) outs(%C : memref<512x512xf32>)
  return
}

// -----

// 4 x 48 blocks over B packed by its own pass (N is under four blocks; B,
// 606 KiB, is over half of L2, so not read in place): 1157 rows in 7 K
// blocks of 166 rows of 192 bytes (31.1 KiB).
// FILE-LABEL: func.func @narrow_packed
// FILE: mc = 92, nc = 144, kc = 166, mr = 4, nr = 48, loop_order = "mkn", micro_order = "nm", pack_a = "none", pack_b = "kmajor_nr"
// OFF-LABEL: func.func @narrow_packed
// OFF: mr = 4, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr"
func.func @narrow_packed(%A: memref<92x1157xf32>, %B: memref<1157x134xf32>, %C: memref<92x134xf32>) {
  linalg.matmul ins(%A, %B : memref<92x1157xf32>, memref<1157x134xf32>) outs(%C : memref<92x134xf32>)
  return
}

// -----

// 8 x 48 blocks are past the bound: B's panels stream from L2 at half the
// 4-row blocks' rate, and the A micro-panel stays in L1 (all of K: 8 x
// 1000 floats, 31 KiB; one K block by the file's one_k_block_max_k).
// FILE-LABEL: func.func @eight_rows
// FILE: mc = 1000, nc = 96, kc = 1000, mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn"
func.func @eight_rows(%A: memref<1000x1000xf32>, %B: memref<1000x1000xf32>, %C: memref<1000x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<1000x1000xf32>, memref<1000x1000xf32>) outs(%C : memref<1000x1000xf32>)
  return
}
