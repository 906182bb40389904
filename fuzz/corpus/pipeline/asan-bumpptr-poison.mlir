
func.func @wrong_precision(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @+1 {{gpu_sketch field 'precision': is "bf16" but the matmul computes in f32}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "bf16", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 3, group_m = 8, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

