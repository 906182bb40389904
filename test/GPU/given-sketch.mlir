// RUN: tensorop-opt %s --tensorop-gpu-lower-matmul="target=nvidia-sm90" | FileCheck %s
// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch="target=nvidia-sm90" | FileCheck %s --check-prefix=ANNOTATE

// Annotation keeps a sketch that is on the op as it was written.
// ANNOTATE-LABEL: func.func @given_sketch
//       ANNOTATE:   linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 5, group_m = 4, ctas = 16, {{.*}}source = "test">}

// A sketch on the op is used as given (after the legality check).
// CHECK-LABEL: func.func @given_sketch
//       CHECK:   kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 5, group_m = 4, ctas = 16, {{.*}}source = "test"
//       CHECK:   gpu.func @given_sketch_kernel
//  CHECK-SAME:   nvvm.maxntid = array<i32: 256, 1, 1>
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}1 consumer warpgroup(s), 5 stages, 64 tiles on 16 CTAs{{.*}}m64n128k16
func.func @given_sketch(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %C: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1024x1024xf32>)
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 5, group_m = 4, ctas = 16, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">}
    ins(%A, %B : memref<1024x1024xbf16>, memref<1024x1024xbf16>) outs(%C : memref<1024x1024xf32>)
  return
}
