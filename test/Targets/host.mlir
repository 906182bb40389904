// target=host describes the machine it runs on: the cache geometry from
// sysfs and the CPU's facts from the hints file's "cpus" object. The test
// hooks TENSOROP_HOST_SYSFS (a fake sysfs root) and TENSOROP_HOST_CPU (a
// fake CPU name) describe a Zen 4 and a Zen 5 host on any AVX-512 machine
// (target=host picks x86-avx512 by the real CPU's features).
// REQUIRES: host-avx512

// Zen 4 (L1d 32 KiB 8-way, L2 1 MiB 8-way, L3 32 MiB on 2 cores) and
// Zen 5 (L1d 48 KiB 12-way, L2 1 MiB 16-way): sysfs as the kernel writes it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 1:1:Instruction:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 1:1:Instruction:32K:8:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// An SMT Zen 4 (two threads a core): L3 shared by 16 CPUs is 8 cores.
// RUN: %python %S/Inputs/fake_sysfs.py %t/smt 0:1:Data:32K:8:64:0,8 2:2:Unified:1024K:8:64:0,8 3:3:Unified:32768K:16:64:0-15
// Garbled and unreadable trees.
// RUN: %python %S/Inputs/fake_sysfs.py %t/garbled 0:1:Data:32K:eight:64:0 2:2:Unified:1024K:8:64:0
// RUN: %python %S/Inputs/fake_sysfs.py %t/badsize 0:1:Data:32Q:8:64:0 2:2:Unified:1024K:8:64:0
// RUN: %python %S/Inputs/fake_sysfs.py %t/nol2 0:1:Data:32K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/Inputs/fake_sysfs.py %t/badlist 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:3-1

// RUN: env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4 tensorop-opt %s --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefixes=ZEN4,NOREMARK
// RUN: env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5 tensorop-opt %s --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefixes=FILE,NOREMARK
// A named target is the file's, whatever machine compiles it.
// RUN: env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4 tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512" 2>&1 | FileCheck %s --check-prefixes=FILE,NOREMARK
// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512" 2>&1 | FileCheck %s --check-prefixes=FILE,NOREMARK
// Zen 4's caches with a CPU the file does not know: the file's broadcast
// facts (explicit), a remark.
// RUN: env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=sapphirerapids tensorop-opt %s --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefixes=UNKNOWN,FILE
// Zen 4's CPU with caches that cannot be read: the file's caches, a remark,
// Zen 4's facts (embedded).
// RUN: env TENSOROP_HOST_SYSFS=%t/garbled TENSOROP_HOST_CPU=znver4 tensorop-opt %s --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefixes=GARBLED,ZEN4
// RUN: env TENSOROP_HOST_SYSFS=%t/badsize TENSOROP_HOST_CPU=znver4 tensorop-opt %s --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=BADSIZE
// RUN: env TENSOROP_HOST_SYSFS=%t/nol2 TENSOROP_HOST_CPU=znver4 tensorop-opt %s --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=NOL2
// RUN: env TENSOROP_HOST_SYSFS=%t/badlist TENSOROP_HOST_CPU=znver4 tensorop-opt %s --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=BADLIST
// RUN: env TENSOROP_HOST_SYSFS=%t/none TENSOROP_HOST_CPU=znver4 tensorop-opt %s --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=NONE

// NOREMARK-NOT: remark
// UNKNOWN: remark: tensorop: target=host: {{.*}}x86-avx512.json has no facts for CPU 'sapphirerapids' (cpus: emeraldrapids, znver4, znver5); its generic FMA, broadcast and blocking values are used
// GARBLED: remark: tensorop: target=host: the cache geometry was not read ({{.*}}garbled/devices/system/cpu/cpu0/cache/index0{{/|\\}}ways_of_associativity reads 'eight', expected a positive integer); the caches of {{.*}}x86-avx512.json are used
// BADSIZE: remark: tensorop: target=host: the cache geometry was not read ({{.*}}index0{{/|\\}}size reads '32Q', expected a size such as 32K)
// NOL2: remark: tensorop: target=host: the cache geometry was not read ({{.*}}cache: no level 1 and level 2 data caches)
// BADLIST: remark: tensorop: target=host: the cache geometry was not read ({{.*}}index2{{/|\\}}shared_cpu_list reads '3-1', expected a CPU list such as 0-1)
// NONE: remark: tensorop: target=host: the cache geometry was not read (cannot list {{.*}}none/devices/system/cpu/cpu0/cache:

