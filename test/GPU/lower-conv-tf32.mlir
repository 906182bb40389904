// RUN: tensorop-opt %s --tensorop-gpu-lower-conv="target=nvidia-sm90" | FileCheck %s
// RUN: tensorop-opt %s --verify-diagnostics --tensorop-gpu-lower-conv="target=nvidia-sm80" -o /dev/null

// An f32 convolution marked for TF32 runs on the sm_90a tf32 wgmma kernel:
// A (the NHWC input) through a TMA im2col map of 32-channel boxes, the
// filter as B (M = 196: 64-row tiles); fp32 out, stored from registers (the
// tf32 kernel's store). sm_80 has no TF32 convolution kernel: refused.
// CHECK-LABEL: func.func @tf32
//       CHECK:   call @tensoropGpuTensorMapIm2colNHWC(%{{.*}}, %c7_i64, %c1_i64, %c16_i64, %c16_i64{{.*}}, %c64_i64{{.*}}, %c32_i64, %c64_i64{{.*}}, %c128_i64)
//       CHECK:   gpu.launch_func @tf32_conv_kernel_module::@tf32_conv_kernel
//       CHECK:   llvm.inline_asm has_side_effects {{.*}}im2col{{.*}}wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32
func.func @tf32(%in: memref<1x16x16x64xf32>, %flt: memref<3x3x64x64xf32>, %out: memref<1x14x14x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x14x14x64xf32>)
  // expected-error @+1 {{TF32 convolutions run on the sm_90a wgmma kernel only: the TMA im2col + wgmma convolution kernel needs sm_90a; nvidia-sm80 is sm_80}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>, tensorop.precision = "tf32"}
    ins(%in, %flt : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%out : memref<1x14x14x64xf32>)
  return
}
