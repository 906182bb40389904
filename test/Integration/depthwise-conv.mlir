// Depthwise convolutions (NHWC input, HWC filter) through
// tensorop-depthwise-conv's register-blocked loops give exactly the result
// of the same convolution written as a linalg.generic (which no TensorOp
// pass touches), on small integers: C not a multiple of the vector width
// (masked last vector), padding folded (even, uneven, and wider than the
// filter reaches), strides and dilations (also different in H and W), a
// 5x3 filter, pixel blocks with a rest, two images, an accumulated init,
// and a convolution on memrefs (IR bufferized before the pipeline)
// accumulating into its output buffer.
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" | FileCheck %s --check-prefix=VEC
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s
// REQUIRES: host-avx512

// REMARK: remark: tensorop: depthwise convolution in register blocks of 5 pixels x 17 channels over the whole filter window (its zero padding folded: border taps left out) (zero init: the output is written once)
// REMARK: remark: tensorop: depthwise convolution in register blocks of 8 pixels x 32 channels over the whole filter window{{$}}
// REMARK: remark: tensorop: depthwise convolution in register blocks of 8 pixels x 32 channels over the whole filter window (on its memrefs)
// REMARK: remark: tensorop: depthwise convolution in register blocks of 8 pixels x 32 channels over the whole filter window (its zero padding folded: border taps left out){{$}}
// REMARK: remark: tensorop: depthwise convolution in register blocks of 9 pixels x 16 channels over the whole filter window (its zero padding folded: border taps left out) (zero init: the output is written once)
// REMARK-NOT: not vectorized
// REMARK-NOT: remark
// VEC: llvm.intr.fmuladd{{.*}}vector<
// CHECK: padded_strided_mismatches: 0
// CHECK: dilated_mismatches: 0
// CHECK: dilated_buffers_mismatches: 0
// CHECK: general_mismatches: 0
// CHECK: wide_pad_mismatches: 0

#in = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh * 2 + kh, ow * 2 + kw, c)>
#in_dil = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh + kh * 2, ow + kw * 2, c)>
#flt = affine_map<(n, oh, ow, c, kh, kw) -> (kh, kw, c)>
#out = affine_map<(n, oh, ow, c, kh, kw) -> (n, oh, ow, c)>

func.func @padded_strided(%x: tensor<2x9x10x17xf32>, %w: tensor<3x3x17xf32>) -> tensor<2x5x5x17xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x9x10x17xf32> to tensor<2x11x12x17xf32>
  %e = tensor.empty() : tensor<2x5x5x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x17xf32>) -> tensor<2x5x5x17xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<2x11x12x17xf32>, tensor<3x3x17xf32>) outs(%z : tensor<2x5x5x17xf32>) -> tensor<2x5x5x17xf32>
  return %r : tensor<2x5x5x17xf32>
}

