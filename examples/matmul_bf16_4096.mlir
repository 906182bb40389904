// A 4096^3 bf16 GEMM on device memory (bf16 output, C = A*B): what
// `tensorop gen "4096x4096x4096 bf16 GEMM for H200"` builds, as a module for
// `tensorop tune --target=nvidia-sm90` and
// `tensorop-opt --tensorop-pipeline="target=nvidia-sm90"`.
func.func @gemm_bf16(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<4096x4096xbf16>)
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xbf16>)
  return
}
