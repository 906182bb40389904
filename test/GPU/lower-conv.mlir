// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-lower-conv="target=nvidia-sm90" | FileCheck %s
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-lower-conv="target=nvidia-sm80" | FileCheck %s --check-prefix=SM80

// sm_80: the mma.sync kernel, A and B as plain pointers (no tensor maps),
// cp.async at computed addresses.
// SM80-LABEL: func.func @padded
//   SM80-NOT:   call @tensoropGpuTensorMap
//       SM80:   gpu.launch_func @padded_conv_kernel_module::@padded_conv_kernel {{.*}} args(%arg0 : memref<2x8x8x64xbf16>, %arg1 : memref<3x3x64x64xbf16>, %arg2 : memref<2x8x8x64xbf16>) {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync"
//       SM80: gpu.module @padded_conv_kernel_module [#nvvm.target<O = 3, chip = "sm_80"
//       SM80:   llvm.inline_asm has_side_effects {{.*}}cp.async.cg.shared.global{{.*}}mma.sync.aligned.m16n8k16{{.*}}"l,l,l,r"

// The tensor form `tensorop gen` writes: the zero tensor.pad, the zero fill
// and the materialization all go; the input is read through an im2col
// tensor map (corners -1/-1: padding 1, 8 output columns from 8 input
// columns), the filter through a 2-D map of the [R*S*C][F] matrix.
// CHECK-LABEL: func.func @padded
//   CHECK-NOT:   tensor.pad
//   CHECK-NOT:   linalg.conv_2d_nhwc_hwcf
//       CHECK:   %[[T:.*]] = call @tensoropGpuTensorMapIm2colNHWC(%{{.*}}, %c9_i64, %c2_i64, %c8_i64, %c8_i64{{.*}}, %c64_i64, %c-1_i64, %c-1_i64{{.*}}, %c-1_i64{{.*}}, %c-1_i64{{.*}}, %c1_i64, %c1_i64{{.*}}, %c64_i64{{.*}}, %c64_i64{{.*}}, %c128_i64)
//       CHECK:   call @tensoropGpuTensorMap2D(%{{.*}}, %c9_i64{{.*}}, %c64_i64{{.*}}, %c576_i64
//       CHECK:   gpu.launch_func @padded_conv_kernel_module::@padded_conv_kernel {{.*}} args(%arg0 : memref<2x8x8x64xbf16>, %arg1 : memref<3x3x64x64xbf16>, %arg2 : memref<2x8x8x64xbf16>, %{{.*}} : i64, %{{.*}} : i64) {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma"
//   CHECK-NOT:   bufferization.materialize_in_destination
//       CHECK: gpu.module @padded_conv_kernel_module [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
//       CHECK:   llvm.inline_asm has_side_effects {{.*}}cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%qdst], [%qmapA, {%qc0, %qwb, %qhb, %qnb}], [%qt3], {%qoff0, %qoff1}{{.*}}wgmma.mma_async
func.func @padded(%in: memref<2x8x8x64xbf16>, %flt: memref<3x3x64x64xbf16>, %out: memref<2x8x8x64xbf16>) {
  %zero_in = arith.constant 0.0 : bf16
  %zero_out = arith.constant 0.0 : bf16
  %i = bufferization.to_tensor %in restrict : memref<2x8x8x64xbf16> to tensor<2x8x8x64xbf16>
  %f = bufferization.to_tensor %flt restrict : memref<3x3x64x64xbf16> to tensor<3x3x64x64xbf16>
  %p = tensor.pad %i low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %zero_in : bf16
  } : tensor<2x8x8x64xbf16> to tensor<2x10x10x64xbf16>
  %e = tensor.empty() : tensor<2x8x8x64xbf16>
  %z = linalg.fill ins(%zero_out : bf16) outs(%e : tensor<2x8x8x64xbf16>) -> tensor<2x8x8x64xbf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
         ins(%p, %f : tensor<2x10x10x64xbf16>, tensor<3x3x64x64xbf16>) outs(%z : tensor<2x8x8x64xbf16>) -> tensor<2x8x8x64xbf16>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<2x8x8x64xbf16>, memref<2x8x8x64xbf16>) -> ()
  return
}

// -----

// Memrefs, no padding, stride 2 (the traversal stride of the im2col map),
// f16 in, f32 out; without a zero fill the kernel accumulates into the
// output (its loads of C are in the PTX).
// CHECK-LABEL: func.func @strided_accumulate
//       CHECK:   call @tensoropGpuTensorMapIm2colNHWC(%{{.*}}, %c6_i64, %c1_i64, %c16_i64, %c16_i64{{.*}}, %c128_i64, %c0_i64, %c0_i64{{.*}}, %c-1_i64, %c-1_i64{{.*}}, %c2_i64, %c2_i64
//       CHECK:   gpu.launch_func @strided_accumulate_conv_kernel_module::@strided_accumulate_conv_kernel
//       CHECK:   llvm.inline_asm has_side_effects {{.*}}im2col{{.*}}ld.global.v2.f32
func.func @strided_accumulate(%in: memref<1x16x16x128xf16>, %flt: memref<1x1x128x64xf16>, %out: memref<1x8x8x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
    ins(%in, %flt : memref<1x16x16x128xf16>, memref<1x1x128x64xf16>) outs(%out : memref<1x8x8x64xf32>)
  return
}

// -----

// A zero fill right before the memref conv is the kernel's beta = 0. The
// output is C's M x F matrix, stored through shared memory by TMA (C's
// tensor map is the kernel's sixth operand).
// CHECK-LABEL: func.func @filled
//   CHECK-NOT:   linalg.fill
//       CHECK:   call @tensoropGpuTensorMapIm2colNHWC
//       CHECK:   call @tensoropGpuTensorMap2D
//       CHECK:   call @tensoropGpuTensorMap2D
//       CHECK:   gpu.launch_func
//       CHECK:   llvm.inline_asm
//   CHECK-NOT:   ld.global.v2.f32
//  CHECK-SAME:   cp.async.bulk.tensor.2d.global.shared::cta.bulk_group
//  CHECK-SAME:   "l,l,l,l,l,l,r"
func.func @filled(%in: memref<1x16x16x128xf16>, %flt: memref<1x1x128x64xf16>, %out: memref<1x16x16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x16x16x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%in, %flt : memref<1x16x16x128xf16>, memref<1x1x128x64xf16>) outs(%out : memref<1x16x16x64xf32>)
  return
}
