// A 4096^3 tf32 GEMM (f32 in and out, what `tensorop gen "... tf32 GEMM"`
// builds) for the GPU tuner tests.
func.func @g(%A: memref<4096x4096xf32>, %B: memref<4096x4096xf32>, %C: memref<4096x4096xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<4096x4096xf32>)
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<4096x4096xf32>, memref<4096x4096xf32>) outs(%C : memref<4096x4096xf32>)
  return
}
