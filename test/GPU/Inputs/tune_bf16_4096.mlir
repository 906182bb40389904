// A 4096^3 bf16 GEMM (bf16 output, what `tensorop gen "... bf16 GEMM"`
// builds) for the GPU tuner tests.
func.func @g(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<4096x4096xbf16>)
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xbf16>)
  return
}
