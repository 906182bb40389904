// RUN: tensorop-opt %s --split-input-file --verify-diagnostics --tensorop-gpu-lower-matmul="target=nvidia-sm90"

func.func @f64(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  // expected-error @+1 {{NVIDIA targets take bf16, f16 or f32 inputs (both the same) and f32, bf16 or f16 output, got 'f64' x 'f64' -> 'f64'}}
  linalg.matmul ins(%A, %B : memref<64x64xf64>, memref<64x64xf64>) outs(%C : memref<64x64xf64>)
  return
}

// -----

func.func @dynamic(%A: memref<?x64xbf16>, %B: memref<64x64xbf16>, %C: memref<?x64xf32>) {
  // expected-error @+1 {{NVIDIA targets take linalg.matmul on static, contiguous row-major operands}}
  linalg.matmul ins(%A, %B : memref<?x64xbf16>, memref<64x64xbf16>) outs(%C : memref<?x64xf32>)
  return
}

// -----

func.func @transposed_b(%A: memref<64x32xbf16>, %B: memref<16x32xbf16>, %C: memref<64x16xf32>) {
  // expected-error @+1 {{NVIDIA targets do not support transposed or broadcast matmul operands yet}}
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                 affine_map<(d0, d1, d2) -> (d1, d2)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%A, %B : memref<64x32xbf16>, memref<16x32xbf16>) outs(%C : memref<64x16xf32>)
  return
}

// -----

func.func @tf32_on_bf16(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xf32>) {
  // expected-error @+1 {{tensorop.precision = "tf32" needs f32 inputs}}
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<64x64xbf16>, memref<64x64xbf16>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// TMA cannot describe rows of 513 or 255 fp32: GEMMs run on padded copies
// (pad-wgmma.mlir), but the TF32 wgmma kernel stores C in pairs of
// columns, so not with N odd.
func.func @wgmma_unaligned_tf32(%A: memref<128x513xf32>, %B: memref<513x255xf32>, %C: memref<128x255xf32>) {
  // expected-error @+1 {{illegal sketch for nvidia-sm90: gpu_sketch field 'kernel': TMA needs 16-byte aligned rows (K and N multiples of 4), got K=513 N=255; convolutions and TF32 GEMMs with N odd do not run on padded copies}}
  linalg.matmul {tensorop.precision = "tf32", tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "tf32", block_m = 128, block_n = 128, block_k = 32, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">}
    ins(%A, %B : memref<128x513xf32>, memref<513x255xf32>) outs(%C : memref<128x255xf32>)
  return
}

// -----

// N = 250: C's rows (500 bytes) are not 16-byte aligned, so C has no tensor
// map: the TMA store is refused (the register store writes them).
func.func @tma_store_unaligned_c(%A: memref<128x512xbf16>, %B: memref<512x250xbf16>, %C: memref<128x250xbf16>) {
  // expected-error @+1 {{illegal sketch for nvidia-sm90: gpu_sketch field 'store': the TMA store needs 16-byte aligned rows of C (N a multiple of 8, got N=250): store = "global"}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", store = "smem_tma">}
    ins(%A, %B : memref<128x512xbf16>, memref<512x250xbf16>) outs(%C : memref<128x250xbf16>)
  return
}

// -----

func.func @too_many_stages(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'stages': 6 stages need 295008 bytes of shared memory; the target allows 232448}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 6, group_m = 8, ctas = 132, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">}
    ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

func.func @wrong_precision(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @+1 {{gpu_sketch field 'precision': is "bf16" but the matmul computes in f32}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "bf16", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 3, group_m = 8, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">}
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// An emitter's own refusal reaches the user with the field it names.
func.func @emitter_refuses(%A: memref<128x64xbf16>, %B: memref<64x128xbf16>, %C: memref<128x128xf32>) {
  // expected-error @+1 {{emitter 'nvidia_gemm_mma' refused the spec: field 'block_k': must span a multiple of 32 bytes (16 bf16/f16, 8 tf32)}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "bf16", block_m = 128, block_n = 128, block_k = 8, warps_m = 2, warps_n = 4, consumers = 0, stages = 3, group_m = 8, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">}
    ins(%A, %B : memref<128x64xbf16>, memref<64x128xbf16>) outs(%C : memref<128x128xf32>)
  return
}

// The rules of the sketch itself (clusters, tiles, warps, stages, ...) are the
// #tensorop.gpu_sketch verifier's: test/Dialect/invalid-gpu-sketch.mlir.

// -----

// The smem_tma store's C buffers (2 x 8 KiB per consumer) do not fit beside
// 5 stages of 256x64 tiles: the field named is 'store'.
func.func @smem_store_too_big(%A: memref<512x512xbf16>, %B: memref<512x512xbf16>, %C: memref<512x512xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'store': 5 stages and the smem_tma store's buffers need 238592 bytes of shared memory; the target allows 232448}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 256, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 5, group_m = 8, ctas = 132, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", store = "smem_tma">}
    ins(%A, %B : memref<512x512xbf16>, memref<512x512xbf16>) outs(%C : memref<512x512xbf16>)
  return
}
