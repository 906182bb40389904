// A given split-K sketch (nvidia-sm90) is kept and printed with its field;
// split_k = 1 is not printed (sketches written before the field parse and
// print the same).
// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch="target=nvidia-sm90" | FileCheck %s

// CHECK-LABEL: func.func @given_split_k
//       CHECK:   ctas = 128, {{.*}}source = "test", split_k = 2>}
// CHECK-LABEL: func.func @given_no_split
//   CHECK-NOT:   split_k
//       CHECK:   return
func.func @given_split_k(%A: memref<128x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<128x4096xbf16>) {
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 6, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 2>} ins(%A, %B : memref<128x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}
func.func @given_no_split(%A: memref<128x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<128x4096xbf16>) {
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 6, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 1>} ins(%A, %B : memref<128x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}

// -----

// The few-rows kernel split in 2: a cluster launch of 2 x 64 CTAs, the
// kernel built for clusters of 2.
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-lower-matmul="target=nvidia-sm90" | FileCheck %s --check-prefix=FEW
// FEW-LABEL: func.func @few_rows_split
//       FEW:   %[[TWO:.*]] = arith.constant 2 : index
//       FEW:   gpu.launch_func @few_rows_split_kernel_module::@few_rows_split_kernel clusters in (%[[TWO]], %{{.*}}, %{{.*}}) blocks in (
//       FEW:   gpu.func @few_rows_split_kernel
//  FEW-SAME:   nvvm.cluster_dim = array<i32: 2, 1, 1>
//       FEW:     llvm.inline_asm has_side_effects {{.*}}64 tiles on 128 CTAs{{.*}}mapa.shared::cluster
func.func @few_rows_split(%A: memref<13x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<13x4096xbf16>) {
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 16, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 2>} ins(%A, %B : memref<13x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<13x4096xbf16>)
  return
}

// -----

// The FFMA kernel split in 4: a cluster launch of 4 x 30 CTAs.
// FEW-LABEL: func.func @ffma_split
//       FEW:   %[[FOUR:.*]] = arith.constant 4 : index
//       FEW:   gpu.launch_func @ffma_split_kernel_module::@ffma_split_kernel clusters in (%[[FOUR]], %{{.*}}, %{{.*}}) blocks in (
//       FEW:   gpu.func @ffma_split_kernel
//  FEW-SAME:   nvvm.cluster_dim = array<i32: 4, 1, 1>
//       FEW:     llvm.inline_asm has_side_effects {{.*}}barrier.cluster.arrive.aligned{{.*}}ld.shared::cluster.v4.f32
func.func @ffma_split(%A: memref<600x3000xf32>, %B: memref<3000x700xf32>, %C: memref<600x700xf32>) {
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 4>} ins(%A, %B : memref<600x3000xf32>, memref<3000x700xf32>) outs(%C : memref<600x700xf32>)
  return
}
