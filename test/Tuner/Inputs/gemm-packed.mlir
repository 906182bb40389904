// A GEMM past the small paths (M > 128, K > 128, and N in whole 64-column
// blocks, so the path that reads B in place for K <= 512 does not apply):
// the builtin packs B, so each candidate has one microkernel (the
// fault-injection tests count kernels).
func.func @f(%A: memref<136x160xf32>, %B: memref<160x128xf32>, %C: memref<136x128xf32>) {
  linalg.matmul ins(%A, %B : memref<136x160xf32>, memref<160x128xf32>) outs(%C : memref<136x128xf32>)
  return
}
