func.func @f(%A: memref<64x48xf32>, %B: memref<48x80xf32>, %C: memref<64x80xf32>) {
  linalg.matmul ins(%A, %B : memref<64x48xf32>, memref<48x80xf32>) outs(%C : memref<64x80xf32>)
  return
}
