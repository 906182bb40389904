// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" 2>&1 >/dev/null | FileCheck %s

// The builtin loop order. A filter that stays in half of L2 (3x3 64>64:
// 147 KB packed) is read in place with the output rows outermost ("pf").
// CHECK: remark: tensorop: conv2d f32 n=1 h=56 w=56 c=64 f=64 r=3 s=3 stride=1x1 dil=1x1 pad=0,0,0,0: sketch mr={{[0-9]+}} nr={{[0-9]+}} cb=64 taps="row" loop_order="pf" pack_input="none" pack_filter="none"
func.func @small_filter(%i: tensor<1x56x56x64xf32>, %f: tensor<3x3x64x64xf32>, %o: tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : tensor<1x56x56x64xf32>, tensor<3x3x64x64xf32>) outs(%o : tensor<1x54x54x64xf32>) -> tensor<1x54x54x64xf32>
  return %r : tensor<1x54x54x64xf32>
}

// -----

// ResNet-50's res5 3x3 512>512 (9.4 MB of filter): panels, then channel
// blocks packed in the loop nest, then the rows ("fcp"). The pass packs
// groups of 4 panels (512 bytes of each filter row) per channel block, so
// cb = 103 (512 in 5 even blocks) keeps a packed group block
// (4*3*3*103*32 floats, 475 KB) within half of the 1 MB L2.
// CHECK: remark: tensorop: conv2d f32 n=1 h=9 w=9 c=512 f=512 r=3 s=3 stride=1x1 dil=1x1 pad=0,0,0,0: sketch mr=7 nr=32 cb=103 taps="row" loop_order="fcp" pack_input="none" pack_filter="kmajor_nr"
func.func @res5(%i: tensor<1x9x9x512xf32>, %f: tensor<3x3x512x512xf32>, %o: tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%o : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  return %r : tensor<1x7x7x512xf32>
}

// -----

// The strided projection 1x1/2 1024>2048 (8 MB): "fcp" too; a 1x1 block of
// 512 channels of 4 panels (256 KB packed) fits, cb stays at the L1 bound
// of 512.
// CHECK: remark: tensorop: conv2d f32 n=1 h=14 w=14 c=1024 f=2048 r=1 s=1 stride=2x2 dil=1x1 pad=0,0,0,0: sketch mr=7 nr=32 cb=512 taps="one" loop_order="fcp" pack_input="none" pack_filter="kmajor_nr"
func.func @proj(%i: tensor<1x14x14x1024xf32>, %f: tensor<1x1x1024x2048xf32>, %o: tensor<1x7x7x2048xf32>) -> tensor<1x7x7x2048xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %f : tensor<1x14x14x1024xf32>, tensor<1x1x1024x2048xf32>) outs(%o : tensor<1x7x7x2048xf32>) -> tensor<1x7x7x2048xf32>
  return %r : tensor<1x7x7x2048xf32>
}

// -----

// Between: 3x3 128>128 (589 KB packed) is past half of L2, but with the
// rows one output row reads (86 KB) and that row (14 KB) it stays within
// 3/4 of it: packed once and read from L2 on every row ("pf"), the input
// (N=8 56x56, 12.8 MB) read once rather than once per panel.
// CHECK: remark: tensorop: conv2d f32 n=8 h=56 w=56 c=128 f=128 r=3 s=3 stride=2x2 dil=1x1 pad=0,0,0,0: sketch mr={{[0-9]+}} nr=32 cb=128 taps="row" loop_order="pf" pack_input="none" pack_filter="kmajor_nr"
func.func @mid_filter(%i: tensor<8x56x56x128xf32>, %f: tensor<3x3x128x128xf32>, %o: tensor<8x27x27x128xf32>) -> tensor<8x27x27x128xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %f : tensor<8x56x56x128xf32>, tensor<3x3x128x128xf32>) outs(%o : tensor<8x27x27x128xf32>) -> tensor<8x27x27x128xf32>
  return %r : tensor<8x27x27x128xf32>
}

// -----

// 196 output pixels (N=1 29x29 3x3/2 256>256, 2.4 MB): "fcp", but the pack
// is a small share of the call, so one panel per packed block and the
// whole 256 channels in one block (3*3*256*32 floats, 295 KB).
// CHECK: remark: tensorop: conv2d f32 n=1 h=29 w=29 c=256 f=256 r=3 s=3 stride=2x2 dil=1x1 pad=0,0,0,0: sketch mr={{[0-9]+}} nr=32 cb=256 taps="row" loop_order="fcp" pack_input="none" pack_filter="kmajor_nr"
func.func @res4_strided(%i: tensor<1x29x29x256xf32>, %f: tensor<3x3x256x256xf32>, %o: tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %f : tensor<1x29x29x256xf32>, tensor<3x3x256x256xf32>) outs(%o : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  return %r : tensor<1x14x14x256xf32>
}
