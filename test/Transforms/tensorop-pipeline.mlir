// --tensorop-pipeline lowers a module with static f32 matmuls (on memrefs
// or tensors) all the way to the LLVM dialect, the microkernels as inline asm
// (marked {tensorop.microkernel}; no tensorop op is left).
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512" | FileCheck %s --implicit-check-not=linalg. --implicit-check-not=" tensorop." --implicit-check-not="(tensorop." --implicit-check-not='"tensorop.' --implicit-check-not=scf. --implicit-check-not=memref. --implicit-check-not=vector. --implicit-check-not=func.func --implicit-check-not=bufferization. --implicit-check-not=arith. --implicit-check-not=affine.
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx2" | FileCheck %s --implicit-check-not=linalg. --implicit-check-not=" tensorop." --implicit-check-not="(tensorop." --implicit-check-not='"tensorop.' --implicit-check-not=scf. --implicit-check-not=memref. --implicit-check-not=vector.

// CHECK-LABEL: llvm.func @gemm(
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att
// CHECK-LABEL: llvm.func @gemm_tensors(
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att

// bare-ptr-abi=1: static memref arguments become plain pointers. The module
// carries the target's triple, every function its ISA features (no CPU).
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512 bare-ptr-abi=1" | FileCheck %s --check-prefix=BARE
// BARE: module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"}
// BARE: llvm.func @gemm(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {target_features = #llvm.target_features<["+avx512f", "+avx512bw", "+avx512dq", "+avx512vl", "+avx2", "+fma", "+bmi2"]>} {
// BARE-NOT: target_cpu

// Pipeline options are checked before the pipeline is built
// (pipeline-option-errors.mlir has every kind); a database is opened by the pass.
// RUN: not tensorop-opt %s --tensorop-pipeline="target=x86-avx512 advisor=bogus" 2>&1 | FileCheck %s --check-prefix=ADVISOR
// ADVISOR: error: tensorop-pipeline: unknown advisor 'bogus'
// RUN: not tensorop-opt %s --tensorop-pipeline="target=x86-avx512 db=%S/does-not-exist.db" 2>&1 | FileCheck %s --check-prefix=DB
// DB: error: tensorop: tuning database {{.*}}does-not-exist.db does not exist
// RUN: not tensorop-opt %s --tensorop-pipeline="target=x86-sse2" 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: error: tensorop-pipeline: unknown target 'x86-sse2'

func.func @gemm(%A: memref<97x67xf32>, %B: memref<67x131xf32>, %C: memref<97x131xf32>) {
  linalg.matmul ins(%A, %B : memref<97x67xf32>, memref<67x131xf32>) outs(%C : memref<97x131xf32>)
  return
}

func.func @gemm_tensors(%A: tensor<13x19xf32>, %B: tensor<19x17xf32>, %C: tensor<13x17xf32>) -> tensor<13x17xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<13x19xf32>, tensor<19x17xf32>) outs(%C : tensor<13x17xf32>) -> tensor<13x17xf32>
  return %r : tensor<13x17xf32>
}
