// The NVIDIA pipeline down to PTX (no ptxas needed): the gpu.func with the
// emitted inline PTX goes through LLVM's NVPTX back end; the host side is LLVM
// dialect calling the mgpu* runtime through gpu.launch_func.
// RUN: tensorop-opt %s \
// RUN:   --pass-pipeline="builtin.module(tensorop-gpu-lower-matmul{target=nvidia-sm90},gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},reconcile-unrealized-casts),convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},finalize-memref-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,gpu-to-llvm{use-bare-pointers-for-kernels=1},reconcile-unrealized-casts,gpu-module-to-binary{format=isa})" \
// RUN: | FileCheck %s

// CHECK: llvm.func @gemm(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK: llvm.call @tensoropGpuTensorMap2D
// CHECK: gpu.launch_func @gemm_kernel_module::@gemm_kernel blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64 dynamic_shared_memory_size %{{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : !llvm.ptr, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64)
// CHECK: gpu.binary @gemm_kernel_module  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">
// CHECK-SAME: .version 8.0\0A.target sm_90a
// CHECK-SAME: .extern .shared .align 1024 .b8 tensorop_smem[];
// CHECK-SAME: .visible .entry gemm_kernel(
// CHECK-SAME: .maxntid 384, 1, 1\0A.minnctapersm 1
// CHECK-SAME: mbarrier.try_wait.parity.shared::cta.b64
// CHECK-SAME: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-SAME: cvt.rn.bf16x2.f32
func.func @gemm(%A: memref<2048x1024xbf16>, %B: memref<1024x2048xbf16>, %C: memref<2048x2048xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<2048x2048xbf16>)
  linalg.matmul ins(%A, %B : memref<2048x1024xbf16>, memref<1024x2048xbf16>) outs(%C : memref<2048x2048xbf16>)
  return
}
