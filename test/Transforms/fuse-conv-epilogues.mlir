// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=x86-avx512 --tensorop-fuse-epilogues 2>/dev/null | FileCheck %s
// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=x86-avx512 --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=riscv-rvv --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=RVV
// Which elementwise consumers of a convolution become the epilogue on its
// #tensorop.conv_sketch (the consumer rewritten in place on the output and
// marked), the remark for each that does not, and the 1x1 convolutions on
// the GEMM path, whose 4-D consumers are rewritten on the GEMM's rows.

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d3)>
#col = affine_map<(d0, d1, d2, d3) -> (d2)>

// REMARK: remark: tensorop: fused the elementwise consumer into the convolution microkernel's store: epilogue [bias_n, relu]
// RVV: remark: tensorop: not fused into the convolution's microkernel (runs as a separate op after it): the riscv_gemm_rvv convolution kernel (a GEMM microkernel per tap on packed panels) has no epilogue yet; x86_gemm_fma has one
// CHECK-LABEL: func.func @bias_relu
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}}tensorop.sketch = #tensorop.conv_sketch<{{.*}}epilogue = <steps = ["bias_n", "relu"]>>}
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<64xf32>) outs(%[[CONV]] : tensor<1x14x14x64xf32>) attrs = {tensorop.fused_epilogue}
func.func @bias_relu(%I: tensor<1x16x16x32xf32>, %F: tensor<3x3x32x64xf32>, %bias: tensor<64xf32>) -> tensor<1x14x14x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x64xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %F : tensor<1x16x16x32xf32>, tensor<3x3x32x64xf32>) outs(%o : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %bias : tensor<1x14x14x64xf32>, tensor<64xf32>) outs(%e : tensor<1x14x14x64xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %s = arith.addf %x, %b : f32
    %y = arith.maximumf %s, %z : f32
    linalg.yield %y : f32
  } -> tensor<1x14x14x64xf32>
  return %r : tensor<1x14x14x64xf32>
}

// A residual added by a named op (read in its generic form).
// REMARK: remark: tensorop: fused the elementwise consumer into the convolution microkernel's store: epilogue [residual]
// CHECK-LABEL: func.func @residual_add
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}epilogue = <steps = ["residual"]>>}
// CHECK: linalg.generic {{.*}}attrs = {tensorop.fused_epilogue}
// CHECK-NOT: linalg.add
func.func @residual_add(%I: tensor<2x9x9x8xf32>, %F: tensor<3x3x8x16xf32>, %R: tensor<2x4x4x16xf32>) -> tensor<2x4x4x16xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x16xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x4x16xf32>) -> tensor<2x4x4x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%I, %F : tensor<2x9x9x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<2x4x4x16xf32>) -> tensor<2x4x4x16xf32>
  %r = linalg.add ins(%c, %R : tensor<2x4x4x16xf32>, tensor<2x4x4x16xf32>) outs(%e : tensor<2x4x4x16xf32>) -> tensor<2x4x4x16xf32>
  return %r : tensor<2x4x4x16xf32>
}

// On memrefs, the consumer in place on the output right after it: bias,
// then relu6 spelled as a clamp.
// REMARK: remark: tensorop: fused the elementwise consumer into the convolution microkernel's store: epilogue [bias_n, clamp(0, 6)]
// CHECK-LABEL: func.func @memref_relu6
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}epilogue = <steps = ["bias_n", "clamp(0, 6)"]>>}
func.func @memref_relu6(%I: memref<1x10x10x3xf32>, %F: memref<3x3x3x17xf32>, %bias: memref<17xf32>, %O: memref<1x8x8x17xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %F : memref<1x10x10x3xf32>, memref<3x3x3x17xf32>) outs(%O : memref<1x8x8x17xf32>)
  linalg.generic {indexing_maps = [#ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : memref<17xf32>) outs(%O : memref<1x8x8x17xf32>) {
  ^bb0(%b: f32, %x: f32):
    %zero = arith.constant 0.0 : f32
    %six = arith.constant 6.0 : f32
    %s = arith.addf %x, %b : f32
    %lo = arith.maximumf %s, %zero : f32
    %y = arith.minimumf %lo, %six : f32
    linalg.yield %y : f32
  }
  return
}

