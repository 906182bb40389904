// JIT tests of pack_b = "none" on the AVX2 target: B is read in place with
// vmaskmovps on the partial B vector of an N edge (one K loop per position
// of that vector). N edges (N < nr, N = 8k + r), primes, K = 1, several cache
// tiles, and --b-guard-page: B's last element is the last float of a page
// followed by an inaccessible one, so a load past it crashes the program.
// REQUIRES: host-avx2
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx2"
// DEFINE: %{t2} = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2,+fma,+bmi2", vector_bits = 256, vector_registers = 16>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// DEFINE: %{s616} = '#tensorop.sketch<mc = 96, nc = 256, kc = 256, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t2}, source = "test">'
// DEFINE: %{s324} = '#tensorop.sketch<mc = 12, nc = 48, kc = 8, mr = 3, nr = 24, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t2}, source = "test">'

// RUN: %gen_matmul 97 131 67 --sketch %{s616} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 19 --sketch %{s616} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 1 --sketch %{s616} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 64 1 --values ints --sketch %{s616} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 50 70 37 --sketch %{s324} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --values ints --sketch %{s324} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT

// B ends at a page boundary: N edges of 5 (N < nr), 3 (131 = 8*16 + 3), 22
// (70 = 48 + 22: the partial vector is the last of three) and K = 1.
// RUN: %gen_matmul 13 5 19 --b-guard-page --sketch %{s616} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 97 131 67 --b-guard-page --sketch %{s616} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 50 70 37 --b-guard-page --sketch %{s324} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 9 37 1 --b-guard-page --sketch %{s616} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
// GUARD:      mprotect: 0{{$}}
// GUARD-NEXT: failures: 0{{$}}
// GUARD-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
