// RUN: tensorop-opt %s --split-input-file --verify-diagnostics --tensorop-pipeline="target=nvidia-sm90"

// Host code holds device pointers: a linalg op that is not a kernel would
// run on the host on device memory. Refused where it is, not at translation.
func.func @stray_fill(%a: memref<128x64xbf16>, %b: memref<64x128xbf16>, %c: memref<128x128xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.matmul ins(%a, %b : memref<128x64xbf16>, memref<64x128xbf16>) outs(%c : memref<128x128xf32>)
  // expected-remark @+2 {{not fused into the matmul's microkernel}}
  // expected-error @+1 {{NVIDIA targets run linalg.matmul (and linalg.conv_2d_nhwc_hwcf) as kernels on device memory; this linalg.fill would run on the host on device memory and is not supported here}}
  linalg.fill ins(%z : f32) outs(%c : memref<128x128xf32>)
  return
}

// -----

// Also without any matmul in the module.
#id = affine_map<(i, j) -> (i, j)>
func.func @only_elementwise(%x: memref<64x64xf32>, %y: memref<64x64xf32>) {
  // expected-error @+1 {{this linalg.generic would run on the host on device memory}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %v : f32
    linalg.yield %r : f32
  }
  return
}
