// JIT tests of the builtin advisor's skinny sketches on AVX-512
// (lib/Advisor/SkinnyGemm.cpp): few rows (M <= 64: row blocks of up to 14
// rows, B swept in bands with row prefetches, micro order "nm" for several
// blocks) and few columns (N <= 16: up to 30 x 16 blocks over all of K; 12
// rows, A prefetched, where A's rows share L1 sets). Edges of every kind: M = 1, 2, 15, 16, 17, 33, 40, 49, 64; N = 1, 8,
// 13, 16 and widths that are not a multiple of the block; odd and tiny K; B
// or A ending at a page followed by an inaccessible one; 2 threads. Every
// element is checked against an f64 reference.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{pipe2} = tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2 min-flops-per-thread=0"

// The sketches these shapes get (the advisor's choice is pinned by
// test/Transforms/annotate-sketch-skinny.mlir).
// RUN: %gen_matmul 16 300 97 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=ROWS
// ROWS: mr = 8, nr = 48, {{.*}}micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = <emitter = "x86_gemm_fma", k_unroll = 1, {{.*}}prefetch_b = 0>
// (B, 116 KB, is in cache: no column prefetch with 16 rows or fewer,
// blocking.few_rows_thin_in_cache_max_b_bytes. The same sketch with each
// row's tiles prefetched two ahead, as a larger B takes it, runs below.)
// RUN: %gen_matmul 131 16 1031 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=COLS
// COLS: kc = 1031, mr = 30, nr = 16, {{.*}}pack_a = "none", pack_b = "none", {{.*}}broadcast = "embedded", prefetch_b = 0>

// Few rows.
// RUN: %gen_matmul 1 300 129 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 2 1031 67 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 15 200 131 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 16 300 97 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 16 300 97 --sketch '#tensorop.sketch<mc = 16, nc = 336, kc = 97, mr = 8, nr = 48, loop_order = "mnk", micro_order = "nm", pack_a = "none", pack_b = "none", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 1, broadcast = "explicit", prefetch_b = 0, prefetch_b_cols = 96>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 17 150 130 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 33 129 257 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 40 1000 3 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 49 517 203 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 300 129 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 49 517 203 | tensorop-opt --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=ROWS49
// (Over 16 rows with B in L2, the file's blocking.few_rows_prefetch_tiles_in_cache 0: no column prefetch.)
// ROWS49: mr = 13, nr = 32, {{.*}}micro_order = "nm", pack_a = "none", pack_b = "none", {{.*}}prefetch_b = 0>
// RUN: %gen_matmul 16 300 97 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 15 131 301 --b-guard-page | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 1 17 1000 --b-guard-page | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD

// Few columns.
// RUN: %gen_matmul 200 1 131 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 150 8 257 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 131 16 1031 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 17 16 300 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 300 13 1 | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 131 16 1031 --values ints | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 157 13 211 --a-guard-page | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 157 16 211 --b-guard-page | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD

// Two threads: few rows split along N, few columns along M.
// RUN: %gen_matmul 16 300 97 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 1 1000 77 --b-guard-page | %{pipe2} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 33 777 131 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 200 8 131 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 301 16 97 --a-guard-page | %{pipe2} | %{run} | FileCheck %s --check-prefix=GUARD

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
// GUARD:      mprotect: 0{{$}}
// GUARD-NEXT: failures: 0{{$}}
// GUARD-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
