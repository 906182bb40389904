// KNOWN BUG: the assembly check accepts inline-asm operand references up to
// $11 (it bounds them by the 12 scratch registers it has for x86, not by the
// 7 operands of the microkernel contract), so code naming $7..$11 passes
// the check, is cached, and at codegen silently means a tied input operand.
// XFAIL: *

// RUN: rm -rf %t
// RUN: not env TENSOROP_CACHE_DIR=%t tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%S/Inputs/bad_emitters/operand_seven" 2>&1 | FileCheck %s
// CHECK: error: emitter 'x86_gemm_fma' {{.*}}operand $7 is out of range

func.func @gemm(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}
