// A 16-bit C: the matmul accumulates in fp32 and a consumer narrows its
// result with one arith.truncf (gen_epilogue_test.py --out), fused as the
// output step to_bf16 / to_f16: the kernel of the last K block applies the
// steps in fp32 and rounds once, to nearest even, as it stores the bf16 C;
// the f32 C holds the partial sums of the K blocks before (K = 1100 and 700
// span several blocks; K = 53 fits one, where the f32 C is not touched).
// Every element is checked against an f64 reference of the steps with
// the one rounding in the bound (truncation instead of rounding, or a
// second rounding of the partial sums, fails it). FUSED checks the
// consumer was fused, so a passing run is the kernel's rounding.
// REQUIRES: host-avx512-bf16, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{avx512} = tensorop-opt --tensorop-pipeline="target=x86-avx512"

// RUN: %gen_epilogue 37 101 53 --steps=bias_n,relu --dtype bf16 --out bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 97 130 1100 --steps=bias_n,gelu_erf,residual --dtype bf16 --out bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 64 96 700 --steps=bias_m,silu --dtype bf16 --out bf16 --memrefs | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 200 96 64 --steps=scale:-2,clamp:-1:1 --dtype bf16 --out bf16 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// A chain as an importer writes it: bias add, GELU, residual add, then a
// consumer that only narrows.
// RUN: %gen_epilogue 37 101 300 --split --steps=bias_n,gelu_tanh,residual --dtype bf16 --out bf16 | %{avx512} | %{run} | FileCheck %s
// f16 inputs and output; f32 inputs with a bf16 output.
// RUN: %gen_epilogue 37 101 53 --steps=bias_n,tanh --dtype f16 --out f16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 530 --steps=relu --out bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --steps=bias_n,relu --dtype bf16 --out bf16 | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED
// RUN: %gen_epilogue 97 130 1100 --steps=bias_n,relu --dtype bf16 --out bf16 | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=APPLIED

// CHECK: failures: 0
// FUSED: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, relu, to_bf16]
// APPLIED: remark: tensorop: the microkernel applies the epilogue [bias_n, relu, to_bf16] as it stores C after the last K panel
