// The rules of split_k and of the GEMV kernel, each error naming its field:
// the sketch's own (verifier) and those of the GEMM (applying the sketch).
// RUN: tensorop-opt %s --split-input-file --verify-diagnostics --tensorop-gpu-lower-matmul="target=nvidia-sm90"

func.func @split_3(%A: memref<128x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<128x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': must be 1, 2 or 4, got 3}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 6, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 3>} ins(%A, %B : memref<128x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}

// -----

func.func @split_cluster(%A: memref<128x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<128x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': split-K is a cluster of its own: cluster_m and cluster_n must be 1}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 6, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", cluster_m = 2, split_k = 2>} ins(%A, %B : memref<128x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}

// -----

func.func @split_4_big_tile(%A: memref<128x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<128x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': split_k 4 needs at most 96 accumulator registers per consumer thread (block_n <= 192 with 64 rows per consumer); more spill}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 4, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 4>} ins(%A, %B : memref<128x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}

// -----

func.func @split_short_k(%A: memref<128x64xbf16>, %B: memref<64x4096xbf16>, %C: memref<128x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': K=64 has 1 k-tiles of 64: too few for 2 non-empty ranges}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 4, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 2>} ins(%A, %B : memref<128x64xbf16>, memref<64x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}

// -----

func.func @split_smem(%A: memref<128x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<128x4096xbf16>) {
  // The fp32 partial tile (128 KiB) overlays the stages: 2 of 48 KiB are too few.
  // expected-error @+1 {{gpu_sketch field 'stages': split_k's fp32 partial tile (131072 bytes) overlays the stages: 2 stages of 49152 bytes are too few}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64, warps_m = 0, warps_n = 0, consumers = 2, stages = 2, group_m = 8, ctas = 132, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 2>} ins(%A, %B : memref<128x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}

// -----

func.func @gemv_rows(%A: memref<17x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<17x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'kernel': the GEMV kernel is for M <= 16, got M=17}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "gemv", precision = "bf16", block_m = 8, block_n = 32, block_k = 8, warps_m = 1, warps_n = 8, consumers = 0, stages = 2, group_m = 1, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">} ins(%A, %B : memref<17x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<17x4096xbf16>)
  return
}

// -----

func.func @gemv_block_m(%A: memref<16x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<16x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'block_m': GEMV rows per CTA must be 1..8, got 16}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "gemv", precision = "bf16", block_m = 16, block_n = 32, block_k = 8, warps_m = 1, warps_n = 8, consumers = 0, stages = 2, group_m = 1, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">} ins(%A, %B : memref<16x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<16x4096xbf16>)
  return
}

// -----

func.func @gemv_registers(%A: memref<16x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<16x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'block_k': a GEMV thread would need about 222 registers (block_m 8, block_k 16), more than the 128 of 16 warps}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "gemv", precision = "bf16", block_m = 8, block_n = 32, block_k = 16, warps_m = 1, warps_n = 16, consumers = 0, stages = 2, group_m = 1, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">} ins(%A, %B : memref<16x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<16x4096xbf16>)
  return
}

// -----

func.func @gemv_unaligned(%A: memref<1x4100xbf16>, %B: memref<4100x4096xbf16>, %C: memref<1x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'kernel': the GEMV kernel loads 16-byte chunks of A and B rows: K and N must be multiples of 8, got K=4100 N=4096}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "gemv", precision = "bf16", block_m = 1, block_n = 32, block_k = 8, warps_m = 1, warps_n = 8, consumers = 0, stages = 2, group_m = 1, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test">} ins(%A, %B : memref<1x4100xbf16>, memref<4100x4096xbf16>) outs(%C : memref<1x4096xbf16>)
  return
}

// -----

func.func @gemv_split(%A: memref<1x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<1x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': only the wgmma and ffma kernels split K (the CTAs of a cluster add their partial tiles)}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "gemv", precision = "bf16", block_m = 1, block_n = 32, block_k = 8, warps_m = 1, warps_n = 8, consumers = 0, stages = 2, group_m = 1, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 2>} ins(%A, %B : memref<1x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<1x4096xbf16>)
  return
}

// -----

// Narrow tiles split in 8-column groups, or in twice as many ranks as
// groups (a group's row half each): block_n 16 has two, so 2 or 4.
func.func @split_8_narrow(%A: memref<4096x4096xbf16>, %B: memref<4096x16xbf16>, %C: memref<4096x16xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': 8 only on the narrow wgmma tile (block_n 32: each rank stores one 8-column group's row half); elsewhere 1, 2 or 4}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 8>} ins(%A, %B : memref<4096x4096xbf16>, memref<4096x16xbf16>) outs(%C : memref<4096x16xbf16>)
  return
}

