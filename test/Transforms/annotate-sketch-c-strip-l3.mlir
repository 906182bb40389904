// Where the packed path updates C in more than one K block, each K block
// re-reads the M block's strip of C (all N columns). The file's (Zen 5)
// blocking.c_strip_l3_pct 100 bounds the M block so that the strip plus
// the packed A block take at most the core's L3 share (32 MiB over 2
// cores): C comes back from L3, not memory. 2864^3 (kc 478, 13368 bytes a
// row): at most 1255 rows, three blocks of 960 instead of all 2868 rows
// (C 33 MB, past L3): 0.912x -> 0.995x oneDNN in same-process sketch A/B
// (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: C's strip in L3").
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5

// RUN: %gen_matmul 2864 2864 2864 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=STRIP
// RUN: %gen_matmul 2864 2864 2864 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=STRIP
// STRIP: #tensorop.sketch<mc = 960, nc = 128, kc = 478, mr = 6, nr = 64, loop_order = "mkn"

// Zen 4 (cpus.znver4: 0, not measured there) keeps all of M in one block.
// RUN: %gen_matmul 2864 2864 2864 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=ZEN4
// ZEN4: #tensorop.sketch<mc = 2868, nc = 256, kc = 478, mr = 6, nr = 64,

// Two threads: the same bound per thread (each its rows, its share) went
// both ways through gen's objects (-6% to +5% on 5 drawn shapes), so a
// team keeps the M block as before.
// RUN: %gen_matmul 2864 2864 2864 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" | FileCheck %s --check-prefix=TWO
// TWO: #tensorop.sketch<mc = 2868, nc = 128, kc = 478, mr = 6, nr = 64,

// A read in place (N <= 1024) in K blocks: not measured, unchanged
// (8192x1024x2048: three M blocks of 2736 from A's block; the bound would
// make four of 2052).
// RUN: %gen_matmul 8192 1024 2048 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=INPLACE
// INPLACE: #tensorop.sketch<mc = 2736, nc = 128, kc = 512, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none"
// And in one K block, where both guards hold.
// RUN: %gen_matmul 2048 4096 1024 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=INPLACE1K
// INPLACE1K: #tensorop.sketch<mc = 1026, nc = 128, kc = 1024, mr = 6, nr = 64,

// One K block (kc = K) with A packed (A transposed): C is stored once, no
// strip is re-read, so the M block stays 1026 (the bound would make it
// 684: 2052 rows of 20480 bytes past 16 MiB).
// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=ONEK
// ONEK-LABEL: func.func @one_k_block_a_transposed
// ONEK: #tensorop.sketch<mc = 1026, nc = 128, kc = 1024, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr"
func.func @one_k_block_a_transposed(%A: memref<1024x2048xf32>, %B: memref<1024x4096xf32>, %C: memref<2048x4096xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%A, %B : memref<1024x2048xf32>, memref<1024x4096xf32>) outs(%C : memref<2048x4096xf32>)
  return
}

// A strip of 40000 columns fits 103 rows: below 256 rows (B packed again
// per M block) the M block stays whole (then bounded by keeping B's
// micro-panels in L1 for 4-row blocks).
// RUN: %gen_matmul 512 40000 1024 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=THIN
// THIN: #tensorop.sketch<mc = 512, nc = 128, kc = 128, mr = 4, nr = 64,

// The field's range is checked where the hints are read.
// RUN: mkdir -p %t/range
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['c_strip_l3_pct'] = 401; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/range/x86-avx512.json
// RUN: %gen_matmul 2864 2864 2864 | not tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/range" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: field 'blocking.c_strip_l3_pct' is 401.00, outside [0.00, 400.00]
