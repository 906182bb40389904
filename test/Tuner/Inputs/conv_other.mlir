// The 3x3 convolution of conv_small.mlir with F = 24: another signature.
func.func @conv3x3_f24(%in: memref<1x8x8x8xf32>, %flt: memref<3x3x8x24xf32>, %out: memref<1x8x8x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %i = bufferization.to_tensor %in restrict : memref<1x8x8x8xf32> to tensor<1x8x8x8xf32>
  %f = bufferization.to_tensor %flt restrict : memref<3x3x8x24xf32> to tensor<3x3x8x24xf32>
  %p = tensor.pad %i low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x10x10x8xf32>
  %e = tensor.empty() : tensor<1x8x8x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %f : tensor<1x10x10x8xf32>, tensor<3x3x8x24xf32>) outs(%z : tensor<1x8x8x24xf32>) -> tensor<1x8x8x24xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x8x8x24xf32>, memref<1x8x8x24xf32>) -> ()
  return
}
