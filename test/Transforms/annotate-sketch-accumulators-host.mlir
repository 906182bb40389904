// The register block's FMA chains are a per-CPU fact (hints/x86-avx512.json,
// cpus.znver5.fma.independent_accumulators_for_peak 12): Zen 5's GEMM
// microkernel runs at 64-91% of the fastest block's speed with 8
// accumulators and 93-100% with 12 or more, so a 4 x 32 block (8) gives
// way to 11 x 32 and a 5 x 32 block (10) to 5 x 48. Zen 4 keeps the file's 4 and its 4 x 32 and 5 x 32
// blocks. The convolution advisor keeps its threshold of 8 on Zen 5
// (fma.conv_accumulators_for_peak): twice 12 lost on the layers it changed.
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/../Targets/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{zen4} = env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4
// DEFINE: %{zen5} = env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5

// RUN: %gen_matmul 163 541 541 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=A4
// A4: mr = 4, nr = 32,
// RUN: %gen_matmul 163 541 541 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=A5
// A5: mr = 11, nr = 32,
// RUN: %gen_matmul 1563 1563 1563 | %{zen4} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=B4
// B4: mr = 5, nr = 32,
// RUN: %gen_matmul 1563 1563 1563 | %{zen5} tensorop-opt --tensorop-annotate-sketch="target=host" | FileCheck %s --check-prefix=B5
// B5: mr = 5, nr = 48,

// The 3x3 convolution of 512 channels on a 9 x 9 input keeps its 7 x 32
// block on Zen 5 (twice 12 chains gave it 8 x 48: B/A 0.78).
// RUN: %{zen5} tensorop-opt %s --tensorop-annotate-sketch="target=host" 2>&1 >/dev/null | FileCheck %s --check-prefix=CONV
// CONV: h=9 w=9 c=512 f=512 r=3 s=3 {{.*}}: sketch mr=7 nr=32
func.func @conv(%i: tensor<1x9x9x512xf32>, %f: tensor<3x3x512x512xf32>, %o: tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : tensor<1x9x9x512xf32>, tensor<3x3x512x512xf32>) outs(%o : tensor<1x7x7x512xf32>) -> tensor<1x7x7x512xf32>
  return %r : tensor<1x7x7x512xf32>
}
