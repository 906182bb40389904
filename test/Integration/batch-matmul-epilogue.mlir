// A linalg.batch_matmul followed by elementwise consumers over its
// batch x M x N result (one linalg.generic per step, as importers emit a
// bias add, an activation and a residual add): tensorop-decompose-batch-matmul
// runs them per slice and tensorop-fuse-epilogues fuses them into each
// slice's microkernel. C is prefilled with NaN and every element is checked
// against an f64 reference of the same steps (gen_batch_epilogue_test.py);
// FUSED checks the chain was fused and the microkernel applies it, so a
// passing run is the fused kernels' result. A chain that stops at exp is
// still correct with its prefix fused and the rest run per slice.
// REQUIRES: host-avx512, libomp
// DEFINE: %{run} = %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils
// DEFINE: %{avx512} = tensorop-opt --tensorop-pipeline="target=x86-avx512"

// RUN: %gen_batch_epilogue 3 97 130 67 --steps=bias_n,gelu_tanh,residual | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 1 37 29 53 --steps=bias_n,relu --memrefs | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 3 20 33 40 --steps=bias_m,relu,scale:-2.5,residual --memrefs --dynamic-b | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 3 21 17 9 --steps=bias_n,gelu_erf,residual --dynamic-b | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 1 5 7 4 --steps=bias_n,gelu_tanh --dynamic-b | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 3 21 17 9 --steps=bias_n,exp,relu | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 3 97 130 67 --steps=bias_n,gelu_tanh,residual | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2 min-flops-per-thread=0" | %{run},%libomp | FileCheck %s
// RUN: %gen_batch_epilogue 3 37 29 53 --steps=bias_n,relu | tensorop-opt --tensorop-pipeline="target=x86-avx2" | %{run} | FileCheck %s
// A last consumer rounding C into a bf16 / f16 buffer (memrefs) runs per
// slice too, its output sliced; O NaN-prefilled, checked with its rounding.
// RUN: %gen_batch_epilogue 3 37 29 53 --steps=bias_n,gelu_tanh,residual --memrefs --narrow=bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 3 97 130 67 --steps=bias_n,relu --memrefs --narrow=f16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 3 21 17 9 --steps=bias_n,gelu_erf,residual --memrefs --dynamic-b --narrow=bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 3 37 29 53 --steps=bias_n,gelu_tanh,residual --memrefs --narrow=bf16 | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED-NARROW
// Tensors: the last consumer writes a tensor.empty (then O), which the
// loop carries.
// RUN: %gen_batch_epilogue 3 37 29 53 --steps=bias_n,gelu_tanh,residual --narrow=bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 3 97 130 67 --steps=bias_m,relu --narrow=f16 --dynamic-b | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 1 5 7 4 --steps=bias_n,gelu_erf --narrow=bf16 | %{avx512} | %{run} | FileCheck %s
// RUN: %gen_batch_epilogue 3 37 29 53 --steps=bias_n,gelu_tanh,residual --narrow=bf16 | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED-NARROW

// RUN: %gen_batch_epilogue 3 97 130 67 --steps=bias_n,gelu_tanh,residual | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED
// RUN: %gen_batch_epilogue 3 20 33 40 --steps=bias_m,relu,scale:-2.5,residual --memrefs --dynamic-b | %{avx512} 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSED-MEMREF

// CHECK: failures: 0
// FUSED: remark: tensorop: fused a chain of 3 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh, residual]
// FUSED: remark: tensorop: the microkernel applies the epilogue [bias_n, gelu_tanh, residual]
// FUSED-MEMREF: remark: tensorop: fused a chain of 4 elementwise consumers into the microkernel's store: epilogue [bias_m, relu, scale(-2.5), residual]
// FUSED-MEMREF: remark: tensorop: the microkernel applies the epilogue [bias_m, relu, scale(-2.5), residual]
// FUSED-NARROW: remark: tensorop: 4 elementwise consumers of the batch matmul run per slice
// FUSED-NARROW: remark: tensorop: fused a chain of 4 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh, residual, to_bf16]
