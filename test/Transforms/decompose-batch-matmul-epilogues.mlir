// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-decompose-batch-matmul | FileCheck %s
// RUN: tensorop-opt %s -split-input-file --tensorop-decompose-batch-matmul --tensorop-annotate-sketch=target=x86-avx512 --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=FUSE

// The elementwise consumers of a batch matmul's B x M x N result run per
// slice, right after the slice's matmul (BatchEpilogues.cpp), where
// fuse-epilogues makes them its microkernel's epilogue.

// Memrefs: a bias along N, broadcast over the batch, and ReLU, in place on C.
// CHECK-LABEL: func.func @bias_relu_memref
// CHECK:       scf.for %[[I:.*]] = %c0 to %c3 step %c1 {
// CHECK:         %[[C:.*]] = memref.subview %arg3[%[[I]], 0, 0] [1, 5, 7] [1, 1, 1]
// CHECK:         linalg.matmul ins({{.*}}) outs(%[[C]] : {{.*}})
// CHECK-NEXT:    linalg.generic {indexing_maps = [#[[N:.*]], #[[ID:.*]]], iterator_types = ["parallel", "parallel"]} ins(%arg2 : memref<7xf32>) outs(%[[C]] : {{.*}})
// CHECK:           arith.maximumf
// CHECK:         }
// CHECK-NEXT:  }
// CHECK-NEXT:  return
// FUSE: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, relu]
func.func @bias_relu_memref(%A: memref<3x5x4xf32>, %B: memref<3x4x7xf32>, %bias: memref<7xf32>, %C: memref<3x5x7xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<3x5x7xf32>)
  // expected-remark @+2 {{tensorop: batch matmul of 3 slices: each slice's matmul takes the sketch path}}
  // expected-remark @+1 {{tensorop: 1 elementwise consumer of the batch matmul run per slice}}
  linalg.batch_matmul ins(%A, %B : memref<3x5x4xf32>, memref<3x4x7xf32>) outs(%C : memref<3x5x7xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias : memref<7xf32>) outs(%C : memref<3x5x7xf32>) {
  ^bb0(%b: f32, %v0: f32):
    %v1 = arith.addf %v0, %b : f32
    %z = arith.constant 0.0 : f32
    %v2 = arith.maximumf %v1, %z : f32
    linalg.yield %v2 : f32
  }
  return
}

// -----

// Tensors with a dynamic batch: bias, GELU, a B x M x N residual (a named
// linalg.add) and a scale, each its own op as importers emit them; the
// residual is sliced with the batch index, the bias is read whole; the
// outputs (tensor.empty) become the value each consumer reads, in place.
// CHECK-LABEL: func.func @chain_tensors
// CHECK:       %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %dim{{.*}} step %c1 iter_args(%[[ACC:.*]] = %arg4)
// CHECK:         %[[RES:.*]] = tensor.extract_slice %arg3[%[[I]], 0, 0] [1, 8, 32] [1, 1, 1] : tensor<?x8x32xf32> to tensor<8x32xf32>
// CHECK:         %[[MM:.*]] = linalg.matmul
// CHECK:         %[[G1:.*]] = linalg.generic {{.*}} ins(%[[MM]], %arg2 : tensor<8x32xf32>, tensor<32xf32>) outs(%[[MM]] : tensor<8x32xf32>)
// CHECK:         %[[G2:.*]] = linalg.generic {{.*}} ins(%[[G1]] : tensor<8x32xf32>) outs(%[[G1]] : tensor<8x32xf32>)
// CHECK:           math.tanh
// CHECK:         %[[G3:.*]] = linalg.generic {{.*}} ins(%[[G2]], %[[RES]] : tensor<8x32xf32>, tensor<8x32xf32>)
// CHECK:         %[[G4:.*]] = linalg.generic {{.*}} ins(%[[G3]] : tensor<8x32xf32>)
// CHECK:         tensor.insert_slice %[[G4]] into %[[ACC]][%[[I]], 0, 0] [1, 8, 32]
// CHECK:       return %[[R]]
// FUSE: remark: tensorop: fused a chain of 4 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh, residual, scale(0.5)]
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#n = affine_map<(d0, d1, d2) -> (d2)>
func.func @chain_tensors(%A: tensor<?x8x16xf32>, %B: tensor<?x16x32xf32>, %bias: tensor<32xf32>, %res: tensor<?x8x32xf32>, %C: tensor<?x8x32xf32>) -> tensor<?x8x32xf32> {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %A, %c0 : tensor<?x8x16xf32>
  // expected-remark @+2 {{tensorop: batch matmul of a dynamic number of slices}}
  // expected-remark @+1 {{tensorop: 4 elementwise consumers of the batch matmul run per slice}}
  %mm = linalg.batch_matmul ins(%A, %B : tensor<?x8x16xf32>, tensor<?x16x32xf32>) outs(%C : tensor<?x8x32xf32>) -> tensor<?x8x32xf32>
  %e = tensor.empty(%d) : tensor<?x8x32xf32>
  %b = linalg.generic {indexing_maps = [#id, #n, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<?x8x32xf32>, tensor<32xf32>) outs(%e : tensor<?x8x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x8x32xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : tensor<?x8x32xf32>) outs(%e : tensor<?x8x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k0 = arith.constant 0.7978845608 : f32
    %k1 = arith.constant 0.044715 : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %t0 = arith.mulf %x3, %k1 : f32
    %t1 = arith.addf %x, %t0 : f32
    %t2 = arith.mulf %t1, %k0 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %x, %half : f32
    %t6 = arith.mulf %t5, %t4 : f32
    linalg.yield %t6 : f32
  } -> tensor<?x8x32xf32>
  %r = linalg.add ins(%g, %res : tensor<?x8x32xf32>, tensor<?x8x32xf32>) outs(%e : tensor<?x8x32xf32>) -> tensor<?x8x32xf32>
  %o = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<?x8x32xf32>) outs(%e : tensor<?x8x32xf32>) {
  ^bb0(%x: f32, %z: f32):
    %sc = arith.constant 0.5 : f32
    %m = arith.mulf %x, %sc : f32
    linalg.yield %m : f32
  } -> tensor<?x8x32xf32>
  return %o : tensor<?x8x32xf32>
}

