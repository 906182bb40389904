// A sketch already on the op (written by hand or by an earlier run) is kept
// when it is for the pipeline's target; one for another target is an error
// naming both (F6 of issue 12: RVV or NEON code under target=host failed
// only in the JIT, an AVX-512 sketch under target=x86-avx2 emitted zmm code).
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" -verify-diagnostics | FileCheck %s
// RUN: not tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: not tensorop-opt %s -split-input-file --tensorop-pipeline="target=host" 2>&1 | FileCheck %s --check-prefix=HOST

// CHECK-LABEL: func.func @keeps_existing_sketch
// CHECK:       linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 8>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "user">}
// CHECK-SAME:  memref<50x37xf32>
// CHECK:       linalg.matmul {tensorop.sketch = #tensorop.sketch<
// CHECK-SAME:    target = <name = "x86-avx512"
// CHECK-SAME:    source = "builtin">}
// CHECK-SAME:  memref<8x8xf32>
func.func @keeps_existing_sketch(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>,
                                 %D: memref<8x8xf32>, %E: memref<8x8xf32>, %F: memref<8x8xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 8>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "user">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  linalg.matmul ins(%D, %E : memref<8x8xf32>, memref<8x8xf32>) outs(%F : memref<8x8xf32>)
  return
}
// AVX2: error: tensorop: the sketch is for target 'x86-avx512' but the pipeline compiles for 'x86-avx2'

// -----

func.func @rvv_sketch(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "riscv_gemm_rvv", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "riscv-rvv", triple = "riscv64-unknown-linux-gnu", cpu = "spacemit-x60", features = "+m,+a,+f,+d,+c,+v,-zvl256b", vector_bits = 128, vector_registers = 32>, source = "user">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}
// expected-error @-4 {{tensorop: the sketch is for target 'riscv-rvv' but the pipeline compiles for 'x86-avx}}
// AVX2: error: tensorop: the sketch is for target 'riscv-rvv' but the pipeline compiles for 'x86-avx2'
// HOST: error: tensorop: the sketch is for target 'riscv-rvv' but the pipeline compiles for 'x86-avx{{512|2}}' (target=host)

// -----

func.func @neon_sketch(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 8, nc = 16, kc = 8, mr = 4, nr = 8, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "arm_gemm_neon", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "neoverse-n1", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "user">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}
// expected-error @-4 {{tensorop: the sketch is for target 'arm-neon' but the pipeline compiles for 'x86-avx}}
// AVX2: error: tensorop: the sketch is for target 'arm-neon' but the pipeline compiles for 'x86-avx2'
// HOST: error: tensorop: the sketch is for target 'arm-neon' but the pipeline compiles for 'x86-avx{{512|2}}' (target=host)
