// How a GEMV reads B is a per-CPU fact (hints/x86-avx512.json "gemv"):
// Zen 4 (cpus.znver4.gemv: rows 2, band_vectors 3, bands_in_l3 true)
// sweeps B in bands of 16 rows (kc 16) with 3-vector tiles and no
// software prefetch for one or two rows of C, B in L3 or not; Zen 5 and
// the named target keep the file's defaults: one or two rows walk down K
// (kc 500, B prefetched 32 rows ahead) with B in L3, three or more take
// the few-rows path (bands of 128 rows, column prefetch).
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

// Two rows: Zen 4's gemv.rows (4 lost 2-3x at 2 threads, quiet: 4x1024x4096
// 81.6 -> 36.5 GFLOP/s); four keep the few-rows path there too.
// RUN: %gen_matmul 2 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=TWO4
// TWO4: mc = 2, nc = 2016, kc = 16, mr = 2, nr = 48, {{.*}}k_unroll = 1, broadcast = "explicit", prefetch_b = 0>
// RUN: %gen_matmul 4 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=FOUR4
// FOUR4: mc = 4, nc = 2016, kc = 125, mr = 4, nr = 96, {{.*}}prefetch_b_cols = 192>
// RUN: %gen_matmul 4 2000 3000 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=FOUR5
// FOUR5: mc = 4, nc = 2016, kc = 125, mr = 4, nr = 96, {{.*}}prefetch_b_cols = 192>
// RUN: %gen_matmul 5 2000 3000 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=FIVE4
// FIVE4: mc = 5, nc = {{[0-9]+}}, kc = 125, mr = 5,