// -----

// Memrefs: a bias along M and a residual matrix broadcast over the batch
// (d1, d2), read whole by every slice.
// CHECK-LABEL: func.func @bias_m_broadcast_residual
// CHECK:       scf.for
// CHECK:         linalg.matmul
// CHECK-NEXT:    linalg.generic {indexing_maps = [#[[M:.*]], #[[ID:.*]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%arg2, %arg3 : memref<5xf32>, memref<5x7xf32>)
// FUSE: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_m, residual]
func.func @bias_m_broadcast_residual(%A: memref<2x5x4xf32>, %B: memref<2x4x7xf32>, %bias: memref<5xf32>, %res: memref<5x7xf32>, %C: memref<2x5x7xf32>) {
  // expected-remark @+2 {{tensorop: batch matmul of 2 slices}}
  // expected-remark @+1 {{tensorop: 1 elementwise consumer of the batch matmul run per slice}}
  linalg.batch_matmul ins(%A, %B : memref<2x5x4xf32>, memref<2x4x7xf32>) outs(%C : memref<2x5x7xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias, %res : memref<5xf32>, memref<5x7xf32>) outs(%C : memref<2x5x7xf32>) {
  ^bb0(%b: f32, %r: f32, %v0: f32):
    %v1 = arith.addf %v0, %b : f32
    %v2 = arith.addf %v1, %r : f32
    linalg.yield %v2 : f32
  }
  return
}

// -----

// Not run per slice: a bias per batch element (d0) is no epilogue operand.
// CHECK-LABEL: func.func @bias_per_batch
// CHECK:       scf.for
// CHECK:         linalg.matmul
// CHECK-NEXT:  }
// CHECK-NEXT:  linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
func.func @bias_per_batch(%A: memref<2x5x4xf32>, %B: memref<2x4x7xf32>, %bias: memref<2xf32>, %C: memref<2x5x7xf32>) {
  // expected-remark @+1 {{tensorop: batch matmul of 2 slices}}
  linalg.batch_matmul ins(%A, %B : memref<2x5x4xf32>, memref<2x4x7xf32>) outs(%C : memref<2x5x7xf32>)
  // expected-remark @+1 {{tensorop: not run per slice of the batch matmul, so not fused into its slices' microkernels (runs as a separate pass over C after them): an operand is read other than per element (d0, d1, d2), as a matrix broadcast over the batch (d1, d2), a vector along N (d2) or M (d1), or a scalar}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias : memref<2xf32>) outs(%C : memref<2x5x7xf32>) {
  ^bb0(%b: f32, %v0: f32):
    %v1 = arith.addf %v0, %b : f32
    linalg.yield %v1 : f32
  }
  return
}

