
// output = conv2d(input, filter) on an NVIDIA GPU: NHWC input, HWCF filter,
// NHWF output, all device memory; the padding is a zero tensor.pad.
func.func @l2_1x1(%in: memref<32x28x28x128xbf16>, %flt: memref<1x1x128x512xbf16>, %out: memref<32x28x28x512xbf16>) {
  %zero_in = arith.constant 0.0 : bf16
  %zero_out = arith.constant 0.0 : bf16
  %i = bufferization.to_tensor %in restrict : memref<32x28x28x128xbf16> to tensor<32x28x28x128xbf16>
  %f = bufferization.to_tensor %flt restrict : memref<1x1x128x512xbf16> to tensor<1x1x128x512xbf16>
  %e = tensor.empty() : tensor<32x28x28x512xbf16>
  %z = linalg.fill ins(%zero_out : bf16) outs(%e : tensor<32x28x28x512xbf16>) -> tensor<32x28x28x512xbf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
         ins(%i, %f : tensor<32x28x28x128xbf16>, tensor<1x1x128x512xbf16>) outs(%z : tensor<32x28x28x512xbf16>) -> tensor<32x28x28x512xbf16>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<32x28x28x512xbf16>, memref<32x28x28x512xbf16>) -> ()
  return
}
