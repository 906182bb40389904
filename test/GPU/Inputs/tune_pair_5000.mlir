// A 5000x24x4096 bf16 GEMM (few columns, many strips: 128-row pair strips
// split through the workspace in 3 slices) for the GPU tuner tests.
func.func @g(%A: memref<5000x4096xbf16>, %B: memref<4096x24xbf16>, %C: memref<5000x24xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<5000x24xbf16>)
  linalg.matmul ins(%A, %B : memref<5000x4096xbf16>, memref<4096x24xbf16>) outs(%C : memref<5000x24xbf16>)
  return
}