// -----

// Not run per slice: C read transposed, and a consumer using linalg.index.
// CHECK-LABEL: func.func @transposed_c
// CHECK:       scf.for
// CHECK:       }
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
func.func @transposed_c(%A: tensor<2x5x4xf32>, %B: tensor<2x4x5xf32>, %C: tensor<2x5x5xf32>) -> tensor<2x5x5xf32> {
  // expected-remark @+1 {{tensorop: batch matmul of 2 slices}}
  %mm = linalg.batch_matmul ins(%A, %B : tensor<2x5x4xf32>, tensor<2x4x5xf32>) outs(%C : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  %e = tensor.empty() : tensor<2x5x5xf32>
  // expected-remark @+1 {{(runs as a separate pass over C after them): it reads C other than per element}}
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm : tensor<2x5x5xf32>) outs(%e : tensor<2x5x5xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x5x5xf32>
  return %t : tensor<2x5x5xf32>
}

// CHECK-LABEL: func.func @index_user
func.func @index_user(%A: tensor<2x5x4xf32>, %B: tensor<2x4x5xf32>, %C: tensor<2x5x5xf32>) -> tensor<2x5x5xf32> {
  // expected-remark @+1 {{tensorop: batch matmul of 2 slices}}
  %mm = linalg.batch_matmul ins(%A, %B : tensor<2x5x4xf32>, tensor<2x4x5xf32>) outs(%C : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  // expected-remark @+1 {{(runs as a separate pass over C after them): it reads linalg.index}}
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%mm : tensor<2x5x5xf32>) {
  ^bb0(%x: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %y = arith.addf %x, %f : f32
    linalg.yield %y : f32
  } -> tensor<2x5x5xf32>
  return %t : tensor<2x5x5xf32>
}

// -----

// Not run per slice: the result has two users.
// CHECK-LABEL: func.func @two_users
func.func @two_users(%A: tensor<2x5x4xf32>, %B: tensor<2x4x5xf32>, %C: tensor<2x5x5xf32>) -> (tensor<2x5x5xf32>, tensor<2x5x5xf32>) {
  // expected-remark @+2 {{tensorop: batch matmul of 2 slices}}
  // expected-remark @+1 {{tensorop: no consumer of this result runs per slice of the batch matmul (nor is fused into its slices' microkernels): it has 2 users}}
  %mm = linalg.batch_matmul ins(%A, %B : tensor<2x5x4xf32>, tensor<2x4x5xf32>) outs(%C : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  %r = linalg.exp ins(%mm : tensor<2x5x5xf32>) outs(%C : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  return %mm, %r : tensor<2x5x5xf32>, tensor<2x5x5xf32>
}

// -----

// A consumer narrowing C to bf16 into its own buffer (memrefs: bias, ReLU,
// then arith.truncf, as importers write a bf16 model): runs per slice on the
// output's slice and fuses with the to_bf16 output step; the chain ends
// there.
// CHECK-LABEL: func.func @narrow_bf16_memref
// CHECK:       scf.for %[[IV:.*]] =
// CHECK:         %[[O:.*]] = memref.subview %arg4[%[[IV]], 0, 0] [1, 48, 64] [1, 1, 1] : memref<3x48x64xbf16> to memref<48x64xbf16, strided<[64, 1], offset: ?>>
// CHECK:         linalg.matmul
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[O]] : memref<48x64xbf16, strided<[64, 1], offset: ?>>)
// CHECK:           arith.truncf
// CHECK-NOT:   linalg.generic
// FUSE: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, relu, to_bf16]
func.func @narrow_bf16_memref(%A: memref<3x48x32xf32>, %B: memref<3x32x64xf32>, %bias: memref<64xf32>, %C: memref<3x48x64xf32>, %O: memref<3x48x64xbf16>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%C : memref<3x48x64xf32>)
  // expected-remark @+2 {{tensorop: batch matmul of 3 slices}}
  // expected-remark @+1 {{tensorop: 1 elementwise consumer of the batch matmul run per slice}}
  linalg.batch_matmul ins(%A, %B : memref<3x48x32xf32>, memref<3x32x64xf32>) outs(%C : memref<3x48x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%C, %bias : memref<3x48x64xf32>, memref<64xf32>) outs(%O : memref<3x48x64xbf16>) {
  ^bb0(%x: f32, %b: f32, %o: bf16):
    %y = arith.addf %x, %b : f32
    %zz = arith.constant 0.0 : f32
    %r = arith.maximumf %y, %zz : f32
    %t = arith.truncf %r : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

// On tensors the same consumer (bias, then rounding into a bf16
// tensor.empty it only writes) runs per slice: the loop carries the bf16
// tensor, every slice's C is one M x N tensor.empty made before the loop
// (C's initial value is a fill of a tensor.empty: slicing it would allocate
// all of C) filled per slice, and the slice's consumer writes the bf16
// slice of the loop's tensor.
// CHECK-LABEL: func.func @narrow_bf16_tensor
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<2x5x5xbf16>
// CHECK:       %[[C2:.*]] = tensor.empty() : tensor<5x5xf32>
// CHECK:       %[[L:.*]] = scf.for %[[IV:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[E]]) -> (tensor<2x5x5xbf16>)
// CHECK:         %[[O:.*]] = tensor.extract_slice %[[ACC]][%[[IV]], 0, 0] [1, 5, 5] [1, 1, 1] : tensor<2x5x5xbf16> to tensor<5x5xbf16>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[C2]] : tensor<5x5xf32>)
// CHECK:         %[[MM:.*]] = linalg.matmul {{.*}} outs(%[[F]] : tensor<5x5xf32>)
// CHECK-NEXT:    %[[G:.*]] = linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<5x5xf32>, tensor<5xf32>) outs(%[[O]] : tensor<5x5xbf16>)
// CHECK:         tensor.insert_slice %[[G]] into %[[ACC]][%[[IV]], 0, 0] [1, 5, 5] [1, 1, 1] : tensor<5x5xbf16> into tensor<2x5x5xbf16>
// CHECK:       return %[[L]] : tensor<2x5x5xbf16>
// FUSE: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, to_bf16]
func.func @narrow_bf16_tensor(%A: tensor<2x5x4xf32>, %B: tensor<2x4x5xf32>, %bias: tensor<5xf32>) -> tensor<2x5x5xbf16> {
  %z = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<2x5x5xf32>
  %c = linalg.fill ins(%z : f32) outs(%ec : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  // expected-remark @+2 {{tensorop: batch matmul of 2 slices}}
  // expected-remark @+1 {{tensorop: 1 elementwise consumer of the batch matmul run per slice}}
  %mm = linalg.batch_matmul ins(%A, %B : tensor<2x5x4xf32>, tensor<2x4x5xf32>) outs(%c : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  %e = tensor.empty() : tensor<2x5x5xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<2x5x5xf32>, tensor<5xf32>) outs(%e : tensor<2x5x5xbf16>) {
  ^bb0(%x: f32, %b: f32, %o: bf16):
    %y = arith.addf %x, %b : f32
    %r = arith.truncf %y : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<2x5x5xbf16>
  return %t : tensor<2x5x5xbf16>
}

// -----

// Not run per slice on tensors: a narrowing output whose initial value the
// body reads (the loop would have to carry it and C).
// CHECK-LABEL: func.func @narrow_bf16_tensor_reads_out
func.func @narrow_bf16_tensor_reads_out(%A: tensor<2x5x4xf32>, %B: tensor<2x4x5xf32>, %C: tensor<2x5x5xf32>, %O: tensor<2x5x5xbf16>) -> tensor<2x5x5xbf16> {
  // expected-remark @+1 {{tensorop: batch matmul of 2 slices}}
  %mm = linalg.batch_matmul ins(%A, %B : tensor<2x5x4xf32>, tensor<2x4x5xf32>) outs(%C : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  // expected-remark @+1 {{(runs as a separate pass over C after them): its output's element type is not C's and its initial value is read (a narrowing output runs per slice when it is only written, as a tensor.empty)}}
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm : tensor<2x5x5xf32>) outs(%O : tensor<2x5x5xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %y = arith.truncf %x : f32 to bf16
    %s = arith.addf %y, %o : bf16
    linalg.yield %s : bf16
  } -> tensor<2x5x5xbf16>
  return %t : tensor<2x5x5xbf16>
}
