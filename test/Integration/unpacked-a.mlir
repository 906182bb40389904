// JIT tests of pack_a = "none" (the microkernel reads A in place): M edges
// (M not a multiple of mr, M < mr), primes, K = 1, several cache tiles with
// partial last ones, loop orders that revisit an A tile, A and B both
// unpacked, and --a-guard-page: A's last element is the last float of a page
// followed by an inaccessible one, so a load of a row past M on the M edge
// crashes the program. Every element is checked against an f64 reference.
// REQUIRES: host-avx512
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// DEFINE: %{ukemb} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 8>
// The builtin advisor's tiles and register block (6x64), A unpacked.
// DEFINE: %{big} = '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test">'
// Small tiles: several m, n and k tiles, the last ones partial.
// DEFINE: %{small} = '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test">'
// A and B both read in place.
// DEFINE: %{both} = '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">'
// DEFINE: %{bothsmall} = '#tensorop.sketch<mc = 14, nc = 64, kc = 16, mr = 14, nr = 32, loop_order = "kmn", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = %{ukemb}, target = %{t512}, source = "test">'

// RUN: %gen_matmul 97 131 67 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 127 1000 513 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 19 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 1 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 5 7 300 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 131 97 1 --values ints --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 50 70 37 --sketch %{small} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --values ints --sketch %{small} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 50 70 37 --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "knm", micro_order = "nm", pack_a = "none", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test">' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 41 150 29 --sketch '#tensorop.sketch<mc = 16, nc = 96, kc = 16, mr = 8, nr = 48, loop_order = "nmk", micro_order = "nm", pack_a = "none", pack_b = "kmajor_nr", ukernel = %{ukemb}, target = %{t512}, source = "test">' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 59 40 45 --sketch '#tensorop.sketch<mc = 56, nc = 16, kc = 45, mr = 28, nr = 16, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = %{ukemb}, target = %{t512}, source = "test">' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --sketch %{both} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 37 100 50 --values ints --sketch %{bothsmall} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT

// A ends at a page boundary: M edges of 1 (97 = 16*6 + 1), 5 (M < mr),
// 3 (33 = 12 + 12 + 6 + 3), 13 of 14 and 3 of 28 (59 = 2*28 + 3), K = 1.
// RUN: %gen_matmul 97 131 67 --a-guard-page --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 5 13 19 --a-guard-page --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 33 65 7 --a-guard-page --sketch %{small} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 9 37 1 --a-guard-page --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 59 40 45 --a-guard-page --sketch '#tensorop.sketch<mc = 56, nc = 16, kc = 45, mr = 28, nr = 16, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = %{ukemb}, target = %{t512}, source = "test">' | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// Both A and B end at a page boundary, both read in place.
// RUN: %gen_matmul 97 131 67 --a-guard-page --b-guard-page --sketch %{both} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD2
// RUN: %gen_matmul 27 45 20 --a-guard-page --b-guard-page --sketch %{bothsmall} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD2

// The kernels were emitted for A's row stride (67 floats) and B's (131).
// RUN: %gen_matmul 97 131 67 --sketch %{both} | %{pipe} | FileCheck %s --check-prefix=NAME
// NAME: x86_avx512_f32_6x64_u4_explicit_ldb524_lda268

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
// GUARD:      mprotect: 0{{$}}
// GUARD-NEXT: failures: 0{{$}}
// GUARD-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// GUARD2:      mprotect: 0{{$}}
// GUARD2-NEXT: mprotect: 0{{$}}
// GUARD2-NEXT: failures: 0{{$}}
// GUARD2-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
