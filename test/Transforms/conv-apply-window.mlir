// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512" --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --tensorop-deallocate-buffers --tensorop-apply-sketch 2>&1 | FileCheck %s
// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512 threads=2" --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --tensorop-deallocate-buffers --tensorop-apply-sketch 2>&1 | FileCheck %s --check-prefix=THREADS
// The copies of the strip lower to memcpy, not to the runner's memrefCopy.
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" 2>/dev/null | FileCheck %s --check-prefix=LLVM

// Few input channels (C = 3): the builtin reduces a block's whole filter
// window in one call (taps = "window"). With padding, the input rows of a
// block of output rows are copied between zero columns into a strip
// (zeroed once, when allocated; rows above or below the image are
// zero-filled), and every block of a row is one window call reading the
// strip: the taps are a strip row (14*3*4 = 168 bytes) apart, and no
// per-tap edge call is left. Here one block is all 12 output rows: the
// strip holds their 14 padded input rows, 14 x (12 + 1 + 1) x 3 floats,
// filled at the block's first row (one copy of each input row rather than
// 3 per output row), and output row oh reads it from strip row oh.
// CHECK-LABEL: func.func @padded_window
// CHECK:       %[[STRIP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<14x14x3xf32>
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[STRIP]] : memref<14x14x3xf32>)
// CHECK:       scf.for %[[ROW:.*]] = %{{.*}} to %{{.*}}
// CHECK:       %[[FIRST:.*]] = arith.cmpi eq
// CHECK:       scf.if %[[FIRST]] {
// CHECK:       scf.for
// CHECK:       memref.subview %[[STRIP]]
// CHECK:       scf.if
// CHECK:       memref.copy %{{.*}}, %{{.*}} : memref<12x3xf32, strided<[3, 1], offset: ?>> to memref<12x3xf32, strided<[3, 1], offset: ?>>
// CHECK:       } else {
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<12x3xf32, strided<[3, 1], offset: ?>>)
// CHECK:       tensorop.ukernel "x86_avx512_f32_{{[0-9]+}}x32_u4_explicit_ldb68_lda12_t3x168" a(%{{.*}} : memref<1x?x3xf32, strided<[42, 3, 1], offset: ?>>)
// CHECK-NOT:   tensorop.ukernel
// CHECK:       memref.dealloc %[[STRIP]]
// CHECK-NOT:   linalg.conv_2d_nhwc_hwcf
// CHECK:       return

// Two threads: a strip per thread.
// THREADS-LABEL: func.func @padded_window
// THREADS:       scf.forall
// THREADS:       %[[STRIP:.*]] = memref.alloc() {alignment = 64 : i64} : memref<14x14x3xf32>
// THREADS:       tensorop.ukernel "x86_avx512_f32_{{[0-9]+}}x32_u4_explicit_ldb68_lda12_t3x168"
// THREADS:       memref.dealloc %[[STRIP]]

// LLVM-NOT: memrefCopy
// LLVM:     llvm.inline_asm
// LLVM-NOT: memrefCopy
func.func @padded_window(%in: memref<1x12x12x3xf32>, %flt: memref<3x3x3x17xf32>, %out: memref<1x12x12x17xf32>) {
  %zero = arith.constant 0.0 : f32
  %i = bufferization.to_tensor %in restrict : memref<1x12x12x3xf32> to tensor<1x12x12x3xf32>
  %f = bufferization.to_tensor %flt restrict : memref<3x3x3x17xf32> to tensor<3x3x3x17xf32>
  %p = tensor.pad %i low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x12x12x3xf32> to tensor<1x14x14x3xf32>
  %e = tensor.empty() : tensor<1x12x12x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x12x17xf32>) -> tensor<1x12x12x17xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x14x14x3xf32>, tensor<3x3x3x17xf32>) outs(%z : tensor<1x12x12x17xf32>) -> tensor<1x12x12x17xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x12x12x17xf32>, memref<1x12x12x17xf32>) -> ()
  return
}

