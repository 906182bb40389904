// tensorop-depthwise-conv builds register-blocked loops on buffers: a
// block of output pixels x 16-lane channel vectors accumulated in
// registers over the whole filter window (vector.fma), each block written
// once. Here, as `tensorop gen`/bench modules are written: a zero
// tensor.pad of the input (folded: read from its source, border taps left
// out, no padded copy), a zero-filled init (never filled) and the result
// materialized into a function argument (the loops write it there: no
// buffer of the output, no copy). 20 channels: one full vector and a
// masked one (no in_bounds).
// RUN: tensorop-opt %s --tensorop-depthwise-conv 2>&1 | FileCheck %s
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" --mlir-print-ir-after=tensorop-apply-sketch -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUF

// CHECK: remark: tensorop: depthwise convolution in register blocks of 4 pixels x 20 channels over the whole filter window (its zero padding folded: border taps left out) (computed in the buffer it is stored into) (zero init: the output is written once)
// CHECK-LABEL: func.func @conv(
// CHECK-SAME:    %[[IN:[a-z0-9]+]]: memref<1x6x7x20xf32>, %[[FLT:[a-z0-9]+]]: memref<3x3x20xf32>, %[[OUT:[a-z0-9]+]]: memref<1x3x4x20xf32>
// CHECK-NOT:   tensor.pad
// CHECK-NOT:   linalg.
// CHECK-NOT:   memref.alloc
// CHECK:       scf.for
// CHECK:       vector.transfer_read {{.*}} {in_bounds = [true]} : memref<1x6x7x20xf32>, vector<16xf32>
// CHECK:       vector.fma
// CHECK:       vector.transfer_read {{.*}} : memref<1x6x7x20xf32>, vector<16xf32>
// CHECK:       vector.transfer_write {{.*}}, %[[OUT]][{{.*}}] {in_bounds = [true]} : vector<16xf32>, memref<1x3x4x20xf32>
// CHECK-NOT:   bufferization.materialize_in_destination
// CHECK-NOT:   linalg.depthwise_conv_2d_nhwc_hwc
// CHECK:       return

// BUF-LABEL: IR Dump After TensorOpApplySketch
// BUF-LABEL: func.func @conv(
// BUF-NOT:   memref.alloc
// BUF-NOT:   memref.copy
// BUF-NOT:   linalg.
// BUF:       vector.fma
// BUF-NOT:   memref.alloc
// BUF-NOT:   memref.copy
// BUF:       return

func.func @conv(%inm: memref<1x6x7x20xf32>, %fm: memref<3x3x20xf32>, %outm: memref<1x3x4x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %in = bufferization.to_tensor %inm restrict : memref<1x6x7x20xf32> to tensor<1x6x7x20xf32>
  %flt = bufferization.to_tensor %fm restrict : memref<3x3x20xf32> to tensor<3x3x20xf32>
  %padded = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x6x7x20xf32> to tensor<1x8x9x20xf32>
  %e = tensor.empty() : tensor<1x3x4x20xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x20xf32>) -> tensor<1x3x4x20xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%padded, %flt : tensor<1x8x9x20xf32>, tensor<3x3x20xf32>) outs(%z : tensor<1x3x4x20xf32>) -> tensor<1x3x4x20xf32>
  bufferization.materialize_in_destination %r in restrict writable %outm : (tensor<1x3x4x20xf32>, memref<1x3x4x20xf32>) -> ()
  return
}
