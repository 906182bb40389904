// On the small path A is read in place and an M edge tile computes its own
// rows only, so it costs its rows, not a whole block. One-vector blocks may
// take up to 30 rows and so fit M = 19..22 with no edge tile, while every
// multi-vector block (at most 16 rows) has one: counted in whole blocks, a
// 22 x 16 block with a broadcast load per FMA won; counted by rows, 9 x 48
// does, and ran 1.07-1.23x faster on Zen 5 over 24 such shapes
// (docs/benchmarks/cpu-gemm-classes.md, "Zen 5: one-vector blocks of M
// rows"). Zen 4 (fewer FMA chains needed) keeps its two-vector blocks.
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5

// RUN: %gen_matmul 22 41 119 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=A5
// A5: mr = 9, nr = 48, {{.*}} pack_a = "none", pack_b = "none", {{.*}}broadcast = "explicit"
// RUN: %gen_matmul 19 72 51 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=B5
// B5: mr = 7, nr = 48, {{.*}}broadcast = "explicit"
// RUN: %gen_matmul 22 41 119 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=A4
// A4: mr = 11, nr = 32,

// Where M divides into whole multi-vector blocks nothing changes: 24 rows
// in three 8 x 48 tiles.
// RUN: %gen_matmul 24 41 119 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=C5
// C5: mr = 8, nr = 48,
