// @gemm on tensors: the pipeline bufferizes it before applying the sketch.
// REQUIRES: host-avx512
// DEFINE: %{run} = tensorop-opt --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>

// RUN: %gen_matmul 1 1 1 --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 5 7 1 --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 19 --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 96 128 64 --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 127 257 513 --tensors | %{run} | FileCheck %s
// A hand-written sketch on the tensor matmul survives bufferization.
// RUN: %gen_matmul 50 70 37 --tensors --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "explicit", prefetch_b = 0>, target = %{t512}, source = "test">' | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --tensors --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "explicit", prefetch_b = 0>, target = %{t512}, source = "test">' | tensorop-opt --tensorop-pipeline="target=x86-avx512" | FileCheck %s --check-prefix=ASM
// ASM: llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "  # x86_avx512_f32_6x16_u3_explicit:

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
