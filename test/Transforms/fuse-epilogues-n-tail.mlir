// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=x86-avx512 --tensorop-fuse-epilogues 2>&1 | FileCheck %s
// The builtin gives 84x34x131 an N tail (its last 2 columns by
// x86_gemm_kdot, test/Transforms/annotate-sketch-n-tail.mlir), whose kernel
// applies no epilogue: fusing one removes the tail, with a remark, and the
// main kernel computes those columns too, its column tile grown from the
// 32 columns it was chosen for to all 34 (N's remainder one edge block).

// CHECK: remark: tensorop: the sketch's n_tail (its last 2 columns by x86_gemm_kdot) goes: that kernel applies no epilogue; the main kernel computes those columns too
// CHECK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, relu]
// CHECK: linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = 84, nc = 64, kc = 131, mr = 14, nr = 32, {{.*}}epilogue = <steps = ["bias_n", "relu"]>>}
// CHECK-NOT: n_tail = <
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%A: memref<84x131xf32>, %B: memref<131x34xf32>, %bias: memref<34xf32>, %C: memref<84x34xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<84x34xf32>)
  linalg.matmul ins(%A, %B : memref<84x131xf32>, memref<131x34xf32>) outs(%C : memref<84x34xf32>)
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%C, %bias : memref<84x34xf32>, memref<34xf32>) outs(%C : memref<84x34xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %b, %x : f32
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  }
  return
}
