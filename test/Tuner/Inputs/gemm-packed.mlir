// A GEMM past the small paths (M > 128, K > 128, and N in whole 64-column
// blocks, so the path that reads B in place for K <= 512 does not apply):
// the builtin packs B, so each candidate has one microkernel (the
// fault-injection tests count kernels). M = 138 takes 6-row blocks and K
// one block: a 4-row block would keep B's micro-panels in L1 on the
// file's hints (blocking.b_panel_l1_max_mr), in two K blocks whose first
// stores C with a kernel of its own.
func.func @f(%A: memref<138x160xf32>, %B: memref<160x128xf32>, %C: memref<138x128xf32>) {
  linalg.matmul ins(%A, %B : memref<138x160xf32>, memref<160x128xf32>) outs(%C : memref<138x128xf32>)
  return
}
