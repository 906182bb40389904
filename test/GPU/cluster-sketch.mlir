// RUN: tensorop-opt %s --tensorop-gpu-lower-matmul="target=nvidia-sm90" | FileCheck %s
// RUN: tensorop-opt %s \
// RUN:   --pass-pipeline="builtin.module(tensorop-gpu-lower-matmul{target=nvidia-sm90},gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},reconcile-unrealized-casts),convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,gpu-to-llvm{use-bare-pointers-for-kernels=1},reconcile-unrealized-casts,gpu-module-to-binary{format=isa})" \
// RUN:   -o %t.isa.mlir
// RUN: FileCheck %s --check-prefix=ISA < %t.isa.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.isa.mlir | FileCheck %s --check-prefix=IR

// A 2x1 thread-block cluster (two CTAs down M share the B tile by TMA
// multicast): the kernel is built for clusters (nvvm.cluster_dim, which LLVM
// prints as .explicitcluster and .reqnctapercluster) and launched as
// clusters of 2 on a grid of whole clusters: 8 x 4 tiles are 16 cluster
// tiles, at most 8 clusters in the 16-CTA grid the sketch asks for.
// CHECK-LABEL: func.func @given_cluster
//       CHECK:   %[[TWO:.*]] = arith.constant 2 : index
//       CHECK:   gpu.launch_func @given_cluster_kernel_module::@given_cluster_kernel clusters in (%[[TWO]], %{{.*}}, %{{.*}}) blocks in (
//  CHECK-SAME:   cluster_m = 2
//       CHECK:   gpu.func @given_cluster_kernel
//  CHECK-SAME:   nvvm.cluster_dim = array<i32: 2, 1, 1>
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}16 tiles on 16 CTAs{{.*}}barrier.cluster.arrive{{.*}}multicast::cluster{{.*}}mapa.shared::cluster
// Down to PTX: the launch keeps its clusters (the host translation calls
// mgpuLaunchClusterKernel for them) and the kernel entry says it needs them.
// ISA: gpu.launch_func @given_cluster_kernel_module::@given_cluster_kernel clusters in
// ISA: gpu.binary @given_cluster_kernel_module
// ISA-SAME: .explicitcluster\0A.reqnctapercluster 2, 1, 1
// IR: call void @mgpuLaunchClusterKernel(ptr %{{.*}}, i64 2, i64 1, i64 1, i64 16, i64 1, i64 1, i64 384, i64 1, i64 1,
func.func @given_cluster(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %C: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<1024x1024xf32>)
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 16, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", cluster_m = 2>}
    ins(%A, %B : memref<1024x1024xbf16>, memref<1024x1024xbf16>) outs(%C : memref<1024x1024xf32>)
  return
}
