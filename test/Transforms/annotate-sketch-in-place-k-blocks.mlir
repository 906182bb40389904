// B in three quarters of L2 but past the one-K-block in-place limits (K
// above 512, or B in more than half of L2), with M past the few-rows and
// B-in-L2 paths: the packed path pads N to whole blocks and falls back to
// one-vector blocks (1399x173x1019: 16 x 16 embedded, 0.95x the best
// library), so B is read in place in K blocks of the L1-sized kc, N's
// remainder in a tail kernel, where the packed block wastes at least 4
// points more of its lanes and the in-place block has three or four
// vectors (6 x 64 at kc 510: 1.02x). Not one K block, whatever
// one_k_block_max_k says. Two-vector blocks keep B packed (3046x401x382:
// 14 x 32 either way, in place lost 1-3%), as do a smaller gain
// (4607x500x277: 6 x 64, 3 points), a B past three quarters of L2
// (2000x150x1500, 879 KiB), and teams of more than two threads (not
// measured; two threads read B in place too: 14 shapes 1.108). The points
// are the hints' blocking.in_place_k_blocks_min_gain_pct (the file's 4,
// measured on Zen 5); absent, or Zen 4's 0 (Targets/host.mlir), B stays
// packed.
// RUN: rm -rf %t && mkdir -p %t/absent
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); del h['blocking']['in_place_k_blocks_min_gain_pct']; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/absent/x86-avx512.json
// RUN: %gen_matmul 1399 173 1019 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/absent" | FileCheck %s --check-prefix=PACKED
// PACKED: mr = 16, nr = 16, {{.*}}pack_b = "kmajor_nr_fused"
// RUN: %gen_matmul 1399 173 1019 | not tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%S/../Targets/Inputs/bad_hints_in_place_k_blocks" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: field 'blocking.in_place_k_blocks_min_gain_pct' is 101{{(\.0+)?}}, outside [0{{(\.0+)?}}, 100{{(\.0+)?}}]
// RUN: %gen_matmul 1399 173 1019 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=INPLACE
// INPLACE: mc = 1404, nc = 192, kc = 510, mr = 6, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// RUN: %gen_matmul 1399 173 1019 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" 2>/dev/null | FileCheck %s --check-prefix=PAIR
// PAIR: mc = 1404, nc = 192, kc = 510, mr = 6, nr = 64, {{.*}}pack_b = "none"{{.*}}threads = 2>
// RUN: %gen_matmul 1399 173 1019 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=3" 2>/dev/null | FileCheck %s --check-prefix=TEAM
// TEAM: mr = 16, nr = 16, {{.*}}pack_b = "kmajor_nr_fused"{{.*}}threads = 3>
// RUN: %gen_matmul 3046 401 382 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=TWOVEC
// TWOVEC: kc = 382, mr = 14, nr = 32, {{.*}}pack_b = "kmajor_nr_fused"
// RUN: %gen_matmul 4607 500 277 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=SMALLGAIN
// SMALLGAIN: mr = 6, nr = 64, {{.*}}pack_b = "kmajor_nr_fused"
// RUN: %gen_matmul 2000 150 1500 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=PASTL2
// PASTL2: mr = 9, nr = 48, {{.*}}pack_b = "kmajor_nr"
