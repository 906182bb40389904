// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-apply-sketch

// The packed filter must be a function argument that only the convolution
// reads: a local buffer is no caller's packed filter.
func.func @not_an_argument(%in: memref<1x7x9x40xf32>, %out: memref<1x5x7x80xf32>) {
  %flt = memref.alloc() : memref<3x3x40x80xf32>
  // expected-error @+1 {{a prepacked filter must be an argument of the enclosing function that only this convolution reads}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "p", size = "s"}, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 16, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %flt : memref<1x7x9x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x5x7x80xf32>)
  return
}

// -----

// The functions the pass adds must not exist yet.
func.func @p() {
  return
}
func.func @taken(%in: memref<1x7x9x40xf32>, %flt: memref<3x3x40x80xf32>, %out: memref<1x5x7x80xf32>) {
  // expected-error @+1 {{cannot add the prepacked filter's function @p: the module has one already}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "p", size = "s"}, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 16, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %flt : memref<1x7x9x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x5x7x80xf32>)
  return
}

// -----

// The mark names both functions.
func.func @bad_mark(%in: memref<1x7x9x40xf32>, %flt: memref<3x3x40x80xf32>, %out: memref<1x5x7x80xf32>) {
  // expected-error @+1 {{'tensorop.prepacked_filter' must be {pack = "...", size = "..."}}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "p"}, tensorop.sketch = #tensorop.conv_sketch<mr = 7, nr = 32, cb = 16, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">} ins(%in, %flt : memref<1x7x9x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x5x7x80xf32>)
  return
}

// -----

// Without a sketch nothing reads the packed layout: the upstream lowering
// would take the packed buffer for an HWCF filter.
func.func @no_sketch(%in: memref<1x7x9x40xf32>, %flt: memref<3x3x40x80xf32>, %out: memref<1x5x7x80xf32>) {
  // expected-error @+1 {{a convolution with a prepacked filter ('tensorop.prepacked_filter') has no #tensorop.conv_sketch}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.prepacked_filter = {pack = "p", size = "s"}} ins(%in, %flt : memref<1x7x9x40xf32>, memref<3x3x40x80xf32>) outs(%out : memref<1x5x7x80xf32>)
  return
}
