func.func @gemm(%A: memref<64x48xf32>, %B: memref<48x96xf32>, %C: memref<64x96xf32>) {
  linalg.matmul ins(%A, %B : memref<64x48xf32>, memref<48x96xf32>)
                outs(%C : memref<64x96xf32>)
  return
}
