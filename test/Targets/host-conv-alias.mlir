// ConvAdvisor's L1 row limit under target=host reads the machine's L1: in
// place input rows a multiple of the way size (4 KB) apart share one set,
// and a register block takes no more of them than the set's ways less one
// (the filter panel's lines stream through it). Zen 4's 8-way L1: 7 rows in
// one set, 14 in two; Zen 5's 12 ways: 11 (docs/benchmarks/cpu-conv.md, "L1
// ways and in-place rows": on Zen 4, 7 rows beat the 2-4 that "ways - 4"
// gave, 14 in one set lose).
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4 tensorop-opt %s -split-input-file --tensorop-annotate-sketch=target=host 2>&1 >/dev/null | FileCheck %s --check-prefix=ZEN4
// RUN: env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5 tensorop-opt %s -split-input-file --tensorop-annotate-sketch=target=host 2>&1 >/dev/null | FileCheck %s --check-prefix=ZEN5

// 2*512 floats apart (one set), 14 pixels a row.
// ZEN4: remark: tensorop: conv2d f32 n=1 h=28 w=28 c=512 f=1024 r=1 s=1 stride=2x2 {{.*}}: sketch mr=7 nr=32
// ZEN5: remark: tensorop: conv2d f32 n=1 h=28 w=28 c=512 f=1024 r=1 s=1 stride=2x2 {{.*}}: sketch mr=7 nr=32
func.func @one_set(%i: tensor<1x28x28x512xf32>, %f: tensor<1x1x512x1024xf32>, %o: tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : tensor<1x28x28x512xf32>, tensor<1x1x512x1024xf32>) outs(%o : tensor<1x14x14x1024xf32>) -> tensor<1x14x14x1024xf32>
  return %r : tensor<1x14x14x1024xf32>
}

// -----

// One set, 11 pixels a row: 11 rows on Zen 5, not on Zen 4.
// ZEN4: remark: tensorop: conv2d f32 n=1 h=22 w=22 c=512 f=256 r=1 s=1 stride=2x2 {{.*}}: sketch mr=6 nr=64
// ZEN5: remark: tensorop: conv2d f32 n=1 h=22 w=22 c=512 f=256 r=1 s=1 stride=2x2 {{.*}}: sketch mr=11 nr=32
func.func @eleven_rows(%i: tensor<1x22x22x512xf32>, %f: tensor<1x1x512x256xf32>, %o: tensor<1x11x11x256xf32>) -> tensor<1x11x11x256xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : tensor<1x22x22x512xf32>, tensor<1x1x512x256xf32>) outs(%o : tensor<1x11x11x256xf32>) -> tensor<1x11x11x256xf32>
  return %r : tensor<1x11x11x256xf32>
}

// -----

// 2*256 floats apart: two sets, 14 rows on both.
// ZEN4: remark: tensorop: conv2d f32 n=1 h=56 w=56 c=256 f=512 r=1 s=1 stride=2x2 {{.*}}: sketch mr=14 nr=32
// ZEN5: remark: tensorop: conv2d f32 n=1 h=56 w=56 c=256 f=512 r=1 s=1 stride=2x2 {{.*}}: sketch mr=14 nr=32
func.func @two_sets(%i: tensor<1x56x56x256xf32>, %f: tensor<1x1x256x512xf32>, %o: tensor<1x28x28x512xf32>) -> tensor<1x28x28x512xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%i, %f : tensor<1x56x56x256xf32>, tensor<1x1x256x512xf32>) outs(%o : tensor<1x28x28x512xf32>) -> tensor<1x28x28x512xf32>
  return %r : tensor<1x28x28x512xf32>
}

// -----

// The prepacked 1x1 stride-1 layer (a convolution, 1024 channels apart: one
// set) that tensorop bench --conv times as "prepacked".
// ZEN4: remark: tensorop: conv2d f32 n=1 h=14 w=14 c=1024 f=256 r=1 s=1 stride=1x1 {{.*}}: sketch mr=7 nr=32
// ZEN5: remark: tensorop: conv2d f32 n=1 h=14 w=14 c=1024 f=256 r=1 s=1 stride=1x1 {{.*}}: sketch mr=7 nr=32
func.func @prepacked_pointwise(%i: tensor<1x14x14x1024xf32>, %f: tensor<1x1x1024x256xf32>, %o: tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "p", size = "s"}}
      ins(%i, %f : tensor<1x14x14x1024xf32>, tensor<1x1x1024x256xf32>) outs(%o : tensor<1x14x14x256xf32>) -> tensor<1x14x14x256xf32>
  return %r : tensor<1x14x14x256xf32>
}
