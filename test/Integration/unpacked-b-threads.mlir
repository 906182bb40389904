// JIT tests of pack_b = "none" with 2 threads (see unpacked-b.mlir): every
// element is checked against an f64 reference; with --b-guard-page a read
// past B's last element crashes the program.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// DEFINE: %{ukemb} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 8>
// The builtin advisor's tiles and register block (6x64), B unpacked.
// DEFINE: %{big} = '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">'
// Small tiles: several m, n and k tiles, the last ones partial.
// DEFINE: %{small} = '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test">'

// Two threads: the GEMM is split along M, or along N when the rows are few
// (each thread then reads its own columns of B, the last chunk ending at
// B's last element).
// RUN: %gen_matmul 97 131 67 --b-guard-page --sketch '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 20 200 37 --b-guard-page --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 3 200 37 --values ints --sketch '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=EXACT
// The few-rows sketch (B in place, blocks of 96 and 32 columns): column
// chunks in whole vectors, not blocks (4x1024: 512 + 512; 33x777: 400 +
// 377; 4x1000: 512 + 488), each chunk's last block masked.
// DEFINE: %{few} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 192>
// RUN: %gen_matmul 4 1024 37 --b-guard-page --sketch '#tensorop.sketch<mc = 4, nc = 1056, kc = 16, mr = 4, nr = 96, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{few}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 4 1000 37 --b-guard-page --sketch '#tensorop.sketch<mc = 4, nc = 1056, kc = 16, mr = 4, nr = 96, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{few}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 33 777 103 --b-guard-page --sketch '#tensorop.sketch<mc = 33, nc = 800, kc = 52, mr = 11, nr = 32, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 4 1000 29 --values ints --sketch '#tensorop.sketch<mc = 4, nc = 1056, kc = 29, mr = 4, nr = 96, loop_order = "mnk", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{few}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=EXACT

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
// GUARD:      mprotect: 0{{$}}
// GUARD-NEXT: failures: 0{{$}}
// GUARD-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
