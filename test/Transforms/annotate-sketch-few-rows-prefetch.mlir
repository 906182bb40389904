// The few-rows path (at most 64 rows of C, B read in place and swept along
// N) prefetches each of B's rows two tiles ahead. Where L2 holds B and C
// has more than 16 rows, the blocks do enough FMAs per element of B that
// the prefetch only adds load-port work: the file's (Zen 5)
// blocking.few_rows_prefetch_tiles_in_cache 0 leaves B to the hardware
// prefetchers there (64x147x137 1.10x none, 1.02x two tiles ahead;
// docs/benchmarks/cpu-gemm-classes.md, "Zen 5: the few-rows path's column
// prefetch with B in cache"). Where L3 holds B but L2 does not, they do
// not keep up: blocking.few_rows_prefetch_tiles_past_l2 1 (33x777x1027,
// B 3.2 MB, 1.04x none, 1.09x one tile; 20x3174x2190 0.29x -> 1.20x through
// gen's objects; "Zen 5: few rows with B past L2"); absent, the in-cache
// value holds past L2 too. With 16 rows or fewer B's rows bind and keep
// the prefetch (16x2048x2048 ran 4x slower without it), as does a CPU that
// sets 2 (Zen 4: not measured there).
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/emr 0:1:Data:48K:12:64:0 2:2:Unified:2048K:16:64:0 3:3:Unified:266240K:16:64:0-1
// DEFINE: %{emr} = env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=emeraldrapids

// RUN: %gen_matmul 33 777 1027 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=FILE
// FILE: mr = 11, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 32>
// RUN: %gen_matmul 33 777 1027 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=FILE
// RUN: %gen_matmul 64 147 137 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=INL2
// INL2: mr = 13, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// RUN: %gen_matmul 20 3174 2190 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=WIDE
// WIDE: mr = 10, nr = 32, {{.*}}pack_b = "none", {{.*}}prefetch_b = 0, prefetch_b_cols = 32>
// RUN: %gen_matmul 33 777 1027 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=ZEN4
// ZEN4: pack_b = "none", {{.*}}prefetch_b_cols = 64>
// RUN: %gen_matmul 16 2048 2048 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=SIXTEEN
// With 16 rows or fewer, a B of at most the file's (Zen 5)
// blocking.few_rows_thin_in_cache_max_b_bytes (8 MiB) takes the in-cache
// distance too, in L2 or past it (3x537x800 0.82x -> 1.08x the best
// library, 7x231x995 0.90x -> 1.08x; "Zen 5 in the forty-fourth session");
// 16x2048x2048 (B 16 MiB, above) keeps two tiles ahead, as do Zen 4 and
// Emerald Rapids (0: not measured there).
// RUN: %gen_matmul 3 537 800 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=THIN3
// THIN3: mr = 3, nr = 112, {{.*}}pack_b = "none", {{.*}}prefetch_b = 0>
// RUN: %gen_matmul 7 231 995 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=THIN7
// THIN7: mr = 7, nr = 48, {{.*}}pack_b = "none", {{.*}}prefetch_b = 0>
// RUN: %gen_matmul 7 231 995 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=THIN7TWO
// RUN: %gen_matmul 7 231 995 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=THIN7TWO
// THIN7TWO: mr = 7, nr = 48, {{.*}}pack_b = "none", {{.*}}prefetch_b = 0, prefetch_b_cols = 96>
// SIXTEEN: mr = 8, nr = 48, {{.*}}pack_b = "none", {{.*}}prefetch_b_cols = 96>

