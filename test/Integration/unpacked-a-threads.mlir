// JIT tests of pack_a = "none" with 2 threads (see unpacked-a.mlir), alone
// and with pack_b = "none" (then no thread packs anything): every element
// is checked against an f64 reference; with --a-guard-page a read of a row
// past A's last crashes the program.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>

// Two threads: the GEMM is split along M (the last chunk's rows end at A's
// last element), or along N when the rows are few.
// RUN: %gen_matmul 97 131 67 --a-guard-page --sketch '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 20 200 37 --a-guard-page --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "none", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 97 131 67 --a-guard-page --b-guard-page --sketch '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=GUARD2
// RUN: %gen_matmul 3 200 37 --values ints --sketch '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | %{run},%libomp | FileCheck %s --check-prefix=EXACT

// With nothing packed, the team is still sized by the sketch (2 threads for
// 2 chunks), not left to the runtime's default.
// RUN: %gen_matmul 97 131 67 --sketch '#tensorop.sketch<mc = 96, nc = 256, kc = 384, mr = 6, nr = 64, loop_order = "nkm", micro_order = "mn", pack_a = "none", pack_b = "none", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | %{pipe} | FileCheck %s --check-prefix=TEAM
// TEAM: omp.parallel num_threads

// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
// GUARD:      mprotect: 0{{$}}
// GUARD-NEXT: failures: 0{{$}}
// GUARD-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// GUARD2:      mprotect: 0{{$}}
// GUARD2-NEXT: mprotect: 0{{$}}
// GUARD2-NEXT: failures: 0{{$}}
// GUARD2-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