// Packing A where its in-place rows share L1 sets was measured and not
// kept (docs/benchmarks/cpu-gemm-classes.md, "target=host"): the Zen 4
// host keeps 1024^3's A in place, like the file. A's K block (1026 x 512)
// is larger than L2, so Zen 4's packed B block takes half of L2
// (cpus.znver4 blocking.b_block_l2_share_a_streamed 2: nc 256, A streamed
// from L3 4 times, not 8); the file's (Zen 5) a quarter. K = 1024 is at
// most one_k_block_max_k (Zen 4's and the file's): one K block (kc 1024,
// each C tile stored once), nc kept at the L1-sized kc's (Zen 4's 256 at
// kc 512; the file's 128 at kc 512, or 342 with Zen 4's L1).
// ZEN4-LABEL: func.func @k1024_n1024
// ZEN4:         mc = 1026, nc = 256, kc = 1024, mr = 6, nr = 64, {{.*}}pack_a = "none", pack_b = "kmajor_nr_fused"
// FILE-LABEL: func.func @k1024_n1024
// FILE:         mc = 1026, nc = 128, kc = 1024, mr = 6, nr = 64,
func.func @k1024_n1024(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<1024x1024xf32>, memref<1024x1024xf32>) outs(%C : memref<1024x1024xf32>)
  return
}

// B (705 KiB) in three quarters of L2 with K above 512: the file (Zen 5)
// reads it in place in K blocks, N's remainder in a tail kernel
// (blocking.in_place_k_blocks_min_gain_pct 4; kc 340 from a third of Zen
// 4's L1 where the CPU is not one the file knows); Zen 4 (0) keeps it
// packed.
// ZEN4-LABEL: func.func @in_place_k_blocks
// ZEN4:         mr = 16, nr = 16, {{.*}}pack_b = "kmajor_nr_fused"
// FILE-LABEL: func.func @in_place_k_blocks
// FILE:         mc = 1404, nc = 192, kc = {{510|340}}, mr = 6, nr = 64, {{.*}}pack_b = "none"
func.func @in_place_k_blocks(%A: memref<1399x1019xf32>, %B: memref<1019x173xf32>, %C: memref<1399x173xf32>) {
  linalg.matmul ins(%A, %B : memref<1399x1019xf32>, memref<1019x173xf32>) outs(%C : memref<1399x173xf32>)
  return
}

// A's K block (333 x 278) fits in L2: the B block keeps a quarter of L2
// on Zen 4 too (b_block_l2_share 4: nc 224, not 416). At kc = K (333 x
// 555, 722 KiB) it would still fit L2: two K blocks, not one.
// ZEN4-LABEL: func.func @a_block_in_l2
// ZEN4:         mc = 333, nc = 224, kc = 278, mr = 9, nr = 32,
func.func @a_block_in_l2(%A: memref<333x555xf32>, %B: memref<555x777xf32>, %C: memref<333x777xf32>) {
  linalg.matmul ins(%A, %B : memref<333x555xf32>, memref<555x777xf32>) outs(%C : memref<333x777xf32>)
  return
}

// K = 700: two K blocks of 350 by L1, but A's K block at kc = K (600 x
// 700, 1.6 MiB) is larger than L2: one K block, nc as at kc 350, on Zen 4
// and with the file (Zen 5) alike.
// ZEN4-LABEL: func.func @one_k_block
// ZEN4:         mc = 600, nc = 128, kc = 700, mr = 6, nr = 64,
// FILE-LABEL: func.func @one_k_block
// FILE:         mc = 600, nc = 128, kc = 700, mr = 6, nr = 64,
func.func @one_k_block(%A: memref<600x700xf32>, %B: memref<700x500xf32>, %C: memref<600x500xf32>) {
  linalg.matmul ins(%A, %B : memref<600x700xf32>, memref<700x500xf32>) outs(%C : memref<600x500xf32>)
  return
}

// 127 rows in 8-row tiles: 16 tiles share each B block. Zen 4
// (b_in_place_max_row_tiles 20) reads B in place, the next tiles' rows
// prefetched; Zen 5 and the file (0) pack it, the copy fused into the
// first row tile.
// ZEN4-LABEL: func.func @few_row_tiles
// ZEN4:         mr = 8, nr = 48, {{.*}}pack_b = "none", {{.*}}prefetch_b_cols = 96>
// FILE-LABEL: func.func @few_row_tiles
// FILE:         mr = 8, nr = 48, {{.*}}pack_b = "kmajor_nr_fused", {{.*}}prefetch_b_cols = 96>
func.func @few_row_tiles(%A: memref<127x513xf32>, %B: memref<513x1000xf32>, %C: memref<127x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<127x513xf32>, memref<513x1000xf32>) outs(%C : memref<127x1000xf32>)
  return
}

