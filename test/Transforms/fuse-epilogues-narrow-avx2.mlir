// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=x86-avx2 --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s
// The output step (to_bf16) is built for x86 AVX-512 only: on AVX2 the
// bias add fuses and the narrowing consumer stays a separate op.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>

// CHECK: remark: tensorop: the chain of fused consumers stops here: not fused into the matmul's microkernel (runs as a separate op after it): its output is not an f32 M x N (C's type) with the identity map
// CHECK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n]
func.func @chain_bf16(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<96xf32>) -> tensor<64x96xbf16> {
  %e = tensor.empty() : tensor<64x96xf32>
  %e16 = tensor.empty() : tensor<64x96xbf16>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %b1 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b1 : tensor<64x96xf32>) outs(%e16 : tensor<64x96xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x96xbf16>
  return %r : tensor<64x96xbf16>
}
