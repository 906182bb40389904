// JIT tests of pack_b = "none" (the microkernel reads B in place): N edges
// (N not a multiple of nr, N < nr), primes, K = 1, M edges, several cache
// tiles with partial last ones, loop orders that revisit a B tile, and
// --b-guard-page: B's last element is the last float of a page
// followed by an inaccessible one, so a B load past the matrix on the N edge
// crashes the program. Every element is checked against an f64 reference.
// REQUIRES: host-avx512
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// DEFINE: %{ukemb} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 8>
// The builtin advisor's tiles and register block (6x64), B unpacked.
// DEFINE: %{big} = '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">'
// Small tiles: several m, n and k tiles, the last ones partial.
// DEFINE: %{small} = '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">'

// RUN: %gen_matmul 97 131 67 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 127 1000 513 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 19 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 1 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 7 5 300 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 64 1 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 131 97 1 --values ints --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 50 70 37 --sketch %{small} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --values ints --sketch %{small} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 50 70 37 --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "knm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 41 150 29 --sketch '#tensorop.sketch<mc = 16, nc = 96, kc = 16, mr = 8, nr = 48, loop_order = "nmk", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{ukemb}, target = %{t512}, source = "test">' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 5 300 11 --sketch '#tensorop.sketch<mc = 4, nc = 224, kc = 4, mr = 2, nr = 112, loop_order = "mnk", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">' | %{pipe} | %{run} | FileCheck %s

// B ends at a page boundary: N edges of 5 (N < nr), 3 (131 = 2*64 + 3) and
// 1 column, K = 1.
// RUN: %gen_matmul 13 5 19 --b-guard-page --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 97 131 67 --b-guard-page --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 33 65 7 --b-guard-page --sketch %{small} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 9 37 1 --b-guard-page --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD

// The builtin advisor's own sketch where few row tiles share each B block
// and the hints read B in place for them (b_in_place_max_row_tiles 20, Zen
// 4's): A and B in place, B's next tiles prefetched (prefetch_b_cols), two
// or more K blocks, several N blocks with a partial last one (8 x 48, 16
// tiles; 13 x 32, N edge of 9). The shipped file (Zen 5's) packs B there.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['b_in_place_max_row_tiles'] = 20; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/x86-avx512.json
// RUN: %gen_matmul 127 1000 513 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" | FileCheck %s --check-prefix=INPLACE
// RUN: %gen_matmul 130 777 999 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t" | FileCheck %s --check-prefix=INPLACE
// RUN: %gen_matmul 127 1000 513 --b-guard-page | tensorop-opt --tensorop-pipeline="target=x86-avx512 hints-dir=%t" | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 130 777 999 --b-guard-page | tensorop-opt --tensorop-pipeline="target=x86-avx512 hints-dir=%t" | %{run} | FileCheck %s --check-prefix=GUARD
// INPLACE: pack_a = "none", pack_b = "none", {{.*}}prefetch_b_cols =

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
// GUARD:      mprotect: 0{{$}}
// GUARD-NEXT: failures: 0{{$}}
// GUARD-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
