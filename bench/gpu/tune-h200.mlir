// The GEMMs tuned on the H200 for docs/benchmarks/gpu-tuning.md: the two
// bf16 squares of the issue's target, an odd f16 shape (mma.sync: its rows
// are not 16-byte aligned for TMA) and TF32 (mma.sync m16n8k8).
func.func @bf16_4096(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<4096x4096xbf16>)
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xbf16>)
  return
}
func.func @bf16_8192(%A: memref<8192x8192xbf16>, %B: memref<8192x8192xbf16>, %C: memref<8192x8192xbf16>) {
  %z = arith.constant 0.0 : bf16
  linalg.fill ins(%z : bf16) outs(%C : memref<8192x8192xbf16>)
  linalg.matmul ins(%A, %B : memref<8192x8192xbf16>, memref<8192x8192xbf16>) outs(%C : memref<8192x8192xbf16>)
  return
}
func.func @f16_odd(%A: memref<127x513xf16>, %B: memref<513x1000xf16>, %C: memref<127x1000xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%C : memref<127x1000xf16>)
  linalg.matmul ins(%A, %B : memref<127x513xf16>, memref<513x1000xf16>) outs(%C : memref<127x1000xf16>)
  return
}
func.func @tf32_4096(%A: memref<4096x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<4096x4096xf32>)
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<4096x4096xf32>)
  return
}
