// Fused epilogues on bf16 and f16 GEMMs: the vdpbf16ps kernel (bf16) and
// the fp32 kernel on converted panels (f16) apply the steps as they store
// the fp32 C. Each program checks every element against an f64 reference
// of the same steps on the rounded inputs (gen_epilogue_test.py --dtype);
// FUSED checks the consumer was fused, so a passing run is the fused
// kernel's result. Edges in M and N, K = 1, several K panels, threads.
// REQUIRES: host-avx512-bf16, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{avx512} = tensorop-opt --tensorop-pipeline="target=x86-avx512"

// RUN: %gen_epilogue 37 101 53 --steps=bias_n,relu --dtype bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 5 7 1 --steps=bias_m,gelu_tanh,residual --dtype bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 97 130 1100 --steps=bias_n,gelu_erf,residual --dtype bf16 --memrefs | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 200 96 64 --steps=scale:-2,clamp:-1:1 --dtype bf16 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=bias_n,silu --dtype f16 | %{avx512} | %{run} | FileCheck %s
// A chain of consumers (one generic per step), as in a bf16 FFN.
// RUN: %gen_epilogue 37 101 53 --split --steps=bias_n,gelu_tanh,residual --dtype bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=bias_n,silu --dtype bf16 | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED

// CHECK: failures: 0
// FUSED: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, silu]
