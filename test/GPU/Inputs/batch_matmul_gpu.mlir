// Batch matmuls for test/GPU/batch-matmul-run.test (bare-pointer ABI).
func.func @bmm_bf16(%a: memref<3x130x72xbf16>, %b: memref<3x72x136xbf16>, %c: memref<3x130x136xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<3x130x136xf32>)
  linalg.batch_matmul ins(%a, %b : memref<3x130x72xbf16>, memref<3x72x136xbf16>) outs(%c : memref<3x130x136xf32>)
  return
}
func.func @bmm_f16_reduce(%a: memref<4x64x16xf16>, %b: memref<4x16x128xf16>, %c: memref<64x128xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<64x128xf16>)
  linalg.batch_reduce_matmul ins(%a, %b : memref<4x64x16xf16>, memref<4x16x128xf16>) outs(%c : memref<64x128xf16>)
  return
}
func.func @bmm_f32(%a: memref<2x33x19xf32>, %b: memref<2x19x47xf32>, %c: memref<2x33x47xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<2x33x47xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x33x19xf32>, memref<2x19x47xf32>) outs(%c : memref<2x33x47xf32>)
  return
}
// Its bias along N and ReLU run per slice and fuse into each slice's kernel.
func.func @bmm_bf16_bias_relu(%a: memref<3x130x72xbf16>, %b: memref<3x72x136xbf16>, %bias: memref<136xf32>, %c: memref<3x130x136xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<3x130x136xf32>)
  linalg.batch_matmul ins(%a, %b : memref<3x130x72xbf16>, memref<3x72x136xbf16>) outs(%c : memref<3x130x136xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias : memref<136xf32>) outs(%c : memref<3x130x136xf32>) {
  ^bb0(%v: f32, %x: f32):
    %s = arith.addf %x, %v : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  }
  return
}
