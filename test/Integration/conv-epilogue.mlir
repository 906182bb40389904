// Fused epilogues on convolutions: the elementwise consumer of a
// linalg.conv_2d_nhwc_hwcf (written as models write it: a linalg.generic
// with a bias per output channel, a residual N x OH x OW x F tensor and
// unary steps) is applied by the x86 kernel as it stores each output block
// after its last filter tap. Each program checks every output (NaN-
// prefilled) against an f64 reference of the convolution and the same
// steps (gen_conv_test.py --help); shapes stress edges: odd F, stride 2,
// dilation 2, uneven padding, padding wider than the filter reaches (the
// border pixels get the epilogue alone), several channel blocks, N > 1,
// 1x1 (the conv path when strided, the GEMM route when not), 3x3 and 7x7.
// REQUIRES: host-avx512, libomp
// DEFINE: %{gen} = %python %tensorop_src/test/Integration/gen_conv_test.py
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{avx512} = tensorop-opt --tensorop-pipeline="target=x86-avx512"

// RUN: %{gen} --h 14 --w 14 --c 64 --f 64 --pad 1 --steps bias_n,relu | %{avx512} | %{run} | FileCheck %s
// Consumers that take the value before them as their outs (in place on
// tensors; the fuse pass crashed on them):
// RUN: %{gen} --h 11 --w 13 --c 17 --f 33 --stride 2 --pad 1 --steps bias_n,clamp:0:6,residual --split --outs-chain | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --h 11 --w 13 --c 17 --f 33 --stride 2 --pad 1 --steps bias_n,clamp:0:6,residual --split --outs-chain | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=OUTSCHAIN
// OUTSCHAIN: remark: tensorop: fused a chain of 3 elementwise consumers into the convolution microkernel's store: epilogue [bias_n, clamp(0, 6), residual]
// RUN: %{gen} --h 11 --w 13 --c 17 --f 33 --stride 2 --pad 1 --steps bias_n,clamp:0:6,residual | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 9 --w 10 --c 33 --f 3 --r 7 --pad 3 --stride 2 --steps bias_n,gelu_erf | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --h 5 --w 6 --c 4 --f 20 --r 3 --pad 3 --steps bias_n,silu,residual | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --n 3 --h 10 --w 6 --c 9 --f 31 --r 2 --s 3 --stride 1 2 --dilation 2 1 --pad 1 0 2 1 --steps scale:0.5,bias_n,tanh | %{avx512} | %{run} | FileCheck %s
// C < 16: taps = "window" (the epilogue on the whole-window call; edge
// pixels and rows through the per-row path).
// RUN: %{gen} --n 2 --h 15 --w 16 --c 3 --f 40 --r 7 --stride 2 --pad 3 --steps bias_n,relu,residual | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --h 12 --w 12 --c 5 --f 16 --dilation 2 --pad 2 --steps residual,sigmoid | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --h 6 --w 19 --c 7 --f 40 --r 3 --s 5 --pad 0 2 1 3 --steps bias_n,gelu_tanh | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --h 4 --w 4 --c 600 --f 20 --r 3 --pad 1 --steps bias_n,relu,residual | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --h 8 --w 8 --c 16 --f 20 --r 1 --stride 2 --steps bias_n,relu,residual | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 5 --w 7 --c 33 --f 17 --r 1 --steps bias_n,relu,residual | %{avx512} | %{run} | FileCheck %s

// Forced sketches: one tap per call from a packed input panel with the
// filter in place; a filter row per call over channel blocks of 16; a
// filter row per call with the filter in place.
// RUN: %{gen} --h 11 --w 13 --c 17 --f 33 --stride 2 --pad 1 --steps bias_n,relu --sketch '#tensorop.conv_sketch<mr = 5, nr = 48, cb = 8, taps = "one", loop_order = "fp", pack_input = "kmajor_mr", pack_filter = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 2, broadcast = "embedded", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 9 --w 17 --c 35 --f 21 --pad 2 --steps bias_n,gelu_tanh,residual --sketch '#tensorop.conv_sketch<mr = 6, nr = 64, cb = 16, taps = "row", loop_order = "fp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 9 --w 17 --c 19 --f 21 --pad 2 --steps residual,relu --sketch '#tensorop.conv_sketch<mr = 7, nr = 32, cb = 19, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{avx512} | %{run} | FileCheck %s

// AVX2, two threads, and the same modules with fusion off.
// RUN: %{gen} --h 11 --w 13 --c 17 --f 33 --stride 2 --pad 1 --steps bias_n,gelu_tanh,residual | tensorop-opt --tensorop-pipeline="target=x86-avx2" | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 9 --w 10 --c 8 --f 24 --pad 1 --steps bias_n,relu,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// C < 16 on two threads: a zero-padded strip per thread (taps = "window").
// RUN: %{gen} --n 2 --h 9 --w 10 --c 3 --f 24 --r 3 --pad 1 --steps bias_n,relu,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %{gen} --n 3 --h 15 --w 16 --c 3 --f 40 --r 7 --stride 2 --pad 3 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %{gen} --h 14 --w 14 --c 64 --f 64 --pad 1 --steps bias_n,relu | tensorop-opt --tensorop-pipeline="target=x86-avx512 fuse-epilogues=0" | %{run} | FileCheck %s
// Bias, ReLU and a residual as three generics (importers' form): the chain
// is fused, on the conv path and on the 1x1 GEMM route.
// RUN: %{gen} --h 7 --w 9 --c 3 --f 17 --pad 1 --steps bias_n,relu,residual --split | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 5 --w 7 --c 33 --f 17 --r 1 --steps bias_n,residual,relu --split | %{avx512} | %{run} | FileCheck %s
// RUN: %{gen} --h 7 --w 9 --c 3 --f 17 --pad 1 --steps bias_n,relu,residual --split | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=CHAIN
// RUN: %{gen} --n 2 --h 5 --w 7 --c 33 --f 17 --r 1 --steps bias_n,residual,relu --split | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=GEMMCHAIN

// RUN: %{gen} --h 5 --w 6 --c 4 --f 20 --r 3 --pad 3 --steps bias_n,silu,residual | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED
// RUN: %{gen} --n 2 --h 5 --w 7 --c 33 --f 17 --r 1 --steps bias_n,relu,residual | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=GEMM
// RUN: %{gen} --h 14 --w 14 --c 64 --f 64 --pad 1 --steps bias_n,relu | tensorop-opt --tensorop-pipeline="target=x86-avx512 fuse-epilogues=0" 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF

// CHECK: failures: 0{{$}}
// FUSED: remark: tensorop: fused the elementwise consumer into the convolution microkernel's store: epilogue [bias_n, silu, residual]
// FUSED: remark: tensorop: the convolution microkernel applies the epilogue [bias_n, silu, residual] as it stores each output block after its last filter tap
// GEMM: remark: tensorop: conv2d f32 n=2 h=5 w=7 c=33 f=17 r=1 s=1 {{.*}}: 1x1 stride-1 convolution routed to the GEMM path
// GEMM: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, relu, residual]
// GEMM: remark: tensorop: the microkernel applies the epilogue [bias_n, relu, residual] as it stores C after the last K panel
// OFF-NOT: fused
// CHAIN: remark: tensorop: fused a chain of 3 elementwise consumers into the convolution microkernel's store: epilogue [bias_n, relu, residual]
// CHAIN: remark: tensorop: the convolution microkernel applies the epilogue [bias_n, relu, residual]
// GEMMCHAIN: remark: tensorop: fused a chain of 3 elementwise consumers into the microkernel's store: epilogue [bias_n, residual, relu]
