// RUN: tensorop-opt %s -split-input-file -verify-diagnostics
// Illegal GPU sketches are rejected where they are written, one test per rule
// of the #tensorop.gpu_sketch verifier (the problem's rules are checked
// when the sketch is applied: test/GPU/invalid.mlir).

// -----

// An unknown kernel family.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'kernel': must be "wgmma", "mma_sync", "ffma" or "gemv", got "tensor_magic"}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "tensor_magic", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// An unknown precision.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'precision': must be "bf16", "f16", "tf32" or "f32", got "fp8"}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "fp8", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// A tile that is not positive.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_n': must be in [1, 1024], got 0}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 128, block_n = 0, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 2, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// A tile so large that its shared-memory size would overflow (a fuzzer's
// find: block_m = 1288888888888888320 in an LLM answer).
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_m': must be in [1, 1024], got 1288888888888888320}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 1288888888888888320, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// A negative persistent grid.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'ctas': must be 0 (one CTA per tile) or positive, got -1}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = -1, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// The target is not an NVIDIA one.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'target': 'x86-avx512' is not an NVIDIA target (its cpu is 'znver4', not an sm_<N> chip)}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 2, group_m = 8, ctas = 0, target = #tensorop.target<name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f", vector_bits = 512, vector_registers = 32>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Wgmma on an sm_80 target.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'kernel': wgmma needs sm_90a; the target is sm_80}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Wgmma in tf32 reads 32 tf32 (128 bytes) of K per stage.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_k': must be 32 for tf32 (one 128-byte swizzle row)}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "tf32", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Wgmma's K step is one swizzle row.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_k': must be 64 (one 128-byte swizzle row)}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 32, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Wgmma with three consumer warpgroups.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'consumers': must be 1 or 2}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 192, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 3, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Wgmma's tile rows split over the consumers.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_m': must be 8, 16, 32 (few rows) or a multiple of 64 * consumers}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Wgmma's tile columns.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_n': must be 16, 32 (few columns), 64, 128, 192 or 256}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 320, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// A cluster of four CTAs.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'cluster_n': clusters of at most 2 CTAs (1x1, 2x1 or 1x2), got 2x2}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t", cluster_m = 2, cluster_n = 2>} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// A persistent grid smaller than one cluster.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'ctas': a grid of 1 CTAs cannot hold one cluster}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 1, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t", cluster_m = 2>} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Clusters are wgmma's only.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'cluster_m': only the wgmma kernel uses thread-block clusters}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t", cluster_m = 2>} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Mma.sync has no plain fp32.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'kernel': plain fp32 has no mma.sync (use ffma, or tensorop.precision = "tf32")}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f32", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Mma.sync with 32 warps.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'warps_m': warps_m x warps_n must be 1..16 warps}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 128, block_n = 128, block_k = 32, warps_m = 4, warps_n = 8, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Mma.sync's tile rows split over the warps.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_m': must be a multiple of 16 * warps_m}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 48, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Mma.sync's tile columns split over the warps.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_n': must be a multiple of 16 * warps_n}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 128, block_n = 96, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Ffma is plain fp32 only.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'kernel': ffma is the plain fp32 kernel; the sketch's precision is bf16}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "bf16", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 2, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// One stage cannot overlap loads.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'stages': must be in [2, 8]}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 1, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// The tile-order group.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'group_m': must be in [1, 64]}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 4, group_m = 0, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// No provenance.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch source (provenance) must not be empty}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// An unknown store path.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'store': must be "global", "smem_tma" or "splitk_ws", got "smem"}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t", store = "smem">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// Plain fp32 has no wgmma.
func.func @f(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'kernel': plain fp32 has no wgmma (use ffma, or tensorop.precision = "tf32")}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "f32", block_m = 128, block_n = 256, block_k = 32, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// The store through shared memory and TMA is the wgmma kernel's.
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'store': "smem_tma" (stmatrix + TMA store) is the wgmma kernel's; the 'mma_sync' kernel stores C from registers}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 128, block_n = 128, block_k = 32, warps_m = 2, warps_n = 4, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t", store = "smem_tma">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// tf32 wgmma: block_n is split into 64-column blocks over the consumers.
func.func @f(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_n': must be a multiple of 64 * consumers and at most 256 for tf32, got 192}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "tf32", block_m = 128, block_n = 192, block_k = 32, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// tf32 wgmma: block_m is wgmma's N extent.
func.func @f(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_m': must be 16, 32, 64, 128, 192 or 256 for tf32 (wgmma's N extent), got 96}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "tf32", block_m = 96, block_n = 128, block_k = 32, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// tf32 wgmma: at most 128 accumulators per thread.
func.func @f(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_n': block_m x block_n / consumers needs more than 128 accumulator registers per thread for tf32}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "tf32", block_m = 256, block_n = 256, block_k = 32, warps_m = 0, warps_n = 0, consumers = 2, stages = 2, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// tf32 wgmma runs without clusters.
func.func @f(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'cluster_m': the tf32 wgmma kernel runs without clusters}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "tf32", block_m = 256, block_n = 128, block_k = 32, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t", cluster_m = 2>} ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// The FFMA kernel's tiles are 32, 64 or 128 (nvidia_gemm_ffma.py).
func.func @f(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_m': the FFMA kernel's tiles are 32, 64 or 128 (block_n also 256), got 96}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 96, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 3, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// The FFMA kernel's 128x256 tile: block_m 128 and cp.async buffers only.
func.func @f(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_n': the FFMA kernel's 128x256 tile needs block_m 128 and 3 or 4 cp.async buffers, got 128x256 with 2 stages}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 128, block_n = 256, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 2, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// At most 4 buffers (cp.async).
func.func @f(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'stages': the FFMA kernel has 2 shared-memory buffers (through registers) or 3-4 (cp.async), got 5}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 64, block_n = 64, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 5, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xf32>, memref<256x256xf32>) outs(%C : memref<256x256xf32>)
  return
}

// -----

// The FFMA kernel's k-tiles are 16.
func.func @f(%A: memref<2x256xf32>, %B: memref<256x256xf32>, %C: memref<2x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'block_k': the FFMA kernel steps K by 16, got 32}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 64, block_n = 64, block_k = 32, warps_m = 0, warps_n = 0, consumers = 0, stages = 2, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<2x256xf32>, memref<256x256xf32>) outs(%C : memref<2x256xf32>)
  return
}

// -----

// Counts whose product overflows int64_t (an LLM answer's 2^62) are refused
// by their own bound, not wrapped into a small product that passes
// (the gpu-answer fuzzer's finding at cluster_n = 7777777777777777770).
func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'cluster_n': clusters of at most 2 CTAs (1x1, 2x1 or 1x2), got 2x7777777777777777770}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t", cluster_m = 2, cluster_n = 7777777777777777770>} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'warps_m': warps_m x warps_n must be 1..16 warps}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "mma_sync", precision = "f16", block_m = 128, block_n = 128, block_k = 32, warps_m = 4611686018427387904, warps_n = 4, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = #tensorop.target<name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t">} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}

// -----

func.func @f(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  // expected-error @+1 {{gpu_sketch field 'stages': must be in [2, 8]}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 4611686018427387904, group_m = 8, ctas = 132, target = #tensorop.target<name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "t", split_k = 2>} ins(%A, %B : memref<256x256xbf16>, memref<256x256xbf16>) outs(%C : memref<256x256xf32>)
  return
}
