// The cache key covers the emitter script and the helper modules it imports
// (python_emitters/tensorop_emit/*.py): after a helper changes, the old
// answer is not served from the cache.

// RUN: rm -rf %t && mkdir -p %t && cp -r %tensorop_src/python_emitters %t/emitters
// RUN: rm -rf %t/emitters/tensorop_emit/__pycache__
// RUN: env TENSOROP_CACHE_DIR=%t/cache tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%t/emitters" -o /dev/null
// Break the helper module: the emitter can no longer produce any kernel.
// RUN: echo 'raise SystemExit("helper module changed")' >> %t/emitters/tensorop_emit/common.py
// Without a cache the pass fails, as it should:
// RUN: not env TENSOROP_CACHE_DIR=%t/fresh-cache tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%t/emitters" 2>&1 | FileCheck %s
// With the old cache it must fail the same way (today it succeeds):
// RUN: not env TENSOROP_CACHE_DIR=%t/cache tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%t/emitters" 2>&1 | FileCheck %s
// CHECK: error: emitter 'x86_gemm_fma' failed (exit 1)
// CHECK-NEXT: helper module changed

func.func @gemm(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}
