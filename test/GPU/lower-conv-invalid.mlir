// RUN: tensorop-opt %s --split-input-file --verify-diagnostics --tensorop-gpu-lower-conv="target=nvidia-sm90"

func.func @fp32(%in: memref<1x16x16x64xf32>, %flt: memref<3x3x64x64xf32>, %out: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{f32 convolutions run on NVIDIA tensor cores as TF32 only: mark the op tensorop.precision = "tf32" (or use bf16/f16 inputs)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%in, %flt : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%out : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @odd_filters(%in: memref<1x16x16x64xbf16>, %flt: memref<3x3x64x60xbf16>, %out: memref<1x14x14x60xbf16>) {
  // expected-error @+1 {{the convolution kernels load the filter in 16-byte chunks of 8 filters: F must be a multiple of 8 (got F=60)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%in, %flt : memref<1x16x16x64xbf16>, memref<3x3x64x60xbf16>) outs(%out : memref<1x14x14x60xbf16>)
  return
}

// -----

// A tensor conv that is not the form gen writes (its result is returned).
func.func @returned(%in: tensor<1x16x16x64xbf16>, %flt: tensor<3x3x64x64xbf16>, %init: tensor<1x14x14x64xbf16>) -> tensor<1x14x14x64xbf16> {
  // expected-error @+1 {{a linalg.conv_2d_nhwc_hwcf on tensors must be the form `tensorop gen` writes}}
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%in, %flt : tensor<1x16x16x64xbf16>, tensor<3x3x64x64xbf16>) outs(%init : tensor<1x14x14x64xbf16>) -> tensor<1x14x14x64xbf16>
  return %r : tensor<1x14x14x64xbf16>
}

// -----

func.func @tf32_bf16_output(%in: memref<1x16x16x64xf32>, %flt: memref<3x3x64x64xf32>, %out: memref<1x14x14x64xbf16>) {
  // expected-error @+1 {{NVIDIA targets take convolutions with bf16 or f16 input and filter (both the same) and f32, bf16 or f16 output, or f32 in and out with tensorop.precision = "tf32", got 'f32' x 'f32' -> 'bf16'}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>, tensorop.precision = "tf32"}
    ins(%in, %flt : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%out : memref<1x14x14x64xbf16>)
  return
}

// -----

func.func @tf32_needs_32_channels(%in: memref<1x16x16x48xf32>, %flt: memref<3x3x48x64xf32>, %out: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{no NVIDIA kernel for this convolution: TF32 convolutions run on the sm_90a wgmma kernel only: the sm_90a convolution kernel loads 32 input channels per filter tap: C must be a multiple of 32 (got C=48)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>, tensorop.precision = "tf32"}
    ins(%in, %flt : memref<1x16x16x48xf32>, memref<3x3x48x64xf32>) outs(%out : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @wgmma_needs_64_channels(%in: memref<1x16x16x32xbf16>, %flt: memref<3x3x32x64xbf16>, %out: memref<1x14x14x64xbf16>) {
  // A given wgmma sketch for C = 32 (the builtin advisor takes mma_sync).
  // expected-error @+1 {{illegal sketch for nvidia-sm90: gpu_sketch field 'kernel': the sm_90a convolution kernel loads 64 input channels per filter tap: C must be a multiple of 64 (got C=32)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>, tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "given">}
    ins(%in, %flt : memref<1x16x16x32xbf16>, memref<3x3x32x64xbf16>) outs(%out : memref<1x14x14x64xbf16>)
  return
}

// -----

func.func @no_split_k(%in: memref<1x16x16x64xbf16>, %flt: memref<3x3x64x64xbf16>, %out: memref<1x14x14x64xbf16>) {
  // expected-error @+1 {{illegal sketch for nvidia-sm90: gpu_sketch field 'split_k': convolutions run without split-K}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>, tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "given", split_k = 2>}
    ins(%in, %flt : memref<1x16x16x64xbf16>, memref<3x3x64x64xbf16>) outs(%out : memref<1x14x14x64xbf16>)
  return
}
