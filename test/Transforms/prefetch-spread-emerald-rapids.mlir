// Emerald Rapids' blocking.few_rows_prefetch_spread 4 (x86-avx512.json,
// cpus.emeraldrapids): where a sketch computes each column tile's row blocks
// in turn (micro order "nm") and prefetches B's rows two or more tiles
// ahead, row block b runs the kernel of phase b mod P, which issues only
// the prefetches of the unrolled k steps u with u mod P = phase, P =
// min(4, row blocks, k_unroll): the tiles ahead are asked for across all
// the row blocks, not in a burst by the first (docs/benchmarks/
// cpu-gemm-classes.md, "Emerald Rapids in the forty-first session").
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/emr 0:1:Data:48K:12:64:0 2:2:Unified:2048K:16:64:0 3:3:Unified:266240K:16:64:0-1
// DEFINE: %{emr} = env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=emeraldrapids
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=znver5

// 52 rows from memory: 4 row blocks of 13, 4 phases, the block's phase
// (i / 13) mod 4 picks the kernel.
// RUN: %gen_matmul 52 4787 2850 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" --tensorop-apply-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=FOUR
// FOUR:      scf.for %{{.+}} step %c32 {
// FOUR:        scf.for %[[I:[a-z0-9_]+]] = {{.+}} step %c13 {
// FOUR:          %[[BLOCK:.+]] = arith.divui %[[I]], %c13{{(_[0-9]+)?}} : index
// FOUR:          %[[PHASE:.+]] = arith.remui %[[BLOCK]], %c4 : index
// FOUR:          scf.index_switch %[[PHASE]]
// FOUR-NEXT:     case 1 {
// FOUR:            tensorop.ukernel "x86_avx512_f32_13x32_u4_explicit_pfc64p1of4_
// FOUR:          case 2 {
// FOUR:            tensorop.ukernel "x86_avx512_f32_13x32_u4_explicit_pfc64p2of4_
// FOUR:          case 3 {
// FOUR:            tensorop.ukernel "x86_avx512_f32_13x32_u4_explicit_pfc64p3of4_
// FOUR:          default {
// FOUR:            tensorop.ukernel "x86_avx512_f32_13x32_u4_explicit_pfc64p0of4_

// Two threads (columns split: each thread has all 52 rows): the same.
// RUN: %gen_matmul 52 4787 2850 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" --tensorop-apply-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=FOURT2
// FOURT2: tensorop.ukernel "x86_avx512_f32_13x32_u4_explicit_pfc64p3of4_

// Three row blocks of 14: three phases (no phase without a block).
// RUN: %gen_matmul 42 2557 5364 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" --tensorop-apply-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=THREE
// THREE: tensorop.ukernel "x86_avx512_f32_14x32_u4_explicit_pfc64p2of3_
// THREE-NOT: of4_

// B in L3 (2.5 MB on two threads, in cache there up to 6 MiB), prefetched
// one tile ahead: not spread (the last phase's lines would come just
// before their tile).
// RUN: %gen_matmul 50 700 900 | %{emr} tensorop-opt --tensorop-annotate-sketch="target=host threads=2" --tensorop-apply-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=ONEAHEAD
// ONEAHEAD: tensorop.ukernel "x86_avx512_f32_13x32_u4_explicit_pfc32_ldb
// ONEAHEAD-NOT: of{{[0-9]}}_

// Zen 5 (no spread in its file): every row block issues every prefetch.
// RUN: %gen_matmul 52 4787 2850 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host threads=1" --tensorop-apply-sketch="target=host" 2>&1 | FileCheck %s --check-prefix=ZEN5
// ZEN5: tensorop.ukernel "x86_avx512_f32_13x32_u4_explicit_pfc{{[0-9]+}}_ldb
// ZEN5-NOT: of{{[0-9]}}_
