// A matmul with a dynamic M and a size hint: tune measures it at the hint.
func.func @dyn(%A: memref<?x8xf32>, %B: memref<8x16xf32>, %C: memref<?x16xf32>) {
  linalg.matmul {tensorop.size_hint = array<i64: 32, 16, 8>} ins(%A, %B : memref<?x8xf32>, memref<8x16xf32>) outs(%C : memref<?x16xf32>)
  return
}
