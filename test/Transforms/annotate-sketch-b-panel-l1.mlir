// Packed B's micro-panels kept in L1 for register blocks of few rows: the
// hints' blocking.b_panel_l1_max_mr (the file's 4, Zen 5) runs the register
// blocks' loops n outside m ("nm") with kc sized so that a B micro-panel
// (kc x nr fp32) takes two thirds of the file's 48 KiB L1. A copy of the
// file with the field at 0, and a team of two threads, keep the A
// micro-panel in L1 ("mn", kc from a_panel_l1_share); the copy also sets
// b_in_l2_in_place_max_rows to 0, which would otherwise read these Bs (in
// half of L2) in place once 4-row blocks no longer go to L1
// (annotate-sketch-b-in-l2.mlir).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['b_panel_l1_max_mr'] = 0; h['blocking']['b_in_l2_in_place_max_rows'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=FILE
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" | FileCheck %s --check-prefix=OFF
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 threads=2" 2>/dev/null | FileCheck %s --check-prefix=TEAM

// 4 x 64 blocks: 32 KiB / 256 bytes per k = 128 rows of B per panel.
// FILE-LABEL: func.func @square_256
// FILE: mc = 256, nc = 256, kc = 128, mr = 4, nr = 64, loop_order = "mkn", micro_order = "nm", pack_a = "none", pack_b = "kmajor_nr_fused"
// OFF-LABEL: func.func @square_256
// OFF: mc = 256, nc = 256, kc = 256, mr = 4, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_fused"
// TEAM-LABEL: func.func @square_256
// TEAM: micro_order = "mn"
func.func @square_256(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  linalg.matmul ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// 4 x 48 blocks over B packed by its own pass (N is under four blocks):
// 157 rows of 192 bytes (29.4 KiB) fit the two thirds as one K block.
// FILE-LABEL: func.func @narrow_packed
// FILE: mc = 92, nc = 144, kc = 157, mr = 4, nr = 48, loop_order = "mkn", micro_order = "nm", pack_a = "none", pack_b = "kmajor_nr"
// OFF-LABEL: func.func @narrow_packed
// OFF: mc = 92, nc = 144, kc = 157, mr = 4, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr"
func.func @narrow_packed(%A: memref<92x157xf32>, %B: memref<157x134xf32>, %C: memref<92x134xf32>) {
  linalg.matmul ins(%A, %B : memref<92x157xf32>, memref<157x134xf32>) outs(%C : memref<92x134xf32>)
  return
}

// -----

// 8 x 48 blocks are past the bound: B's panels stream from L2 at half the
// 4-row blocks' rate, and the A micro-panel stays in L1.
// FILE-LABEL: func.func @eight_rows
// FILE: mc = 1000, nc = 96, kc = 500, mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn"
func.func @eight_rows(%A: memref<1000x1000xf32>, %B: memref<1000x1000xf32>, %C: memref<1000x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<1000x1000xf32>, memref<1000x1000xf32>) outs(%C : memref<1000x1000xf32>)
  return
}
