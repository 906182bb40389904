// The builtin advisor scores the N edge of a block that reads B in place
// (a tail kernel for N mod nr) with Zen 4's half-width last vector
// (cpus.znver4.fma.datapath_bits = 256 in hints/x86-avx512.json): a last
// vector of at most 8 columns counts as half a vector, and a tail left
// with fewer vector slots than an explicit broadcast needs FMAs (1.5 for
// 2) costs the 2 (BuiltinAdvisor.cpp, paddedColumns). A Zen 5 host (512)
// and the named target (the file's 512) score whole vectors.
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5
// Zen 5 and the file under hints less kdot_n_tail_min_saving_pct: N tails
// vectorized along K (annotate-sketch-n-tail.mlir) would take 87's last 7
// columns apart.
// RUN: mkdir -p %t/nokdot && %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/nokdot/x86-avx512.json

// Tall, N = 87 = 5 vectors + 7 columns, K 307 with B in half of L2: packed
// 9 x 48 wastes 9 of 96 columns; in place, 9 x 48's tail (39 columns, 2.5
// vector slots) wastes half a vector, and 6 x 64's tail (23 columns, 1.5
// slots) would cost 2 slots for its broadcast.
// RUN: %gen_matmul 8175 87 307 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=TALL4
// TALL4: mr = 9, nr = 48, {{.*}}pack_b = "none"
// RUN: %gen_matmul 8175 87 307 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host hints-dir=%t/nokdot" | FileCheck %s --check-prefix=TALL5
// RUN: %gen_matmul 8175 87 307 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/nokdot" | FileCheck %s --check-prefix=TALL5
// TALL5: mr = 9, nr = 48, {{.*}}pack_b = "kmajor_nr"

// K <= 128 with B in half of L2 (the small path): 139x83x53 (83 = 5 vectors + 3
// columns): 5 x 64's tail of 19 columns (1.5 slots) loses to 7 x 48's (35:
// 2.5 slots) on Zen 4; Zen 5 takes 7 x 48 too, for another reason: 5 x 64's
// 5 x 32 tail has 10 accumulators, under its small_min_tail_accumulators 12.
// RUN: %gen_matmul 139 83 53 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=SMALL4
// SMALL4: mr = 7, nr = 48,
// RUN: %gen_matmul 139 83 53 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=SMALL5
// SMALL5: mr = 7, nr = 48,
