// A small 3x3 convolution with padding 1, in the form `tensorop gen` builds
// (a zero tensor.pad that the kernel takes over), and a 1x1 stride-1 one,
// which annotate-sketch routes to the GEMM path (the tuner skips it).
func.func @conv3x3(%in: memref<1x8x8x8xf32>, %flt: memref<3x3x8x20xf32>, %out: memref<1x8x8x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %i = bufferization.to_tensor %in restrict : memref<1x8x8x8xf32> to tensor<1x8x8x8xf32>
  %f = bufferization.to_tensor %flt restrict : memref<3x3x8x20xf32> to tensor<3x3x8x20xf32>
  %p = tensor.pad %i low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x8xf32> to tensor<1x10x10x8xf32>
  %e = tensor.empty() : tensor<1x8x8x20xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x20xf32>) -> tensor<1x8x8x20xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %f : tensor<1x10x10x8xf32>, tensor<3x3x8x20xf32>) outs(%z : tensor<1x8x8x20xf32>) -> tensor<1x8x8x20xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x8x8x20xf32>, memref<1x8x8x20xf32>) -> ()
  return
}

func.func @conv1x1(%in: tensor<1x8x8x16xf32>, %flt: tensor<1x1x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%in, %flt : tensor<1x8x8x16xf32>, tensor<1x1x16x32xf32>) outs(%z : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}
