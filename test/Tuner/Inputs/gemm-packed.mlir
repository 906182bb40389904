// A GEMM just past the small path (M > 128): the builtin packs B, so each
// candidate has one microkernel (the fault-injection tests count kernels).
func.func @f(%A: memref<136x48xf32>, %B: memref<48x80xf32>, %C: memref<136x80xf32>) {
  linalg.matmul ins(%A, %B : memref<136x48xf32>, memref<48x80xf32>) outs(%C : memref<136x80xf32>)
  return
}