// Not an epilogue: an operand broadcast along the output's columns, and a
// function that is none of the known steps.
// REMARK: remark: tensorop: not fused into the convolution's microkernel (runs as a separate op after it): input #1 is neither a bias per output channel nor one N x OH x OW x F residual
// REMARK: remark: tensorop: not fused into the convolution's microkernel (runs as a separate op after it): the ops from 'math.exp' on compute none of
// CHECK-LABEL: func.func @not_fused
// CHECK-NOT: epilogue =
// CHECK-NOT: tensorop.fused_epilogue
// CHECK: return
func.func @not_fused(%I: tensor<1x16x16x32xf32>, %F: tensor<3x3x32x64xf32>, %v: tensor<14xf32>) -> (tensor<1x14x14x64xf32>, tensor<1x14x14x64xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x64xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %F : tensor<1x16x16x32xf32>, tensor<3x3x32x64xf32>) outs(%o : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %v : tensor<1x14x14x64xf32>, tensor<14xf32>) outs(%e : tensor<1x14x14x64xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x14x14x64xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %F : tensor<1x16x16x32xf32>, tensor<3x3x32x64xf32>) outs(%o : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2 : tensor<1x14x14x64xf32>) outs(%e : tensor<1x14x14x64xf32>) {
  ^bb0(%x: f32, %out: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<1x14x14x64xf32>
  return %r, %r2 : tensor<1x14x14x64xf32>, tensor<1x14x14x64xf32>
}

// A 1x1 stride-1 convolution is a GEMM over the pixels: its consumer is
// rewritten on the (N*H*W) x F rows and fused into the GEMM's kernel.
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, gelu_tanh]
// CHECK-LABEL: func.func @pointwise
// CHECK: %[[MM:.*]] = linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}epilogue = <steps = ["bias_n", "gelu_tanh"]>>}
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<128xf32>) outs(%[[MM]] : tensor<98x128xf32>) attrs = {tensorop.fused_epilogue}
// CHECK: tensor.expand_shape %[[G]] {{\[}}[0, 1, 2], [3]]
func.func @pointwise(%I: tensor<2x7x7x64xf32>, %F: tensor<1x1x64x128xf32>, %bias: tensor<128xf32>) -> tensor<2x7x7x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x128xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x7x7x128xf32>) -> tensor<2x7x7x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %F : tensor<2x7x7x64xf32>, tensor<1x1x64x128xf32>) outs(%o : tensor<2x7x7x128xf32>) -> tensor<2x7x7x128xf32>
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %bias : tensor<2x7x7x128xf32>, tensor<128xf32>) outs(%e : tensor<2x7x7x128xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %h = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.7978845608 : f32
    %k1 = arith.constant 0.044715 : f32
    %v = arith.addf %x, %b : f32
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %a = arith.mulf %v3, %k1 : f32
    %s = arith.addf %v, %a : f32
    %u = arith.mulf %s, %k0 : f32
    %t = math.tanh %u : f32
    %p = arith.addf %t, %one : f32
    %hv = arith.mulf %v, %h : f32
    %y = arith.mulf %hv, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x7x7x128xf32>
  return %r : tensor<2x7x7x128xf32>
}

// ... unless it reads an operand per image row: then it stays.
// REMARK: remark: tensorop: not fused into the 1x1 convolution's GEMM microkernel (runs as a separate op after it): an operand is read other than per pixel and channel, per channel or as a scalar
// CHECK-LABEL: func.func @pointwise_row_operand
// CHECK-NOT: epilogue =
// CHECK: return
func.func @pointwise_row_operand(%I: tensor<2x7x7x64xf32>, %F: tensor<1x1x64x128xf32>, %v: tensor<7xf32>) -> tensor<2x7x7x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x128xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x7x7x128xf32>) -> tensor<2x7x7x128xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %F : tensor<2x7x7x64xf32>, tensor<1x1x64x128xf32>) outs(%o : tensor<2x7x7x128xf32>) -> tensor<2x7x7x128xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %v : tensor<2x7x7x128xf32>, tensor<7xf32>) outs(%e : tensor<2x7x7x128xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<2x7x7x128xf32>
  return %r : tensor<2x7x7x128xf32>
}
