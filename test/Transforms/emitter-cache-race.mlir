// An emitter script edited while a run uses it: the runner hashes the
// script (the cache key) before python reads it, so the answer python
// prints may come from other text. Such an answer is used but not cached;
// the next run with the original script must get the original kernel.
// Inputs/emitter-race/sitecustomize.py makes the edit at the worst moment.

// RUN: rm -rf %t && mkdir -p %t/cache/emitters && cp -r %tensorop_src/python_emitters %t/emitters
// RUN: rm -rf %t/emitters/tensorop_emit/__pycache__
// RUN: cp %t/emitters/x86_gemm_fma.py %t/x86_gemm_fma.py.orig

// The script is edited after it was hashed: the edited one ran ...
// RUN: env PYTHONPATH=%S/Inputs/emitter-race RACE_SCRIPT=%t/emitters/x86_gemm_fma.py TENSOROP_CACHE_DIR=%t/cache tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%t/emitters" | FileCheck %s --check-prefix=RACED
// RACED: tensorop.ukernel "raced_x86_avx512_f32_6x16_u4_explicit"
// ... and nothing was cached under the original text's key:
// RUN: find %t/cache/emitters -type f | count 0
// With the original script back, its own kernel:
// RUN: cp %t/x86_gemm_fma.py.orig %t/emitters/x86_gemm_fma.py
// RUN: env TENSOROP_CACHE_DIR=%t/cache tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%t/emitters" | FileCheck %s
// RUN: find %t/cache/emitters -type f | count 1

// Edited and put back byte for byte before python exits: the text read
// before and after the run is the same, the answer is still the edited one's.
// RUN: rm -rf %t/cache && mkdir -p %t/cache/emitters
// RUN: env PYTHONPATH=%S/Inputs/emitter-race RACE_SCRIPT=%t/emitters/x86_gemm_fma.py RACE_RESTORE=1 TENSOROP_CACHE_DIR=%t/cache tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%t/emitters" | FileCheck %s --check-prefix=RACED
// RUN: cmp %t/x86_gemm_fma.py.orig %t/emitters/x86_gemm_fma.py
// RUN: find %t/cache/emitters -type f | count 0
// RUN: env TENSOROP_CACHE_DIR=%t/cache tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%t/emitters" | FileCheck %s

// An unedited run is cached as before (served without python3 on PATH).
// RUN: mkdir -p %t/empty-path
// RUN: env TENSOROP_CACHE_DIR=%t/cache PATH=%t/empty-path tensorop-opt %s --tensorop-apply-sketch="emitter-dir=%t/emitters" | FileCheck %s

// CHECK-NOT: raced_
// CHECK: tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-NOT: raced_
func.func @gemm(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}
