// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 96 | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=F32
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 96 --dtype bf16 | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=BF16
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 96 --dtype bf16 --workspace | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=BF16WS
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 96 --workspace --prepacked | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=PREPACKED
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 256 --hidden 1024 --workspace --prepacked | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" 2>/dev/null | FileCheck %s --check-prefix=PREPACKEDIR
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 128 --workspace --prepacked --threads 2 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2 bare-ptr-abi=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=PREPACKED2
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 128 --workspace --prepacked --threads 2 | FileCheck %s --check-prefix=ROWS
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 128 --workspace --prepacked --threads 2 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2 bare-ptr-abi=1" 2>/dev/null | FileCheck %s --check-prefix=ROWSOMP
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 768 --hidden 3072 --workspace --prepacked --threads 2 | FileCheck %s --check-prefix=PANELS
// RUN: not %python %tensorop_src/bench/models/gen_ffn.py --tokens 15 --model 64 --hidden 128 --prepacked --threads 2 2>&1 | FileCheck %s --check-prefix=ROWSODD
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 128 --dtype bf16 --workspace --prepacked --threads 2 | tensorop-opt --tensorop-pipeline="target=x86-avx512 threads=2 bare-ptr-abi=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=PREPACKEDBF16
// RUN: %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 64 --hidden 128 --dtype bf16 --workspace --prepacked | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" 2>/dev/null | FileCheck %s --check-prefix=PREPACKEDBF16IR
// RUN: not %python %tensorop_src/bench/models/gen_ffn.py --tokens 16 --model 63 --hidden 128 --dtype bf16 --prepacked 2>&1 | FileCheck %s --check-prefix=PREPACKEDODD
// RUN: %python %tensorop_src/bench/models/gen_bottleneck.py --hw 6 --cin 64 --mid 16 | tensorop-opt --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" > /dev/null
// The model benchmark's blocks (bench/models) go through the pipeline, and
// what fuses in the FFN is what docs/benchmarks/models.md says: each GEMM's
// whole chain of consumers in fp32; in bf16 the first GEMM's chain takes the
// rounding of the intermediate to bf16 too (the output step to_bf16: its
// kernel writes the bf16 intermediate the second GEMM reads).

// F32: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh]
// F32: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, residual]
// F32-NOT: not fused

