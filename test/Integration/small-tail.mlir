// JIT tests of the small-GEMM path: A and B read in place, one K block
// (kc >= K), one column tile (nc >= N), and a tail kernel for the N
// remainder (a register block as wide as the remainder in whole vectors),
// chosen by the builtin advisor (no sketch given) and by explicit sketches.
// Sizes 1..small primes hit every kind of remainder: N < 16, N a multiple of
// nr (no tail), remainders of 1, 15, 16+1 and 48-ish lanes, M edges too.
// A and B end at a page followed by an inaccessible one, so a read past
// either crashes. Every element is checked against an f64 reference.
// REQUIRES: host-avx512
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// DEFINE: %{g} = --a-guard-page --b-guard-page

// The builtin advisor's choice (small path).
// RUN: %gen_matmul 1 1 1 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 2 3 5 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 16 16 16 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 13 29 7 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 37 53 71 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 100 100 100 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 127 113 128 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 64 64 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 31 97 11 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT

// Explicit sketches: 5x64 with tails of 1..4 vectors, several row blocks,
// micro order "nm" (the tail in a row loop of its own), and nr = 48.
// DEFINE: %{s5x64} = '#tensorop.sketch<mc = 130, nc = 192, kc = 128, mr = 5, nr = 64, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">'
// DEFINE: %{s5x64nm} = '#tensorop.sketch<mc = 130, nc = 192, kc = 128, mr = 5, nr = 64, loop_order = "mkn", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">'
// RUN: %gen_matmul 11 65 3 %{g} --sketch %{s5x64} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 7 79 13 %{g} --sketch %{s5x64} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 17 113 19 %{g} --sketch %{s5x64} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 23 127 29 %{g} --sketch %{s5x64} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 3 47 2 %{g} --sketch %{s5x64} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 5 128 1 %{g} --sketch %{s5x64} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 19 83 31 %{g} --sketch %{s5x64nm} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 19 83 31 --values ints --sketch %{s5x64nm} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 41 101 43 %{g} --sketch '#tensorop.sketch<mc = 48, nc = 144, kc = 64, mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">' | %{pipe} | %{run} | FileCheck %s

// The tail kernel is there: 100 = 64 + 36 columns -> a 5x64 and a 5x48
// kernel; 128 columns need no tail. (Under hints without the file's N tail
// vectorized along K, kdot_n_tail_min_saving_pct, which computes 100^3's
// last 4 columns apart: test/Transforms/annotate-sketch-n-tail.mlir.)
// RUN: rm -rf %t.nokdot && mkdir -p %t.nokdot
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t.nokdot/x86-avx512.json
// RUN: %gen_matmul 100 100 100 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t.nokdot" --tensorop-apply-sketch | FileCheck %s --check-prefix=TAIL
// RUN: %gen_matmul 17 128 19 --sketch %{s5x64} | tensorop-opt --tensorop-apply-sketch | FileCheck %s --check-prefix=NOTAIL
// TAIL-DAG: pack_a = "none", pack_b = "none"
// TAIL-DAG: tensorop.ukernel "x86_avx512_f32_5x64_u4_explicit_ldb400_lda400"
// TAIL-DAG: tensorop.ukernel "x86_avx512_f32_5x48_u4_explicit_ldb400_lda400"
// NOTAIL: tensorop.ukernel "x86_avx512_f32_5x64_
// NOTAIL-NOT: tensorop.ukernel "x86_avx512_f32_5x{{(16|32|48)}}_

// A one-vector tail takes A as embedded broadcasts (one FMA per element of
// A: an explicit broadcast would take an FP slot of its own), the wider
// block keeps the sketch's explicit ones: 107x80x81 is 6x64 + a 6x16 tail,
// 77x148x59 7x48 + a 7x16 tail (148 = 144 + 4), under hints without the
// file's small_min_tail_accumulators (12 leaves such narrow tails out: 9x48
// and 11x32 there) and N tails vectorized along K (which 148's last 4
// columns would get). Both run numerically below, with the file's blocks and
// with these.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['small_min_tail_accumulators'] = 0; h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: %gen_matmul 107 80 81 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" --tensorop-apply-sketch | FileCheck %s --check-prefix=TAIL1
// RUN: %gen_matmul 77 148 59 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" --tensorop-apply-sketch | FileCheck %s --check-prefix=TAIL1B
// RUN: %gen_matmul 107 80 81 %{g} | tensorop-opt --tensorop-pipeline="target=x86-avx512 hints-dir=%t" | %{run} | FileCheck %s
// RUN: %gen_matmul 77 148 59 %{g} | tensorop-opt --tensorop-pipeline="target=x86-avx512 hints-dir=%t" | %{run} | FileCheck %s
// TAIL1-DAG: tensorop.ukernel "x86_avx512_f32_6x64_u4_explicit_ldb320_lda324"
// TAIL1-DAG: tensorop.ukernel "x86_avx512_f32_6x16_u4_embedded_ldb320_lda324"
// TAIL1B-DAG: tensorop.ukernel "x86_avx512_f32_7x48_u4_explicit_ldb592_lda236"
// TAIL1B-DAG: tensorop.ukernel "x86_avx512_f32_7x16_u4_embedded_ldb592_lda236"
// RUN: %gen_matmul 107 80 81 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 77 148 59 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 33 77 1027 %{g} | %{pipe} | %{run} | FileCheck %s

