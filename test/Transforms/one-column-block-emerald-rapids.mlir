// Emerald Rapids' blocking.one_column_block_b_l2_pct 45 (x86-avx512.json,
// cpus.emeraldrapids): where N fits one register block's columns and A is
// read in place, the K block takes a packed B block of up to 45% of L2
// (the file's quarter before: 5886x48x4728 in two K blocks of 2364, 0.84x
// libxsmm in a same-process sketch A/B, in one of 4728 1.03-1.04x), but not
// half of it: B blocks of 0.96-1.0 MiB lost 3-7% (4057x32x7856,
// 612x27x7667), so those keep two K blocks (docs/benchmarks/
// cpu-gemm-classes.md, "Emerald Rapids in the forty-second session").
// Zen 5 on the same caches keeps the quarter of L2. Numerically:
// tensorop-gen-b-in-l2-k-blocks.test.
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/emr 0:1:Data:48K:12:64:0 2:2:Unified:2048K:16:64:0 3:3:Unified:266240K:16:64:0-1
// DEFINE: %{emr} = env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=emeraldrapids
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=znver5

// 4728 x 48 floats: 908 KB, 44% of L2: one K block, on one and two threads.
// RUN: %gen_matmul 5886 48 4728 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: %gen_matmul 5886 48 4728 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: mc = 5886, nc = 48, kc = 4728, mr = 9, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr"
// RUN: %gen_matmul 5886 48 4728 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=QUARTER
// QUARTER: mc = 5886, nc = 48, kc = 2364, mr = 9, nr = 48,

// 7856 x 32 floats: 1.0 MB, 48% of L2: two K blocks.
// RUN: %gen_matmul 4057 32 7856 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=HALF
// HALF: mc = 4060, nc = 32, kc = 3928, mr = 14, nr = 32,

// 4635 x 64 floats (1.2 MB) in two K blocks of 593 KB, where the quarter
// of L2 took three.
// RUN: %gen_matmul 538 64 4635 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: mc = 540, nc = 64, kc = 2318, mr = 6, nr = 64,
// RUN: %gen_matmul 538 64 4635 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" 2>&1 | FileCheck %s --check-prefix=THREE
// THREE: mc = 540, nc = 64, kc = 1545, mr = 6, nr = 64,
