// Emerald Rapids' facts in x86-avx512.json (cpus.emeraldrapids), against
// Zen 5's on the same caches (docs/benchmarks/cpu-gemm-classes.md,
// "Emerald Rapids"):
// - blocking.b_in_half_l2_in_place 0: a B in half of L2 past the small
//   path's extents is packed, not read in place (4206x183x99: 6 x 64 in
//   place 0.87x the best library, packed 1.04x; gen's objects, 12 drawn
//   shapes, all faster, geomean 1.130 with the next fact);
// - fma.multi_vector_accumulators_for_peak 20: blocks of two or more
//   vectors over a packed B need 20 chains, so 5 x 48 gives way to 11 x 32
//   at 2365x1051x2158, while one-vector blocks keep the file's 12 (16 x 16
//   stays). Not on the small path (B read in place), since the forty-third
//   session: its kernels' masked B loads had made 4-6 row blocks lose
//   there (112x59x58 took 14 x 32); with plain loads 4 x 64 stays, as on
//   Zen 5 (gen's objects, 38 drawn small shapes geomean 1.010).
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/emr 0:1:Data:48K:12:64:0 2:2:Unified:2048K:16:64:0 3:3:Unified:266240K:16:64:0-1
// DEFINE: %{emr} = env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=emeraldrapids
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=znver5

// RUN: %gen_matmul 4206 183 99 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=PACKED
// PACKED: pack_a = "none", pack_b = "kmajor_nr_fused"
// RUN: %gen_matmul 4206 183 99 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=INPLACE
// INPLACE: mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none"

// RUN: %gen_matmul 2365 1051 2158 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=TALLER
// TALLER: mr = 11, nr = 32, loop_order = "{{[a-z]+}}", micro_order = "{{[a-z]+}}", pack_a = "{{[a-z_]+}}", pack_b = "kmajor_nr_fused"
// RUN: %gen_matmul 2365 1051 2158 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=PACKEDWIDE
// PACKEDWIDE: mr = 5, nr = 48, loop_order = "{{[a-z]+}}", micro_order = "{{[a-z]+}}", pack_a = "{{[a-z_]+}}", pack_b = "kmajor_nr_fused"
// RUN: %gen_matmul 112 59 58 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: %gen_matmul 112 59 58 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=WIDE
// WIDE: mr = 4, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none"

// One-vector blocks: the file's 12 chains, on both.
// RUN: %gen_matmul 16 16 16 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=ONEVEC
// RUN: %gen_matmul 16 16 16 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=ONEVEC
// ONEVEC: mc = 16, nc = 16, kc = 16, mr = 16, nr = 16,

// - blocking.small_min_tail_accumulators: the file's 12 since the
//   forty-third session (session 42's 20 was measured with masked B
//   loads): 83x89x127 keeps 6 x 64 with its 12-accumulator 6 x 32 tail,
//   as on Zen 5, and 37x39x40 13 x 32 with its 13 x 16 tail.
// RUN: %gen_matmul 83 89 127 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=TAIL12
// RUN: %gen_matmul 83 89 127 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=TAIL12
// TAIL12: mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none"
// RUN: %gen_matmul 37 39 40 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=ONEVECTAIL
// ONEVECTAIL: mr = 13, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none"

// - blocking.kdot_max_columns 13: N = 14 with more than 16 rows takes the
//   broadcast kernel (one vector of 16 columns), not the kernel vectorized
//   along K (gen's objects, 10 drawn shapes, 1 thread, every one faster,
//   geomean 1.293). Since the thirty-ninth session the instruction-count
//   model (SkinnyGemm.cpp, kdotAheadOfBroadcast) sends N >= 13 to the
//   broadcast kernel on every CPU (Emerald Rapids: 4000x13x500 0.98x
//   libxsmm against 0.77x), so the field no longer changes a choice: N = 14
//   and 13 take the broadcast kernel here and on Zen 5.
// RUN: %gen_matmul 2000 14 600 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BCAST14
// BCAST14: nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma"
// RUN: %gen_matmul 2000 14 600 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BCAST14
// RUN: %gen_matmul 2000 13 600 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BCAST14

