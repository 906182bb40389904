// LLVM at -O3 keeps one copy of each microkernel: tensorop-keep-ukernel-loops
// marks the loops around them "unroll disable" (the unroller costs an inline
// asm as one instruction). Without it, 99x74x11's eleven row tiles were
// fully unrolled: 22 copies of two kernels, 160 KB of code, 0.68x libxsmm
// against 0.90x with one copy (docs/benchmarks/cpu-gemm-classes.md,
// "Unrolled tile loops"). Also 2 threads (the kernels in the OpenMP
// region) and a small square of one kernel.
// DEFINE: %{o3} = mlir-translate --mlir-to-llvmir | opt -O3 -S

// RUN: %gen_matmul 99 74 11 | tensorop-opt --tensorop-pipeline="target=x86-avx512" | %{o3} | FileCheck %s --check-prefix=TAIL
// RUN: %gen_matmul 64 64 64 | tensorop-opt --tensorop-pipeline="target=x86-avx512" | %{o3} | FileCheck %s --check-prefix=ONE
// RUN: %gen_matmul 200 300 100 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2 min-flops-per-thread=0" | %{o3} | FileCheck %s --check-prefix=THREADS

// TAIL-LABEL:    define void @gemm(
// TAIL-COUNT-2:    asm sideeffect "{{ *}}# x86_avx512_f32_
// TAIL-NOT:        asm sideeffect
// TAIL-LABEL:    define void @main(

// ONE-LABEL:     define void @gemm(
// ONE:             asm sideeffect "{{ *}}# x86_avx512_f32_
// ONE-NOT:         asm sideeffect
// ONE-LABEL:     define void @main(

// THREADS-LABEL: define internal void @gemm..omp_par(
// THREADS-COUNT-2: asm sideeffect "{{ *}}# x86_avx512_f32_
// THREADS-NOT:     asm sideeffect
// THREADS-LABEL: define void @main(
