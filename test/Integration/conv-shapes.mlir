// JIT tests of convolutions through the whole pipeline (conv sketch, pad
// folding, filter packing, multi-tap microkernels) on shapes that stress
// edges: C and F not multiples of the vector width, stride 2, dilation 2,
// padding 0..3 (also uneven), 1x1 (the GEMM route) and 7x7, N > 1. Each
// program checks every output (NaN-prefilled) against an f64 reference with
// the MEASURE.md bound (see gen_conv_test.py --help).
// REQUIRES: host-avx512
// DEFINE: %{gen} = %python %tensorop_src/test/Integration/gen_conv_test.py
// DEFINE: %{run} = tensorop-opt --tensorop-pipeline="target=x86-avx512" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils

// RUN: %{gen} --h 14 --w 14 --c 64 --f 64 --pad 1 | %{run} | FileCheck %s
// RUN: %{gen} --h 7 --w 9 --c 3 --f 17 --pad 1 | %{run} | FileCheck %s
// RUN: %{gen} --h 11 --w 13 --c 17 --f 33 --stride 2 --pad 1 | %{run} | FileCheck %s
// RUN: %{gen} --h 12 --w 12 --c 5 --f 16 --dilation 2 --pad 2 | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 9 --w 10 --c 33 --f 3 --r 7 --pad 3 --stride 2 | %{run} | FileCheck %s
// RUN: %{gen} --h 8 --w 8 --c 16 --f 20 --r 1 --stride 2 | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 5 --w 7 --c 33 --f 17 --r 1 | %{run} | FileCheck %s
// RUN: %{gen} --h 6 --w 19 --c 7 --f 40 --r 3 --s 5 --pad 0 2 1 3 | %{run} | FileCheck %s
// RUN: %{gen} --h 5 --w 5 --c 4 --f 4 --r 3 --pad 0 | %{run} | FileCheck %s
// RUN: %{gen} --n 3 --h 10 --w 6 --c 9 --f 31 --r 2 --s 3 --stride 1 2 --dilation 2 1 --pad 1 0 2 1 | %{run} | FileCheck %s
// RUN: %{gen} --h 17 --w 23 --c 35 --f 48 --r 3 --pad 1 --values ints | %{run} | FileCheck %s
// RUN: %{gen} --h 4 --w 4 --c 600 --f 20 --r 3 --pad 1 | %{run} | FileCheck %s
// RUN: %{gen} --h 9 --w 9 --c 3 --f 18 --r 7 --stride 2 --pad 3 --dilation 1 | %{run} | FileCheck %s

// One tap per call, packed input, filter read in place, filter-outer order.
// RUN: %{gen} --h 11 --w 13 --c 17 --f 33 --stride 2 --pad 1 --sketch '#tensorop.conv_sketch<mr = 5, nr = 48, cb = 8, taps = "one", loop_order = "fp", pack_input = "kmajor_mr", pack_filter = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 2, broadcast = "embedded", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{run} | FileCheck %s
// A filter row per call from the packed filter, channel blocks of 16.
// RUN: %{gen} --n 2 --h 9 --w 17 --c 35 --f 21 --pad 2 --sketch '#tensorop.conv_sketch<mr = 6, nr = 64, cb = 16, taps = "row", loop_order = "fp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{run} | FileCheck %s
// A filter row per call with the filter in place (cb covers C).
// RUN: %{gen} --n 2 --h 9 --w 17 --c 19 --f 21 --pad 2 --sketch '#tensorop.conv_sketch<mr = 7, nr = 32, cb = 19, taps = "row", loop_order = "pf", pack_input = "none", pack_filter = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{run} | FileCheck %s
// Loop order "fcp" (one thread): groups of filter panels, then channel
// blocks (each packed for the group's panels into an L2-sized buffer in the
// loop nest),
// then each panel over all output rows; F not a multiple of nr, several
// channel blocks, a tap row per call, a last group with fewer panels
// (F = 150: 5 panels of 32, the last 22 wide, in groups of 4 and 1). The
// builtin choice for filters past half of L2 (the 600-channel case above,
// and 520>72: at nr = 16 its 5 panels make one group, so cb = 174 keeps 5
// blocks of 3*3*174*16 floats within half of L2).
// RUN: %{gen} --h 5 --w 7 --c 40 --f 37 --stride 2 --pad 1 --sketch '#tensorop.conv_sketch<mr = 3, nr = 32, cb = 16, taps = "row", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{run} | FileCheck %s
// RUN: %{gen} --h 5 --w 7 --c 40 --f 150 --stride 2 --pad 1 --sketch '#tensorop.conv_sketch<mr = 3, nr = 32, cb = 16, taps = "row", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 7 --w 7 --c 520 --f 72 --pad 1 | %{run} | FileCheck %s
// RUN: %{gen} --h 9 --w 8 --c 1100 --f 130 --r 1 --stride 2 | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 7 --w 7 --c 520 --f 72 --pad 1 | tensorop-opt --tensorop-pipeline="target=x86-avx512" 2>&1 >/dev/null | FileCheck %s --check-prefix=FCP
// FCP: remark: tensorop: conv2d f32 n=2 h=7 w=7 c=520 f=72 r=3 s=3 {{.*}} cb=174 taps="row" loop_order="fcp" pack_input="none" pack_filter="kmajor_nr"

