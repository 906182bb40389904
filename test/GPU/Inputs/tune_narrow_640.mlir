// A 640x24x32768 bf16 GEMM (few columns, long K: the narrow wgmma tile
// split in 8) for the GPU tuner tests.
func.func @g(%A: memref<640x32768xbf16>, %B: memref<32768x24xbf16>, %C: memref<640x24xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<640x24xbf16>)
  linalg.matmul ins(%A, %B : memref<640x32768xbf16>, memref<32768x24xbf16>) outs(%C : memref<640x24xbf16>)
  return
}
