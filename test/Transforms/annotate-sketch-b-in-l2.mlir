// A B that fits in half of L2 is read in place in one K block, whatever K
// and N, where M has at most the hints' blocking.b_in_l2_in_place_max_rows
// rows (the file's 400, Zen 5), on one or two threads, in a block of more
// rows than blocking.b_panel_l1_max_mr (fewer stream B from L2 faster than
// it feeds). A copy of the file with the field at 0, and a team of three
// threads (not measured), pack B. (Two threads, Zen 5, gen's objects
// against B packed, 12 drawn shapes: 11 faster, geomean 1.087;
// docs/benchmarks/cpu-gemm-classes.md, "Zen 5 in the forty-fourth session".)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['b_in_l2_in_place_max_rows'] = 0; h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// (The file's hints less kdot_n_tail_min_saving_pct: N tails vectorized
// along K, which would compute some of these shapes' last columns apart,
// have their own test, annotate-sketch-n-tail.mlir.)
// RUN: mkdir -p %t/nokdot && %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/nokdot/x86-avx512.json
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/nokdot" | FileCheck %s --check-prefix=FILE
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" | FileCheck %s --check-prefix=OFF
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 threads=2 hints-dir=%t/nokdot" 2>/dev/null | FileCheck %s --check-prefix=PAIR
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 threads=3 hints-dir=%t/nokdot" 2>/dev/null | FileCheck %s --check-prefix=TEAM

// B 1200 x 96 (450 KiB) under 144 rows: in place, kc = K.
// FILE-LABEL: func.func @long_k
// FILE: kc = 1200, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none"
// OFF-LABEL: func.func @long_k
// OFF: pack_b = "kmajor_nr"
// PAIR-LABEL: func.func @long_k
// PAIR: kc = 1200, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none"
// TEAM-LABEL: func.func @long_k
// TEAM: pack_b = "kmajor_nr"
func.func @long_k(%A: memref<144x1200xf32>, %B: memref<1200x96xf32>, %C: memref<144x96xf32>) {
  linalg.matmul ins(%A, %B : memref<144x1200xf32>, memref<1200x96xf32>) outs(%C : memref<144x96xf32>)
  return
}

// -----

// 500 rows are past the file's 400: B stays packed.
// FILE-LABEL: func.func @many_rows
// FILE: pack_b = "kmajor_nr"
func.func @many_rows(%A: memref<500x500xf32>, %B: memref<500x128xf32>, %C: memref<500x128xf32>) {
  linalg.matmul ins(%A, %B : memref<500x500xf32>, memref<500x128xf32>) outs(%C : memref<500x128xf32>)
  return
}

// -----

// 128 rows would take 4 x 64 blocks on the small path, whose B rows from
// L2 would bind: blocks of at most b_panel_l1_max_mr (4) rows are left out
// here, and 8 x 48 reads B in place. Without the rule, 4 x 64 packed, its
// B micro-panels in L1 (micro order "nm").
// FILE-LABEL: func.func @four_rows
// FILE: kc = 600, mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none"
// OFF-LABEL: func.func @four_rows
// OFF: kc = 120, mr = 4, nr = 64, loop_order = "mkn", micro_order = "nm", pack_a = "none", pack_b = "kmajor_nr"
func.func @four_rows(%A: memref<128x600xf32>, %B: memref<600x128xf32>, %C: memref<128x128xf32>) {
  linalg.matmul ins(%A, %B : memref<128x600xf32>, memref<600x128xf32>) outs(%C : memref<128x128xf32>)
  return
}

// -----

// B 600 x 1024 (2.3 MiB) is past half of L2: packed.
// FILE-LABEL: func.func @large_b
// FILE: pack_b = "kmajor_nr_fused"
func.func @large_b(%A: memref<150x600xf32>, %B: memref<600x1024xf32>, %C: memref<150x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<150x600xf32>, memref<600x1024xf32>) outs(%C : memref<150x1024xf32>)
  return
}

// -----

// Past 400 rows, a K of at most 512 with N not in whole 64-column blocks
// still reads B in place (it wastes fewer lanes than packed panels), and
// B's rows then stream from L2 too: blocks of at most b_panel_l1_max_mr
// rows are left out here as well. 4 x 64 tied 6 x 64 by its M edge and
// ran 1.12x slower (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: 4-row
// blocks reading B in place"). A team of two keeps 4 x 64: only one thread
// was measured.
// FILE-LABEL: func.func @mid_k_many_rows
// FILE: kc = 265, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none"
// TEAM-LABEL: func.func @mid_k_many_rows
// TEAM: mr = 4, nr = 64, {{.*}}pack_b = "none"
func.func @mid_k_many_rows(%A: memref<5248x265xf32>, %B: memref<265x107xf32>, %C: memref<5248x107xf32>) {
  linalg.matmul ins(%A, %B : memref<5248x265xf32>, memref<265x107xf32>) outs(%C : memref<5248x107xf32>)
  return
}
