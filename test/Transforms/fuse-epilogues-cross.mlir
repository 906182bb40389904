// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=riscv-rvv --tensorop-fuse-epilogues 2>/dev/null | tensorop-opt | FileCheck %s --check-prefixes=CHECK,RVV
// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=arm-neon --tensorop-fuse-epilogues 2>/dev/null | tensorop-opt | FileCheck %s --check-prefixes=CHECK,NEON
// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=riscv-rvv --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=arm-neon --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// The RVV and NEON microkernels take fused epilogues as x86's does (the
// matcher is the same: fuse-epilogues.mlir covers it on x86); a sketch whose
// microkernel has none keeps the consumer apart (fuse-epilogues.mlir,
// @model_written).

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>

// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, relu]
// CHECK-LABEL: func.func @bias_relu
// RVV: linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}ukernel = <emitter = "riscv_gemm_rvv"{{.*}}epilogue = <steps = ["bias_n", "relu"]>>}
// NEON: linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}ukernel = <emitter = "arm_gemm_neon"{{.*}}epilogue = <steps = ["bias_n", "relu"]>>}
// CHECK: linalg.generic {{.*}}attrs = {tensorop.fused_epilogue}
func.func @bias_relu(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %b, %x : f32
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_m, tanh]
// CHECK-LABEL: func.func @memref_tanh
// CHECK: epilogue = <steps = ["bias_m", "tanh"]>
func.func @memref_tanh(%A: memref<64x32xf32>, %B: memref<32x96xf32>, %bias: memref<64xf32>, %C: memref<64x96xf32>) {
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x96xf32>) outs(%C : memref<64x96xf32>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<64xf32>) outs(%C : memref<64x96xf32>) {
  ^bb0(%b: f32, %x0: f32):
    %x = arith.addf %x0, %b : f32
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  }
  return
}

