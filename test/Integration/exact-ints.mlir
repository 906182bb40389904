// Small integer inputs make every product and partial sum exact in f32, so
// the result must equal the f64 reference bit for bit: any dropped, doubled
// or misplaced term shows up as a non-zero error.
// REQUIRES: host-avx512
// DEFINE: %{run} = tensorop-opt --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>

// RUN: %gen_matmul 1 1 1 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 5 7 1 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 64 64 1 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 5 5 5 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 13 17 19 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 97 131 67 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 96 128 64 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 127 257 513 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 1 131 67 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 97 1 67 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 97 131 67 --values ints --transpose-a --transpose-b | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 97 131 67 --values ints --tensors | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 50 70 37 --values ints --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = %{t512}, source = "test">' | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 50 70 37 --values ints --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 8>, target = %{t512}, source = "test">' | %{run} | FileCheck %s --check-prefix=EXACT

// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
