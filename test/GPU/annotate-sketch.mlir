// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm90" | FileCheck %s
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-annotate-sketch="target=nvidia-sm80" | FileCheck %s --check-prefix=SM80

// Annotation alone: the builtin advisor's sketch is attached to the matmul,
// nothing is lowered yet (the fill and the matmul stay, no kernel).
// CHECK-LABEL: func.func @bf16_aligned
//       CHECK:   linalg.fill
//       CHECK:   linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = <name = "nvidia-sm90", {{.*}}>, source = "builtin", store = "smem_tma">}
//   CHECK-NOT:   gpu.launch_func
//   CHECK-NOT: gpu.module
// SM80-LABEL: func.func @bf16_aligned
//       SM80:   linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "bf16", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = <name = "nvidia-sm80", {{.*}}>, source = "builtin">}
func.func @bf16_aligned(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<4096x4096xbf16>)
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xbf16>)
  return
}

// -----

// Matmuls on tensors are annotated too (the sketch survives bufferization);
// tensorop.precision = "tf32" selects the mma.sync tf32 kernel.
// CHECK-LABEL: func.func @tf32_tensors
//       CHECK:   linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "tf32", {{.*}}block_k = 16, {{.*}}source = "builtin">, tensorop.precision = "tf32"}
// SM80-LABEL: func.func @tf32_tensors
//       SM80:   kernel = "mma_sync", precision = "tf32"
func.func @tf32_tensors(%A: tensor<512x512xf32>, %B: tensor<512x512xf32>, %C: tensor<512x512xf32>) -> tensor<512x512xf32> {
  %0 = linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : tensor<512x512xf32>, tensor<512x512xf32>) outs(%C : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %0 : tensor<512x512xf32>
}
