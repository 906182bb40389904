// JIT tests of the few-rows path's one-column-tile blocks
// (SkinnyGemm.cpp's chooseFewRowsSketch, pinned by
// test/Transforms/annotate-sketch-few-rows-narrow-n.mlir): 8 x 48 over 64
// rows, 9 x 48 with a 4-row edge tile, two 6 x 48 tiles, 6 x 64 with N's
// last vector partly past N; A and B read in place, C accumulated onto
// (gen_matmul fills C); operands ending at a page followed by an
// inaccessible one; 2 threads. Every element is checked against an f64
// reference.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"

// RUN: %gen_matmul 64 43 131 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 58 40 384 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 12 40 1000 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 40 60 300 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 43 131 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 58 40 384 --a-guard-page | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 40 60 300 --b-guard-page | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 54 50 3760 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
// GUARD:      mprotect: 0{{$}}
// GUARD-NEXT: failures: 0{{$}}
// GUARD-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
