// An N tail in K-vectorized blocks of at most 3 rows (7-13 columns) beside
// a main part of fewer than four vectors reads A a second time, from L3:
// past the file's (Zen 5) blocking.kdot_n_tail_max_a_bytes, 12 MiB, N is
// computed by the broadcast kernel alone (4271x40x1882, A 32 MB: 0.943x ->
// 0.982x libxsmm in same-process sketch A/B; gen's objects over 22 drawn
// shapes: A of 2.5-10.4 MB kept the tail faster in all 6, A of 15.5-32 MB
// ran faster without it in all 13, 10.9-13 MB went both ways:
// docs/benchmarks/cpu-gemm-classes.md, "Zen 5: N tails beside a large A").
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// DEFINE: %{file} = tensorop-opt --tensorop-annotate-sketch="target=x86-avx512"

// Eight columns (two passes) and seven (one pass of 3 rows) past the bound.
// RUN: %gen_matmul 4271 40 1882 | %{file} 2>/dev/null | FileCheck %s --check-prefix=EIGHT
// EIGHT: #tensorop.sketch<mc = 4275, nc = 48, kc = 941, mr = 9, nr = 48,
// EIGHT-NOT: n_tail
// RUN: %gen_matmul 4315 23 1376 | %{file} 2>/dev/null | FileCheck %s --check-prefix=SEVEN
// SEVEN: mr = 14, nr = 32,
// SEVEN-NOT: n_tail

// The bound, 12582912 bytes: 3932 x 800 x 4 = 12582400 keeps its tail of 9
// columns, 3933 x 800 x 4 = 12585600 does not.
// RUN: %gen_matmul 3932 57 800 | %{file} 2>/dev/null | FileCheck %s --check-prefix=KEPT
// KEPT: mr = 9, nr = 48, {{.*}}n_tail = <columns = 9, mr = 3, nr = 9,
// RUN: %gen_matmul 3933 57 800 | %{file} 2>/dev/null | FileCheck %s --check-prefix=PAST
// PAST: mr = 6, nr = 64,
// PAST-NOT: n_tail

// Tails in blocks of 4 rows or more (up to 6 columns) paid beside an A of
// 18-24 MB: kept.
// RUN: %gen_matmul 3833 52 1177 | %{file} 2>/dev/null | FileCheck %s --check-prefix=FOUR
// FOUR: n_tail = <columns = 4, mr = 6, nr = 4,

// Emerald Rapids (cpus.emeraldrapids 0: not measured there) keeps its
// 7-column tail.
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/emr 0:1:Data:48K:12:64:0 2:2:Unified:2048K:16:64:0 3:3:Unified:266240K:16:64:0-1
// RUN: %gen_matmul 4315 23 1376 | env TENSOROP_HOST_SYSFS=%t/emr TENSOROP_HOST_CPU=emeraldrapids tensorop-opt --tensorop-annotate-sketch="target=host" 2>/dev/null | FileCheck %s --check-prefix=EMR
// EMR: mr = 30, nr = 16, {{.*}}n_tail = <columns = 7, mr = 3, nr = 7,

// Two threads: not measured, the tails stay.
// RUN: %gen_matmul 4271 40 1882 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" 2>/dev/null | FileCheck %s --check-prefix=TWO
// TWO: n_tail = <columns = 8, mr = 6, nr = 4,

// The field is checked where the hints are read; 0 keeps every such tail.
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_max_a_bytes'] = -1; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: %gen_matmul 4271 40 1882 | not tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: field 'blocking.kdot_n_tail_max_a_bytes' is -1.00, outside [0.00, 1099511627776.00]
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_max_a_bytes'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: %gen_matmul 4271 40 1882 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" 2>/dev/null | FileCheck %s --check-prefix=OFF
// OFF: n_tail = <columns = 8, mr = 6, nr = 4,
