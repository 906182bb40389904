// --tensorop-pipeline with an NVIDIA target: the whole module to LLVM dialect
// with the cubin (ptxas) embedded; tensor inputs are bufferized first.
// REQUIRES: ptxas
// RUN: tensorop-opt %s --tensorop-pipeline="target=nvidia-sm90" | FileCheck %s
// RUN: tensorop-opt %s --tensorop-pipeline="target=nvidia-sm80" | FileCheck %s --check-prefix=SM80

// CHECK: llvm.func @gemm(
// CHECK: gpu.launch_func @gemm_kernel_module::@gemm_kernel
// CHECK: gpu.binary @gemm_kernel_module  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">, properties = {{.*}}, bin = "\7FELF
// sm_80 code ships as a fatbin (cubin + PTX) so that newer GPUs JIT it.
// SM80: gpu.binary @gemm_kernel_module  [#gpu.object<#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">, properties = {{.*}}, "P\ED
func.func @gemm(%A: memref<512x256xf16>, %B: memref<256x384xf16>, %C: memref<512x384xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<512x384xf32>)
  linalg.matmul ins(%A, %B : memref<512x256xf16>, memref<256x384xf16>) outs(%C : memref<512x384xf32>)
  return
}