// -----

// Clusters of 8 only on the narrow tile: not on 64x128.
func.func @split_8_plain(%A: memref<128x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<128x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': 8 only on the narrow wgmma tile (block_n 32: each rank stores one 8-column group's row half); elsewhere 1, 2 or 4}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 6, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 8>} ins(%A, %B : memref<128x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}

// -----

// The few-rows kernel splits K too, with the same rule: every rank a k-tile.
func.func @split_4_few_rows_short_k(%A: memref<13x192xbf16>, %B: memref<192x4096xbf16>, %C: memref<13x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': K=192 has 3 k-tiles of 64: too few for 4 non-empty ranges}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 16, block_n = 64, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 4>} ins(%A, %B : memref<13x192xbf16>, memref<192x4096xbf16>) outs(%C : memref<13x4096xbf16>)
  return
}

// -----

func.func @ffma_split_sm80(%A: memref<600x3000xf32>, %B: memref<3000x700xf32>, %C: memref<600x700xf32>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': the FFMA kernel splits K on thread-block clusters (sm_90); the target is sm_80}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = <name = "nvidia-sm80", triple = "nvptx64-nvidia-cuda", cpu = "sm_80", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 2>} ins(%A, %B : memref<600x3000xf32>, memref<3000x700xf32>) outs(%C : memref<600x700xf32>)
  return
}

// -----

func.func @ffma_split_short_k(%A: memref<600x48xf32>, %B: memref<48x700xf32>, %C: memref<600x700xf32>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': K=48 has 3 k-tiles of 16: too few for 4 non-empty ranges}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "ffma", precision = "f32", block_m = 128, block_n = 128, block_k = 16, warps_m = 0, warps_n = 0, consumers = 0, stages = 4, group_m = 8, ctas = 0, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", split_k = 4>} ins(%A, %B : memref<600x48xf32>, memref<48x700xf32>) outs(%C : memref<600x700xf32>)
  return
}

// -----

// store "splitk_ws" (split-K through a global workspace) is the narrow
// tile's: not on 64x128, not past 32 slices, not on pad copies (N = 12
// bf16: 24-byte rows of B).
func.func @ws_wide_tile(%A: memref<128x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<128x4096xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'store': "splitk_ws" (split-K through a global workspace) is the narrow bf16/f16 wgmma tile's (block_n 16 or 32)}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 128, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 6, group_m = 8, ctas = 128, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", store = "splitk_ws", split_k = 4>} ins(%A, %B : memref<128x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<128x4096xbf16>)
  return
}

// -----

func.func @ws_split_33(%A: memref<640x32768xbf16>, %B: memref<32768x24xbf16>, %C: memref<640x24xbf16>) {
  // expected-error @+1 {{gpu_sketch field 'split_k': "splitk_ws" splits K in 2..32, got 33}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 32, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 130, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", store = "splitk_ws", split_k = 33>} ins(%A, %B : memref<640x32768xbf16>, memref<32768x24xbf16>) outs(%C : memref<640x24xbf16>)
  return
}

// -----

func.func @ws_padded(%A: memref<640x16384xbf16>, %B: memref<16384x12xbf16>, %C: memref<640x12xbf16>) {
  // expected-error @+1 {{"splitk_ws" needs 16-byte aligned rows of A and B (no pad copies) and a GEMM}}
  linalg.matmul {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 64, block_n = 16, block_k = 64, warps_m = 0, warps_n = 0, consumers = 1, stages = 16, group_m = 8, ctas = 130, target = <name = "nvidia-sm90", triple = "nvptx64-nvidia-cuda", cpu = "sm_90a", features = "+ptx80", vector_bits = 1024, vector_registers = 255>, source = "test", store = "splitk_ws", split_k = 13>} ins(%A, %B : memref<640x16384xbf16>, memref<16384x12xbf16>) outs(%C : memref<640x12xbf16>)
  return
}
