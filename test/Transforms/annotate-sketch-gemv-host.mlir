// How a GEMV reads B is a per-CPU fact (hints/x86-avx512.json "gemv"):
// Zen 4 (cpus.znver4.gemv: rows 4, rows_threaded 2, band_vectors 3,
// bands_in_l3 true) sweeps B in bands of 16 rows (kc 16) with 3-vector
// tiles and no software prefetch for up to four rows of C on one thread,
// two on a team of threads, B in L3 or not; Zen 5 and
// the named target keep the file's defaults: one or two rows walk down K
// (kc 500, B prefetched 32 rows ahead) with B in L3, three or more take
// the few-rows path (B in L3: bands of up to 384 rows, 375 here; column
// prefetch).
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5

// One row, B (24 MB) in L3.
// RUN: %gen_matmul 1 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=ONE4
// ONE4: mc = 1, nc = 2016, kc = 16, mr = 1, nr = 48, {{.*}}k_unroll = 1, broadcast = "explicit", prefetch_b = 0>
// RUN: %gen_matmul 1 2000 3000 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=ONE5
// RUN: %gen_matmul 1 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=ONE5
// ONE5: mc = 1, nc = 2016, kc = 500, mr = 1, nr = 112, {{.*}}prefetch_b = 32>

// Two rows: the GEMV form on one thread and on a team.
// RUN: %gen_matmul 2 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=TWO4
// RUN: %gen_matmul 2 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" | FileCheck %s --check-prefix=TWO4
// TWO4: mc = 2, nc = 2016, kc = 16, mr = 2, nr = 48, {{.*}}k_unroll = 1, broadcast = "explicit", prefetch_b = 0>

// Three and four rows: Zen 4's gemv.rows 4 at one thread (4x1024x4096
// 2.12x the best library), its gemv.rows_threaded 2 on a team (four rows
// lost 2-3x at 2 threads, quiet: 4x1024x4096 81.6 -> 36.5 GFLOP/s): the
// few-rows path there, as on Zen 5 at any thread count. The team is
// decided before the advisor, and a remark says which hint decided.
// RUN: %gen_matmul 4 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=FOUR4
// FOUR4: remark: tensorop: advisor 'builtin': 4 rows of C on 1 thread: the GEMV form (gemv.rows 4 at one thread; gemv.rows_threaded 2 on a team of threads)
// FOUR4: mc = 4, nc = 2016, kc = 16, mr = 4, nr = 48, {{.*}}k_unroll = 1, broadcast = "explicit", prefetch_b = 0>
// RUN: %gen_matmul 3 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=THREE4
// THREE4: remark: tensorop: advisor 'builtin': 3 rows of C on 1 thread: the GEMV form (gemv.rows 4 at one thread; gemv.rows_threaded 2 on a team of threads)
// THREE4: mc = 3, nc = 2016, kc = 16, mr = 3, nr = 48, {{.*}}k_unroll = 1, broadcast = "explicit", prefetch_b = 0>
// RUN: %gen_matmul 4 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" 2>&1 | FileCheck %s --check-prefix=FOUR4T
// FOUR4T: remark: tensorop: advisor 'builtin': 4 rows of C on 2 threads: not the GEMV form (gemv.rows_threaded 2 on a team of threads; gemv.rows 4 at one thread)
// FOUR4T: mc = 4, nc = 2016, kc = 375, mr = 4, nr = 96, {{.*}}prefetch_b_cols = 192>{{.*}}threads = 2>
// Zen 5 has one figure for both: nothing to say. (Its few-rows block of 4
// x 96 over a B in L3 takes the long band without a column prefetch:
// blocking.few_rows_wide_band_rows, annotate-sketch-few-rows-prefetch.mlir.)
// RUN: %gen_matmul 4 2000 3000 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=FOUR5 --implicit-check-not="GEMV form"
// RUN: %gen_matmul 4 2000 3000 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" 2>&1 | FileCheck %s --check-prefix=FOUR5 --implicit-check-not="GEMV form"
// FOUR5: mc = 4, nc = 2016, kc = 1500, mr = 4, nr = 96, {{.*}}prefetch_b = 0>
// RUN: %gen_matmul 5 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=FIVE4 --implicit-check-not="GEMV form"
// FIVE4: mc = 5, nc = {{[0-9]+}}, kc = 375, mr = 5,

// One row, B (64 MB) from memory, its rows 16 KB apart (one L1 set): Zen 4
// (gemv.column_prefetch false, blocking.band_rows_per_l1_set 0) sweeps
// bands of 16 rows with no software prefetch; Zen 5 (the file's true and
// 12) bands of 12 rows, each row's tiles prefetched two ahead.
// RUN: %gen_matmul 1 4096 4096 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=MEM4
// MEM4: mc = 1, nc = {{[0-9]+}}, kc = 16, mr = 1, nr = 48, {{.*}}k_unroll = 1, broadcast = "explicit", prefetch_b = 0>
// RUN: %gen_matmul 1 4096 4096 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=MEM5
// MEM5: mc = 1, nc = {{[0-9]+}}, kc = 12, mr = 1, nr = 112, {{.*}}prefetch_b = 0, prefetch_b_cols = 224>