// With the weights packed once into 32-column panels (--prepacked), each
// panel's matmul fuses its slice of the chain inside the panel loop:
// PREPACKED: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh]
// PREPACKED: ins({{.*}} : tensor<16x64xf32>, tensor<64x32xf32>) outs({{.*}} : tensor<16x32xf32>)
// PREPACKED: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, residual]
// PREPACKED: ins({{.*}} : tensor<16x96xf32>, tensor<96x32xf32>) outs({{.*}} : tensor<16x32xf32>)
// PREPACKED: remark: tensorop: the microkernel applies the epilogue [bias_n, gelu_tanh] as it stores C after the last K panel
// PREPACKED: remark: tensorop: the microkernel applies the epilogue [bias_n, residual] as it stores C after the last K panel
// PREPACKED-NOT: not fused
// At D/H = 256/1024 (not a small GEMM) each fp32 panel's kernel reads its
// 32-column panel in place (rows 128 bytes apart: ldb128) and prefetches it
// 32 rows ahead (pf32), not 2*nr columns ahead (pfc64: the panel's next
// row or two).
// PREPACKEDIR-NOT: _pfc
// PREPACKEDIR: x86_avx512_f32_8x32_u4_explicit_pf32_ldb128_lda{{1024|4096}}
// PREPACKEDIR-NOT: _pfc
// bf16 weights packed once in k pairs: each panel's matmul (a memref view
// marked tensorop.b_k_pairs) reads them in place, bias + GELU + the rounding
// to bf16 fused into the first, bias + residual into the second, one thread
// per chunk of panels; the kernels read B pairs 64 columns wide (256 bytes a
// pair row) and A in place (128 / 256 bytes a row), prefetch B 8 pair rows
// ahead (pf8: the weights stream from past L2) and, with one K block, store
// C instead of adding to a zero-filled one (_st).
// PREPACKEDBF16: remark: tensorop: one thread: the matmul is inside a parallel loop, whose iterations are the threads' work
// PREPACKEDBF16: remark: tensorop: fused a chain of 3 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh, to_bf16]
// PREPACKEDBF16: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, residual]
// PREPACKEDBF16: remark: tensorop: the microkernel applies the epilogue [bias_n, gelu_tanh, to_bf16] as it stores C after the last K panel
// PREPACKEDBF16: remark: tensorop: the microkernel applies the epilogue [bias_n, residual] as it stores C after the last K panel
// PREPACKEDBF16-NOT: not applied
// PREPACKEDBF16IR-DAG: x86_avx512_bf16_{{[0-9]+}}x64_u{{[0-9]+}}_{{[a-z]+}}_pf8_ldb256_lda128_epi{{[0-9a-f]+}}_st
// PREPACKEDBF16IR-DAG: x86_avx512_bf16_{{[0-9]+}}x64_u{{[0-9]+}}_{{[a-z]+}}_pf8_ldb256_lda256_epi{{[0-9a-f]+}}_st
// PREPACKEDODD: --prepacked --dtype bf16 needs an even D and H
// With --threads 2 the panel loops are scf.foralls over two chunks of
// panels, and their matmuls run on one thread each (no team inside a
// team), still with their epilogues fused:
// PREPACKED2: remark: tensorop: one thread: the matmul is inside a parallel loop, whose iterations are the threads' work
// PREPACKED2: remark: tensorop: one thread: the matmul is inside a parallel loop, whose iterations are the threads' work
// PREPACKED2: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh]
// PREPACKED2: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, residual]
// PREPACKED2-NOT: not fused
// fp32 with small weights (4 MiB or less): one forall over
// two chunks of rows, each running both panel loops on its rows (panels as
// wide as its 8 rows make them); one OpenMP team per call:
// ROWS: T=16 D=64 H=128 f32, panels 32 / 32, 2 thread(s), chunks of 8 rows
// ROWS: %out = scf.forall (%t) in (2) shared_outs(%shared = %e2) -> (tensor<16x64xf32>) {
// ROWS-NEXT: %row = affine.apply affine_map<(d0) -> (d0 * 8)>(%t)
// ROWS-NEXT: %xs = tensor.extract_slice %x[%row, 0] [8, 64] [1, 1] : tensor<16x64xf32> to tensor<8x64xf32>
// ROWS: %gs = scf.for %q = %c0 to %c4 step %c1 iter_args(%acc = %e1) -> (tensor<8x128xf32>) {
// ROWS: linalg.matmul ins(%xs, %wq : tensor<8x64xf32>, tensor<64x32xf32>)
// ROWS: %done = scf.for %q = %c0 to %c2 step %c1 iter_args(%acc = %os) -> (tensor<8x64xf32>) {
// ROWS: %xq = tensor.extract_slice %xs[0, %j] [8, 32] [1, 1]
// ROWS: linalg.matmul ins(%gs, %wq : tensor<8x128xf32>, tensor<128x32xf32>)
// ROWS: tensor.parallel_insert_slice %done into %shared[%row, 0] [8, 64] [1, 1]
// ROWS-NOT: scf.forall
// ROWSOMP-COUNT-1: omp.parallel
// ROWSOMP-NOT: omp.parallel
// 18 MiB of weights at 8 rows a thread: chunks of panels, each thread
// streaming its share of the weights:
// PANELS: T=16 D=768 H=3072 f32, panels 32 / 32, 2 thread(s) (bench
// PANELS: %g = scf.forall (%t) in (2) shared_outs(%shared = %e1) -> (tensor<16x3072xf32>) {
// PANELS: %out = scf.forall (%t) in (2) shared_outs(%shared = %e2) -> (tensor<16x768xf32>) {
// ROWSODD: --prepacked --threads 2: 15 tokens do not split into 2 equal chunks of rows

// BF16: remark: tensorop: fused a chain of 3 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh, to_bf16]
// BF16: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, residual]
// BF16: remark: tensorop: the microkernel applies the epilogue [bias_n, gelu_tanh, to_bf16] as it stores C after the last K panel
// BF16-NOT: not fused
// With the caller's workspace the f32 C is a view of it (the bf16
// intermediate is created after the matmul and moves before it):
// BF16WS: remark: tensorop: the microkernel applies the epilogue [bias_n, gelu_tanh, to_bf16] as it stores C after the last K panel
// BF16WS-NOT: not applied