// A wide image: a strip row is 1402*3*4 = 16824 bytes, so a 128 KB strip
// holds 7 rows, the input rows of 5 output rows (convStripBlockRows).
// CHECK-LABEL: func.func @padded_window_wide
// CHECK:       memref.alloc() {alignment = 64 : i64} : memref<7x1402x3xf32>
// CHECK:       tensorop.ukernel "x86_avx512_f32_{{[0-9]+}}x32_u4_explicit_ldb68_lda12_t3x16824"
func.func @padded_window_wide(%in: memref<1x12x1400x3xf32>, %flt: memref<3x3x3x17xf32>, %out: memref<1x12x1400x17xf32>) {
  %zero = arith.constant 0.0 : f32
  %i = bufferization.to_tensor %in restrict : memref<1x12x1400x3xf32> to tensor<1x12x1400x3xf32>
  %f = bufferization.to_tensor %flt restrict : memref<3x3x3x17xf32> to tensor<3x3x3x17xf32>
  %p = tensor.pad %i low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x12x1400x3xf32> to tensor<1x14x1402x3xf32>
  %e = tensor.empty() : tensor<1x12x1400x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x12x1400x17xf32>) -> tensor<1x12x1400x17xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x14x1402x3xf32>, tensor<3x3x3x17xf32>) outs(%z : tensor<1x12x1400x17xf32>) -> tensor<1x12x1400x17xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x12x1400x17xf32>, memref<1x12x1400x17xf32>) -> ()
  return
}

// Windows of consecutive output rows share no input row (stride 3, 2 filter
// rows dilated by 2 along H span 3 rows): the strip holds one output row's R = 2
// rows, the filter rows, DH = 2 input rows apart, so the taps are one
// strip row (168 bytes) apart, not two (a "window" sketch given).
// CHECK-LABEL: func.func @padded_window_apart
// CHECK:       memref.alloc() {alignment = 64 : i64} : memref<2x14x3xf32>
// CHECK:       tensorop.ukernel "x86_avx512_f32_{{[0-9]+}}x32_u4_explicit_ldb68_lda36_t2x168"
func.func @padded_window_apart(%in: memref<1x12x12x3xf32>, %flt: memref<2x2x3x17xf32>, %out: memref<1x4x5x17xf32>) {
  %zero = arith.constant 0.0 : f32
  %i = bufferization.to_tensor %in restrict : memref<1x12x12x3xf32> to tensor<1x12x12x3xf32>
  %f = bufferization.to_tensor %flt restrict : memref<2x2x3x17xf32> to tensor<2x2x3x17xf32>
  %p = tensor.pad %i low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x12x12x3xf32> to tensor<1x14x14x3xf32>
  %e = tensor.empty() : tensor<1x4x5x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x5x17xf32>) -> tensor<1x4x5x17xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[3, 3]> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 4, nr = 32, cb = 3, taps = "window", loop_order = "pf", pack_input = "none", pack_filter = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
      ins(%p, %f : tensor<1x14x14x3xf32>, tensor<2x2x3x17xf32>) outs(%z : tensor<1x4x5x17xf32>) -> tensor<1x4x5x17xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x4x5x17xf32>, memref<1x4x5x17xf32>) -> ()
  return
}

// Without padding every window lies inside the image: the window call
// reads the input in place (taps an input row, 12*3*4 = 144 bytes, apart),
// and there is no strip.
// CHECK-LABEL: func.func @unpadded_window
// CHECK-NOT:   memref.alloc() {{.*}} : memref<3x{{[0-9]+}}x3xf32>
// CHECK:       tensorop.ukernel "x86_avx512_f32_{{[0-9]+}}x32_u4_explicit_ldb68_lda12_t3x144"
// CHECK-NOT:   memref.copy {{.*}} : memref<12x3xf32
// CHECK:       return
func.func @unpadded_window(%in: memref<1x12x12x3xf32>, %flt: memref<3x3x3x17xf32>, %out: memref<1x10x10x17xf32>) {
  %zero = arith.constant 0.0 : f32
  %i = bufferization.to_tensor %in restrict : memref<1x12x12x3xf32> to tensor<1x12x12x3xf32>
  %f = bufferization.to_tensor %flt restrict : memref<3x3x3x17xf32> to tensor<3x3x3x17xf32>
  %e = tensor.empty() : tensor<1x10x10x17xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x10x10x17xf32>) -> tensor<1x10x10x17xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%i, %f : tensor<1x12x12x3xf32>, tensor<3x3x3x17xf32>) outs(%z : tensor<1x10x10x17xf32>) -> tensor<1x10x10x17xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x10x10x17xf32>, memref<1x10x10x17xf32>) -> ()
  return
}
