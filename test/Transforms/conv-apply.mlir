// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=x86-avx512" --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --tensorop-deallocate-buffers --tensorop-apply-sketch 2>&1 | FileCheck %s
// RUN: tensorop-opt %s --tensorop-annotate-sketch="target=arm-neon" --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --tensorop-deallocate-buffers --tensorop-apply-sketch 2>&1 | FileCheck %s --check-prefix=NEON
// The whole pipeline leaves no call to the C runner utilities.
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" 2>/dev/null | FileCheck %s --check-prefix=LLVM

// The bufferized zero pad (alloc, fill, copy into a subview) is folded into
// the kernel: the convolution reads %in itself, nothing is copied, and the
// convolution becomes microkernel calls: a filter row per call in the
// interior (taps > 1), one tap per call at the edges. The NEON run packs
// the filter once (vector reads of %arg1 into one buffer).
// CHECK-LABEL: func.func @padded
// CHECK-NOT:   memref.copy %arg0
// CHECK-NOT:   linalg.map
// The filter is read in place too (row stride F*4 = 256 bytes), nothing
// packs it.
// CHECK-NOT:   vector.transfer_read %arg1
// CHECK:       tensorop.ukernel "x86_avx512_f32_14x32_u4_explicit_ldb256_lda256_t3x256" a(%{{.*}} : memref<1x1x?x?xf32, strided<[12544, 896, 64, 1], offset: ?>>) b(%{{.*}} : memref<1x1x?x?xf32, strided<[12288, 4096, 64, 1], offset: ?>>)
// CHECK:       tensorop.ukernel "x86_avx512_f32_14x32_u4_explicit_ldb256_lda256" a(%{{.*}} : memref<1x1x?x?xf32, strided<[12544, 896, 64, 1], offset: ?>>)
// CHECK-NOT:   linalg.conv_2d_nhwc_hwcf
// CHECK:       return

// Where the input cannot be read in place, each tap's pixels are packed
// k-major into a panel of mr.
// NEON-LABEL:  func.func @padded
// NEON-NOT:    memref.copy %arg0
// NEON:        vector.transfer_read %arg1
// NEON:        linalg.generic {{.*}} ins(%{{.*}} : memref<?x?xf32, strided<[64, 1], offset: ?>>)
// NEON:        tensorop.ukernel "neon_f32_{{[0-9]+}}x{{[0-9]+}}
// NEON-NOT:    linalg.conv_2d_nhwc_hwcf

// LLVM-NOT: memrefCopy
// LLVM:     llvm.inline_asm
// LLVM-NOT: memrefCopy
func.func @padded(%in: memref<1x14x14x64xf32>, %flt: memref<3x3x64x64xf32>, %out: memref<1x14x14x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %i = bufferization.to_tensor %in restrict : memref<1x14x14x64xf32> to tensor<1x14x14x64xf32>
  %f = bufferization.to_tensor %flt restrict : memref<3x3x64x64xf32> to tensor<3x3x64x64xf32>
  %p = tensor.pad %i low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x14x14x64xf32> to tensor<1x16x16x64xf32>
  %e = tensor.empty() : tensor<1x14x14x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 1]> : tensor<2xi64>, strides = dense<[1, 1]> : tensor<2xi64>}
      ins(%p, %f : tensor<1x16x16x64xf32>, tensor<3x3x64x64xf32>) outs(%z : tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32>
  bufferization.materialize_in_destination %r in restrict writable %out : (tensor<1x14x14x64xf32>, memref<1x14x14x64xf32>) -> ()
  return
}
