// The few-rows path sweeps a B that L3 holds in long K bands with the
// columns prefetched one tile ahead, and a B from memory in short bands
// two tiles ahead. Emerald Rapids reads its L3 (the socket's, 260 MiB on
// this VM) from one core at 31 GB/s, hardly twice memory's 15: its
// blocking.few_rows_b_cached_max_bytes sends a larger B down the
// from-memory form although L3 holds it. Session 38 set 6 MiB (gen's
// objects against the in-cache form, 1 thread, 12 drawn shapes with B of
// 6.6-15.5 MB, 11 faster, geomean 1.159); session 42 moved it to L2's
// 2 MiB (gen's objects, 1 thread, 12 drawn shapes with B of 2.2-6.3 MB,
// every one faster, geomean 1.183), while teams of threads keep 6 MiB
// (few_rows_b_cached_max_bytes_threaded: on 2 threads B of 2.3-2.7 MB lost
// 3-13% in the from-memory form, and so did N of 460-800 past 3 MiB, to
// 0.80x at 7x795x1000); docs/benchmarks/cpu-gemm-classes.md, "Emerald
// Rapids in the forty-second session". Zen 5, on the same caches, keeps
// the in-cache form.
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/emr 0:1:Data:48K:12:64:0 2:2:Unified:2048K:16:64:0 3:3:Unified:266240K:16:64:0-1
// DEFINE: %{emr} = env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=emeraldrapids
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=znver5

// B 18 MB (K 1500 x N 3000).
// (From memory, 24 rows take bands of 64 on Emerald Rapids:
// few_rows_band_max_rows 36.)
// RUN: %gen_matmul 24 3000 1500 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=MEMORY
// MEMORY: kc = 63, mr = 12, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 64>
// RUN: %gen_matmul 24 3000 1500 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=CACHED
// CACHED: kc = 375, mr = 12, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 32>

// B 4.9 MB: from memory on Emerald Rapids on one thread, in cache on two
// and on Zen 5.
// RUN: %gen_matmul 33 1200 1027 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=MIDB
// MIDB: kc = 61, mr = 11, nr = 32, {{.*}}prefetch_b_cols = 64>
// RUN: %gen_matmul 33 1200 1027 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" 2>&1 | FileCheck %s --check-prefix=SMALLB
// RUN: %gen_matmul 33 1200 1027 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=SMALLB
// SMALLB: kc = 343, mr = 11, nr = 32, {{.*}}prefetch_b_cols = 32>

// B 2.5 MB: from memory on one thread, in cache (past L2: one tile ahead)
// on two.
// RUN: %gen_matmul 33 700 900 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=T1
// T1: kc = 60, mr = 11, nr = 32, {{.*}}prefetch_b_cols = 64>
// RUN: %gen_matmul 33 700 900 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" 2>&1 | FileCheck %s --check-prefix=T2
// T2: kc = 300, mr = 11, nr = 32, {{.*}}prefetch_b_cols = 32>

// B 1.9 MB, in L2: in cache (two tiles ahead).
// RUN: %gen_matmul 33 800 600 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=INL2
// INL2: kc = 300, mr = 11, nr = 32, {{.*}}prefetch_b_cols = 64>

// B 7.2 MB: from memory on Emerald Rapids.
// RUN: %gen_matmul 30 1500 1200 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=MID
// MID: prefetch_b_cols = 64>
