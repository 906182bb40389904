// N's remainder (N mod 16 columns) by the kernel vectorized along K: the
// broadcast kernels spend a whole vector per row and k step on it, mostly
// idle lanes (84x34x131: 14 of every 48), the x86_gemm_kdot kernel about
// columns * (K/16 + 2) vector instructions per row plus B's transposed
// copy. The builtin takes such an N tail (#tensorop.n_tail) where its
// estimate saves at least blocking.kdot_n_tail_min_saving_pct percent (the
// file's 2, Zen 5; 84x34x131 +25% through the same process,
// docs/benchmarks/cpu-gemm-classes.md, "Zen 5: N tails vectorized along
// K"); the rest of the sketch is then the builtin's for the first
// N - columns columns (84x32x131: 14 x 32).
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{file} = tensorop-opt --tensorop-annotate-sketch="target=x86-avx512"

// RUN: %gen_matmul 84 34 131 | %{file} 2>/dev/null | FileCheck %s --check-prefix=TWO
// TWO: #tensorop.sketch<mc = 84, nc = 32, kc = 131, mr = 14, nr = 32, {{.*}}pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", {{.*}}source = "builtin", n_tail = <columns = 2, mr = 12, nr = 2, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>

// Eight columns go in two blocks of 4 (as a GEMM of 8 columns does); an A
// larger than L2 is prefetched as it streams.
// RUN: %gen_matmul 300 40 300 | %{file} 2>/dev/null | FileCheck %s --check-prefix=EIGHT
// EIGHT: mr = 12, nr = 32, {{.*}}n_tail = <columns = 8, mr = 6, nr = 4, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0>>>
// RUN: %gen_matmul 1000 100 1000 | %{file} 2>/dev/null | FileCheck %s --check-prefix=STREAM
// STREAM: n_tail = <columns = 4, mr = 6, nr = 4, ukernel = <emitter = "x86_gemm_kdot", k_unroll = 2, broadcast = "none", prefetch_b = 0, prefetch_a = 256>>>

// No tail: a remainder that is a small share of a wide N (500x1000x500,
// about 0.7%: -3% when forced), small GEMMs whose B copy outweighs the
// lanes saved (24x120x96: -8%; 37x53x71: -1%, the copy at five vector
// slots per element), an A that L3 does not hold (the tail reads
// it again: 5000x34x3000 -6%), few rows, A transposed, and Zen 4 (not
// measured there: its last vector of at most 8 columns is a ymm at half
// cost).
// RUN: %gen_matmul 500 1000 500 | %{file} 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: %gen_matmul 24 120 96 | %{file} 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: %gen_matmul 37 53 71 | %{file} 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: %gen_matmul 5000 34 3000 | %{file} 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: %gen_matmul 16 40 300 | %{file} 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: %gen_matmul 84 34 131 --transpose-a | %{file} 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: %gen_matmul 84 34 131 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" 2>/dev/null | FileCheck %s --check-prefix=NONE
// NONE: tensorop.sketch = #tensorop.sketch<
// NONE-NOT: n_tail

// On a team the tail is a fork and join more: 300x40x300 saves too little
// for one (0.86x -> 0.74x oneDNN at 2 threads); 1000x100x1000 runs its
// tail on both threads too.
// RUN: %gen_matmul 300 40 300 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" 2>/dev/null | FileCheck %s --check-prefix=NONE
// RUN: %gen_matmul 1000 100 1000 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" 2>/dev/null | FileCheck %s --check-prefix=TEAM
// TEAM: source = "builtin", threads = 2, n_tail = <columns = 4, mr = 6, nr = 4, {{.*}}threads = 2>>

// The field is checked: 0 to 100 percent; 0 takes no tail.
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_min_saving_pct'] = 101; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: %gen_matmul 84 34 131 | not tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: field 'blocking.kdot_n_tail_min_saving_pct' is 101.00, outside [0.00, 100.00]
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: %gen_matmul 84 34 131 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" 2>/dev/null | FileCheck %s --check-prefix=OFF
// OFF: mr = 7, nr = 48,
// OFF-NOT: n_tail
