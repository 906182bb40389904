// RUN: tensorop-opt %s -split-input-file --tensorop-apply-sketch | FileCheck %s

// The output's zero fill in front of the convolution is dropped: each
// register block is zeroed in the nest right before its first call, by the
// thread that computes it. With 2 threads and 5 output rows (3 + 2) the
// threads split the 2 filter panels (1 + 1) instead, each zeroing its own
// panel's columns of every block; the filter, packed per call, is packed by
// both threads too (a forall over its panels, a team of 2).
// CHECK-LABEL: func.func @pf_threads
// CHECK-NOT:   linalg.fill
// CHECK:       %[[PACKED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<36864xf32>
// CHECK:       scf.forall (%[[P:.*]]) in (2)
// CHECK:         %[[PB:.*]] = arith.muli %[[P]], %c1
// CHECK:         scf.for %{{.*}} = %[[PB]] to %{{.*}} step
// CHECK:           vector.transfer_write %{{.*}}, %[[PACKED]]
// CHECK:         } {tensorop.omp_team}
// CHECK:       scf.forall (%[[T:.*]]) in (2)
// CHECK:         %[[BEGIN:.*]] = arith.muli %[[T]], %c1
// CHECK:         %[[END:.*]] = arith.minsi %{{.*}}, %c2
// CHECK:         scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step %c7
// CHECK:             %[[FIRST:.*]] = arith.muli %[[BEGIN]], %c32
// CHECK:             %[[LAST:.*]] = arith.muli %[[END]], %c32
// CHECK:             %[[LASTF:.*]] = arith.minsi %[[LAST]], %c64
// CHECK:             %[[COLS:.*]] = arith.subi %[[LASTF]], %[[FIRST]]
// CHECK:             %[[BLOCK:.*]] = memref.subview %arg2[%{{.*}}, %{{.*}}, %{{.*}}, %[[FIRST]]] [1, 1, %{{.*}}, %[[COLS]]]
// CHECK:             linalg.fill ins(%{{.*}} : f32) outs(%[[BLOCK]]
// CHECK:             scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step
// CHECK:               tensorop.ukernel
func.func @pf_threads(%in: memref<1x7x7x64xf32>, %flt: memref<3x3x64x64xf32>, %out: memref<1x5x5x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x5x5x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 64, taps = "one", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>} ins(%in, %flt : memref<1x7x7x64xf32>, memref<3x3x64x64xf32>) outs(%out : memref<1x5x5x64xf32>)
  return
}

// -----

// 6 rows on 2 threads divide evenly: the threads split the rows, and each
// zeroes all 64 channels of its blocks.
// CHECK-LABEL: func.func @rows_threads
// CHECK-NOT:   linalg.fill
// CHECK:       scf.forall (%[[T:.*]]) in (2)
// CHECK:         %[[BEGIN:.*]] = arith.muli %[[T]], %c3
// CHECK:         scf.for %{{.*}} = %[[BEGIN]] to %{{.*}} step
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step %c7
// CHECK:             %[[FIRST:.*]] = arith.muli %c0, %c32
// CHECK:             %[[LAST:.*]] = arith.muli %c2, %c32
// CHECK:             %[[BLOCK:.*]] = memref.subview %arg2[%{{.*}}, %{{.*}}, %{{.*}}, %[[FIRST]]] [1, 1, %{{.*}}, %{{.*}}]
// CHECK:             linalg.fill ins(%{{.*}} : f32) outs(%[[BLOCK]]
// CHECK:             tensorop.ukernel
func.func @rows_threads(%in: memref<1x8x7x64xf32>, %flt: memref<3x3x64x64xf32>, %out: memref<1x6x5x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x6x5x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 64, taps = "one", loop_order = "pf", pack_input = "none", pack_filter = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test", threads = 2>} ins(%in, %flt : memref<1x8x7x64xf32>, memref<3x3x64x64xf32>) outs(%out : memref<1x6x5x64xf32>)
  return
}

// -----

// Loop order "fcp" (channel blocks outside the rows): a block is zeroed on
// the first channel block's pass only.
// CHECK-LABEL: func.func @fcp_zero
// CHECK-NOT:   linalg.fill
// CHECK:       scf.for %[[C0:.*]] = %c0{{.*}} to %c64{{.*}} step %c32
// CHECK:         scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step %c7
// CHECK:             %[[FIRST:.*]] = arith.cmpi eq, %[[C0]], %c0
// CHECK:             scf.if %[[FIRST]] {
// CHECK:               linalg.fill
// CHECK:             }
// CHECK:             tensorop.ukernel
// A fill of something else stays.
// CHECK-LABEL: func.func @other_fill
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%arg3
// CHECK-NOT:   linalg.fill
func.func @fcp_zero(%in: memref<1x7x7x64xf32>, %flt: memref<3x3x64x64xf32>, %out: memref<1x5x5x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x5x5x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 32, taps = "one", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %flt : memref<1x7x7x64xf32>, memref<3x3x64x64xf32>) outs(%out : memref<1x5x5x64xf32>)
  return
}
func.func @other_fill(%in: memref<1x7x7x64xf32>, %flt: memref<3x3x64x64xf32>, %out: memref<1x5x5x64xf32>, %other: memref<1x5x5x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%other : memref<1x5x5x64xf32>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 64, taps = "one", loop_order = "pf", pack_input = "none", pack_filter = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %flt : memref<1x7x7x64xf32>, memref<3x3x64x64xf32>) outs(%out : memref<1x5x5x64xf32>)
  return
}
