// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s

// Matmuls the CPU pipeline does not handle are left without a sketch, with a
// remark saying why; the upstream lowering then takes them.

// Bad pass options are errors, reported where the options are parsed.
// RUN: not tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-sse2" 2>&1 | FileCheck %s --check-prefix=SSE
// RUN: not tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=foo" 2>&1 | FileCheck %s --check-prefix=FOO
// RUN: not tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 advisor=bogus" 2>&1 | FileCheck %s --check-prefix=ADVISOR
// RUN: not tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 db=%S/does-not-exist.db" 2>&1 | FileCheck %s --check-prefix=DB
// SSE: error: tensorop-annotate-sketch: unknown target 'x86-sse2' (known: host, x86-avx512, x86-avx2{{.*}})
// FOO: error: tensorop-annotate-sketch: unknown target 'foo' (known: host, x86-avx512, x86-avx2{{.*}})
// ADVISOR: error: tensorop-annotate-sketch: unknown advisor 'bogus'
// DB:  error: tensorop: tuning database {{.*}}does-not-exist.db does not exist

// A size hint that is not three positive sizes, or one that contradicts a
// static dimension of a matmul with a dynamic one, is an error at the op:
// the user asked for a size that cannot be read (it sent the matmul to the
// upstream loops with a remark).
func.func @bad_size_hint(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  // expected-error @+1 {{tensorop: tensorop.size_hint must be array<i64: M, N, K> with positive entries (got array<i64: 0, 8, 8>)}}
  linalg.matmul {tensorop.size_hint = array<i64: 0, 8, 8>} ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// -----

func.func @not_an_array_size_hint(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  // expected-error @+1 {{tensorop: tensorop.size_hint must be array<i64: M, N, K> with positive entries (got [64, 64, 64])}}
  linalg.matmul {tensorop.size_hint = [64, 64, 64]} ins(%A, %B : memref<?x?xf32>, memref<?x?xf32>) outs(%C : memref<?x?xf32>)
  return
}

// -----

// A hint beyond 32 bits overflowed the advisor's tile arithmetic and failed
// as "target x86-avx512 has too few vector registers".
func.func @huge_size_hint(%A: memref<?x64xf32>, %B: memref<64x32xf32>, %C: memref<?x32xf32>) {
  // expected-error @+1 {{tensorop: tensorop.size_hint entry 9223372036854775807 is too large (at most 2147483647)}}
  linalg.matmul {tensorop.size_hint = array<i64: 9223372036854775807, 32, 64>} ins(%A, %B : memref<?x64xf32>, memref<64x32xf32>) outs(%C : memref<?x32xf32>)
  return
}

// -----

func.func @contradicting_size_hint(%A: tensor<8x?xf32>, %B: tensor<?x16xf32>, %C: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{tensorop: tensorop.size_hint gives M=64 but M is static, 8}}
  %r = linalg.matmul {tensorop.size_hint = array<i64: 64, 16, 100>} ins(%A, %B : tensor<8x?xf32>, tensor<?x16xf32>) outs(%C : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// A malformed hint is an error on a static matmul too (it was dropped
// without a word, then ignored with a remark).
func.func @static_bad_size_hint(%A: tensor<8x4xf32>, %B: tensor<4x16xf32>, %C: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-error @+1 {{tensorop: tensorop.size_hint must be array<i64: M, N, K> with positive entries (got array<i64: 1, 2>)}}
  %r = linalg.matmul {tensorop.size_hint = array<i64: 1, 2>} ins(%A, %B : tensor<8x4xf32>, tensor<4x16xf32>) outs(%C : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// On a static matmul a well-formed size hint has nothing to choose (one
// left from before the shapes were known need not match them): it is
// ignored with a remark, and the matmul is sketched.
// CHECK-LABEL: func.func @static_size_hint
// CHECK:       linalg.matmul {{.*}}tensorop.sketch = #tensorop.sketch<
func.func @static_size_hint(%A: tensor<8x4xf32>, %B: tensor<4x16xf32>, %C: tensor<8x16xf32>) -> tensor<8x16xf32> {
  // expected-remark @+1 {{tensorop: tensorop.size_hint ignored: every dimension is static (M=8, N=16, K=4)}}
  %r = linalg.matmul {tensorop.size_hint = array<i64: 64, 64, 64>} ins(%A, %B : tensor<8x4xf32>, tensor<4x16xf32>) outs(%C : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @f16
// CHECK-NOT:   tensorop.sketch
// CHECK:       return
func.func @f16(%A: memref<8x8xf16>, %B: memref<8x8xf16>, %C: memref<8x8xf16>) {
  // expected-remark @+1 {{tensorop: not handled (element types other than f32 x f32 -> f32, bf16 x bf16 -> f32 and f16 x f16 -> f32 are not supported on CPU targets yet (got f16 x f16 -> f16); a f16 C accumulates in that type: for fp32 accumulation write the matmul into an f32 C and narrow it with an arith.truncf consumer (fused on x86 AVX-512)); lowered by the upstream pipeline}}
  linalg.matmul ins(%A, %B : memref<8x8xf16>, memref<8x8xf16>) outs(%C : memref<8x8xf16>)
  return
}

// -----

// CHECK-LABEL: func.func @f64
// CHECK-NOT:   tensorop.sketch
// CHECK:       return
func.func @f64(%A: tensor<8x8xf64>, %B: tensor<8x8xf64>, %C: tensor<8x8xf64>) -> tensor<8x8xf64> {
  // expected-remark @+1 {{tensorop: not handled (element types other than f32 x f32 -> f32, bf16 x bf16 -> f32 and f16 x f16 -> f32 are not supported on CPU targets yet (got f64 x f64 -> f64)); lowered by the upstream pipeline}}
  %r = linalg.matmul ins(%A, %B : tensor<8x8xf64>, tensor<8x8xf64>) outs(%C : tensor<8x8xf64>) -> tensor<8x8xf64>
  return %r : tensor<8x8xf64>
}

// -----

// Mixed inputs (f16 x f32) are none of the supported combinations (f16 x
// f16 -> f32 is: test/Transforms/bf16-f16-legality.mlir).
// CHECK-LABEL: func.func @f16_x_f32
// CHECK-NOT:   tensorop.sketch
// CHECK:       return
func.func @f16_x_f32(%A: memref<8x8xf16>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-remark @+1 {{tensorop: not handled (element types other than f32 x f32 -> f32, bf16 x bf16 -> f32 and f16 x f16 -> f32 are not supported on CPU targets yet (got f16 x f32 -> f32)); lowered by the upstream pipeline}}
  linalg.matmul ins(%A, %B : memref<8x8xf16>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @batch_matmul
// CHECK-NOT:   tensorop.sketch
// CHECK:       return
func.func @batch_matmul(%A: memref<2x8x8xf32>, %B: memref<2x8x8xf32>, %C: memref<2x8x8xf32>) {
  // expected-remark @+1 {{tensorop: batch matmuls take the sketch path as loops of matmuls (tensorop-decompose-batch-matmul, which --tensorop-pipeline runs first); this one is lowered by the upstream pipeline}}
  linalg.batch_matmul ins(%A, %B : memref<2x8x8xf32>, memref<2x8x8xf32>) outs(%C : memref<2x8x8xf32>)
  return
}

// -----

// A broadcast along M (A is a K-vector shared by all rows).
// CHECK-LABEL: func.func @broadcast_a
// CHECK-NOT:   tensorop.sketch
// CHECK:       return
func.func @broadcast_a(%A: memref<8xf32>, %B: memref<8x16xf32>, %C: memref<4x16xf32>) {
  // expected-remark @+1 {{tensorop: not handled (the indexing map of A is neither (m, k) nor (k, m)); lowered by the upstream pipeline}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%A, %B : memref<8xf32>, memref<8x16xf32>) outs(%C : memref<4x16xf32>)
  return
}

// -----

// A broadcast of B along N.
// CHECK-LABEL: func.func @broadcast_b
// CHECK-NOT:   tensorop.sketch
// CHECK:       return
func.func @broadcast_b(%A: memref<4x8xf32>, %B: memref<8xf32>, %C: memref<4x16xf32>) {
  // expected-remark @+1 {{tensorop: not handled (the indexing map of B is neither (k, n) nor (n, k)); lowered by the upstream pipeline}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                 affine_map<(d0, d1, d2) -> (d2)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%A, %B : memref<4x8xf32>, memref<8xf32>) outs(%C : memref<4x16xf32>)
  return
}

// -----

// Empty matrices have nothing to tile.
// CHECK-LABEL: func.func @empty_m
// CHECK-NOT:   tensorop.sketch
// CHECK:       return
func.func @empty_m(%A: memref<0x8xf32>, %B: memref<8x16xf32>, %C: memref<0x16xf32>) {
  // expected-remark @+1 {{tensorop: not handled (empty matrices are left to the upstream lowering); lowered by the upstream pipeline}}
  linalg.matmul ins(%A, %B : memref<0x8xf32>, memref<8x16xf32>) outs(%C : memref<0x16xf32>)
  return
}

// -----

// K = 0.
// CHECK-LABEL: func.func @empty_k
// CHECK-NOT:   tensorop.sketch
// CHECK:       return
func.func @empty_k(%A: memref<4x0xf32>, %B: memref<0x16xf32>, %C: memref<4x16xf32>) {
  // expected-remark @+1 {{tensorop: not handled (empty matrices are left to the upstream lowering); lowered by the upstream pipeline}}
  linalg.matmul ins(%A, %B : memref<4x0xf32>, memref<0x16xf32>) outs(%C : memref<4x16xf32>)
  return
}

// -----

// A sketch on an op no stage reads is said to be unused (it was dropped
// without a word).
// CHECK-LABEL: func.func @sketch_on_add
func.func @sketch_on_add(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %C: memref<8x8xf32>) {
  // expected-warning @+1 {{tensorop: the 'tensorop.sketch' on 'linalg.add' is not used: sketches apply to linalg.matmul and linalg.conv_2d_nhwc_hwcf; it is lowered by the upstream pipeline}}
  linalg.add {tensorop.sketch = #tensorop.sketch<mc = 6, nc = 16, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<8x8xf32>, memref<8x8xf32>) outs(%C : memref<8x8xf32>)
  return
}

// -----

// Contractions other than linalg.matmul get the remark every op the
// pipeline leaves gets (a generic matmul and linalg.mmt4d had none).
// CHECK-LABEL: func.func @generic_matmul
// CHECK-NOT:   tensorop.sketch =
func.func @generic_matmul(%A: tensor<16x32xf32>, %B: tensor<32x24xf32>, %C: tensor<16x24xf32>) -> tensor<16x24xf32> {
  // expected-remark @+1 {{tensorop: not handled (a contraction written as linalg.generic is not on the sketch path, which takes linalg.matmul; mlir-opt --linalg-specialize-generic-ops rewrites a generic matmul as one); lowered by the upstream pipeline}}
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%A, %B : tensor<16x32xf32>, tensor<32x24xf32>) outs(%C : tensor<16x24xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %z, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}

// -----

// CHECK-LABEL: func.func @mmt4d
func.func @mmt4d(%A: tensor<2x3x4x8xf32>, %B: tensor<5x3x16x8xf32>, %C: tensor<2x5x4x16xf32>) -> tensor<2x5x4x16xf32> {
  // expected-remark @+1 {{tensorop: not handled ('linalg.mmt4d' is not on the sketch path, which takes linalg.matmul); lowered by the upstream pipeline}}
  %r = linalg.mmt4d ins(%A, %B : tensor<2x3x4x8xf32>, tensor<5x3x16x8xf32>) outs(%C : tensor<2x5x4x16xf32>) -> tensor<2x5x4x16xf32>
  return %r : tensor<2x5x4x16xf32>
}
