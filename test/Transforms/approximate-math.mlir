// tensorop-approximate-math: f32 tanh, exp and erf become upstream's
// polynomial approximations (plain arithmetic that vectorizes); f64 ops keep
// their libm calls. Through the pipeline, a GELU-tanh after a matmul that is
// not fused (fuse-epilogues=0) calls no tanhf.
// RUN: tensorop-opt %s --tensorop-approximate-math | FileCheck %s
// RUN: tensorop-opt %s --tensorop-pipeline="target=x86-avx512 fuse-epilogues=0" | FileCheck %s --check-prefix=PIPE

// CHECK-LABEL: func.func @scalar
// CHECK-NOT: math.tanh {{.*}} : f32
// CHECK-NOT: math.exp
// CHECK-NOT: math.erf
// CHECK: math.fma
// CHECK: math.tanh %{{.*}} : f64
func.func @scalar(%x: f32, %y: f64) -> (f32, f32, f32, f64) {
  %a = math.tanh %x : f32
  %b = math.exp %x : f32
  %c = math.erf %x : f32
  %d = math.tanh %y : f64
  return %a, %b, %c, %d : f32, f32, f32, f64
}

// PIPE-NOT: tanhf
// PIPE: llvm.func @gelu
// PIPE-NOT: tanhf
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gelu(%A: memref<32x64xf32>, %B: memref<64x48xf32>, %C: memref<32x48xf32>) {
  linalg.matmul ins(%A, %B : memref<32x64xf32>, memref<64x48xf32>) outs(%C : memref<32x48xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%C : memref<32x48xf32>) {
  ^bb0(%x: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  }
  return
}
