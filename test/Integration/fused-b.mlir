// JIT tests of pack_b = "kmajor_nr_fused": the first row tile of each B
// block reads B in place and writes the packed panels, the block's other
// row tiles read them (no packing pass). Edges: N not a multiple of nr (the
// last panel zero-padded by the kernel), N < nr, M edges (the fused tile
// itself an M edge when M < mr), primes, K = 1, several K blocks with a
// partial last one; loop orders with the M loop outside the B block's loop
// (every M block writes the block again) and inside it (only the first M
// block writes it); A packed and A in place; two threads (each thread
// writes its own panels). (The first K block's storing form, from a
// zero-filled C, runs in tensorop gen's objects: this program accumulates
// onto C.) With
// --b-guard-page B's last element is the last float of a page followed by
// an inaccessible one: a B load past the matrix on the N edge crashes.
// Every element is checked against an f64 reference.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{pipe} = tensorop-opt --tensorop-pipeline="target=x86-avx512"
// DEFINE: %{pipe2} = tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2 min-flops-per-thread=0"
// DEFINE: %{t512} = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>
// DEFINE: %{uk} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>
// DEFINE: %{ukemb} = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 0>
// The builtin advisor's packed block (8 x 48), B fused, M loop outside.
// DEFINE: %{big} = '#tensorop.sketch<mc = 128, nc = 480, kc = 384, mr = 8, nr = 48, loop_order = "mkn", micro_order = "mn", pack_a = "none", pack_b = "kmajor_nr_fused", ukernel = %{uk}, target = %{t512}, source = "test">'
// Small tiles, M loop inside the B block's loop, columns outer.
// DEFINE: %{inside} = '#tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr_fused", ukernel = %{uk}, target = %{t512}, source = "test">'
// DEFINE: %{outside} = '#tensorop.sketch<mc = 16, nc = 96, kc = 16, mr = 8, nr = 48, loop_order = "mkn", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr_fused", ukernel = %{ukemb}, target = %{t512}, source = "test">'

// RUN: %gen_matmul 127 1000 513 --b-guard-page --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 333 777 555 --b-guard-page --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 97 131 67 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 5 37 19 --b-guard-page --sketch %{big} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 64 64 1 --sketch %{big} | %{pipe} | %{run} | FileCheck %s
// RUN: %gen_matmul 50 70 37 --b-guard-page --sketch %{inside} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 50 70 37 --values ints --sketch %{inside} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// RUN: %gen_matmul 41 150 29 --b-guard-page --sketch %{outside} | %{pipe} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 131 97 1 --values ints --sketch %{outside} | %{pipe} | %{run} | FileCheck %s --check-prefix=EXACT
// Two threads: rows split (each chunk its own panels) and columns split.
// RUN: %gen_matmul 333 777 555 --b-guard-page --sketch %{big} | %{pipe2} | %{run} | FileCheck %s --check-prefix=GUARD
// RUN: %gen_matmul 50 700 37 --b-guard-page --sketch %{inside} | %{pipe2} | %{run} | FileCheck %s --check-prefix=GUARD

// CHECK:      failures: 0{{$}}
// CHECK-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
// EXACT:      failures: 0{{$}}
// EXACT-NEXT: max_error_ratio: 0{{$}}
// GUARD:      mprotect: 0{{$}}
// GUARD-NEXT: failures: 0{{$}}
// GUARD-NEXT: max_error_ratio: {{[0-9.e+-]+$}}
