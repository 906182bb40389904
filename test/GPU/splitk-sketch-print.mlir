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
