// Few columns (M past kFewColumns, not small) take the K-vectorized kernel
// (x86_gemm_kdot) only where the small GEMMs' instruction count says it is
// 1.3 times as fast as the broadcast kernel (lib/Advisor/SkinnyGemm.cpp,
// kdotAheadOfBroadcast): M * K broadcast FMAs against M * N * (ceil(K / 16)
// + 2) plus N * K / 8. A short K leaves the K-vectorized tile's horizontal
// sums most of its work: 157x13x31 ran at 0.35x libxsmm on Emerald Rapids,
// the broadcast kernel 0.98x; 1884x8x23 0.43x against 0.97x.
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 threads=1" | FileCheck %s

// 157 * 31 < 1.3 * (157 * 13 * 4 + 13 * 31 / 8): the broadcast kernel.
// CHECK-LABEL: func.func @n13_k31
// CHECK: mr = 30, nr = 16, {{.*}}emitter = "x86_gemm_fma"
func.func @n13_k31(%A: memref<157x31xf32>, %B: memref<31x13xf32>, %C: memref<157x13xf32>) {
  linalg.matmul ins(%A, %B : memref<157x31xf32>, memref<31x13xf32>) outs(%C : memref<157x13xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @n8_k23
// CHECK: mr = 30, nr = 16, {{.*}}emitter = "x86_gemm_fma"
func.func @n8_k23(%A: memref<1884x23xf32>, %B: memref<23x8xf32>, %C: memref<1884x8xf32>) {
  linalg.matmul ins(%A, %B : memref<1884x23xf32>, memref<23x8xf32>) outs(%C : memref<1884x8xf32>)
  return
}

// -----

// 1200 * 100 >= 1.3 * (1200 * 5 * 9 + 5 * 100 / 8): K-vectorized (1.49x
// libxsmm, the broadcast kernel 0.98x).
// CHECK-LABEL: func.func @n5_k100
// CHECK: mr = 5, nr = 5, {{.*}}emitter = "x86_gemm_kdot"
func.func @n5_k100(%A: memref<1200x100xf32>, %B: memref<100x5xf32>, %C: memref<1200x5xf32>) {
  linalg.matmul ins(%A, %B : memref<1200x100xf32>, memref<100x5xf32>) outs(%C : memref<1200x5xf32>)
  return
}

// -----

// A long K keeps 9..14 columns on it too (Zen 5: 6000x9x777 1.50x libxsmm).
// CHECK-LABEL: func.func @n9_k777
// CHECK: mr = 3, nr = 9, {{.*}}emitter = "x86_gemm_kdot"
func.func @n9_k777(%A: memref<6000x777xf32>, %B: memref<777x9xf32>, %C: memref<6000x9xf32>) {
  linalg.matmul ins(%A, %B : memref<6000x777xf32>, memref<777x9xf32>) outs(%C : memref<6000x9xf32>)
  return
}
