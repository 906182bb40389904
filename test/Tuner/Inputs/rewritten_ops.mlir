func.func @batch(%A: memref<8x64x32xf32>, %B: memref<8x32x48xf32>, %C: memref<8x64x48xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<8x64x32xf32>, memref<8x32x48xf32>) outs(%C : memref<8x64x48xf32>)
  return
}
func.func @reduce(%A: memref<4x16x8xf32>, %B: memref<4x8x24xf32>, %C: memref<16x24xf32>) {
  linalg.batch_reduce_matmul ins(%A, %B : memref<4x16x8xf32>, memref<4x8x24xf32>) outs(%C : memref<16x24xf32>)
  return
}
func.func @nchw(%x: memref<1x8x16x16xf32>, %w: memref<16x8x3x3xf32>, %o: memref<1x16x14x14xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x8x16x16xf32>, memref<16x8x3x3xf32>) outs(%o : memref<1x16x14x14xf32>)
  return
}
func.func @depthwise(%x: memref<1x10x10x16xf32>, %w: memref<3x3x16xf32>, %o: memref<1x8x8x16xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x10x10x16xf32>, memref<3x3x16xf32>) outs(%o : memref<1x8x8x16xf32>)
  return
}
