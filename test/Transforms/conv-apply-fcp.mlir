// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch | FileCheck %s

// Loop order "fcp": for each filter panel of nr = 32 channels (80 -> 3),
// for each channel block of cb = 16 (40 -> 3), that block of the panel is
// packed (R*S*cb*nr = 4608 floats, one buffer reused) and then every output
// row passes over it; the microkernels read B from that buffer.
// CHECK-LABEL: func.func @fcp
// CHECK:       %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4608xf32>
// CHECK:       scf.for %{{.*}} = %{{.*}} to %c3 step %c1
// CHECK:         arith.muli
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c40 step %c16
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c9 step
// CHECK:             vector.transfer_read %arg1
// CHECK:             vector.transfer_write %{{.*}}, %[[BUF]]
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c5 step
// CHECK:             memref.subview %[[BUF]]
// CHECK:             tensorop.ukernel "x86_avx512_f32_7x32_u4_explicit_lda160_t3x160"
// CHECK-NOT:   vector.transfer_read %arg1
// CHECK:       memref.dealloc %[[BUF]]
// CHECK:       return
func.func @fcp(%in: memref<1x7x9x40xf32>, %flt: memref<3x3x40x80xf32>, %out: memref<1x5x7x80xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 16, taps = "row", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %flt : memref<1x7x9x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x5x7x80xf32>)
  return
}

// -----

// With threads, "fcp" splits the 3 filter panels (chunks of 2: two
// threads), each thread packing its own blocks into its own buffer and
// running all 5 output rows.
// CHECK-LABEL: func.func @fcp_threads
// CHECK:       scf.forall (%[[T:.*]]) in (2)
// CHECK:         %[[BEGIN:.*]] = arith.muli %[[T]], %c2
// CHECK:         %[[END:.*]] = arith.minsi %{{.*}}, %c3
// CHECK:         %[[BUF:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4608xf32>
// CHECK:         scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step %c1
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c40 step %c16
// CHECK:             vector.transfer_write %{{.*}}, %[[BUF]]
// CHECK:             scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step
// CHECK:               tensorop.ukernel
// CHECK:         memref.dealloc %[[BUF]]
func.func @fcp_threads(%in: memref<1x7x9x40xf32>, %flt: memref<3x3x40x80xf32>, %out: memref<1x5x7x80xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 16, taps = "row", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>} ins(%in, %flt : memref<1x7x9x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x5x7x80xf32>)
  return
}
