// NCHW convolutions on tensors (with a zero tensor.pad producer, strides,
// dilations; 1x1 ones as GEMMs per image) go through tensorop-conv-to-nhwc
// into the NHWC convolution path
// and give exactly the result of the same convolution written as a
// linalg.generic (which no TensorOp pass touches), on small integers.
// Convolutions on memrefs (IR bufferized before the pipeline) go the same
// way, accumulating into their output buffer.
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s
// REQUIRES: host-avx512

// REMARK-COUNT-2: remark: tensorop: NCHW convolution computed as an NHWC one (input, filter and output transposed around it){{$}}
// REMARK-COUNT-2: remark: tensorop: NCHW 1x1 convolution computed as one F x (H*W) x C GEMM per image (filter times image, no transposes){{$}}
// REMARK: remark: tensorop: NCHW convolution computed as an NHWC one (input, filter and output transposed around it) (on tensors of its memrefs; the output buffer's contents are its accumulator)
// REMARK: remark: tensorop: NCHW 1x1 convolution computed as one F x (H*W) x C GEMM per image (filter times image, no transposes) (on tensors of its memrefs; the output buffer's contents are its accumulator)
// REMARK-NOT: not rewritten
// CHECK: padded_strided_mismatches: 0
// CHECK: dilated_mismatches: 0
// CHECK: pointwise_mismatches: 0
// CHECK: pointwise_acc_mismatches: 0
// CHECK: dilated_buffers_mismatches: 0
// CHECK: pointwise_buffers_mismatches: 0

#in = affine_map<(n, f, oh, ow, c, r, s) -> (n, c, oh * 2 + r, ow * 2 + s)>
#in_dil = affine_map<(n, f, oh, ow, c, r, s) -> (n, c, oh + r * 2, ow + s * 2)>
#flt = affine_map<(n, f, oh, ow, c, r, s) -> (f, c, r, s)>
#out = affine_map<(n, f, oh, ow, c, r, s) -> (n, f, oh, ow)>
#in1 = affine_map<(n, f, oh, ow, c, r, s) -> (n, c, oh + r, ow + s)>

