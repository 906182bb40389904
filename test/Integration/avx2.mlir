// The AVX2 target: ymm microkernels with masked edges (vmaskmovps).
// REQUIRES: host-avx2
// DEFINE: %{run} = tensorop-opt --tensorop-pipeline="target=x86-avx2" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{t2} = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2,+fma,+bmi2", vector_bits = 256, vector_registers = 16>

// RUN: %gen_matmul 1 1 1 | %{run} | FileCheck %s
// RUN: %gen_matmul 5 7 1 | %{run} | FileCheck %s
// RUN: %gen_matmul 64 64 1 | %{run} | FileCheck %s
// RUN: %gen_matmul 13 17 19 | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 | %{run} | FileCheck %s
// RUN: %gen_matmul 96 128 64 | %{run} | FileCheck %s
// RUN: %gen_matmul 127 257 513 | %{run} | FileCheck %s
// RUN: %gen_matmul 1 131 67 | %{run} | FileCheck %s
// RUN: %gen_matmul 97 1 67 | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --transpose-a | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --transpose-b --tensors | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --values ints --transpose-a --transpose-b | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 96 128 64 --values ints | %{run} | FileCheck %s --check-prefix=EXACT
// Hand-written AVX2 sketches: several register blocks, loop orders and
// k unrolls, on a GEMM spanning several cache tiles.
// RUN: %gen_matmul 50 70 37 --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = %{t2}, source = "test">' | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --sketch '#tensorop.sketch<mc = 12, nc = 48, kc = 8, mr = 4, nr = 24, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 1, broadcast = "explicit", prefetch_b = 0>, target = %{t2}, source = "test">' | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --sketch '#tensorop.sketch<mc = 3, nc = 8, kc = 5, mr = 1, nr = 8, loop_order = "kmn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "explicit", prefetch_b = 0>, target = %{t2}, source = "test">' | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --sketch '#tensorop.sketch<mc = 14, nc = 16, kc = 16, mr = 7, nr = 8, loop_order = "nmk", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 8, broadcast = "explicit", prefetch_b = 8>, target = %{t2}, source = "test">' | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --values ints --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "knm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = %{t2}, source = "test">' | %{run} | FileCheck %s --check-prefix=EXACT

// The code is AVX2 code.
// RUN: %gen_matmul 97 131 67 | tensorop-opt --tensorop-pipeline="target=x86-avx2" | FileCheck %s --check-prefix=ASM
// ASM: llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "  # x86_avx2_f32_{{.*}}vfmadd231ps {{.*}}%ymm
// ASM-NOT: zmm

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
