// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-lower-matmul="target=nvidia-sm90" 2>/dev/null | FileCheck %s
// RUN: tensorop-opt %s --split-input-file --tensorop-gpu-lower-matmul="target=nvidia-sm90" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// Rows TMA cannot describe (K = 513: A's rows are 1026 bytes): the builtin
// advisor's model puts the pad copy of A (127 x 513 to rows of 520) and the
// wgmma kernel against mma.sync's element loads and takes wgmma; the
// lowering takes a workspace from the runtime's pool, launches the pad
// kernel into it, makes A's tensor map on the copy (row stride 1040 bytes,
// 513 columns: TMA zero-fills the rest) and gives the workspace back;
// nothing is launched when the workspace cannot be had. B (N = 1000) is
// read in place. No fill before the matmul: the kernel accumulates into C.
// REMARK: remark: tensorop: wgmma on padded copies: rows TMA cannot describe (A's rows of K=513 padded to 520); model: pad copies {{[0-9.]+}} us + wgmma {{[0-9.]+}} us against mma.sync with element loads {{[0-9.]+}} us
// REMARK: remark: tensorop: wgmma on padded copies (A 127x513 to row stride 520) in a workspace of 132096 bytes from the runtime's stream-ordered pool, 1 pad kernel(s) before the GEMM
//       CHECK: func.func private @tensoropGpuWorkspaceRelease(!llvm.ptr)
//       CHECK: func.func private @tensoropGpuWorkspaceAcquire(i64) -> !llvm.ptr
// CHECK-LABEL: func.func @pad_a
//       CHECK:   %[[WS:.*]] = call @tensoropGpuWorkspaceAcquire(%{{.*}}) : (i64) -> !llvm.ptr
//       CHECK:   %[[ADDR:.*]] = llvm.ptrtoint %[[WS]] : !llvm.ptr to i64
//       CHECK:   %[[OK:.*]] = arith.cmpi ne, %[[ADDR]], %{{.*}} : i64
//       CHECK:   scf.if %[[OK]] {
//       CHECK:     gpu.launch_func @pad_a_kernel_module::@pad_a_kernel_pad_a {{.*}} args(%{{.*}} : memref<127x513xf16>, %[[ADDR]] : i64)
//       CHECK:     %[[MAPA:.*]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr
//       CHECK:     call @tensoropGpuTensorMap2D(%[[MAPA]], %{{.*}}) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i64) -> !llvm.ptr
//       CHECK:     call @tensoropGpuTensorMap2D
//       CHECK:     gpu.launch_func @pad_a_kernel_module::@pad_a_kernel {{.*}}kernel = "wgmma", precision = "f16"
//       CHECK:     call @tensoropGpuWorkspaceRelease(%[[WS]]) : (!llvm.ptr) -> ()
//       CHECK:   }
//       CHECK: gpu.module @pad_a_kernel_module
//       CHECK:   gpu.func @pad_a_kernel_pad_a(%{{.*}}: memref<127x513xf16>, %{{.*}}: i64) kernel attributes {nvvm.maxntid = array<i32: 256, 1, 1>}
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}TensorOp nvidia_pad: 127 x 513 f16, row stride 513 -> 520{{.*}}ld.global.nc.b16{{.*}}st.global.v4.b32{{.*}}"l,l,r"
//       CHECK:   gpu.func @pad_a_kernel(
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async
func.func @pad_a(%A: memref<127x513xf16>, %B: memref<513x1000xf16>, %C: memref<127x1000xf32>) {
  linalg.matmul ins(%A, %B : memref<127x513xf16>, memref<513x1000xf16>) outs(%C : memref<127x1000xf32>)
  return
}

// -----