// - blocking.kdot_two_passes_max_a_bytes 3 MiB: N = 8 (the K-vectorized
//   kernel's two column passes of 6 x 4, A's rows read twice) with A past
//   3 MiB takes the broadcast kernel's 30-row blocks (1000x8x1000, A 4 MB:
//   sketch A/B 0.94x -> 1.05x libxsmm); 600x8x1000 (A 2.4 MB) keeps the
//   K-vectorized kernel, and Zen 5 keeps it at 4 MB. A team splits M, so
//   the bound is on each thread's share: 2306x8x382 (A 3.5 MB) takes the
//   broadcast kernel on one thread, the K-vectorized one on two.
// RUN: %gen_matmul 1000 8 1000 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BCAST8
// BCAST8: mr = 30, nr = 16, {{.*}}pack_b = "none", ukernel = <emitter = "x86_gemm_fma"
// RUN: %gen_matmul 600 8 1000 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=KDOT8
// RUN: %gen_matmul 1000 8 1000 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=KDOT8
// RUN: %gen_matmul 2306 8 382 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" 2>&1 | FileCheck %s --check-prefix=KDOT8
// RUN: %gen_matmul 2306 8 382 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BCAST8
// KDOT8: mr = 6, nr = 4, {{.*}}pack_b = "transposed", ukernel = <emitter = "x86_gemm_kdot"

// The same bound drops an N tail of 8 columns (two passes, A read twice
// more) beside a main part under four vectors: 5000x24x3000 (A 60 MB)
// computes all 24 columns in 14 x 32 blocks on Emerald Rapids (gen's
// objects, 8 drawn shapes, every one faster, geomean 1.084); Zen 5 drops
// it too, by its own bound (blocking.kdot_n_tail_max_a_bytes 12 MiB, with
// this machine's 260 MiB L3 that admits the tail otherwise; test
// annotate-sketch-n-tail-large-a.mlir), but keeps it at 1 MB (500x24x500);
// 1500x88x3000 keeps it on both.
// RUN: %gen_matmul 5000 24 3000 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=NOTAIL
// RUN: %gen_matmul 5000 24 3000 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=NOTAIL
// NOTAIL: mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target
// RUN: %gen_matmul 500 24 500 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=TAIL8
// RUN: %gen_matmul 1500 88 3000 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=TAIL8
// TAIL8: n_tail = <columns = 8, mr = 6, nr = 4, ukernel = <emitter = "x86_gemm_kdot"

// - blocking.few_rows_band_max_rows 64: few rows with B past 6 MiB (swept as
//   from memory) in K bands of 64 on one thread (gen's objects: 10 drawn
//   shapes of 21-40 rows, geomean 1.090, then 22 of 37-64 rows against
//   bands of 128, geomean 1.049 and 1.023); Zen 5 (64 up to 20 rows)
//   sweeps this B (58 MB) as one its L3 holds, in bands of 372.
// RUN: %gen_matmul 30 4929 2971 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BAND64
// BAND64: kc = {{6[0-4]}}, mr = {{1[0-3]}}, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none"
// And on two threads (blocking.few_rows_band_max_threads 2: 8 drawn shapes
// of 11-28 rows, every one faster, geomean 1.150; 8 of 37-64 rows, 1.061).
// RUN: %gen_matmul 30 4929 2971 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" 2>&1 | FileCheck %s --check-prefix=BAND64
// RUN: %gen_matmul 30 4929 2971 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BAND372
// BAND372: kc = 372, mr = 10, nr = 32, loop_order = "mnk", micro_order = "nm"
// RUN: %gen_matmul 37 4917 3703 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BAND64
// RUN: %gen_matmul 63 4787 2850 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BAND64
// RUN: %gen_matmul 63 4787 2850 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" 2>&1 | FileCheck %s --check-prefix=BAND64

// - blocking.few_rows_prefetch_tiles_in_cache 2: few rows with B in L2
//   prefetch each row's tiles two ahead (gen's objects against none, 1
//   thread, 12 drawn shapes geomean 1.059, 10 more 1.009; 2 threads 1.016);
//   Zen 5's file reads B in cache with no prefetch.
// RUN: %gen_matmul 49 669 761 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=PFCACHE
// PFCACHE: mr = 13, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 64>
// RUN: %gen_matmul 49 669 761 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=NOPFCACHE
// NOPFCACHE: mr = 13, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>

// - blocking.few_rows_band_l1_pct 33: from memory, a band whose lines in L1
//   (each row's tile, the two tiles prefetched ahead, A's element per row
//   of C) outgrow L1 shrinks to a third of it: 3 x 112 takes 1356 bytes a
//   row, so 62 rows (84 KB) become 11; 7 x 48 (604 bytes a row) keeps 63.
// RUN: %gen_matmul 3 3595 1351 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BANDL1
// BANDL1: kc = 11, mr = 3, nr = 112, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 224>
// RUN: %gen_matmul 7 5000 2000 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=BANDFITS
// BANDFITS: kc = 63, mr = 7, nr = 48,
// One thread only (2 threads: 6 drawn shapes, geomean 1.011, 0.840 at N 1605).
// RUN: %gen_matmul 3 3595 1351 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" 2>&1 | FileCheck %s --check-prefix=BANDL1TEAM
// BANDL1TEAM: kc = {{6[0-4]}}, mr = 3, nr = 112,