// Short K (<= 128) and a B that fits half of L2 (BuiltinAdvisor.cpp), the
// other dimensions larger: the same path, one K block, B in place, a tail
// kernel (200x300x100: 5x64 and 5x48 for 300 = 256 + 44). K in 129..512
// with such a B takes it only where the packed block wastes more lanes on
// the N edge (97x67x157: 7x48 and 7x32 for 67 = 48 + 19, not the packed
// 14x16 with a broadcast load per FMA; 200x176x509: 5x64 and 5x48, not
// 16x16); 700x90x400 (7x48 packed or in place, the same lanes) and
// 200x250x400 keep packed B, as do K = 513, a B over half of L2 (128 x
// 1025 floats) and an N in whole 64-column blocks (500x256x64); few rows
// or columns keep their own paths. (With K = 513 and only 13 row tiles,
// 200x100x513, the packed path packs B with the file's hints, its copy
// fused into the first row tile; hints that allow few row tiles to read B
// in place, Zen 4's, do so: annotate-sketch-few-row-tiles.mlir.) Those
// checks of M at most 400 run under a copy of the file without its
// b_in_l2_in_place_max_rows (400), which takes any B in half of L2 in place
// in one K block under 400 rows (200x250x400: 5 x 64 blocks, N's last 58
// columns in a tail kernel; annotate-sketch-b-in-l2.mlir; it runs
// numerically below), without its kdot_n_tail_min_saving_pct (2),
// which computes the last columns of 90, 100 and 67 apart
// (annotate-sketch-n-tail.mlir; those run numerically below too), and
// without its in_place_k_blocks_min_gain_pct (4), which reads a B in
// three quarters of L2 with K above 512 in place in K blocks where the
// packed block wastes more lanes (400x100x513: 6 x 64 at kc 257;
// annotate-sketch-in-place-k-blocks.mlir, tensorop-gen-b-in-l2-k-blocks.test).
// RUN: mkdir -p %t/noinl2
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['b_in_l2_in_place_max_rows'] = 0; h['blocking']['kdot_n_tail_min_saving_pct'] = 0; h['blocking']['in_place_k_blocks_min_gain_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/noinl2/x86-avx512.json
// RUN: %gen_matmul 200 300 100 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" --tensorop-apply-sketch | FileCheck %s --check-prefix=SHORTK
// SHORTK-DAG: mc = 200, nc = 320, kc = 100, mr = 5, nr = 64, {{.*}}pack_a = "none", pack_b = "none"
// SHORTK-DAG: tensorop.ukernel "x86_avx512_f32_5x64_u4_explicit_ldb1200_lda400"
// SHORTK-DAG: tensorop.ukernel "x86_avx512_f32_5x48_u4_explicit_ldb1200_lda400"
// RUN: %gen_matmul 97 67 157 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t.nokdot" --tensorop-apply-sketch | FileCheck %s --check-prefix=MIDK
// MIDK-DAG: mc = 98, nc = 96, kc = 157, mr = 7, nr = 48, {{.*}}pack_a = "none", pack_b = "none"
// MIDK-DAG: tensorop.ukernel "x86_avx512_f32_7x48_u4_explicit_ldb268_lda628"
// MIDK-DAG: tensorop.ukernel "x86_avx512_f32_7x32_u4_explicit_ldb268_lda628"
// RUN: %gen_matmul 200 176 509 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=MIDK509
// MIDK509: kc = 509, mr = 5, nr = 64, {{.*}}pack_a = "none", pack_b = "none"
// RUN: %gen_matmul 700 90 400 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t.nokdot" | FileCheck %s --check-prefix=LONGK
// RUN: %gen_matmul 200 250 400 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/noinl2" | FileCheck %s --check-prefix=LONGK
// RUN: %gen_matmul 400 100 513 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/noinl2" | FileCheck %s --check-prefix=LONGK
// RUN: %gen_matmul 200 100 513 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/noinl2" | FileCheck %s --check-prefix=FEWTILES
// FEWTILES: kc = 171, mr = 16, nr = 16, {{.*}}pack_a = "none", pack_b = "kmajor_nr_fused", {{.*}}prefetch_b_cols = 32>
// RUN: %gen_matmul 200 1025 128 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=LONGK
// RUN: %gen_matmul 500 256 64 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=LONGK
// LONGK: pack_b = "kmajor_nr{{(_fused)?}}"
// RUN: %gen_matmul 200 250 400 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=INL2
// INL2: kc = 400, mr = 5, nr = 64, {{.*}}pack_a = "none", pack_b = "none"
// RUN: %gen_matmul 200 250 400 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 200 300 100 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 41 1024 128 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 333 17 37 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 150 251 3 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 67 157 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 200 176 509 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 67 176 255 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 129 161 67 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
