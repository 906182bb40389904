// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 96 | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=F32
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 96 --dtype bf16 | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=BF16
// RUN: %python %tensorop_src/bench/models/gen_bottleneck.py --hw 6 --cin 64 --mid 16 | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" > /dev/null
// The model benchmark's blocks (bench/models) go through the pipeline, and
// what fuses in the FFN is what docs/benchmarks/models.md says: each GEMM's
// whole chain of consumers in fp32; in bf16 the chain after the first GEMM
// stops at the rounding to bf16, with a remark.

// F32: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh]
// F32: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, residual]
// F32-NOT: not fused

// BF16: remark: tensorop: the chain of fused consumers stops here: not fused into the matmul's microkernel (runs as a separate op after it): its output is not an f32 M x N (C's type) with the identity map
// BF16: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh]
// BF16: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, residual]
