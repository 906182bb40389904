// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" 2>&1 >/dev/null | FileCheck %s
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512" 2>/dev/null | FileCheck %s --check-prefix=IR

// Input pixels read in place 2*512 floats (4 KB, the size of one L1 way)
// apart all fall into one L1 set: no more of them per register block than
// the set's 12 ways hold, less 1 (the builtin advisor would take 14 for the
// 14 output pixels of a row). (test/Targets/host-conv-alias.mlir: Zen 4's
// 8 ways.)
// CHECK: remark: tensorop: conv2d f32 n=1 h=28 w=28 c=512 f=1024 r=1 s=1 stride=2x2 {{.*}}: sketch mr=7 nr=
func.func @aliasing_rows(%i: tensor<1x28x28x512xf32>, %f: tensor<1x1x512x1024xf32>, %o: tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : tensor<1x28x28x512xf32>, tensor<1x1x512x1024xf32>) outs(%o : tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32>
  return %r : tensor<1x14x14x1024xf32>
}

// -----

// 11 output pixels a row, 4 KB apart: 11 rows fit the 11 ways left.
// CHECK: remark: tensorop: conv2d f32 n=1 h=22 w=22 c=512 f=256 r=1 s=1 stride=2x2 {{.*}}: sketch mr=11 nr=32
func.func @eleven_rows(%i: tensor<1x22x22x512xf32>, %f: tensor<1x1x512x256xf32>, %o: tensor<1x11x11x256xf32>) -> tensor<1x11x11x256xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : tensor<1x22x22x512xf32>, tensor<1x1x512x256xf32>) outs(%o : tensor<1x11x11x256xf32>) -> tensor<1x11x11x256xf32>
  return %r : tensor<1x11x11x256xf32>
}

// -----

// 520 channels: the rows' starts spread over 64 sets, no limit.
// CHECK: remark: tensorop: conv2d f32 n=1 h=28 w=28 c=520 f=1024 r=1 s=1 stride=2x2 {{.*}}: sketch mr=14 nr=
func.func @spread_rows(%i: tensor<1x28x28x520xf32>, %f: tensor<1x1x520x1024xf32>, %o: tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : tensor<1x28x28x520xf32>, tensor<1x1x520x1024xf32>) outs(%o : tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32>
  return %r : tensor<1x14x14x1024xf32>
}

// -----

// A 1x1 stride-1 convolution with a prepacked filter and 256 pixels or
// fewer stays a convolution (the packed layout is the convolution path's),
// with the same row limit (1024 channels: 4 KB apart).
// CHECK-NOT: routed to the GEMM path
// CHECK: remark: tensorop: conv2d f32 n=1 h=14 w=14 c=1024 f=256 r=1 s=1 stride=1x1 {{.*}}: sketch mr=7 nr=
func.func @prepacked_pointwise(%i: tensor<1x14x14x1024xf32>, %f: tensor<1x1x1024x256xf32>, %o: tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "p", size = "s"}}
      ins(%i, %f : tensor<1x14x14x1024xf32>, tensor<1x1x1024x256xf32>) outs(%o : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  return %r : tensor<1x14x14x256xf32>
}

// -----

// With more than 256 pixels it takes the GEMM path; its packed filter is
// the HWCF filter: the pack function copies it, the size function returns
// its bytes (64 x 32 x 4).
// CHECK: remark: tensorop: conv2d f32 n=2 h=12 w=12 c=64 f=32 r=1 s=1 stride=1x1 {{.*}}: prepacked filter on the GEMM path: its packed layout is the HWCF filter (packing copies it)
// CHECK: routed to the GEMM path
// IR-LABEL: func.func @prepacked_pointwise_gemm(
// IR:          linalg.matmul
// IR-LABEL: func.func @p(
// IR-SAME:    memref<1x1x64x32xf32>, %{{.*}}: memref<1x1x64x32xf32>)
// IR:         memref.copy
// IR-LABEL: func.func @s() -> index
// IR:         arith.constant 8192 : index
func.func @prepacked_pointwise_gemm(%i: tensor<2x12x12x64xf32>, %f: tensor<1x1x64x32xf32>, %o: tensor<2x12x12x32xf32>) -> tensor<2x12x12x32xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "p", size = "s"}}
      ins(%i, %f : tensor<2x12x12x64xf32>, tensor<1x1x64x32xf32>) outs(%o : tensor<2x12x12x32xf32>) -> tensor<2x12x12x32xf32>
  return %r : tensor<2x12x12x32xf32>
}