// K and N both unaligned (4093x4099x4111 bf16): two pad kernels, B's copy
// after A's in the workspace (256-byte aligned); C (N = 4099, odd) is
// stored from registers column by column at its own stride, so the
// builtin store is "global", not the TMA store.
// REMARK: remark: tensorop: wgmma on padded copies: rows TMA cannot describe (A's rows of K=4111 padded to 4112, B's rows of N=4099 padded to 4104)
// REMARK: remark: tensorop: wgmma on padded copies (A 4093x4111 to row stride 4112, B 4111x4099 to row stride 4104) in a workspace of 67404032 bytes
// CHECK-LABEL: func.func @pad_ab
//       CHECK:   call @tensoropGpuWorkspaceAcquire
//       CHECK:   scf.if
//       CHECK:     %[[OFF:.*]] = arith.constant 33660928 : i64
//       CHECK:     %[[BADDR:.*]] = arith.addi %{{.*}}, %[[OFF]] : i64
//       CHECK:     gpu.launch_func @pad_ab_kernel_module::@pad_ab_kernel_pad_a
//       CHECK:     gpu.launch_func @pad_ab_kernel_module::@pad_ab_kernel_pad_b {{.*}} args(%{{.*}} : memref<4111x4099xbf16>, %[[BADDR]] : i64)
//       CHECK:     gpu.launch_func @pad_ab_kernel_module::@pad_ab_kernel {{.*}}kernel = "wgmma"
//   CHECK-NOT:     store = "smem_tma"
//       CHECK:     call @tensoropGpuWorkspaceRelease
//       CHECK: gpu.module @pad_ab_kernel_module
//       CHECK:   gpu.func @pad_ab_kernel_pad_a(
//       CHECK:   gpu.func @pad_ab_kernel_pad_b(
//       CHECK:   gpu.func @pad_ab_kernel(
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}epilogue store: column by column (N odd){{.*}}st.global.b16
func.func @pad_ab(%A: memref<4093x4111xbf16>, %B: memref<4111x4099xbf16>, %C: memref<4093x4099xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<4093x4099xbf16>)
  linalg.matmul ins(%A, %B : memref<4093x4111xbf16>, memref<4111x4099xbf16>) outs(%C : memref<4093x4099xbf16>)
  return
}

// -----

// A small unaligned GEMM: the pad copy's launch costs more than the
// mma.sync kernel's element loads lose; the model keeps mma.sync and says so.
// REMARK: remark: tensorop: mma.sync kept (element loads): rows TMA cannot describe (A's rows of K=33 padded to 40)
// CHECK-LABEL: func.func @small_kept
//   CHECK-NOT:   tensoropGpuWorkspaceAcquire
//       CHECK:   gpu.launch_func @small_kept_kernel_module::@small_kept_kernel
//  CHECK-SAME:   kernel = "mma_sync"
func.func @small_kept(%A: memref<64x33xbf16>, %B: memref<33x64xbf16>, %C: memref<64x64xbf16>) {
  %zero = arith.constant 0.0 : bf16
  linalg.fill ins(%zero : bf16) outs(%C : memref<64x64xbf16>)
  linalg.matmul ins(%A, %B : memref<64x33xbf16>, memref<33x64xbf16>) outs(%C : memref<64x64xbf16>)
  return
}

// -----

// TF32 (f32 inputs, tensorop.precision = "tf32"), K = 513 not a multiple of
// 4: the same copy with 4-byte elements (rows of 516), on the TF32 wgmma
// kernel (N = 1000 even: it stores C in pairs). N odd stays on mma.sync.
// REMARK: remark: tensorop: wgmma on padded copies: rows TMA cannot describe (A's rows of K=513 padded to 516)
// REMARK: remark: tensorop: wgmma on padded copies (A 127x513 to row stride 516)
// CHECK-LABEL: func.func @pad_tf32
//       CHECK:   scf.if
//       CHECK:     gpu.launch_func @pad_tf32_kernel_module::@pad_tf32_kernel_pad_a {{.*}} args(%{{.*}} : memref<127x513xf32>, %{{.*}} : i64)
//       CHECK:     gpu.launch_func @pad_tf32_kernel_module::@pad_tf32_kernel {{.*}}kernel = "wgmma", precision = "tf32"
//       CHECK:   gpu.launch_func @pad_tf32_kernel1_module::@pad_tf32_kernel1
//  CHECK-SAME:   kernel = "mma_sync", precision = "tf32"
//       CHECK: gpu.module @pad_tf32_kernel_module
//       CHECK:   gpu.func @pad_tf32_kernel_pad_a(
//       CHECK:     llvm.inline_asm has_side_effects {{.*}}127 x 513 f32, row stride 513 -> 516{{.*}}ld.global.nc.b32
func.func @pad_tf32(%A: memref<127x513xf32>, %B: memref<513x1000xf32>, %C: memref<127x1000xf32>,
                    %B2: memref<513x999xf32>, %C2: memref<127x999xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<127x1000xf32>)
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B : memref<127x513xf32>, memref<513x1000xf32>) outs(%C : memref<127x1000xf32>)
  linalg.fill ins(%zero : f32) outs(%C2 : memref<127x999xf32>)
  linalg.matmul {tensorop.precision = "tf32"} ins(%A, %B2 : memref<127x513xf32>, memref<513x999xf32>) outs(%C2 : memref<127x999xf32>)
  return
}
