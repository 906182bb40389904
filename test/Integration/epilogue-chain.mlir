// Chains of elementwise consumers (one linalg.generic per step, as
// importers emit a bias add, a GELU and a residual add) fused into the
// microkernel's store. Each program checks every element against an f64
// reference of the same steps (gen_epilogue_test.py --split); FUSED checks
// the whole chain was fused and the microkernel applies it, so a passing
// run is the fused kernel's result; a chain that stops at an op that is no
// epilogue (exp) is still correct with its prefix fused.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils,%libomp
// DEFINE: %{avx512} = tensorop-opt --tensorop-pipeline="target=x86-avx512"

// RUN: %gen_epilogue 97 130 300 --split --steps=bias_n,gelu_tanh,residual | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --split --steps=bias_m,relu,scale:-2.5,residual --memrefs | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 20 33 40 --split --steps=bias_n,gelu_erf --dynamic-m | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 97 130 300 --split --steps=bias_n,gelu_tanh,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2" | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --split --steps=bias_n,exp,relu | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --split --steps=bias_n,exp,relu --memrefs | %{avx512} | %{run} | FileCheck %s

// On tensors, each generic taking the value before it as its outs (the
// in-place form importers also write; this crashed the fuse pass):
// RUN: %gen_epilogue 97 130 300 --split --outs-chain --steps=bias_n,gelu_tanh,residual | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 20 33 40 --split --outs-chain --steps=bias_m,relu,scale:-2.5 --dynamic-m | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 37 101 53 --split --outs-chain --steps=bias_n,exp,relu | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_epilogue 97 130 300 --split --outs-chain --steps=bias_n,gelu_tanh,residual | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED

// RUN: %gen_epilogue 97 130 300 --split --steps=bias_n,gelu_tanh,residual | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED
// RUN: %gen_epilogue 37 101 53 --split --steps=bias_m,relu,scale:-2.5,residual --memrefs | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED4
// RUN: %gen_epilogue 37 101 53 --split --steps=bias_n,exp,relu | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=STOP

// CHECK: failures: 0
// FUSED: remark: tensorop: fused a chain of 3 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh, residual]
// FUSED: remark: tensorop: the microkernel applies the epilogue [bias_n, gelu_tanh, residual] as it stores C after the last K panel
// FUSED4: remark: tensorop: fused a chain of 4 elementwise consumers into the microkernel's store: epilogue [bias_m, relu, scale(-2.5), residual]
// FUSED4: remark: tensorop: the microkernel applies the epilogue [bias_m, relu, scale(-2.5), residual] as it stores C after the last K panel
// STOP: remark: tensorop: the chain of fused consumers stops here: not fused into the matmul's microkernel (runs as a separate op after it): the ops from 'math.exp' on compute none of
// STOP: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n]
// STOP: remark: tensorop: the microkernel applies the epilogue [bias_n] as it stores C after the last K panel
