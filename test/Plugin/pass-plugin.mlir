// TensorOpPlugin.so as a pass plugin of stock mlir-opt (--load-pass-plugin):
// the passes and the pipeline, without the dialect plugin.

// REQUIRES: host-avx2
// RUN: %gen_matmul 97 131 67 | %mlir-opt --load-pass-plugin=%tensorop_plugin --pass-pipeline="builtin.module(tensorop-pipeline{target=host})" | %mlir-runner -e main -entry-point-result=void -O3 -shared-libs=%mlir_c_runner_utils | FileCheck %s --check-prefix=JIT
// JIT:      failures: 0{{$}}
// JIT-NEXT: max_error_ratio:
// RUN: %mlir-opt --load-pass-plugin=%tensorop_plugin %s --pass-pipeline="builtin.module(tensorop-pipeline{target=host})" | FileCheck %s --check-prefix=ASM
// ASM: llvm.inline_asm has_side_effects asm_dialect = att {tensorop.microkernel} "{{.*}}vfmadd231ps
// ASM-NOT: linalg.matmul

// Single passes by name.
// RUN: %mlir-opt --load-pass-plugin=%tensorop_plugin %s --pass-pipeline="builtin.module(tensorop-annotate-sketch{target=x86-avx2})" | FileCheck %s --check-prefix=ANNOTATE
// ANNOTATE: linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}target = <name = "x86-avx2"{{.*}}source = "builtin">}

// Without any plugin, mlir-opt does not know the pipeline.
// RUN: not %mlir-opt %s --pass-pipeline="builtin.module(tensorop-pipeline{target=host})" 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: 'tensorop-pipeline' does not refer to a registered pass or pass pipeline

// A pass plugin cannot add a dialect: input that already holds tensorop
// attributes needs --load-dialect-plugin (docs/Install.md).
// RUN: echo 'module attributes {test.t = #tensorop.target<name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "+avx2", vector_bits = 256, vector_registers = 16>} {}' > %t.attr.mlir
// RUN: not %mlir-opt --load-pass-plugin=%tensorop_plugin %t.attr.mlir 2>&1 | FileCheck %s --check-prefix=NODIALECT
// NODIALECT: error: #"tensorop"<{{.*}}attribute created with unregistered dialect
// RUN: %mlir-opt --load-dialect-plugin=%tensorop_plugin %t.attr.mlir | FileCheck %s --check-prefix=DIALECT
// DIALECT: #tensorop.target<name = "x86-avx2"

func.func @plain(%A: memref<97x67xf32>, %B: memref<67x131xf32>, %C: memref<97x131xf32>) {
  linalg.matmul ins(%A, %B : memref<97x67xf32>, memref<67x131xf32>) outs(%C : memref<97x131xf32>)
  return
}