// taps = "window": every tap of a block in one call (K = S*C per filter row,
// the R rows as taps), edge pixels and rows by the per-row path. The
// builtin choice for C < 16 (the C = 3 runs above); here explicit: packed
// filter in order "pf" (F edge, uneven padding, stride 2 along H, dilation
// 2 along H), packed per block in order "fcp", and the filter in place with
// blocks wider than the interior.
// RUN: %{gen} --n 2 --h 11 --w 17 --c 5 --f 21 --r 3 --s 4 --stride 2 1 --dilation 2 1 --pad 2 1 1 2 --sketch '#tensorop.conv_sketch<mr = 6, nr = 64, cb = 5, taps = "window", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{run} | FileCheck %s
// RUN: %{gen} --h 8 --w 11 --c 20 --f 40 --r 5 --s 3 --pad 2 --sketch '#tensorop.conv_sketch<mr = 5, nr = 16, cb = 20, taps = "window", loop_order = "fcp", pack_input = "none", pack_filter = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 2, broadcast = "embedded", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{run} | FileCheck %s
// RUN: %{gen} --n 2 --h 9 --w 12 --c 3 --f 33 --r 3 --pad 1 --values ints --sketch '#tensorop.conv_sketch<mr = 8, nr = 48, cb = 3, taps = "window", loop_order = "pf", pack_input = "none", pack_filter = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{run} | FileCheck %s
// Padded windows read a zero-padded strip of the rows (every block one
// call): padding on one side only (top; left), wider than the filter
// reaches (rows and columns no tap reaches), small integers exactly.
// RUN: %{gen} --n 2 --h 7 --w 9 --c 3 --f 17 --r 3 --pad 2 0 0 0 | %{run} | FileCheck %s
// RUN: %{gen} --h 8 --w 10 --c 2 --f 16 --r 3 --s 5 --pad 0 0 3 0 --stride 1 2 | %{run} | FileCheck %s
// RUN: %{gen} --h 5 --w 6 --c 4 --f 20 --r 3 --pad 3 --values ints | %{run} | FileCheck %s
// A strip filled per block of 5 output rows (a wide image: 12 = 5 + 5 + 2).
// RUN: %{gen} --h 12 --w 1400 --c 3 --f 5 --r 3 --pad 1 | %{run} | FileCheck %s
// RUN: %{gen} --h 12 --w 12 --c 3 --f 17 --r 3 --pad 1 | tensorop-opt --tensorop-pipeline="target=x86-avx512" 2>&1 >/dev/null | FileCheck %s --check-prefix=WINDOW
// WINDOW: remark: tensorop: conv2d f32 n=1 h=12 w=12 c=3 f=17 r=3 s=3 {{.*}} taps="window"
// A window needs each filter row's taps consecutive: not with dilation 2
// along W (a located error).
// RUN: %{gen} --h 9 --w 9 --c 3 --f 16 --r 3 --dilation 1 2 --pad 1 --sketch '#tensorop.conv_sketch<mr = 6, nr = 32, cb = 3, taps = "window", loop_order = "pf", pack_input = "none", pack_filter = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | not tensorop-opt --tensorop-pipeline="target=x86-avx512" 2>&1 | FileCheck %s --check-prefix=NOWINDOW
// NOWINDOW: error: tensorop conv sketch taps "window" needs each filter row's taps to be consecutive in the input and the filter: dilation along W is 2

// The convolution does go through the microkernels, pad folded (also
// across the output's zero fill that bufferization puts between the pad's
// copy and the convolution: the input's to_tensor is restrict).
// RUN: %{gen} --h 11 --w 13 --c 17 --f 33 --stride 2 --pad 1 | tensorop-opt --tensorop-pipeline="target=x86-avx512" 2>&1 | FileCheck %s --check-prefix=ASM --implicit-check-not="could not be traced"
// ASM: remark: tensorop: conv2d f32 n=1 h=11 w=13 c=17 f=33 r=3 s=3 stride=2x2 dil=1x1 pad=1,1,1,1 (zero tensor.pad folded into the kernel)
// ASM: llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "{{.*}}vfmadd231ps {{.*}}%zmm

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
