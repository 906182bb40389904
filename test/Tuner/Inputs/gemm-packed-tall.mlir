// A GEMM whose builtin sketch packs B on one and on two threads: B (160 x
// 128, 80 KiB) fits in half of L2, but M = 420 is past the rows for which
// it would be read in place (blocking.b_in_l2_in_place_max_rows, the
// file's 400; one or two threads), and N is in whole 64-column blocks.
func.func @f(%A: memref<420x160xf32>, %B: memref<160x128xf32>, %C: memref<420x128xf32>) {
  linalg.matmul ins(%A, %B : memref<420x160xf32>, memref<160x128xf32>) outs(%C : memref<420x128xf32>)
  return
}
