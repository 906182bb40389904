// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-apply-sketch | FileCheck %s

// Apply alone, on hand-written sketches: each names its target, whose hints
// the pass reads; the matmul becomes the launch of the emitted kernel.
// CHECK-LABEL: func.func @mma_sync_sm80
//   CHECK-NOT:   linalg.matmul
//       CHECK:   gpu.launch_func @mma_sync_sm80_kernel_module::@mma_sync_sm80_kernel {{.*}}tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 64, block_n = 128, block_k = 32, warps_m = 2, warps_n = 2, consumers = 0, stages = 3, group_m = 4, ctas = 0, target = <name = "nvidia-sm80", {{.*}}source = "hand"
//       CHECK: gpu.module @mma_sync_sm80_kernel_module [#nvvm.target<O = 3, chip = "sm_80"
//       CHECK:   gpu.func @mma_sync_sm80_kernel
//  CHECK-SAME:   nvvm.maxntid = array<i32: 128, 1, 1>
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
func.func @mma_sync_sm80(%A: memref<256x512xf16>, %B: memref<512x256xf16>, %C: memref<256x256xf32>) {
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 64, block_n = 128, block_k = 32, warps_m = 2, warps_n = 2, consumers = 0, stages = 3, group_m = 4, ctas = 0, target = <name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "hand">}
    ins(%A, %B : memref<256x512xf16>, memref<512x256xf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @ffma_sm90
//       CHECK:   gpu.launch_func {{.*}}kernel = "ffma"{{.*}}source = "hand"
//       CHECK: gpu.module @ffma_sm90_kernel_module [#nvvm.target<O = 3, chip = "sm_90a"
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}fma.rn.f32
func.func @ffma_sm90(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) {
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 2, group_m = 8, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "hand">}
    ins(%A, %B : memref<128x128xf32>, memref<128x128xf32>) outs(%C : memref<128x128xf32>)
  return
}
