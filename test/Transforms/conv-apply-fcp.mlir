// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch | FileCheck %s

// Loop order "fcp": for each group of filter panels of nr = 32 channels
// (80 -> 3 panels; with at most 128 output pixels, 35 here, up to 4 per
// group, 512 bytes of each filter row: one group of 3), for each channel block of cb = 16 (40 -> 3), that block of
// the group's panels is packed (3 x R*S*cb*nr = 3 x 4608 floats, one
// buffer reused; the panels the innermost loop of the pack, so it reads
// each filter row 96 floats at a time) and then each panel of the group
// runs every output row over its part of the buffer (panel % 3 x 4608).
// CHECK-LABEL: func.func @fcp
// CHECK:       %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<13824xf32>
// CHECK:       scf.for %[[G:.*]] = %{{.*}} to %c1 step
// CHECK:         %[[FIRST:.*]] = arith.muli %[[G]], %c3
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c40 step %c16
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c9 step
// CHECK:             scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK:               scf.for %[[PK:.*]] = %[[FIRST]] to %{{.*}} step
// CHECK:                 arith.remui %[[PK]], %c3
// CHECK:                 arith.muli %{{.*}}, %c4608
// CHECK:                 vector.transfer_read %arg1
// CHECK:                 vector.transfer_write %{{.*}}, %[[BUF]]
// CHECK:           scf.for %[[P:.*]] = %[[FIRST]] to %{{.*}} step
// CHECK:             scf.for %{{.*}} = %{{.*}} to %c5 step
// CHECK:               arith.remui %[[P]], %c3
// CHECK:               arith.muli %{{.*}}, %c4608
// CHECK:               memref.subview %[[BUF]]
// CHECK:               tensorop.ukernel "x86_avx512_f32_7x32_u4_explicit_lda160_t3x160"
// CHECK-NOT:   vector.transfer_read %arg1
// CHECK:       memref.dealloc %[[BUF]]
// CHECK:       return
func.func @fcp(%in: memref<1x7x9x40xf32>, %flt: memref<3x3x40x80xf32>, %out: memref<1x5x7x80xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 16, taps = "row", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %flt : memref<1x7x9x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x5x7x80xf32>)
  return
}

// -----

// With threads, "fcp" packs one panel at a time (grouping lost at 2
// threads) and its channel block takes the room a group of the 3 panels
// would: cb 16 x 3, all 40 channels (3*3*40*32 = 11520 floats). The
// threads split the 3 panels (chunks of 2), each packing its own blocks
// into its own buffer and running all 5 output rows.
// CHECK-LABEL: func.func @fcp_threads
// CHECK:       scf.forall (%[[T:.*]]) in (2)
// CHECK:         %[[BEGIN:.*]] = arith.muli %[[T]], %c2
// CHECK:         %[[END:.*]] = arith.minsi %{{.*}}, %c3
// CHECK:         %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<11520xf32>
// CHECK:         scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step %c1
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c40 step %c40
// CHECK:             vector.transfer_write %{{.*}}, %[[BUF]]
// CHECK:             scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step
// CHECK:               tensorop.ukernel
// CHECK:         memref.dealloc %[[BUF]]
func.func @fcp_threads(%in: memref<1x7x9x40xf32>, %flt: memref<3x3x40x80xf32>, %out: memref<1x5x7x80xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 16, taps = "row", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>} ins(%in, %flt : memref<1x7x9x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x5x7x80xf32>)
  return
}

// -----

// Past 128 output pixels (144 here) the pack is a small share of the call:
// one panel per block (buffer R*S*cb*nr = 4608 floats), the panel loop
// outside the channel blocks, the pack reading one panel, then the rows.
// CHECK-LABEL: func.func @fcp_many_pixels
// CHECK:       %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4608xf32>
// CHECK:       scf.for %[[P:.*]] = %{{.*}} to %c3 step
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c40 step %c16
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c9 step
// CHECK:             scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NOT:           scf.for
// CHECK:               vector.transfer_read %arg1
// CHECK:               vector.transfer_write %{{.*}}, %[[BUF]]
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c12 step
// CHECK:             tensorop.ukernel
// CHECK:       memref.dealloc %[[BUF]]
func.func @fcp_many_pixels(%in: memref<1x14x14x40xf32>, %flt: memref<3x3x40x80xf32>, %out: memref<1x12x12x80xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 6, nr = 32, cb = 16, taps = "row", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %flt : memref<1x14x14x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x12x12x80xf32>)
  return
}
