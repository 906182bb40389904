// The bf16 shapes of issue 16 below cuBLAS after session 9 (docs/benchmarks/
// gpu-gemm.md, classes table and "Stream-K"), tuned on the H200 over the
// existing sketch space to find what limits each (gpustreamk, session 10).
func.func @bf16_2000x3000x1504(%A: memref<2000x1504xbf16>, %B: memref<1504x3000xbf16>, %C: memref<2000x3000xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<2000x3000xbf16>)
  linalg.matmul ins(%A, %B : memref<2000x1504xbf16>, memref<1504x3000xbf16>) outs(%C : memref<2000x3000xbf16>)
  return
}
func.func @bf16_128x4096x11008(%A: memref<128x11008xbf16>, %B: memref<11008x4096xbf16>, %C: memref<128x4096xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<128x4096xbf16>)
  linalg.matmul ins(%A, %B : memref<128x11008xbf16>, memref<11008x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}
func.func @bf16_128x14336x4096(%A: memref<128x4096xbf16>, %B: memref<4096x14336xbf16>, %C: memref<128x14336xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<128x14336xbf16>)
  linalg.matmul ins(%A, %B : memref<128x4096xbf16>, memref<4096x14336xbf16>) outs(%C : memref<128x14336xbf16>)
  return
}
func.func @bf16_16x11008x4096(%A: memref<16x4096xbf16>, %B: memref<4096x11008xbf16>, %C: memref<16x11008xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<16x11008xbf16>)
  linalg.matmul ins(%A, %B : memref<16x4096xbf16>, memref<4096x11008xbf16>) outs(%C : memref<16x11008xbf16>)
  return
}
func.func @bf16_16x4096x14336(%A: memref<16x14336xbf16>, %B: memref<14336x4096xbf16>, %C: memref<16x4096xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<16x4096xbf16>)
  linalg.matmul ins(%A, %B : memref<16x14336xbf16>, memref<14336x4096xbf16>) outs(%C : memref<16x4096xbf16>)
  return
}
func.func @bf16_4096x11008x4096(%A: memref<4096x4096xbf16>, %B: memref<4096x11008xbf16>, %C: memref<4096x11008xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<4096x11008xbf16>)
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x11008xbf16>) outs(%C : memref<4096x11008xbf16>)
  return
}
