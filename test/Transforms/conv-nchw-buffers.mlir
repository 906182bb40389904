// An NCHW convolution from an importer (memref arguments as tensors, a zero
// tensor.pad, a zero-filled init) leaves only the buffers its NHWC form
// needs: the NCHW pad and fill it replaced are erased before bufferization
// (their buffers would be filled and copied into on every call, read by
// nothing), and the NHWC pad still folds into the kernel (the filter's
// transpose comes first, so the pad's copy is the last write before the
// convolution). The transposes are tiled and vectorized (a 16 x 16 block at
// most between the input's and the output's innermost dimensions that are
// not 1). A stride-1 1x1 convolution has no transposes: one GEMM per image.
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" --mlir-print-ir-after=tensorop-apply-sketch -o /dev/null 2>&1 | FileCheck %s
// RUN: tensorop-opt %s --tensorop-conv-to-nhwc 2>/dev/null | FileCheck %s --check-prefix=VEC

// CHECK: remark: tensorop: NCHW convolution computed as an NHWC one
// CHECK-NOT: could not be traced
// CHECK-LABEL: IR Dump After TensorOpApplySketch
// CHECK-LABEL: func.func @nchw(
// CHECK-NOT: memref.copy
// CHECK-NOT: 1x3x11x10xf32
// CHECK-NOT: 1x11x10x3xf32
// CHECK-NOT: linalg.transpose
// CHECK: vector.transfer_read {{.*}}permutation_map
// CHECK: vector.transfer_read {{.*}}permutation_map
// CHECK: tensorop.ukernel
// CHECK: vector.transfer_read {{.*}}permutation_map
// CHECK-NOT: memref.copy
// CHECK: return

// VEC-LABEL: func.func @nchw(
// VEC-NOT: linalg.transpose
// VEC-NOT: tensor.pad {{.*}} to tensor<1x3x11x10xf32>
// VEC-DAG: vector.transfer_read {{.*}}permutation_map = {{.*}} : tensor<1x3x1x8xf32>, vector<1x1x8x3xf32>
// The 1x1 filter's FCHW is an F x C matrix: its tiles are 16 x 16 blocks of
// it, not 16 gathers of one element per row (a strided 1x1 convolution; a
// stride-1 one is GEMMs, below).
// VEC-LABEL: func.func @strided_1x1(
// VEC-DAG: vector.transfer_read {{.*}}permutation_map = {{.*}} : tensor<16x16x1x1xf32>, vector<1x1x16x16xf32>
// A stride-1 1x1 convolution is one GEMM per image: filter (F x C) times
// image (C x H*W) into the image's F x H*W output plane.
// VEC-LABEL: func.func @pointwise(
// VEC-NOT: transpose
// VEC: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<32x64x1x1xf32> into tensor<32x64xf32>
// VEC-COUNT-2: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<32x64xf32>, tensor<64x49xf32>) outs(%{{.*}} : tensor<32x49xf32>)
// VEC-NOT: transpose
// VEC: return

func.func @nchw(%inm: memref<1x3x9x8xf32>, %fm: memref<5x3x3x3xf32>, %outm: memref<1x5x5x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %in = bufferization.to_tensor %inm restrict : memref<1x3x9x8xf32> to tensor<1x3x9x8xf32>
  %flt = bufferization.to_tensor %fm restrict : memref<5x3x3x3xf32> to tensor<5x3x3x3xf32>
  %padded = tensor.pad %in low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x9x8xf32> to tensor<1x3x11x10xf32>
  %e = tensor.empty() : tensor<1x5x5x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%padded, %flt : tensor<1x3x11x10xf32>, tensor<5x3x3x3xf32>) outs(%z : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  bufferization.materialize_in_destination %r in restrict writable %outm : (tensor<1x5x5x4xf32>, memref<1x5x5x4xf32>) -> ()
  return
}

func.func @strided_1x1(%inm: memref<1x64x13x13xf32>, %fm: memref<32x64x1x1xf32>, %outm: memref<1x32x7x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %in = bufferization.to_tensor %inm restrict : memref<1x64x13x13xf32> to tensor<1x64x13x13xf32>
  %flt = bufferization.to_tensor %fm restrict : memref<32x64x1x1xf32> to tensor<32x64x1x1xf32>
  %e = tensor.empty() : tensor<1x32x7x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%in, %flt : tensor<1x64x13x13xf32>, tensor<32x64x1x1xf32>) outs(%z : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  bufferization.materialize_in_destination %r in restrict writable %outm : (tensor<1x32x7x7xf32>, memref<1x32x7x7xf32>) -> ()
  return
}

func.func @pointwise(%inm: memref<2x64x7x7xf32>, %fm: memref<32x64x1x1xf32>, %outm: memref<2x32x7x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %in = bufferization.to_tensor %inm restrict : memref<2x64x7x7xf32> to tensor<2x64x7x7xf32>
  %flt = bufferization.to_tensor %fm restrict : memref<32x64x1x1xf32> to tensor<32x64x1x1xf32>
  %e = tensor.empty() : tensor<2x32x7x7xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x32x7x7xf32>) -> tensor<2x32x7x7xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %flt : tensor<2x64x7x7xf32>, tensor<32x64x1x1xf32>) outs(%z : tensor<2x32x7x7xf32>) -> tensor<2x32x7x7xf32>
  bufferization.materialize_in_destination %r in restrict writable %outm : (tensor<2x32x7x7xf32>, memref<2x32x7x7xf32>) -> ()
  return
}
