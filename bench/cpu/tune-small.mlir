// fp32 GEMMs for docs/benchmarks/tuning.md (the second run: threads and pack_b knobs).
func.func @g64x64x64(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<64x64xf32>)
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
func.func @g100x100x100(%A: memref<100x100xf32>, %B: memref<100x100xf32>, %C: memref<100x100xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<100x100xf32>)
  linalg.matmul ins(%A, %B : memref<100x100xf32>, memref<100x100xf32>) outs(%C : memref<100x100xf32>)
  return
}
func.func @g200x300x100(%A: memref<200x100xf32>, %B: memref<100x300xf32>, %C: memref<200x300xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<200x300xf32>)
  linalg.matmul ins(%A, %B : memref<200x100xf32>, memref<100x300xf32>) outs(%C : memref<200x300xf32>)
  return
}
func.func @g256x256x256(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<256x256xf32>)
  linalg.matmul ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}
func.func @g127x1000x513(%A: memref<127x513xf32>, %B: memref<513x1000xf32>, %C: memref<127x1000xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<127x1000xf32>)
  linalg.matmul ins(%A, %B : memref<127x513xf32>, memref<513x1000xf32>) outs(%C : memref<127x1000xf32>)
  return
}
