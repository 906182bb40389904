// N within one register block's columns on the packed path, A read in
// place, one thread: each element of A serves one block's FMAs only, so K
// blocks take as much of L2 as the packed B block may (the file's quarter:
// kc 1799 of 5396 for 14 x 32 blocks, where A's micro-panel in a third of
// L1 gave 284, 18 cache lines of each of A's rows per block, too short a
// stream for the hardware prefetchers with A from memory: 5137x29x5396
// 0.96x -> 1.05x the best library through gen's objects). The M block
// stays whole. Two threads take it too (11 shapes 1.020 through gen's
// objects); teams of more than two keep the L1-sized kc (not measured), as
// does an N wider than one block. Numerically:
// tensorop-gen-b-in-l2-k-blocks.test.
// RUN: %gen_matmul 5137 29 5396 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=ONE
// ONE: mc = 5138, nc = 32, kc = 1799, mr = 14, nr = 32, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr"
// RUN: %gen_matmul 5137 29 5396 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" 2>/dev/null | FileCheck %s --check-prefix=PAIR
// PAIR: mc = 5138, nc = 32, kc = 1799, mr = 14, nr = 32,{{.*}}threads = 2>
// RUN: %gen_matmul 5137 29 5396 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=3" 2>/dev/null | FileCheck %s --check-prefix=TEAM
// TEAM: mc = 5138, nc = 32, kc = 284, mr = 14, nr = 32,{{.*}}threads = 3>
// RUN: %gen_matmul 3000 100 3000 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=WIDE
// WIDE: nc = 112, kc = 250, mr = 16, nr = 16,