// Blocks of 4 vectors or more (6 rows or fewer) over a B that L3 holds and
// L2 does not: the file's (Zen 5) blocking.few_rows_wide_band_rows takes K
// bands of up to 1536 rows (balanced) with no column prefetch, on one or
// two threads (6x4243x1434 0.89x -> 0.95x libxsmm; gen's objects, drawn
// shapes of 3-6 rows: 1 thread 12 shapes geomean 1.101, 2 threads 10
// shapes 1.173; "Zen 5 in the forty-fifth session"). Not on teams of
// three, not in blocks of 7 rows or more (7 x 48 lost 37%), not where L2
// holds B, and not on Zen 4 (0: not measured there).
// RUN: %gen_matmul 6 4243 1434 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=WIDEBAND
// RUN: %gen_matmul 6 4243 1434 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" | FileCheck %s --check-prefix=WIDEBAND
// WIDEBAND: kc = 1434, mr = 6, nr = 64, {{.*}}pack_b = "none", {{.*}}prefetch_b = 0>
// RUN: %gen_matmul 6 1444 4668 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=WIDEBAL
// WIDEBAL: kc = 1167, mr = 6, nr = 64, {{.*}}prefetch_b = 0>
// RUN: %gen_matmul 6 4243 1434 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=3" | FileCheck %s --check-prefix=WIDETWO
// RUN: %gen_matmul 6 4243 1434 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=WIDETWO
// WIDETWO: kc = 359, mr = 6, nr = 64, {{.*}}prefetch_b = 0, prefetch_b_cols = 128>
// RUN: %gen_matmul 7 2200 2600 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=SEVEN
// SEVEN: kc = 372, mr = 7, nr = 48, {{.*}}prefetch_b = 0, prefetch_b_cols = 96>
// RUN: %gen_matmul 6 300 600 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=WIDEINL2
// WIDEINL2: kc = 300, mr = 6, nr = 64, {{.*}}prefetch_b = 0>
// From memory (B 60 MB) on one thread too (4x5000x3000 +17% in sketch
// A/B); two threads, which share the memory's bandwidth, keep bands of 125
// two tiles ahead.
// RUN: %gen_matmul 4 5000 3000 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=WIDEMEM
// WIDEMEM: kc = 1500, mr = 4, nr = 96, {{.*}}prefetch_b = 0>
// RUN: %gen_matmul 4 5000 3000 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" | FileCheck %s --check-prefix=WIDEMEM2
// WIDEMEM2: kc = 125, mr = 4, nr = 96, {{.*}}prefetch_b = 0, prefetch_b_cols = 192>
// Not where B's rows pile into few L1 sets (N = 2048: 8 KiB apart, one
// set; 6x2048x8192 lost 20% with the long band): bands of 64 two tiles
// ahead, as annotate-sketch-skinny.mlir's 3x4096x4096.
// RUN: %gen_matmul 6 2048 8192 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=WIDESET
// WIDESET: kc = 64, mr = 6, nr = 64, {{.*}}prefetch_b = 0, prefetch_b_cols = 128>
// The field is checked: 0 to 2^20 rows.
// RUN: mkdir -p %t/range3
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['few_rows_wide_band_rows'] = -4; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/range3/x86-avx512.json
// RUN: %gen_matmul 6 4243 1434 | not tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/range3" 2>&1 | FileCheck %s --check-prefix=RANGE3
// RANGE3: field 'blocking.few_rows_wide_band_rows' is -4.00, outside [0.00, 1048576.00]

// Without the past-L2 field the in-cache value (0) holds past L2 too.
// RUN: mkdir -p %t/absent
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); del h['blocking']['few_rows_prefetch_tiles_past_l2']; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/absent/x86-avx512.json
// RUN: %gen_matmul 33 777 1027 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/absent" | FileCheck %s --check-prefix=ABSENT
// ABSENT: mr = 11, nr = 32, {{.*}}prefetch_b = 0>

// The fields are checked: 0 to 8 tiles.
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['few_rows_prefetch_tiles_in_cache'] = 9; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: %gen_matmul 33 777 1027 | not tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: field 'blocking.few_rows_prefetch_tiles_in_cache' is 9.00, outside [0.00, 8.00]
// RUN: mkdir -p %t/range2
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['few_rows_prefetch_tiles_past_l2'] = -1; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/range2/x86-avx512.json
// RUN: %gen_matmul 33 777 1027 | not tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/range2" 2>&1 | FileCheck %s --check-prefix=RANGE2
// RANGE2: field 'blocking.few_rows_prefetch_tiles_past_l2' is -1.00, outside [0.00, 8.00]
