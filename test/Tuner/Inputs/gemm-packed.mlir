// A GEMM past the small paths (M > 128, and K > 128 so the short-K path
// that reads B in place does not apply): the builtin packs B, so each
// candidate has one microkernel (the fault-injection tests count kernels).
func.func @f(%A: memref<136x160xf32>, %B: memref<160x80xf32>, %C: memref<136x80xf32>) {
  linalg.matmul ins(%A, %B : memref<136x160xf32>, memref<160x80xf32>) outs(%C : memref<136x80xf32>)
  return
}
