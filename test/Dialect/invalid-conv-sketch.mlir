// RUN: tensorop-opt %s -split-input-file -verify-diagnostics
// Illegal convolution sketches are rejected where they are written, naming
// the field.

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch 'mr' must be positive, got 0}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 0, nr = 32, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch 'cb' must be positive, got -1}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = -1, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch 'nr' must be at most 1024 (a register block's side), got 4611686018427387904}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 4611686018427387904, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch taps "all" is not known (expected "one", "row" or "window")}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = 64, taps = "all", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch taps "window" reads the input in place: it needs pack_input "none", got "kmajor_mr"}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = 64, taps = "window", loop_order = "pf", pack_input = "kmajor_mr", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch loop_order "pp" is not known (expected "pf", "fp" or "fcp")}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = 64, taps = "row", loop_order = "pp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch pack_input "im2col" is not a known layout}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = 64, taps = "one", loop_order = "pf", pack_input = "im2col", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch pack_filter "hwcf" is not a known layout}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "hwcf", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch nr (24) must be a multiple of the target's f32 lanes (16 on x86-avx512)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 24, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch register block 16x64 needs 69 vector registers but x86-avx512 has 32}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 16, nr = 64, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch pack_input "none" needs an x86 target, got arm-neon}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 4, nr = 8, cb = 64, taps = "one", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "arm_gemm_neon", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "generic", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch taps "row" reads the input in place: it needs pack_input "none", got "kmajor_mr"}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = 64, taps = "row", loop_order = "pf", pack_input = "kmajor_mr", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch pack_input "none" needs the x86_gemm_fma emitter, got 'my_emitter'}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "my_emitter", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch pack_filter "none" needs nr <= 112, got 128}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 2, nr = 128, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch register block 14x8 needs 17 vector registers but x86-avx2 has 16}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 8, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2,+fma", vector_bits = 256, vector_registers = 16>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{embedded broadcasts need 512-bit vectors; x86-avx2 has 256}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 4, nr = 16, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "embedded", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2,+fma", vector_bits = 256, vector_registers = 16>, source = "t">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch source (provenance) must not be empty}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "">} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch threads must be in [1, 1024], got 0}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 14, nr = 32, cb = 64, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t", threads = 0>} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch epilogue step "bias_m" has no meaning on a convolution: its bias is per output channel ("bias_n")}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 6, nr = 64, cb = 64, taps = "one", loop_order = "pf", pack_input = "kmajor_mr", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t", epilogue = #tensorop.epilogue<steps = ["bias_m", "relu"]>>} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch epilogue needs nr <= 112 (one mask register per vector), got 128}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 1, nr = 128, cb = 64, taps = "one", loop_order = "pf", pack_input = "kmajor_mr", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t", epilogue = #tensorop.epilogue<steps = ["bias_n"]>>} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}

// -----

func.func @f(%I: memref<1x16x16x64xf32>, %F: memref<3x3x64x64xf32>, %O: memref<1x14x14x64xf32>) {
  // expected-error @+1 {{conv sketch epilogue needs the x86_gemm_fma emitter (the convolution kernel with a fused epilogue), got 'arm_gemm_neon'}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, tensorop.sketch = #tensorop.conv_sketch<mr = 4, nr = 8, cb = 64, taps = "one", loop_order = "pf", pack_input = "kmajor_mr", pack_filter = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "arm_gemm_neon", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = #tensorop.target<name = "arm-neon", triple = "aarch64-unknown-linux-gnu", cpu = "generic", features = "+neon", vector_bits = 128, vector_registers = 32>, source = "t", epilogue = #tensorop.epilogue<steps = ["bias_n", "relu"]>>} ins(%I, %F : memref<1x16x16x64xf32>, memref<3x3x64x64xf32>) outs(%O : memref<1x14x14x64xf32>)
  return
}
