// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch=target=nvidia-sm90 --tensorop-fuse-epilogues 2>/dev/null | FileCheck %s --check-prefix=FUSE
// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch=target=nvidia-sm90 --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: tensorop-opt %s --tensorop-gpu-annotate-sketch=target=nvidia-sm80 --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// Consumers of NVIDIA matmuls that are not fused, with the remark
// (fuse-epilogues.mlir: the fused ones).

#id = affine_map<(d0, d1) -> (d0, d1)>

// fp32 GEMMs run on the FFMA kernel, which has no epilogue: the consumer
// stays (and the NVIDIA path then cannot lower it; gen refuses such
// requests by name).
// REMARK: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): the NVIDIA 'ffma' kernel has no epilogue (wgmma and mma_sync have one)
// FUSE-LABEL: func.func @ffma_relu
// FUSE-NOT: epilogue =
// FUSE: linalg.generic
// FUSE-NOT: tensorop.fused_epilogue
func.func @ffma_relu(%A: memref<64x32xf32>, %B: memref<32x64xf32>, %C: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<64x64xf32>)
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x64xf32>)
                outs(%C : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%C : memref<64x64xf32>) {
  ^bb0(%x: f32):
    %z = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %z : f32
    linalg.yield %y : f32
  }
  return
}

// What is not an epilogue stays, with the reason.
// REMARK: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): the ops from 'math.exp' on compute none of
// FUSE-LABEL: func.func @exp_is_not_fused
// FUSE-NOT: epilogue =
func.func @exp_is_not_fused(%A: memref<256x128xbf16>, %B: memref<128x512xbf16>, %C: memref<256x512xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<256x512xbf16>)
  linalg.matmul ins(%A, %B : memref<256x128xbf16>, memref<128x512xbf16>)
                outs(%C : memref<256x512xbf16>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%C : memref<256x512xbf16>) {
  ^bb0(%x_in: bf16):
    %x = arith.extf %x_in : bf16 to f32
    %e = math.exp %x : f32
    %y = arith.truncf %e : f32 to bf16
    linalg.yield %y : bf16
  }
  return
}
