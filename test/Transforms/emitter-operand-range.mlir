// The assembly check bounds operand references by the 7 operands of the
// microkernel contract: $7 and above are rejected.

// RUN: rm -rf %t
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/operand_seven" 2>&1 | FileCheck %s
// CHECK: error: emitter 'x86_gemm_fma' {{.*}}uses operand $7 but the kernel has only 7 operands ($0..$6)

func.func @gemm(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}