func.func @padded_strided_ref(%x: tensor<2x9x10x17xf32>, %w: tensor<3x3x17xf32>) -> tensor<2x5x5x17xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x9x10x17xf32> to tensor<2x11x12x17xf32>
  %e = tensor.empty() : tensor<2x5x5x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x17xf32>) -> tensor<2x5x5x17xf32>
  %r = linalg.generic {indexing_maps = [#in, #flt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
         ins(%p, %w : tensor<2x11x12x17xf32>, tensor<3x3x17xf32>) outs(%z : tensor<2x5x5x17xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x5x5x17xf32>
  return %r : tensor<2x5x5x17xf32>
}

func.func @dilated(%x: tensor<1x12x12x32xf32>, %w: tensor<3x3x32xf32>, %init: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x12x12x32xf32>, tensor<3x3x32xf32>) outs(%init : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

func.func @dilated_ref(%x: tensor<1x12x12x32xf32>, %w: tensor<3x3x32xf32>, %init: tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> {
  %r = linalg.generic {indexing_maps = [#in_dil, #flt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
         ins(%x, %w : tensor<1x12x12x32xf32>, tensor<3x3x32xf32>) outs(%init : tensor<1x8x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x8x8x32xf32>
  return %r : tensor<1x8x8x32xf32>
}

func.func @dilated_buffers(%x: memref<1x12x12x32xf32>, %w: memref<3x3x32xf32>, %out: memref<1x8x8x32xf32>) {
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x12x12x32xf32>, memref<3x3x32xf32>) outs(%out : memref<1x8x8x32xf32>)
  return
}

// Uneven zero padding (2 top, 1 bottom, 1 left, 3 right), a 5x3 filter,
// stride (1, 2), dilation (2, 1), 72 channels (two blocks of two vectors, a masked
// one), 13 output columns (a full block of 8 and a rest of 5, and border
// pixels), two images, accumulated into a non-zero init.
func.func @general(%x: tensor<2x13x23x72xf32>, %w: tensor<5x3x72xf32>, %init: tensor<2x8x13x72xf32>) -> tensor<2x8x13x72xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 1, 0] high[0, 1, 3, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x13x23x72xf32> to tensor<2x16x27x72xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
         ins(%p, %w : tensor<2x16x27x72xf32>, tensor<5x3x72xf32>) outs(%init : tensor<2x8x13x72xf32>) -> tensor<2x8x13x72xf32>
  return %r : tensor<2x8x13x72xf32>
}

func.func @general_ref(%x: tensor<2x13x23x72xf32>, %w: tensor<5x3x72xf32>, %init: tensor<2x8x13x72xf32>) -> tensor<2x8x13x72xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 2, 1, 0] high[0, 1, 3, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x13x23x72xf32> to tensor<2x16x27x72xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, c, kh, kw) -> (n, oh + kh * 2, ow * 2 + kw, c)>, #flt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
         ins(%p, %w : tensor<2x16x27x72xf32>, tensor<5x3x72xf32>) outs(%init : tensor<2x8x13x72xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x8x13x72xf32>
  return %r : tensor<2x8x13x72xf32>
}

// Padding wider than the filter reaches: the border rows and columns have
// no tap inside the image and must come out as the zero init.
func.func @wide_pad(%x: tensor<1x5x5x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x9x9x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x5x5x16xf32> to tensor<1x11x11x16xf32>
  %e = tensor.empty() : tensor<1x9x9x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%p, %w : tensor<1x11x11x16xf32>, tensor<3x3x16xf32>) outs(%z : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  return %r : tensor<1x9x9x16xf32>
}

func.func @wide_pad_ref(%x: tensor<1x5x5x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x9x9x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x5x5x16xf32> to tensor<1x11x11x16xf32>
  %e = tensor.empty() : tensor<1x9x9x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9x9x16xf32>) -> tensor<1x9x9x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, oh, ow, c, kh, kw) -> (n, oh + kh, ow + kw, c)>, #flt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
         ins(%p, %w : tensor<1x11x11x16xf32>, tensor<3x3x16xf32>) outs(%z : tensor<1x9x9x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x9x9x16xf32>
  return %r : tensor<1x9x9x16xf32>
}

// Small integers ((7a + 3b + 5c + d + salt) mod 7) - 3: exact in f32.
func.func @ints(%t: tensor<?x?x?x?xf32>, %salt: index) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %a7 = arith.muli %a, %c7 : index
    %b3 = arith.muli %b, %c3 : index
    %c5m = arith.muli %c, %c5 : index
    %s0 = arith.addi %a7, %b3 : index
    %s1 = arith.addi %s0, %c5m : index
    %s2 = arith.addi %s1, %d : index
    %s3 = arith.addi %s2, %salt : index
    %m = arith.remui %s3, %c7 : index
    %i = arith.index_cast %m : index to i64
    %f = arith.sitofp %i : i64 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @mismatches(%a: tensor<?x?x?x?xf32>, %b: tensor<?x?x?x?xf32>) -> i64 {
  %zero = arith.constant 0 : i64
  %init = tensor.from_elements %zero : tensor<i64>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
         ins(%a, %b : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%init : tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %acc: i64):
    // NaN compares false with "oeq", so a NaN counts as a mismatch.
    %eq = arith.cmpf oeq, %x, %y : f32
    %one = arith.constant 1 : i64
    %z = arith.constant 0 : i64
    %d = arith.select %eq, %z, %one : i64
    %s = arith.addi %acc, %d : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  %v = tensor.extract %r[] : tensor<i64>
  return %v : i64
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ex = tensor.empty() : tensor<2x9x10x17xf32>
  %ew = tensor.empty() : tensor<3x3x17x1xf32>
  %dx = tensor.cast %ex : tensor<2x9x10x17xf32> to tensor<?x?x?x?xf32>
  %dw = tensor.cast %ew : tensor<3x3x17x1xf32> to tensor<?x?x?x?xf32>
  %xd = call @ints(%dx, %c1) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %wd = call @ints(%dw, %c2) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %x = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<2x9x10x17xf32>
  %w4 = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<3x3x17x1xf32>
  %w = tensor.collapse_shape %w4 [[0], [1], [2, 3]] : tensor<3x3x17x1xf32> into tensor<3x3x17xf32>
  %a = call @padded_strided(%x, %w) : (tensor<2x9x10x17xf32>, tensor<3x3x17xf32>) -> tensor<2x5x5x17xf32>
  %ar = call @padded_strided_ref(%x, %w) : (tensor<2x9x10x17xf32>, tensor<3x3x17xf32>) -> tensor<2x5x5x17xf32>
  %ad = tensor.cast %a : tensor<2x5x5x17xf32> to tensor<?x?x?x?xf32>
  %ard = tensor.cast %ar : tensor<2x5x5x17xf32> to tensor<?x?x?x?xf32>
  %ma = call @mismatches(%ad, %ard) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i64
  vector.print str "padded_strided_mismatches: "
  vector.print %ma : i64

  %ey = tensor.empty() : tensor<1x12x12x32xf32>
  %ev = tensor.empty() : tensor<3x3x32x1xf32>
  %ei = tensor.empty() : tensor<1x8x8x32xf32>
  %dy = tensor.cast %ey : tensor<1x12x12x32xf32> to tensor<?x?x?x?xf32>
  %dv = tensor.cast %ev : tensor<3x3x32x1xf32> to tensor<?x?x?x?xf32>
  %di = tensor.cast %ei : tensor<1x8x8x32xf32> to tensor<?x?x?x?xf32>
  %yd = call @ints(%dy, %c3) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %vd = call @ints(%dv, %c1) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %id = call @ints(%di, %c2) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %y = tensor.cast %yd : tensor<?x?x?x?xf32> to tensor<1x12x12x32xf32>
  %v4 = tensor.cast %vd : tensor<?x?x?x?xf32> to tensor<3x3x32x1xf32>
  %v = tensor.collapse_shape %v4 [[0], [1], [2, 3]] : tensor<3x3x32x1xf32> into tensor<3x3x32xf32>
  %i = tensor.cast %id : tensor<?x?x?x?xf32> to tensor<1x8x8x32xf32>
  %b = call @dilated(%y, %v, %i) : (tensor<1x12x12x32xf32>, tensor<3x3x32xf32>, tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %br = call @dilated_ref(%y, %v, %i) : (tensor<1x12x12x32xf32>, tensor<3x3x32xf32>, tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %bd = tensor.cast %b : tensor<1x8x8x32xf32> to tensor<?x?x?x?xf32>
  %brd = tensor.cast %br : tensor<1x8x8x32xf32> to tensor<?x?x?x?xf32>
  %mb = call @mismatches(%bd, %brd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i64
  vector.print str "dilated_mismatches: "
  vector.print %mb : i64

  // The same convolution on buffers, accumulating into a copy of %i.
  %ym = bufferization.to_buffer %y : tensor<1x12x12x32xf32> to memref<1x12x12x32xf32>
  %vm = bufferization.to_buffer %v : tensor<3x3x32xf32> to memref<3x3x32xf32>
  %im = bufferization.to_buffer %i : tensor<1x8x8x32xf32> to memref<1x8x8x32xf32>
  %om = memref.alloc() : memref<1x8x8x32xf32>
  memref.copy %im, %om : memref<1x8x8x32xf32> to memref<1x8x8x32xf32>
  call @dilated_buffers(%ym, %vm, %om) : (memref<1x12x12x32xf32>, memref<3x3x32xf32>, memref<1x8x8x32xf32>) -> ()
  %o = bufferization.to_tensor %om restrict : memref<1x8x8x32xf32> to tensor<1x8x8x32xf32>
  %od = tensor.cast %o : tensor<1x8x8x32xf32> to tensor<?x?x?x?xf32>
  %mo = call @mismatches(%od, %brd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i64
  vector.print str "dilated_buffers_mismatches: "
  vector.print %mo : i64

  %ex3 = tensor.empty() : tensor<2x13x23x72xf32>
  %ew3 = tensor.empty() : tensor<5x3x72x1xf32>
  %ei3 = tensor.empty() : tensor<2x8x13x72xf32>
  %dx3 = tensor.cast %ex3 : tensor<2x13x23x72xf32> to tensor<?x?x?x?xf32>
  %dw3 = tensor.cast %ew3 : tensor<5x3x72x1xf32> to tensor<?x?x?x?xf32>
  %di3 = tensor.cast %ei3 : tensor<2x8x13x72xf32> to tensor<?x?x?x?xf32>
  %x3d = call @ints(%dx3, %c1) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %w3d = call @ints(%dw3, %c2) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %i3d = call @ints(%di3, %c3) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %x3 = tensor.cast %x3d : tensor<?x?x?x?xf32> to tensor<2x13x23x72xf32>
  %w34 = tensor.cast %w3d : tensor<?x?x?x?xf32> to tensor<5x3x72x1xf32>
  %w3 = tensor.collapse_shape %w34 [[0], [1], [2, 3]] : tensor<5x3x72x1xf32> into tensor<5x3x72xf32>
  %i3 = tensor.cast %i3d : tensor<?x?x?x?xf32> to tensor<2x8x13x72xf32>
  %g = call @general(%x3, %w3, %i3) : (tensor<2x13x23x72xf32>, tensor<5x3x72xf32>, tensor<2x8x13x72xf32>) -> tensor<2x8x13x72xf32>
  %gr = call @general_ref(%x3, %w3, %i3) : (tensor<2x13x23x72xf32>, tensor<5x3x72xf32>, tensor<2x8x13x72xf32>) -> tensor<2x8x13x72xf32>
  %gd = tensor.cast %g : tensor<2x8x13x72xf32> to tensor<?x?x?x?xf32>
  %grd = tensor.cast %gr : tensor<2x8x13x72xf32> to tensor<?x?x?x?xf32>
  %mg = call @mismatches(%gd, %grd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i64
  vector.print str "general_mismatches: "
  vector.print %mg : i64

  %ex4 = tensor.empty() : tensor<1x5x5x16xf32>
  %ew4 = tensor.empty() : tensor<3x3x16x1xf32>
  %dx4 = tensor.cast %ex4 : tensor<1x5x5x16xf32> to tensor<?x?x?x?xf32>
  %dw4 = tensor.cast %ew4 : tensor<3x3x16x1xf32> to tensor<?x?x?x?xf32>
  %x4d = call @ints(%dx4, %c2) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %w4d = call @ints(%dw4, %c3) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %x4 = tensor.cast %x4d : tensor<?x?x?x?xf32> to tensor<1x5x5x16xf32>
  %w4x = tensor.cast %w4d : tensor<?x?x?x?xf32> to tensor<3x3x16x1xf32>
  %w5 = tensor.collapse_shape %w4x [[0], [1], [2, 3]] : tensor<3x3x16x1xf32> into tensor<3x3x16xf32>
  %h = call @wide_pad(%x4, %w5) : (tensor<1x5x5x16xf32>, tensor<3x3x16xf32>) -> tensor<1x9x9x16xf32>
  %hr = call @wide_pad_ref(%x4, %w5) : (tensor<1x5x5x16xf32>, tensor<3x3x16xf32>) -> tensor<1x9x9x16xf32>
  %hd = tensor.cast %h : tensor<1x9x9x16xf32> to tensor<?x?x?x?xf32>
  %hrd = tensor.cast %hr : tensor<1x9x9x16xf32> to tensor<?x?x?x?xf32>
  %mh = call @mismatches(%hd, %hrd) : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) -> i64
  vector.print str "wide_pad_mismatches: "
  vector.print %mh : i64
  return
}
