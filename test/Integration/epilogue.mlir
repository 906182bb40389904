// Fused epilogues: a matmul's elementwise consumer (written as models
// write it in a linalg.generic) runs in the microkernel's store path. Each
// program checks every element against an f64 reference of the same steps
// (gen_epilogue_test.py --help; the bound covers the kernel's fp32 tanh and
// erf approximations); the FUSED runs check the consumer was fused and the
// microkernel applies it (so a passing run is the fused kernel's result),
// with K split over several panels (only the last applies the epilogue).
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{avx512} = tensorop-opt --tensorop-pipeline="target=x86-avx512"

// One run per kind, on tensors, with edges in M and N.
// RUN: %gen_epilogue 37 101 53 --steps=bias_n | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=bias_m | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=bias_n,relu | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=bias_n,relu_select | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=gelu_tanh | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=gelu_erf | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=silu | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=sigmoid | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=tanh | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=clamp:-0.5:0.75 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=residual | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=scale:-2.5 | %{avx512} | %{run} | FileCheck %s

// Combinations, memrefs (consumer in place), K over several panels,
// dynamic M, AVX2, two threads (split along M and along N).
// RUN: %gen_epilogue 97 130 1100 --steps=bias_n,gelu_erf,residual | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 64 48 300 --steps=scale:0.5,bias_m,silu,clamp:-1:1 --memrefs | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 20 33 40 --steps=bias_n,gelu_tanh --dynamic-m | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 1 1 1 --steps=bias_n,relu | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 600 --steps=bias_m,gelu_erf,residual | tensorop-opt --tensorop-pipeline="target=x86-avx2" | %{run} | FileCheck %s
// RUN: %gen_epilogue 23 45 67 --steps=bias_n,relu,residual --memrefs | tensorop-opt --tensorop-pipeline="target=x86-avx2" | %{run} | FileCheck %s
// RUN: %gen_epilogue 97 130 300 --steps=bias_n,gelu_tanh,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_epilogue 9 300 300 --steps=bias_n,relu,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_epilogue 300 9 300 --steps=bias_m,relu,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// Thick rows but B at least twice as wide as A is tall and more than four
// times L2 (4.3 MB): split along N too (planThreadSplit), the bias along N
// and the residual cut per chunk, a bias along M whole.
// RUN: %gen_epilogue 67 1200 900 --steps=bias_n,gelu_tanh,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_epilogue 67 1200 900 --steps=bias_m,silu,residual --memrefs | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s

// Not an epilogue: stays a separate op, still correct; and the same module
// with fusion switched off.
// RUN: %gen_epilogue 37 101 53 --steps=exp | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 97 130 1100 --steps=bias_n,gelu_erf,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 fuse-epilogues=0" | %{run} | FileCheck %s

// RUN: %gen_epilogue 97 130 1100 --steps=bias_n,gelu_erf,residual | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED
// RUN: %gen_epilogue 97 130 1100 --steps=bias_n,gelu_erf,residual | %{avx512} 2>/dev/null | FileCheck %s --check-prefix=TWO
// RUN: %gen_epilogue 37 101 53 --steps=exp | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=NOT
// RUN: %gen_epilogue 37 101 53 --steps=bias_n,gelu_tanh,residual | %{avx512} 2>/dev/null | FileCheck %s --check-prefix=STORE
// RUN: %gen_epilogue 97 130 1100 --steps=bias_n,gelu_erf,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 fuse-epilogues=0" 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF
// RUN: %gen_epilogue 37 101 53 --steps=bias_n,relu | %{avx512} 2>/dev/null | FileCheck %s --check-prefix=TAILEPI

// CHECK: failures: 0
// FUSED: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, gelu_erf, residual]
// FUSED: remark: tensorop: the microkernel applies the epilogue [bias_n, gelu_erf, residual] as it stores C after the last K panel
// Three kernels: the first K panel's store form (no fill of C), the plain
// one for the K panels between, the one with the epilogue for the last.
// TWO-COUNT-3: llvm.inline_asm
// TWO-NOT: llvm.inline_asm
// One K block on a zero-filled C: the epilogue kernel's store form (the
// steps on A*B alone; C is written, not read; the fill goes).
// STORE: x86_avx512_f32_{{[0-9]+x[0-9]+}}_u4_{{.*}}_epi{{[0-9a-f]+}}_st
// The N remainder (101 columns: 5 past the last full register block) gets
// an epilogue kernel one vector wide, not the full block's masked lanes
// (100x200x300 with bias and ReLU: 1.37x the fused time, thread CPU time).
// TAILEPI: x86_avx512_f32_{{[0-9]+}}x{{(32|48|64)}}_u4_{{.*}}_epi{{[0-9a-f]+}}_st
// TAILEPI: x86_avx512_f32_{{[0-9]+}}x16_u4_{{.*}}_epi{{[0-9a-f]+}}_st
// NOT: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): the ops from 'math.exp' on compute none of
// OFF-NOT: fused
