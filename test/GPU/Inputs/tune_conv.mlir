// A padded 3x3 bf16 convolution in the form `tensorop gen` writes, and one
// no NVIDIA kernel takes (F = 60): test/GPU/tune-conv.test.
func.func @conv(%in: memref<2x14x14x64xbf16>, %flt: memref<3x3x64x64xbf16>, %out: memref<2x14x14x64xbf16>) {
  %zero_in = arith.constant 0.0 : bf16
  %zero_out = arith.constant 0.0 : bf16
  %i = bufferization.to_tensor %in restrict : memref<2x14x14x64xbf16> to tensor<2x14x14x64xbf16>
  %f = bufferization.to_tensor %flt restrict : memref<3x3x64x64xbf16> to tensor<3x3x64x64xbf16>
  %p = tensor.pad %i low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%b0: index, %b1: index, %b2: index, %b3: index):
    tensor.yield %zero_in : bf16
  } : tensor<2x14x14x64xbf16> to tensor<2x16x16x64xbf16>
  %e = tensor.empty() : tensor<2x14x14x64xbf16>
  %z = linalg.fill ins(%zero_out : bf16) outs(%e : tensor<2x14x14x64xbf16>) -> tensor<2x14x14x64xbf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
         ins(%p, %f : tensor<2x16x16x64xbf16>, tensor<3x3x64x64xbf16>) outs(%z : tensor<2x14x14x64xbf16>) -> tensor<2x14x14x64xbf16>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<2x14x14x64xbf16>, memref<2x14x14x64xbf16>) -> ()
  return
}

func.func @odd(%in: memref<1x8x8x64xbf16>, %flt: memref<3x3x64x60xbf16>, %out: memref<1x6x6x60xbf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
    ins(%in, %flt : memref<1x8x8x64xbf16>, memref<3x3x64x60xbf16>) outs(%out : memref<1x6x6x60xbf16>)
  return
}
