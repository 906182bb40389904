// The narrow wgmma tile's split-K reduced through a global workspace
// (store = "splitk_ws": nvidia_gemm_wgmma.py split_reduce "workspace"),
// an explicit sketch: 640x24x32768 in 10 strips of 64 rows x 13 slices of
// K on 130 CTAs, no clusters. The lowering takes the kernel's workspace
// (13 x 10 partial tiles of 64x32 fp32, 8192 bytes each, then 10 arrival
// counters, 48 bytes zeroed when it is acquired) from the runtime's pool,
// passes it as the kernel's last operand (SK_ws) and gives it back;
// nothing is launched when it cannot be had.
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-lower-matmul="target=nvidia-sm90" 2>/dev/null | FileCheck %s
//       CHECK: func.func private @tensoropGpuWorkspaceRelease(!llvm.ptr)
//       CHECK: func.func private @tensoropGpuWorkspaceAcquireZeroed(i64, i64, i64) -> !llvm.ptr
// CHECK-LABEL: func.func @ws_640x24x32768
//   CHECK-DAG:   %[[BYTES:.*]] = arith.constant 1065008 : i64
//   CHECK-DAG:   %[[ZOFF:.*]] = arith.constant 1064960 : i64
//   CHECK-DAG:   %[[ZLEN:.*]] = arith.constant 48 : i64
//       CHECK:   %[[WS:.*]] = call @tensoropGpuWorkspaceAcquireZeroed(%[[BYTES]], %[[ZOFF]], %[[ZLEN]])
//       CHECK:   %[[ADDR:.*]] = llvm.ptrtoint %[[WS]] : !llvm.ptr to i64
//       CHECK:   scf.if
//       CHECK:     gpu.launch_func @ws_640x24x32768_kernel_module::@ws_640x24x32768_kernel blocks in (%{{.*}}) threads in {{.*}} args({{.*}}, %[[ADDR]] : i64)
//       CHECK:     call @tensoropGpuWorkspaceRelease(%[[WS]])
//       CHECK:   gpu.func @ws_640x24x32768_kernel(
//   CHECK-NOT:     nvvm.cluster_dim
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}130 CTAs{{.*}}atom.acq_rel.gpu.global.add.u32{{.*}}bar.red.or.pred
func.func @ws_640x24x32768(%A: memref<640x32768xbf16>, %B: memref<32768x24xbf16>, %C: memref<640x24xbf16>) {
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 130, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", store = "splitk_ws", split_k = 13>} ins(%A, %B : memref<640x32768xbf16>, memref<32768x24xbf16>) outs(%C : memref<640x24xbf16>)
  return
}
