// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch=target=nvidia-sm90 --tensorop-fuse-epilogues 2>/dev/null | FileCheck %s --check-prefix=FUSE
// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch=target=nvidia-sm90 --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch=target=nvidia-sm80 --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch=target=nvidia-sm90 --tensorop-fuse-epilogues --tensorop-gpu-apply-sketch 2>/dev/null | FileCheck %s --check-prefix=APPLY
// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch=target=nvidia-sm80 --tensorop-fuse-epilogues --tensorop-gpu-apply-sketch 2>/dev/null | FileCheck %s --check-prefix=SM80
// Elementwise consumers of a matmul on an NVIDIA target (memrefs: the GPU
// pipeline bufferizes first): recorded on the #tensorop.gpu_sketch, then
// tensorop-gpu-apply-sketch passes the bias and residual to the kernel
// (wgmma on sm_90, mma.sync on sm_80) and erases the consumer. bf16 C:
// the consumer widens to f32 and narrows back, as importers write it.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>

// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, gelu_erf, residual]
// FUSE-LABEL: func.func @bias_gelu_residual
// FUSE: linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<{{.*}}epilogue = <steps = ["bias_n", "gelu_erf", "residual"]>, store = "smem_tma">}
// FUSE: linalg.generic {{.*}}attrs = {tensorop.fused_epilogue}
// APPLY-LABEL: func.func @bias_gelu_residual
// APPLY-NOT: linalg.generic
// APPLY: gpu.launch_func @bias_gelu_residual_kernel_module::@bias_gelu_residual_kernel {{.*}}args(%{{.*}} : memref<256x128xbf16>, %{{.*}} : memref<128x512xbf16>, %{{.*}} : memref<256x512xbf16>, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : memref<512xbf16>, %{{.*}} : memref<256x512xbf16>, %{{.*}} : i64)
// APPLY-SAME: epilogue = <steps = ["bias_n", "gelu_erf", "residual"]>
// SM80-LABEL: func.func @bias_gelu_residual
// SM80: gpu.launch_func {{.*}}args(%{{.*}} : memref<256x128xbf16>, %{{.*}} : memref<128x512xbf16>, %{{.*}} : memref<256x512xbf16>, %{{.*}} : memref<512xbf16>, %{{.*}} : memref<256x512xbf16>)
// SM80: llvm.inline_asm {{.*}}mma.sync.aligned.m16n8k16{{.*}}fused epilogue: bias_n, gelu_erf, residual
func.func @bias_gelu_residual(%A: memref<256x128xbf16>, %B: memref<128x512xbf16>,
                              %bias: memref<512xbf16>, %R: memref<256x512xbf16>,
                              %C: memref<256x512xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<256x512xbf16>)
  linalg.matmul ins(%A, %B : memref<256x128xbf16>, memref<128x512xbf16>)
                outs(%C : memref<256x512xbf16>)
  linalg.generic {indexing_maps = [#col, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %R : memref<512xbf16>, memref<256x512xbf16>) outs(%C : memref<256x512xbf16>) {
  ^bb0(%b_in: bf16, %r_in: bf16, %x_in: bf16):
    %b = arith.extf %b_in : bf16 to f32
    %r = arith.extf %r_in : bf16 to f32
    %x = arith.extf %x_in : bf16 to f32
    %v1 = arith.addf %x, %b : f32
    %h = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %r2 = arith.constant 0.70710678118654757 : f32
    %a = arith.mulf %v1, %r2 : f32
    %e = math.erf %a : f32
    %p = arith.addf %e, %one : f32
    %hx = arith.mulf %v1, %h : f32
    %v2 = arith.mulf %hx, %p : f32
    %v3 = arith.addf %v2, %r : f32
    %y = arith.truncf %v3 : f32 to bf16
    linalg.yield %y : bf16
  }
  return
}

// A bias along M and ReLU, in f16 arithmetic (no conversions), f16 C.
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_m, relu]
// FUSE-LABEL: func.func @row_bias_relu_f16
// FUSE: epilogue = <steps = ["bias_m", "relu"]>
// APPLY-LABEL: func.func @row_bias_relu_f16
// APPLY: gpu.launch_func {{.*}}%{{.*}} : memref<256xf16>{{.*}})
// The kernels (gpu.modules after the functions):
// APPLY: gpu.module @bias_gelu_residual_kernel_module
// APPLY: llvm.inline_asm {{.*}}fused epilogue: bias_n, gelu_erf, residual
// APPLY-SAME: div.rn.f32
// APPLY: gpu.module @row_bias_relu_f16_kernel1_module
// APPLY: llvm.inline_asm {{.*}}fused epilogue: bias_m, relu
func.func @row_bias_relu_f16(%A: memref<256x128xf16>, %B: memref<128x512xf16>,
                             %bias: memref<256xf16>, %C: memref<256x512xf16>) {
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%zero : f16) outs(%C : memref<256x512xf16>)
  linalg.matmul ins(%A, %B : memref<256x128xf16>, memref<128x512xf16>)
                outs(%C : memref<256x512xf16>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : memref<256xf16>) outs(%C : memref<256x512xf16>) {
  ^bb0(%b: f16, %x: f16):
    %s = arith.addf %x, %b : f16
    %z = arith.constant 0.0 : f16
    %y = arith.maximumf %s, %z : f16
    linalg.yield %y : f16
  }
  return
}
