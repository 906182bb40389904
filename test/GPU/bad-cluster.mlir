// An emitter answer whose cluster shape does not divide the grid is refused
// with the field named (a launch like that would fail on the GPU).
// RUN: not tensorop-opt %s --tensorop-gpu-lower-matmul="target=nvidia-sm90 emitter-dir=%S/Inputs/bad_emitters/bad_cluster" 2>&1 | FileCheck %s
// CHECK: bad-cluster.mlir:[[@LINE+3]]:3: error: emitter 'nvidia_gemm_wgmma' printed an invalid answer: field 'cluster' must hold 3 integers in [1, 8] that divide 'grid'
func.func @gemm(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %C: memref<1024x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.matmul ins(%A, %B : memref<1024x1024xbf16>, memref<1024x1024xbf16>) outs(%C : memref<1024x1024xf32>)
  return
}
