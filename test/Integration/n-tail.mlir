// JIT tests of sketches with an N tail (#tensorop.n_tail): the last N mod
// 16 columns by the kernel vectorized along K, the others by the broadcast
// kernel (lib/Transforms/ApplyKDotSketch.cpp's applyNTailSketch). Tails of
// 1, 2, 3, 6 and 8 columns (8: two blocks of 4), A and B read in place, C
// accumulated onto (gen_matmul fills C); operands ending at a page followed
// by an inaccessible one; 2 threads, the tail on both. Every element is
// checked against an f64 reference.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{pipe2} = tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2"
// DEFINE: %{sketch} = tensorop-opt --tensorop-annotate-sketch="target=x86-avx512"

// The tails these shapes get (pinned by
// test/Transforms/annotate-sketch-n-tail.mlir's rules).
// RUN: %gen_matmul 84 34 131 | %{sketch} 2>/dev/null | FileCheck %s --check-prefix=TWO
// TWO: n_tail = <columns = 2, mr = 12, nr = 2,
// RUN: %gen_matmul 33 17 1000 | %{sketch} 2>/dev/null | FileCheck %s --check-prefix=ONE
// ONE: n_tail = <columns = 1, mr = 12, nr = 1,
// RUN: %gen_matmul 80 51 59 | %{sketch} 2>/dev/null | FileCheck %s --check-prefix=THREE
// THREE: n_tail = <columns = 3, mr = 9, nr = 3,
// RUN: %gen_matmul 200 22 400 | %{sketch} 2>/dev/null | FileCheck %s --check-prefix=SIX
// SIX: n_tail = <columns = 6, mr = 4, nr = 6,
// RUN: %gen_matmul 300 40 300 | %{sketch} 2>/dev/null | FileCheck %s --check-prefix=EIGHT
// EIGHT: n_tail = <columns = 8, mr = 6, nr = 4,
// RUN: %gen_matmul 1000 100 1000 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512 threads=2" 2>/dev/null | FileCheck %s --check-prefix=TEAM
// TEAM: threads = 2, n_tail = <columns = 4, {{.*}}threads = 2>>

// RUN: %gen_matmul 84 34 131 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 33 17 1000 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 80 51 59 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 200 22 400 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 300 40 300 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 84 34 131 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 80 51 59 --a-guard-page | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 80 51 59 --b-guard-page | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 1000 100 1000 | %{pipe2} | %{run} | FileCheck %s

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
// GUARD:      mprotect: 0{{$}}
// GUARD-NEXT: failures: 0{{$}}
// GUARD-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
