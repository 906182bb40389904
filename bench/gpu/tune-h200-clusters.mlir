// The two bf16 squares of docs/benchmarks/gpu-tuning.md, tuned again once the
// wgmma kernel could run as thread-block clusters (TMA multicast): see
// docs/benchmarks/gpu-clusters.md and bench/gpu/knobs-clusters.mlir.
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
