// RUN: tensorop-opt %s --split-input-file --verify-diagnostics --tensorop-gpu-apply-sketch

// Apply does not choose: a matmul without a sketch is an error.
func.func @no_sketch(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{linalg.matmul carries no #tensorop.gpu_sketch (run tensorop-gpu-annotate-sketch first, or tensorop-gpu-lower-matmul)}}
  linalg.matmul ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// The problem's rules are checked where the problem is known: here, the
// precision the matmul computes in.
func.func @wrong_precision(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{illegal sketch for nvidia-sm80: gpu_sketch field 'precision': is "bf16" but the matmul computes in f16}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "bf16", block_m = 64, block_n = 128, block_k = 32, warps_m = 2, warps_n = 2, consumers = 0, stages = 3, group_m = 4, ctas = 0, target = <name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "hand">}
    ins(%A, %B : memref<256x256xf16>, memref<256x256xf16>) outs(%C : memref<256x256xf32>)
  return
}
