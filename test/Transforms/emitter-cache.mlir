// Emitter answers are cached on disk by content hash, under
// $TENSOROP_CACHE_DIR/emitters/. A cached answer is used without running the
// script (here: without python3 on PATH); a corrupt entry is never trusted.

// RUN: rm -rf %t && mkdir -p %t/empty-path
// RUN: env TENSOROP_CACHE_DIR=%t/cache tensorop-opt %s --tensorop-apply-sketch -o %t/first.mlir
// RUN: FileCheck %s --input-file=%t/first.mlir
// RUN: find %t/cache/emitters -name '*.json' | count 1

// Served from the cache: python3 cannot be found, the output is the same.
// RUN: env TENSOROP_CACHE_DIR=%t/cache PATH=%t/empty-path tensorop-opt %s --tensorop-apply-sketch -o %t/cached.mlir
// RUN: diff %t/first.mlir %t/cached.mlir

// Without a cache entry the script must run, and cannot.
// RUN: not env TENSOROP_CACHE_DIR=%t/other-cache PATH=%t/empty-path tensorop-opt %s --tensorop-apply-sketch 2>&1 | FileCheck %s --check-prefix=NOPYTHON
// NOPYTHON: error: emitter 'x86_gemm_fma': python3 not found on PATH

// A corrupt entry is ignored (so the script must run again) ...
// RUN: %python -c "import glob, sys; [open(f, 'w').write('{\"name\": \"truncated') for f in glob.glob(sys.argv[1] + '/emitters/*.json')]" %t/cache
// RUN: not env TENSOROP_CACHE_DIR=%t/cache PATH=%t/empty-path tensorop-opt %s --tensorop-apply-sketch 2>&1 | FileCheck %s --check-prefix=NOPYTHON
// ... and rewritten by the next run that can run it.
// RUN: env TENSOROP_CACHE_DIR=%t/cache tensorop-opt %s --tensorop-apply-sketch -o %t/rewritten.mlir
// RUN: diff %t/first.mlir %t/rewritten.mlir
// RUN: env TENSOROP_CACHE_DIR=%t/cache PATH=%t/empty-path tensorop-opt %s --tensorop-apply-sketch -o %t/cached2.mlir
// RUN: diff %t/first.mlir %t/cached2.mlir
// RUN: find %t/cache/emitters -type f | count 1

// A cache that cannot be written is not an error (here the "directory" is a
// file): the kernel is emitted and used all the same.
// RUN: touch %t/not-a-dir
// RUN: env TENSOROP_CACHE_DIR=%t/not-a-dir tensorop-opt %s --tensorop-apply-sketch -o %t/uncached.mlir
// RUN: diff %t/first.mlir %t/uncached.mlir

// A different spec is a different entry.
// RUN: sed -e 's/k_unroll = 4/k_unroll = 2/' %s > %t/ku2.mlir
// RUN: env TENSOROP_CACHE_DIR=%t/cache tensorop-opt %t/ku2.mlir --tensorop-apply-sketch | FileCheck %s --check-prefix=KU2
// RUN: find %t/cache/emitters -name '*.json' | count 2
// KU2: tensorop.ukernel "x86_avx512_f32_6x16_u2_explicit"

// CHECK-LABEL: func.func @gemm
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit"
// CHECK-SAME:      emitter_hash = "{{[0-9a-f]+}}"
func.func @gemm(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}
