// JIT tests of the shared-B form (pack_b = "kmajor_nr_shared", threads 2
// to 4): each B block is packed once by all threads into one buffer, then
// the threads' chunks of C (rows, or columns of the block when M is thin)
// run on it. Small tiles so that every chunk runs several m, n and k tiles
// with partial last ones; all six loop orders (k outside n packs A once per
// K block, n outside k once per block); edges (primes, M or N under one
// register block, K = 1, 2x3x4), transposed operands, dynamic M / N / K,
// bf16 and f16 inputs, A read in place, and fused epilogues (bias along M
// and N, residual, a 16-bit output, dynamic M). Every element is checked
// against an f64 reference; a panel packed by no thread, a chunk computed
// twice or skipped, or a block overwritten while read gives failures.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// DEFINE: %{tiles} = mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_shared"
// DEFINE: %{sk} = ukernel = %{uk}, target = %{t512}, source = "test"

// Both OpenMP teams (B packing and C chunks) get the sketch's two threads.
// RUN: %gen_matmul 97 131 67 --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} > %t.mlir
// RUN: FileCheck %s --check-prefix=OMP < %t.mlir
// OMP: %[[N:.+]] = llvm.mlir.constant(2 : i32) : i32
// OMP: omp.parallel num_threads(%[[N]] : i32)
// OMP: omp.wsloop
// OMP: omp.parallel num_threads(%[[N]] : i32)
// OMP: omp.wsloop
// RUN: %{run} < %t.mlir | FileCheck %s

// Rows split (97 rows: chunks of 54 and 43), each loop order.
// RUN: %gen_matmul 97 131 67 --sketch '#tensorop.sketch<loop_order = "nkm", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --sketch '#tensorop.sketch<loop_order = "kmn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --sketch '#tensorop.sketch<loop_order = "knm", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --sketch '#tensorop.sketch<loop_order = "mnk", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --sketch '#tensorop.sketch<loop_order = "nmk", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 131 97 37 --values ints --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// Columns split (thin M), edges.
// RUN: %gen_matmul 20 200 37 --values ints --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 3 200 37 --sketch '#tensorop.sketch<loop_order = "nkm", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 200 7 37 --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 64 1 --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 2 3 4 --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --transpose-a --transpose-b --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// Three and four threads (4: a 2 x 2 grid of row and column chunks).
// RUN: %gen_matmul 97 131 67 --values ints --sketch '#tensorop.sketch<loop_order = "kmn", %{tiles}, %{sk}, threads = 3>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 97 131 67 --values ints --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 4>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// Dynamic M (row chunks sized at run time), N and K.
// RUN: %gen_matmul 97 131 67 --dynamic=m --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 5 300 100 --dynamic=m --sketch '#tensorop.sketch<loop_order = "nkm", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dynamic=mnk --values ints --sketch '#tensorop.sketch<loop_order = "kmn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// bf16 (k pairs, B transposed too) and f16 inputs; A read in place.
// RUN: %gen_matmul 97 131 68 --dtype bf16 --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 68 --dtype bf16 --transpose-b --sketch '#tensorop.sketch<loop_order = "nkm", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --dtype f16 --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --values ints --sketch '#tensorop.sketch<loop_order = "mkn", mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_shared", %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT

// Fused epilogues: the kernels of the last K block apply them.
// RUN: %gen_epilogue 97 130 300 --steps=bias_n,gelu_tanh,residual --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED
// FUSED: remark: tensorop: the microkernel applies the epilogue [bias_n, gelu_tanh, residual] as it stores C after the last K panel
// RUN: %gen_epilogue 97 130 300 --steps=bias_n,gelu_tanh,residual --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EPI
// RUN: %gen_epilogue 97 130 300 --steps=bias_m,relu,residual --memrefs --sketch '#tensorop.sketch<loop_order = "nkm", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EPI
// RUN: %gen_epilogue 20 33 40 --steps=bias_n,gelu_tanh --dynamic-m --sketch '#tensorop.sketch<loop_order = "mkn", %{tiles}, %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EPI
// RUN: %gen_epilogue 37 101 67 --steps=bias_n,relu --dtype bf16 --out bf16 --sketch '#tensorop.sketch<loop_order = "mkn", mc = 12, nc = 32, kc = 16, mr = 6, nr = 16, micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr_shared", %{sk}, threads = 2>' | %{pipe} | %{run} | FileCheck %s --check-prefix=EPI

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EPI:        failures: 0{{$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
