// The N tail's last vector as a half-width (ymm) one on a target whose FP
// datapaths are half the vector width (hints fma.datapath_bits = 256: a Zen
// 4, AVX-512 on 256-bit pipes), where a ymm FMA takes half the slots of a
// zmm one. A tail of 16v + 1..8 columns gets a kernel whose last vector is
// ymm ("_ly"), even when it is as many vectors wide as the block (37x53x71:
// 53 = 48 + 5, a 5x64 block whose fourth vector holds 5 columns; 24x120x96:
// 120 = 64 + 56, a 6x64 one); with
// 512-bit datapaths (the default hints) nothing changes. JIT runs with A
// and B ending at an inaccessible page check every element against an f64
// reference.
// REQUIRES: host-avx512
// DEFINE: %{zen4} = env TENSOROP_HINTS_DIR=%S/Inputs/hints-256bit-datapaths
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{pipe} = %{zen4} tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{apply} = tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" --tensorop-apply-sketch
// DEFINE: %{g} = --a-guard-page --b-guard-page

// 100 = 64 + 36: 5x64 and a 5x48 tail whose third vector holds 4 columns.
// RUN: %gen_matmul 100 100 100 | %{zen4} %{apply} | FileCheck %s --check-prefix=T100
// T100-DAG: tensorop.ukernel "x86_avx512_f32_5x64_u4_explicit_ldb400_lda400"
// T100-DAG: tensorop.ukernel "x86_avx512_f32_5x48_u4_explicit_ldb400_lda400_ly"
// RUN: %gen_matmul 100 100 100 | %{apply} | FileCheck %s --check-prefix=WIDE
// WIDE-NOT: _ly"
// 53 = 48 + 5: with a half-width last vector counted as half a vector
// (BuiltinAdvisor's edge score, these hints' 256-bit datapaths), a 5x64
// block whose last vector is ymm; no tail kernel with 512-bit pipes.
// RUN: %gen_matmul 37 53 71 | %{zen4} %{apply} | FileCheck %s --check-prefix=T53
// T53-DAG: tensorop.ukernel "x86_avx512_f32_5x64_u4_explicit_ldb212_lda284"
// T53-DAG: tensorop.ukernel "x86_avx512_f32_5x64_u4_explicit_ldb212_lda284_ly"
// RUN: %gen_matmul 37 53 71 | %{apply} | FileCheck %s --check-prefix=WIDE
// A one-vector tail (148 = 144 + 4) keeps its embedded broadcasts, as ymm.
// RUN: %gen_matmul 77 148 59 | %{zen4} %{apply} | FileCheck %s --check-prefix=T148
// T148: tensorop.ukernel "x86_avx512_f32_7x16_u4_embedded_ldb592_lda236_ly"
// 80 = 64 + 16 and 107 = 64 + 43 (32 + 11): no half-width vector.
// RUN: %gen_matmul 107 80 81 | %{zen4} %{apply} | FileCheck %s --check-prefix=WIDE
// RUN: %gen_matmul 64 107 64 | %{zen4} %{apply} | FileCheck %s --check-prefix=WIDE

// RUN: %gen_matmul 100 100 100 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 37 53 71 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 24 120 96 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 77 148 59 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 29 103 103 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 13 29 7 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 3 8 5 %{g} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 19 72 31 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 100 100 100 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
