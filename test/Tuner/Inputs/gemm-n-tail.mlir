func.func @f(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %C: memref<84x34xf32>) {
  linalg.matmul ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  return
}
