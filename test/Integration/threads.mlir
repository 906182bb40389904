// JIT tests of threaded kernels (sketch threads = 2 or 3): the GEMM is split
// into chunks of C run by OpenMP threads, each packing its own blocks. Edge
// shapes: primes, M or N smaller than one register block (the other side is
// split), K = 1, a GEMM too small to split, transposed operands, and small
// hand-written tiles so that each chunk runs several cache tiles with a
// partial last one. Every element is checked against an f64 reference; a
// chunk computed twice, skipped, shifted or raced on gives failures.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{pipe2} = tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2 min-flops-per-thread=0"
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>

// The builtin advisor's sketches with threads=2 from the pipeline option;
// min-flops-per-thread=0 keeps two threads even for the GEMMs small enough
// to run on one by default (annotate-sketch-thread-count.mlir).
// RUN: %gen_matmul 97 131 67 | %{pipe2} | FileCheck %s --check-prefix=OMP
// OMP: %[[N:.+]] = llvm.mlir.constant(2 : i32) : i32
// OMP: omp.parallel num_threads(%[[N]] : i32)
// OMP: omp.wsloop
// RUN: %gen_matmul 97 131 67 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 127 1000 513 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 3 200 37 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 1000 37 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 200 7 37 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 64 64 1 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 131 97 1 --values ints | %{pipe2} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 2 3 4 | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --transpose-a --transpose-b | %{pipe2} | %{run} | FileCheck %s
// RUN: %gen_matmul 97 131 67 --tensors | %{pipe2} | %{run} | FileCheck %s

// Small tiles: each chunk has several m, n and k tiles, the last partial.
// RUN: %gen_matmul 50 70 37 --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | tensorop-opt --tensorop-pipeline="target=x86-avx512" | %{run} | FileCheck %s
// RUN: %gen_matmul 20 200 37 --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | tensorop-opt --tensorop-pipeline="target=x86-avx512" | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --values ints --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "kmn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test", threads = 3>' | tensorop-opt --tensorop-pipeline="target=x86-avx512" | %{run} | FileCheck %s --check-prefix=EXACT
// k loop outermost with a single iteration (K = kc): canonicalize folds it,
// and the team is still sized by the sketch on the packing buffers.
// RUN: %gen_matmul 50 70 8 --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "kmn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | tensorop-opt --tensorop-pipeline="target=x86-avx512" > %t.kmn.mlir
// RUN: FileCheck %s --check-prefix=OMP < %t.kmn.mlir
// RUN: %{run} < %t.kmn.mlir | FileCheck %s
// RUN: %gen_matmul 50 70 37 --transpose-a --sketch '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "mnk", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = %{uk}, target = %{t512}, source = "test", threads = 2>' | tensorop-opt --tensorop-pipeline="target=x86-avx512" | %{run} | FileCheck %s

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