// Few rows with B from memory (12 x 5000 x 4000, 80 MB): the file's
// bands of 64 rows (few_rows_band_max_rows 20); Zen 4's entry sets the
// maximum to 0, bands of 128 (4000 in 32 of 125).
// ZEN4-LABEL: func.func @few_rows_from_memory
// ZEN4:         kc = 125, mr = 12, nr = 32, loop_order = "mnk"
// FILE-LABEL: func.func @few_rows_from_memory
// FILE:         kc = 64, mr = 12, nr = 32, loop_order = "mnk"
func.func @few_rows_from_memory(%A: memref<12x4000xf32>, %B: memref<4000x5000xf32>, %C: memref<12x5000xf32>) {
  linalg.matmul ins(%A, %B : memref<12x4000xf32>, memref<4000x5000xf32>) outs(%C : memref<12x5000xf32>)
  return
}

// A small GEMM whose 4 x 64 blocks would leave N's 20-column remainder to
// a 4 x 32 tail kernel of 8 accumulators: the file's
// small_min_tail_accumulators 12 takes 4 x 48 (a 4 x 48 tail). Zen 4's
// entry (0) takes 4 x 48 too, for its own reason: its half-width last
// vector scores the 4-column edge at half a vector
// (test/Transforms/annotate-sketch-small-tail.mlir has the field at 0).
// The file's kdot_n_tail_min_saving_pct (2) now computes N's last 4
// columns apart, vectorized along K (annotate-sketch-n-tail.mlir): its
// sketch is 76x80x111's, 7 x 48, with that tail; Zen 4's (0) takes none.
// ZEN4-LABEL: func.func @small_narrow_tail
// ZEN4:         mr = 4, nr = 48, loop_order = "mkn"
// ZEN4-NOT:     n_tail
// FILE-LABEL: func.func @small_narrow_tail
// FILE:         mr = 7, nr = 48, loop_order = "mkn", {{.*}}n_tail = <columns = 4, mr = 6, nr = 4,
func.func @small_narrow_tail(%A: memref<76x111xf32>, %B: memref<111x84xf32>, %C: memref<76x84xf32>) {
  linalg.matmul ins(%A, %B : memref<76x111xf32>, memref<111x84xf32>) outs(%C : memref<76x84xf32>)
  return
}

// K = 2048 is above one_k_block_max_k: K blocks of 512.
// ZEN4-LABEL: func.func @k_above_one_block
// ZEN4:         nc = 256, kc = 512, mr = 6, nr = 64,
func.func @k_above_one_block(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>, %C: memref<2048x2048xf32>) {
  linalg.matmul ins(%A, %B : memref<2048x2048xf32>, memref<2048x2048xf32>) outs(%C : memref<2048x2048xf32>)
  return
}

// A two-vector block reading B in place takes embedded broadcasts
// where an explicit one takes an FP slot and fewer than embedded_below_fmas
// (Zen 4: 3) FMAs share it.
// ZEN4-LABEL: func.func @two_vectors
// ZEN4:         mr = 13, nr = 32, {{.*}}broadcast = "embedded"
// FILE-LABEL: func.func @two_vectors
// FILE:         mr = 13, nr = 32, {{.*}}broadcast = "explicit"
func.func @two_vectors(%A: memref<37x71xf32>, %B: memref<71x53xf32>, %C: memref<37x53xf32>) {
  linalg.matmul ins(%A, %B : memref<37x71xf32>, memref<71x53xf32>) outs(%C : memref<37x53xf32>)
  return
}

// Not on the packed path (measured -3.4% .. +2.0% there).
// ZEN4-LABEL: func.func @two_vectors_packed
// ZEN4:         mr = 9, nr = 32, {{.*}}pack_b = "kmajor_nr_fused", {{.*}}broadcast = "explicit"
func.func @two_vectors_packed(%A: memref<333x555xf32>, %B: memref<555x777xf32>, %C: memref<333x777xf32>) {
  linalg.matmul ins(%A, %B : memref<333x555xf32>, memref<555x777xf32>) outs(%C : memref<333x777xf32>)
  return
}
