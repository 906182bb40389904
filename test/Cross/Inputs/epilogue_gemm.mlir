// C = clamp(gelu_erf(0.5 * (A*B + bias[row])), 0.1, 2), written as an
// importer would (one linalg.generic after the matmul), for epilogue.test.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @epilogue_gemm(%A: memref<45x400xf32>, %B: memref<400x37xf32>, %bias: memref<45xf32>, %C: memref<45x37xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<45x37xf32>)
  linalg.matmul ins(%A, %B : memref<45x400xf32>, memref<400x37xf32>) outs(%C : memref<45x37xf32>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<45xf32>) outs(%C : memref<45x37xf32>) {
  ^bb0(%b: f32, %x0: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.70710678 : f32
    %lo = arith.constant 0.1 : f32
    %hi = arith.constant 2.0 : f32
    %x1 = arith.addf %x0, %b : f32
    %x = arith.mulf %x1, %half : f32
    %u = arith.mulf %x, %rsqrt2 : f32
    %e = math.erf %u : f32
    %p = arith.addf %e, %one : f32
    %q = arith.mulf %x, %half : f32
    %g = arith.mulf %q, %p : f32
    %m = arith.maximumf %g, %lo : f32
    %y = arith.minimumf %m, %hi : f32
    linalg.yield %y : f32
  }
  return
}