func.func @padded_strided(%x: tensor<2x3x9x8xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<2x5x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x3x9x8xf32> to tensor<2x3x11x10xf32>
  %e = tensor.empty() : tensor<2x5x5x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
         ins(%p, %w : tensor<2x3x11x10xf32>, tensor<5x3x3x3xf32>) outs(%z : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  return %r : tensor<2x5x5x4xf32>
}

func.func @padded_strided_ref(%x: tensor<2x3x9x8xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<2x5x5x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x3x9x8xf32> to tensor<2x3x11x10xf32>
  %e = tensor.empty() : tensor<2x5x5x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  %r = linalg.generic {indexing_maps = [#in, #flt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
         ins(%p, %w : tensor<2x3x11x10xf32>, tensor<5x3x3x3xf32>) outs(%z : tensor<2x5x5x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x5x5x4xf32>
  return %r : tensor<2x5x5x4xf32>
}

// No padding, dilation 2, a non-zero init (accumulated onto).
func.func @dilated(%x: tensor<2x3x9x8xf32>, %w: tensor<5x3x3x3xf32>, %init: tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x9x8xf32>, tensor<5x3x3x3xf32>) outs(%init : tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  return %r : tensor<2x5x5x4xf32>
}

func.func @dilated_ref(%x: tensor<2x3x9x8xf32>, %w: tensor<5x3x3x3xf32>, %init: tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32> {
  %r = linalg.generic {indexing_maps = [#in_dil, #flt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
         ins(%x, %w : tensor<2x3x9x8xf32>, tensor<5x3x3x3xf32>) outs(%init : tensor<2x5x5x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x5x5x4xf32>
  return %r : tensor<2x5x5x4xf32>
}

// 1x1, stride 1: one GEMM per image (filter times image), onto a zero fill
// and onto a given init.
func.func @pointwise(%x: tensor<2x3x9x8xf32>, %w: tensor<5x3x1x1xf32>) -> tensor<2x5x9x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x9x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x5x9x8xf32>) -> tensor<2x5x9x8xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x9x8xf32>, tensor<5x3x1x1xf32>) outs(%z : tensor<2x5x9x8xf32>) -> tensor<2x5x9x8xf32>
  return %r : tensor<2x5x9x8xf32>
}

func.func @pointwise_acc(%x: tensor<2x3x9x8xf32>, %w: tensor<5x3x1x1xf32>, %init: tensor<2x5x9x8xf32>) -> tensor<2x5x9x8xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<2x3x9x8xf32>, tensor<5x3x1x1xf32>) outs(%init : tensor<2x5x9x8xf32>) -> tensor<2x5x9x8xf32>
  return %r : tensor<2x5x9x8xf32>
}

func.func @pointwise_ref(%x: tensor<2x3x9x8xf32>, %w: tensor<5x3x1x1xf32>, %init: tensor<2x5x9x8xf32>) -> tensor<2x5x9x8xf32> {
  %r = linalg.generic {indexing_maps = [#in1, #flt, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
         ins(%x, %w : tensor<2x3x9x8xf32>, tensor<5x3x1x1xf32>) outs(%init : tensor<2x5x9x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x5x9x8xf32>
  return %r : tensor<2x5x9x8xf32>
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

func.func @mismatches(%a: tensor<2x5x5x4xf32>, %b: tensor<2x5x5x4xf32>) -> i64 {
  %zero = arith.constant 0 : i64
  %init = tensor.from_elements %zero : tensor<i64>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
         ins(%a, %b : tensor<2x5x5x4xf32>, tensor<2x5x5x4xf32>) outs(%init : tensor<i64>) {
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

func.func @mismatches98(%a: tensor<2x5x9x8xf32>, %b: tensor<2x5x9x8xf32>) -> i64 {
  %zero = arith.constant 0 : i64
  %init = tensor.from_elements %zero : tensor<i64>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
         ins(%a, %b : tensor<2x5x9x8xf32>, tensor<2x5x9x8xf32>) outs(%init : tensor<i64>) {
  ^bb0(%x: f32, %y: f32, %acc: i64):
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

func.func @dilated_buffers(%x: memref<2x3x9x8xf32>, %w: memref<5x3x3x3xf32>, %out: memref<2x5x5x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<2x3x9x8xf32>, memref<5x3x3x3xf32>) outs(%out : memref<2x5x5x4xf32>)
  return
}

func.func @pointwise_buffers(%x: memref<2x3x9x8xf32>, %w: memref<5x3x1x1xf32>, %out: memref<2x5x9x8xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<2x3x9x8xf32>, memref<5x3x1x1xf32>) outs(%out : memref<2x5x9x8xf32>)
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %ex = tensor.empty() : tensor<2x3x9x8xf32>
  %ew = tensor.empty() : tensor<5x3x3x3xf32>
  %ei = tensor.empty() : tensor<2x5x5x4xf32>
  %dx = tensor.cast %ex : tensor<2x3x9x8xf32> to tensor<?x?x?x?xf32>
  %dw = tensor.cast %ew : tensor<5x3x3x3xf32> to tensor<?x?x?x?xf32>
  %di = tensor.cast %ei : tensor<2x5x5x4xf32> to tensor<?x?x?x?xf32>
  %xd = call @ints(%dx, %c1) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %wd = call @ints(%dw, %c2) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %id = call @ints(%di, %c3) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %x = tensor.cast %xd : tensor<?x?x?x?xf32> to tensor<2x3x9x8xf32>
  %w = tensor.cast %wd : tensor<?x?x?x?xf32> to tensor<5x3x3x3xf32>
  %i = tensor.cast %id : tensor<?x?x?x?xf32> to tensor<2x5x5x4xf32>

  %a = call @padded_strided(%x, %w) : (tensor<2x3x9x8xf32>, tensor<5x3x3x3xf32>) -> tensor<2x5x5x4xf32>
  %ar = call @padded_strided_ref(%x, %w) : (tensor<2x3x9x8xf32>, tensor<5x3x3x3xf32>) -> tensor<2x5x5x4xf32>
  %ma = call @mismatches(%a, %ar) : (tensor<2x5x5x4xf32>, tensor<2x5x5x4xf32>) -> i64
  vector.print str "padded_strided_mismatches: "
  vector.print %ma : i64

  %b = call @dilated(%x, %w, %i) : (tensor<2x3x9x8xf32>, tensor<5x3x3x3xf32>, tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  %br = call @dilated_ref(%x, %w, %i) : (tensor<2x3x9x8xf32>, tensor<5x3x3x3xf32>, tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
  %mb = call @mismatches(%b, %br) : (tensor<2x5x5x4xf32>, tensor<2x5x5x4xf32>) -> i64
  vector.print str "dilated_mismatches: "
  vector.print %mb : i64

  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %ew1 = tensor.empty() : tensor<5x3x1x1xf32>
  %ei1 = tensor.empty() : tensor<2x5x9x8xf32>
  %dw1 = tensor.cast %ew1 : tensor<5x3x1x1xf32> to tensor<?x?x?x?xf32>
  %di1 = tensor.cast %ei1 : tensor<2x5x9x8xf32> to tensor<?x?x?x?xf32>
  %w1d = call @ints(%dw1, %c4) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %i1d = call @ints(%di1, %c5) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %w1 = tensor.cast %w1d : tensor<?x?x?x?xf32> to tensor<5x3x1x1xf32>
  %i1 = tensor.cast %i1d : tensor<?x?x?x?xf32> to tensor<2x5x9x8xf32>
  %zf = arith.constant 0.0 : f32
  %z1 = linalg.fill ins(%zf : f32) outs(%ei1 : tensor<2x5x9x8xf32>) -> tensor<2x5x9x8xf32>
  %c = call @pointwise(%x, %w1) : (tensor<2x3x9x8xf32>, tensor<5x3x1x1xf32>) -> tensor<2x5x9x8xf32>
  %cr = call @pointwise_ref(%x, %w1, %z1) : (tensor<2x3x9x8xf32>, tensor<5x3x1x1xf32>, tensor<2x5x9x8xf32>) -> tensor<2x5x9x8xf32>
  %mc = call @mismatches98(%c, %cr) : (tensor<2x5x9x8xf32>, tensor<2x5x9x8xf32>) -> i64
  vector.print str "pointwise_mismatches: "
  vector.print %mc : i64
  %d = call @pointwise_acc(%x, %w1, %i1) : (tensor<2x3x9x8xf32>, tensor<5x3x1x1xf32>, tensor<2x5x9x8xf32>) -> tensor<2x5x9x8xf32>
  %dr = call @pointwise_ref(%x, %w1, %i1) : (tensor<2x3x9x8xf32>, tensor<5x3x1x1xf32>, tensor<2x5x9x8xf32>) -> tensor<2x5x9x8xf32>
  %md = call @mismatches98(%d, %dr) : (tensor<2x5x9x8xf32>, tensor<2x5x9x8xf32>) -> i64
  vector.print str "pointwise_acc_mismatches: "
  vector.print %md : i64

  // On buffers: accumulating into copies of %i and %i1.
  %xm = bufferization.to_buffer %x : tensor<2x3x9x8xf32> to memref<2x3x9x8xf32>
  %wm = bufferization.to_buffer %w : tensor<5x3x3x3xf32> to memref<5x3x3x3xf32>
  %w1m = bufferization.to_buffer %w1 : tensor<5x3x1x1xf32> to memref<5x3x1x1xf32>
  %im = bufferization.to_buffer %i : tensor<2x5x5x4xf32> to memref<2x5x5x4xf32>
  %i1m = bufferization.to_buffer %i1 : tensor<2x5x9x8xf32> to memref<2x5x9x8xf32>
  %om = memref.alloc() : memref<2x5x5x4xf32>
  memref.copy %im, %om : memref<2x5x5x4xf32> to memref<2x5x5x4xf32>
  call @dilated_buffers(%xm, %wm, %om) : (memref<2x3x9x8xf32>, memref<5x3x3x3xf32>, memref<2x5x5x4xf32>) -> ()
  %o = bufferization.to_tensor %om restrict : memref<2x5x5x4xf32> to tensor<2x5x5x4xf32>
  %mo = call @mismatches(%o, %br) : (tensor<2x5x5x4xf32>, tensor<2x5x5x4xf32>) -> i64
  vector.print str "dilated_buffers_mismatches: "
  vector.print %mo : i64
  %o1m = memref.alloc() : memref<2x5x9x8xf32>
  memref.copy %i1m, %o1m : memref<2x5x9x8xf32> to memref<2x5x9x8xf32>
  call @pointwise_buffers(%xm, %w1m, %o1m) : (memref<2x3x9x8xf32>, memref<5x3x1x1xf32>, memref<2x5x9x8xf32>) -> ()
  %o1 = bufferization.to_tensor %o1m restrict : memref<2x5x9x8xf32> to tensor<2x5x9x8xf32>
  %mo1 = call @mismatches98(%o1, %dr) : (tensor<2x5x9x8xf32>, tensor<2x5x9x8xf32>) -> i64
  vector.print str "pointwise_buffers_mismatches: "
  vector.print %mo1 : i64
  return
}
