// Tall shapes in one K block: each B block reads the M block's rows of A
// once more (thousands of rows: A in L3, not L2). The file's (Zen 5)
// blocking.whole_b_block_min_rows 5000 takes all of N in one B block where
// M has at least 5000 rows and the packed B (K x N) fits 60% of the 1 MiB
// L2: 7339x535x245 nc 544 (B 533 KB) instead of 192; gen's objects, 16
// drawn tall shapes 15 faster, 7339x535x245 0.876x -> 0.998x the best
// library (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: all of N in one B
// block for tall shapes").
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1

// RUN: %gen_matmul 7339 535 245 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=WHOLE
// RUN: %gen_matmul 7339 535 245 | env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5 tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=WHOLE
// WHOLE: #tensorop.sketch<mc = 7350, nc = 544, kc = 245, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_fused"

// From 5000 rows on: M of 2400-3600 lost 1.3-2.5% in one B block.
// RUN: %gen_matmul 5000 535 245 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=MIN
// MIN: #tensorop.sketch<mc = 5012, nc = 544, kc = 245, mr = 14, nr = 32,
// RUN: %gen_matmul 4999 535 245 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=FEWER
// FEWER: #tensorop.sketch<mc = 5012, nc = 192, kc = 245, mr = 14, nr = 32,

// All of B within 60% of L2 (629145 bytes): 640 x 245 x 4 = 627200 fits,
// 640 x 246 x 4 = 629760 does not.
// RUN: %gen_matmul 7339 640 245 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=FITS
// FITS: #tensorop.sketch<mc = 7344, nc = 640, kc = 245, mr = 6, nr = 64,
// RUN: %gen_matmul 7339 640 246 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=PAST
// PAST: #tensorop.sketch<mc = 7344, nc = 256, kc = 246, mr = 6, nr = 64,

// K in several blocks (kc 500 < K): B blocks as before.
// RUN: %gen_matmul 6000 300 2000 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=KBLOCKS
// KBLOCKS: #tensorop.sketch<mc = 3000, nc = 128, kc = 500, mr = 6, nr = 64,

// Zen 4 (cpus.znver4: 0, not measured there) and two threads: unchanged.
// RUN: %gen_matmul 7339 535 245 | env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4 tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=ZEN4
// ZEN4: #tensorop.sketch<mc = 7350, nc = 288, kc = 245, mr = 14, nr = 32,
// RUN: %gen_matmul 7339 535 245 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" | FileCheck %s --check-prefix=TWO
// TWO: #tensorop.sketch<mc = 7350, nc = 192, kc = 245, mr = 14, nr = 32,

// The field's range is checked where the hints are read.
// RUN: mkdir -p %t/range
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['whole_b_block_min_rows'] = -1; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/range/x86-avx512.json
// RUN: %gen_matmul 7339 535 245 | not tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/range" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: field 'blocking.whole_b_block_min_rows' is -1.00, outside [0.00, 1073741824.00]

// A packed (A transposed): not measured, B blocks as before.
// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=PACKEDA
// PACKEDA-LABEL: func.func @a_transposed
// PACKEDA: #tensorop.sketch<mc = 7350, nc = 192, kc = 245, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr"
func.func @a_transposed(%A: memref<245x7339xf32>, %B: memref<245x535xf32>, %C: memref<7339x535xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%A, %B : memref<245x7339xf32>, memref<245x535xf32>) outs(%C : memref<7339x535xf32>)
  return
}
