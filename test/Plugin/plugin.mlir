// TensorOp as a plugin of the stock mlir-opt: the dialect parses and prints,
// the verifier runs, and the passes and the pipeline work inside
// --pass-pipeline.

// Round trip of the attributes and the op through stock mlir-opt.
// RUN: %mlir-opt --load-dialect-plugin=%tensorop_plugin %s | %mlir-opt --load-dialect-plugin=%tensorop_plugin | FileCheck %s --check-prefix=PARSE
// PARSE-LABEL: func.func @sketch
// PARSE:       linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 8>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "plugin-test">}
// PARSE-LABEL: func.func @ukernel
// PARSE:       tensorop.ukernel "k" a(%{{.*}} : memref<4x6xf32>) b(%{{.*}} : memref<4x16xf32>) c(%{{.*}} : memref<6x16xf32, strided<[32, 1]>>) kc(%{{.*}}) m_rem(%{{.*}}) n_rem(%{{.*}}) {asm_dialect = "att", asm_string = "nop", constraints = "", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}

// Without the plugin, stock mlir-opt does not know the dialect.
// RUN: not %mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: error: {{.*}}tensorop

// The attribute verifier comes with the plugin.
// RUN: sed -e 's/nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm"/nc = 48, kc = 8, mr = 6, nr = 24, loop_order = "nkm"/' %s > %t.bad.mlir
// RUN: not %mlir-opt --load-dialect-plugin=%tensorop_plugin %t.bad.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: error: sketch nr (24) must be a multiple of the target's f32 lanes (16 on x86-avx512)

// A single pass by name (the sketch already on @sketch, for x86-avx512, is
// kept for that target and an error for another).
// RUN: %mlir-opt --load-dialect-plugin=%tensorop_plugin %s --pass-pipeline="builtin.module(tensorop-annotate-sketch{target=x86-avx512})" | FileCheck %s --check-prefix=ANNOTATE
// ANNOTATE-LABEL: func.func @sketch
// ANNOTATE:       source = "plugin-test"
// ANNOTATE-LABEL: func.func @plain
// ANNOTATE:       linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}target = <name = "x86-avx512"{{.*}}source = "builtin"{{(, n_tail = .*)?}}>}
// RUN: not %mlir-opt --load-dialect-plugin=%tensorop_plugin %s --pass-pipeline="builtin.module(tensorop-annotate-sketch{target=x86-avx2})" 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: error: tensorop: the sketch is for target 'x86-avx512' but the pipeline compiles for 'x86-avx2'

// The whole pipeline on a generated GEMM, then the JIT.
// REQUIRES: host-avx2
// RUN: %gen_matmul 97 131 67 | %mlir-opt --load-dialect-plugin=%tensorop_plugin --pass-pipeline="builtin.module(tensorop-pipeline{target=host})" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s --check-prefix=JIT
// RUN: %gen_matmul 50 70 37 --transpose-b --tensors | %mlir-opt --load-dialect-plugin=%tensorop_plugin --pass-pipeline="builtin.module(tensorop-pipeline{target=host})" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s --check-prefix=JIT
// JIT:      failures: 0{{$}}
// JIT-NEXT: max_error_ratio:
// The GEMM did go through the microkernel.
// RUN: %gen_matmul 97 131 67 | %mlir-opt --load-dialect-plugin=%tensorop_plugin --pass-pipeline="builtin.module(tensorop-pipeline{target=host})" | FileCheck %s --check-prefix=ASM
// ASM: llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "{{.*}}vfmadd231ps

func.func @sketch(%A: memref<50x37xf32>, %B: memref<37x70xf32>, %C: memref<50x70xf32>) {
  linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 12, nc = 32, kc = 8, mr = 6, nr = 16, loop_order = "nkm", micro_order = "nm", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = #tensorop.ukernel_spec<emitter = "x86_gemm_fma", k_unroll = 3, broadcast = "embedded", prefetch_b = 8>, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "plugin-test">}
    ins(%A, %B : memref<50x37xf32>, memref<37x70xf32>) outs(%C : memref<50x70xf32>)
  return
}

func.func @ukernel(%a: memref<4x6xf32>, %b: memref<4x16xf32>, %c: memref<6x16xf32, strided<[32, 1]>>, %k: index) {
  tensorop.ukernel "k" a(%a : memref<4x6xf32>) b(%b : memref<4x16xf32>) c(%c : memref<6x16xf32, strided<[32, 1]>>) kc(%k) m_rem(%k) n_rem(%k) {asm_dialect = "att", asm_string = "nop", constraints = "", emitter_hash = "0", mr = 6 : i64, nr = 16 : i64}
  return
}

func.func @plain(%A: memref<97x67xf32>, %B: memref<67x131xf32>, %C: memref<97x131xf32>) {
  linalg.matmul ins(%A, %B : memref<97x67xf32>, memref<67x131xf32>) outs(%C : memref<97x131xf32>)
  return
}
