// JIT tests of pack_a = "none" on the AVX2 target: A is read in place, each
// M edge (m_rem < mr) with its own K loop that reads m_rem rows only. M
// edges (M < mr, M = 6k + r), primes, K = 1, several cache tiles, A and B
// both unpacked (the B mask's K loops inside each M-edge loop), and
// --a-guard-page: A's last element is the last float of a page followed by
// an inaccessible one, so a load of a row past M crashes the program.
// REQUIRES: host-avx2
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx2"
// DEFINE: %{t2} = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2,+fma,+bmi2", vector_bits = 256, vector_registers = 16>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// 6x16 uses all 16 registers (two broadcast registers): unpacked A needs none more.
// DEFINE: %{s616} = '#tensorop.sketch<mc = 96, nc = 256, kc = 256, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t2}, source = "test">'
// DEFINE: %{s324} = '#tensorop.sketch<mc = 12, nc = 48, kc = 8, mr = 3, nr = 24, loop_order = "nkm", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t2}, source = "test">'
// DEFINE: %{s516} = '#tensorop.sketch<mc = 20, nc = 32, kc = 16, mr = 5, nr = 16, loop_order = "kmn", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t2}, source = "test">'

// RUN: %gen_matmul 97 131 67 --sketch %{s616} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 19 --sketch %{s616} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 1 --sketch %{s616} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 64 1 --values ints --sketch %{s616} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 50 70 37 --sketch %{s324} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --values ints --sketch %{s324} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 44 53 40 --sketch %{s516} | %{pipe} | %{run} | FileCheck %s

// A ends at a page boundary: M edges of 1 (97 = 16*6 + 1), 5 (M < mr),
// 2 (50 = 16*3 + 2), 4 (44 = 8*5 + 4), K = 1; with B in place too.
// RUN: %gen_matmul 97 131 67 --a-guard-page --sketch %{s616} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 5 13 19 --a-guard-page --sketch %{s616} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 9 37 1 --a-guard-page --sketch %{s616} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 50 70 37 --a-guard-page --b-guard-page --sketch %{s324} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD2
// RUN: %gen_matmul 44 53 40 --a-guard-page --b-guard-page --sketch %{s516} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD2

// RUN: %gen_matmul 44 53 40 --sketch %{s516} | %{pipe} | FileCheck %s --check-prefix=NAME
// NAME: x86_avx2_f32_5x16_u4_explicit_ldb212_lda160

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
