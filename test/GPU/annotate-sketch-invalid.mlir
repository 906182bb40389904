// RUN: tensorop-opt %s --split-input-file --verify-diagnostics --tensorop-gpu-annotate-sketch="target=nvidia-sm80"
// RUN: not tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm90 advisor=oracle" 2>&1 | FileCheck %s --check-prefix=ADVISOR

// A sketch written for another target is refused, not silently retargeted.
func.func @other_target(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %C: memref<1024x1024xf32>) {
  // expected-error @+1 {{the matmul's #tensorop.gpu_sketch is for target 'nvidia-sm90', not 'nvidia-sm80'}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 5, group_m = 4, ctas = 16, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "mine">}
    ins(%A, %B : memref<1024x1024xbf16>, memref<1024x1024xbf16>) outs(%C : memref<1024x1024xf32>)
  return
}

// -----

// A matmul the NVIDIA path cannot take is an error that says why.
func.func @f64(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  // expected-error @+1 {{NVIDIA targets take bf16, f16 or f32 inputs (both the same) and f32, bf16 or f16 output, got 'f64' x 'f64' -> 'f64'}}
  linalg.matmul ins(%A, %B : memref<64x64xf64>, memref<64x64xf64>) outs(%C : memref<64x64xf64>)
  return
}

// ADVISOR: error: tensorop-gpu-annotate-sketch: advisor 'oracle' is not available for NVIDIA targets (known: builtin, llm; or a #tensorop.gpu_sketch on the matmul)
