func.func @gemm(%A: memref<37x29xf32>, %B: memref<29x53xf32>, %C: memref<37x53xf32>) {
  linalg.matmul ins(%A, %B : memref<37x29xf32>, memref<29x53xf32>) outs(%C : memref<37x53xf32>)
  return
}
