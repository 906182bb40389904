// Under target=host every pass after tensorop-annotate-sketch reads the hints
// the sketches were planned with (PassHints): tensorop-fuse-epilogues and
// tensorop-apply-sketch for GEMMs, their fused epilogues and convolutions.
// A Zen 4 host (8-way 32 KiB L1, cpus.znver4: 256-bit datapaths) and a Zen 5
// host (12-way 48 KiB L1, 512-bit) plan different kernels, and each applies
// what it planned: the GEMM's N tail and its epilogue kernel with a
// half-width last vector ("_ly") on Zen 4 only; the convolution's register
// block as its sketch says (its input rows 4 KiB apart share one L1 set:
// ConvAdvisor's row limit reads the L1's ways, 7 rows on Zen 4, 11 on Zen 5).
// REQUIRES: host-avx512
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/fake_sysfs.py %t/zen4 0:1:Data:32K:8:64:0 2:2:Unified:1024K:8:64:0 3:3:Unified:32768K:16:64:0-1
// RUN: %python %S/Inputs/fake_sysfs.py %t/zen5 0:1:Data:48K:12:64:0 2:2:Unified:1024K:16:64:0 3:3:Unified:32768K:16:64:0-1
// DEFINE: %{passes} = --tensorop-annotate-sketch=target=host --tensorop-fuse-epilogues=target=host --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --tensorop-apply-sketch=target=host
// RUN: env TENSOROP_HOST_SYSFS=%t/zen4 TENSOROP_HOST_CPU=znver4 tensorop-opt %s %{passes} 2>&1 | FileCheck %s --check-prefixes=CHECK,ZEN4
// RUN: env TENSOROP_HOST_SYSFS=%t/zen5 TENSOROP_HOST_CPU=znver5 tensorop-opt %s %{passes} 2>&1 | FileCheck %s --check-prefixes=CHECK,ZEN5

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>
#row = affine_map<(d0, d1) -> (d0, d1)>
#colb = affine_map<(d0, d1) -> (d1)>

// The convolution's plan (annotate's remark comes first).
// ZEN4: remark: tensorop: conv2d f32 n=1 h=22 w=22 c=512 f=256 {{.*}} sketch mr=6 nr=64
// ZEN5: remark: tensorop: conv2d f32 n=1 h=22 w=22 c=512 f=256 {{.*}} sketch mr=11 nr=32
// CHECK: remark: tensorop: the microkernel applies the epilogue [bias_n, relu]

// 100 = 64 + 36: a 5x48 tail, with and without the epilogue.
// CHECK-LABEL: func.func @gemm_bias_relu
// ZEN4-DAG: tensorop.ukernel "x86_avx512_f32_5x48_u4_explicit_ldb400_lda400_ly_epi{{[0-9a-f]+}}_st"
// ZEN4-DAG: tensorop.ukernel "x86_avx512_f32_5x48_u4_explicit_ldb400_lda400_ly_st"
// ZEN5-DAG: tensorop.ukernel "x86_avx512_f32_5x48_u4_explicit_ldb400_lda400_epi{{[0-9a-f]+}}_st"
// ZEN5-DAG: tensorop.ukernel "x86_avx512_f32_5x48_u4_explicit_ldb400_lda400_st"
// ZEN5-NOT: _ly
func.func @gemm_bias_relu(%A: tensor<100x100xf32>, %B: tensor<100x100xf32>, %bias: tensor<100xf32>) -> tensor<100x100xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x100xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<100x100xf32>) -> tensor<100x100xf32>
  %c = linalg.matmul ins(%A, %B : tensor<100x100xf32>, tensor<100x100xf32>) outs(%o : tensor<100x100xf32>) -> tensor<100x100xf32>
  %r = linalg.generic {indexing_maps = [#row, #colb, #row], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : tensor<100x100xf32>, tensor<100xf32>) outs(%e : tensor<100x100xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %s = arith.addf %x, %b : f32
    %y = arith.maximumf %s, %z : f32
    linalg.yield %y : f32
  } -> tensor<100x100xf32>
  return %r : tensor<100x100xf32>
}

// 1x1/2, 512 channels, 11 pixels a row: the sketch's block, applied as planned.
// CHECK-LABEL: func.func @conv_bias_relu
// ZEN4-NOT: x86_avx512_f32_11x32
// ZEN4: tensorop.ukernel "x86_avx512_f32_6x64_u4_explicit_ldb1024_lda4096_epi{{[0-9a-f]+}}"
// ZEN5-NOT: x86_avx512_f32_6x64
// ZEN5: tensorop.ukernel "x86_avx512_f32_11x32_u4_explicit_ldb1024_lda4096_epi{{[0-9a-f]+}}"
func.func @conv_bias_relu(%I: tensor<1x22x22x512xf32>, %F: tensor<1x1x512x256xf32>, %bias: tensor<256xf32>) -> tensor<1x11x11x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x11x11x256xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x11x11x256xf32>) -> tensor<1x11x11x256xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%I, %F : tensor<1x22x22x512xf32>, tensor<1x1x512x256xf32>) outs(%o : tensor<1x11x11x256xf32>) -> tensor<1x11x11x256xf32>
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %bias : tensor<1x11x11x256xf32>, tensor<256xf32>) outs(%e : tensor<1x11x11x256xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %s = arith.addf %x, %b : f32
    %y = arith.maximumf %s, %z : f32
    linalg.yield %y : f32
  } -> tensor<1x11x11x256xf32>
  return %r : tensor<1x11x11x256xf32>
}
