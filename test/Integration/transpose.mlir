// Transposed operands through linalg.matmul indexing_maps: A stored K x M,
// B stored N x K, or both; packing absorbs the transposes.
// REQUIRES: host-avx512
// DEFINE: %{run} = tensorop-opt --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>

// RUN: %gen_matmul 97 131 67 --transpose-a | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --transpose-a --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 1 --transpose-a | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 1 --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1 1 --transpose-a --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 5 7 1 --transpose-a | %{run} | FileCheck %s
// RUN: %gen_matmul 5 7 1 --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 5 7 1 --transpose-a --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 127 257 513 --transpose-a | %{run} | FileCheck %s
// RUN: %gen_matmul 127 257 513 --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 127 257 513 --transpose-a --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 96 128 64 --transpose-a | %{run} | FileCheck %s
// RUN: %gen_matmul 96 128 64 --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 96 128 64 --transpose-a --transpose-b | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 19 --transpose-a --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 19 --transpose-b --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --transpose-a --transpose-b --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --transpose-a --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "kmn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = %{t512}, source = "test">' | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --transpose-b --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nmk", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = %{t512}, source = "test">' | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --transpose-a --transpose-b --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "knm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = %{t512}, source = "test">' | %{run} | FileCheck %s

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
