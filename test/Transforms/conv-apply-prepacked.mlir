// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch | FileCheck %s

// A convolution marked tensorop.prepacked_filter reads its filter argument
// as the filter packed once: the argument is retyped to the packed buffer
// (F = 80 -> 3 panels of nr = 32, R*S*C = 360 rows each: 34560 floats), the
// function packs nothing and allocates no filter buffer (loop order "fcp"
// keeps its order over the whole packed filter; with at most 128 output
// pixels, 35 here, its channel block takes the room the per-call entry's
// group of panels would: cb 16 x 3 panels, all 40 channels in one block),
// and the pass adds the
// function that packs into that layout (the packing loops, no microkernel)
// and the one that returns its size in bytes.
// CHECK-LABEL: func.func @conv_prepacked
// CHECK-SAME:    %[[PACKED:[^:]+]]: memref<34560xf32>
// CHECK-NOT:     memref<4608xf32>
// CHECK-NOT:     vector.transfer_write
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c3 step %c1
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c40 step %c40
// CHECK:             scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step
// CHECK:               memref.subview %[[PACKED]]
// CHECK:               tensorop.ukernel "x86_avx512_f32_7x32_u4_explicit_lda160_t3x160"
// CHECK-NOT:     vector.transfer_write
// CHECK-NOT:     memref.dealloc %[[PACKED]]
// CHECK:         return
// CHECK-LABEL: func.func @conv_pack_filter
// CHECK-SAME:    (%[[F:[^:]+]]: memref<3x3x40x80xf32>, %[[P:[^:]+]]: memref<34560xf32>)
// CHECK-NOT:     tensorop.ukernel
// CHECK:         scf.for %{{.*}} = %c0{{.*}} to %c3 step %c1
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c40 step %c40
// CHECK:             scf.for %{{.*}} = %c0{{.*}} to %c9 step
// CHECK:               vector.transfer_read %[[F]]
// CHECK:               vector.transfer_write %{{.*}}, %[[P]]
// CHECK-NOT:     tensorop.ukernel
// CHECK:         return
// CHECK-LABEL: func.func @conv_packed_filter_size() -> index
// CHECK:         %[[B:.*]] = arith.constant 138240 : index
// CHECK:         return %[[B]]
func.func @conv_prepacked(%in: memref<1x7x9x40xf32>, %packed: memref<3x3x40x80xf32>, %out: memref<1x5x7x80xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "conv_pack_filter", size = "conv_packed_filter_size"}, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 16, taps = "row", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %packed : memref<1x7x9x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x5x7x80xf32>)
  return
}

// -----

// A sketch that reads the filter in place (pack_filter "none") reads the
// packed panels instead: the microkernels take B from the argument, packed
// (no row stride of F floats, "ldb80", in their names), and nothing is
// packed per call. F = 20 -> 2 panels of nr = 16 (zero past F), 3*3*8 rows each.
// CHECK-LABEL: func.func @in_place_prepacked
// CHECK-SAME:    %[[PACKED:[^:]+]]: memref<2304xf32>
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     vector.transfer_write
// CHECK:         memref.subview %[[PACKED]]
// CHECK:         tensorop.ukernel "x86_avx512_f32_6x16_u4_explicit_lda32_t3x32"
// CHECK-NOT:     ldb80
// CHECK-NOT:     vector.transfer_write
// CHECK:         return
// CHECK-LABEL: func.func @in_place_pack(
// CHECK:         vector.transfer_write
// CHECK-LABEL: func.func @in_place_size() -> index
// CHECK:         arith.constant 9216 : index
func.func @in_place_prepacked(%in: memref<1x8x8x8xf32>, %packed: memref<3x3x8x20xf32>, %out: memref<1x6x6x20xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "in_place_pack", size = "in_place_size"}, tensorop.sketch = #tensorop.conv_sketch<mr = 6, nr = 16, cb = 8, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %packed : memref<1x8x8x8xf32>, memref<3x3x8x20xf32>) outs(%out : memref<1x6x6x20xf32>)
  return
}

// -----

// The prepacked "fcp" block grows by the group (2 panels here) only up to
// the builtin bound of 512 channels per call: cb 512 stays 512 (not all
// 1024), so the nest has two channel blocks.
// CHECK-LABEL: func.func @fcp_capped
// CHECK-SAME:    %{{[^:]+}}: memref<65536xf32>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c2 step %c1
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c1024 step %c512
// CHECK-LABEL: func.func @capped_pack
func.func @fcp_capped(%in: memref<1x6x6x1024xf32>, %packed: memref<1x1x1024x64xf32>, %out: memref<1x3x3x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "capped_pack", size = "capped_size"}, tensorop.sketch = #tensorop.conv_sketch<mr = 3, nr = 32, cb = 512, taps = "one", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %packed : memref<1x6x6x1024xf32>, memref<1x1x1024x64xf32>) outs(%out : memref<1x3x3x64xf32>)
  return
}
