// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-lower-matmul="target=nvidia-sm90" | FileCheck %s
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-lower-matmul="target=nvidia-sm80" | FileCheck %s --check-prefix=SM80

// A bf16 GEMM with 16-byte aligned rows on sm_90: the TMA + wgmma kernel,
// persistent (132 CTAs), tensor maps made on the host (A, B, and C's for the
// builtin store = "smem_tma": stmatrix + TMA store); the zero fill becomes
// the kernel's beta = 0.
// CHECK-LABEL: func.func @bf16_aligned
//   CHECK-NOT:   linalg.fill
//       CHECK:   call @tensoropGpuTensorMap2D({{.*}}) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i64) -> !llvm.ptr
//       CHECK:   call @tensoropGpuTensorMap2D
//       CHECK:   call @tensoropGpuTensorMap2D
//       CHECK:   gpu.launch_func @bf16_aligned_kernel_module::@bf16_aligned_kernel blocks in (%{{.*}}) threads in (%{{.*}}) dynamic_shared_memory_size %{{.*}} args(%{{.*}} : memref<4096x4096xbf16>, %{{.*}} : memref<4096x4096xbf16>, %{{.*}} : memref<4096x4096xbf16>, %{{.*}} : i64, %{{.*}} : i64, %{{.*}} : i64) {tensorop.gpu_sketch = #tensorop.gpu_sketch<kernel = "wgmma", precision = "bf16", block_m = 128, block_n = 256, block_k = 64
//       CHECK: gpu.module @bf16_aligned_kernel_module [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
//       CHECK:   llvm.mlir.global external @tensorop_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
//       CHECK:   gpu.func @bf16_aligned_kernel(%{{.*}}: memref<4096x4096xbf16>, %{{.*}}: memref<4096x4096xbf16>, %{{.*}}: memref<4096x4096xbf16>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) kernel attributes {nvvm.maxntid = array<i32: 384, 1, 1>, nvvm.minctasm = 1 : i32
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}setmaxnreg.dec.sync.aligned.u32 40{{.*}}cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes{{.*}}wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16{{.*}}stmatrix.sync.aligned.m8n8.x4.shared.b16{{.*}}cp.async.bulk.tensor.2d.global.shared::cta.bulk_group{{.*}}"l,l,l,l,l,l,r"
// SM80-LABEL: func.func @bf16_aligned
//       SM80:   gpu.launch_func
//  SM80-SAME:   kernel = "mma_sync"
//       SM80: gpu.module @bf16_aligned_kernel_module [#nvvm.target<O = 3, chip = "sm_80"
//       SM80:     llvm.inline_asm has_side_effects {{.*}}cp.async.cg.shared.global{{.*}}ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32{{.*}}"l,l,l,r"
func.func @bf16_aligned(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<4096x4096xbf16>)
  linalg.matmul ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xbf16>)
  return
}

// -----

// K = 33: rows are not 16-byte aligned, so no TMA; the problem is so small
// that a pad copy for the wgmma kernel does not pay (pad-wgmma.mlir): the
// mma.sync kernel with element loads, on small tiles. No fill before the
// matmul: the kernel accumulates into C.
// CHECK-LABEL: func.func @unaligned_accumulate
//   CHECK-NOT:   tensoropGpuTensorMap2D
//       CHECK:   gpu.launch_func @unaligned_accumulate_kernel_module::@unaligned_accumulate_kernel
//  CHECK-SAME:   kernel = "mma_sync", precision = "f16", block_m = 64, block_n = 64, block_k = 32, warps_m = 2, warps_n = 2
//       CHECK:   gpu.func @unaligned_accumulate_kernel
//  CHECK-SAME:   nvvm.maxntid = array<i32: 128, 1, 1>
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}element loads{{.*}}ld.global.nc.b16{{.*}}ld.global.v2.f32{{.*}}
func.func @unaligned_accumulate(%A: memref<48x33xf16>, %B: memref<33x40xf16>, %C: memref<48x40xf32>) {
  linalg.matmul ins(%A, %B : memref<48x33xf16>, memref<33x40xf16>) outs(%C : memref<48x40xf32>)
  return
}

// -----

// Plain fp32: the FFMA kernel; with tensorop.precision = "tf32" on sm_90a
// and 16-byte rows: the wgmma kernel computing C^T = B^T A^T (B^T fragments
// from registers, tensor maps of A and B); with rows TMA cannot describe
// (N = 101): mma.sync m16n8k8 on tf32-rounded fragments.
// CHECK-LABEL: func.func @fp32
//       CHECK:   gpu.launch_func @fp32_kernel_module::@fp32_kernel
//  CHECK-SAME:   kernel = "ffma", precision = "f32"
//       CHECK:   call @tensoropGpuTensorMap2D
//       CHECK:   call @tensoropGpuTensorMap2D
//       CHECK:   gpu.launch_func @fp32_kernel1_module::@fp32_kernel1
//  CHECK-SAME:   kernel = "wgmma", precision = "tf32", {{.*}}block_k = 32
//       CHECK:   gpu.launch_func @fp32_kernel2_module::@fp32_kernel2
//  CHECK-SAME:   kernel = "mma_sync", precision = "tf32"
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}fma.rn.f32
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}ld.shared.v2.b32{{.*}}wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}cvt.rna.tf32.f32{{.*}}mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// SM80-LABEL: func.func @fp32
//   SM80-NOT:   kernel = "wgmma"
func.func @fp32(%A: memref<300x200xf32>, %B: memref<200x100xf32>, %C: memref<300x100xf32>, %D: memref<300x100xf32>, %B2: memref<200x101xf32>, %D2: memref<300x101xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<300x100xf32>)
  linalg.matmul ins(%A, %B : memref<300x200xf32>, memref<200x100xf32>) outs(%C : memref<300x100xf32>)
  linalg.fill ins(%zero : f32) outs(%D : memref<300x100xf32>)
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<300x200xf32>, memref<200x100xf32>) outs(%D : memref<300x100xf32>)
  linalg.fill ins(%zero : f32) outs(%D2 : memref<300x101xf32>)
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B2 : memref<300x200xf32>, memref<200x101xf32>) outs(%D2 : memref<300x101xf32>)
  return
}
