func.func @g(%A: memref<300x500xf32>, %B: memref<500x6xf32>, %C: memref<300x6xf32>) {
  linalg.matmul ins(%A, %B : memref<300x500xf32>, memref<500x6xf32>) outs(%C : memref<300x6xf32>)
  return
}
