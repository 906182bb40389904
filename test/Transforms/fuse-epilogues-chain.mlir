// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=x86-avx512 --tensorop-fuse-epilogues 2>/dev/null | FileCheck %s
// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=x86-avx512 --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// Chains of elementwise consumers, one op per step as importers emit them
// (bias add, then GELU, then residual add): every consumer that reads as
// steps and is the sole user of the value before it is fused (rewritten in
// place, marked), its steps appended; the op the chain stops at gets a
// remark saying why.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>

// The FFN's first half: bias, then GELU (tanh form), then a matmul (not an
// elementwise op: the chain ends there without a remark).
// REMARK: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, gelu_tanh]
// CHECK-LABEL: func.func @bias_gelu_then_matmul
// CHECK: %[[MM:.*]] = linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}epilogue = <steps = ["bias_n", "gelu_tanh"]>>}
// CHECK: %[[G1:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<96xf32>) outs(%[[MM]] : tensor<64x96xf32>) attrs = {tensorop.fused_epilogue}
// CHECK: %[[G2:.*]] = linalg.generic {{.*}} outs(%[[G1]] : tensor<64x96xf32>) attrs = {tensorop.fused_epilogue}
// CHECK: linalg.matmul {{.*}}ins(%[[G2]],
func.func @bias_gelu_then_matmul(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<96xf32>, %W: tensor<96x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %hb = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%hb : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%s: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.797884583 : f32
    %c3 = arith.constant 0.044715 : f32
    %s2 = arith.mulf %s, %s : f32
    %s3 = arith.mulf %s2, %s : f32
    %t0 = arith.mulf %c3, %s3 : f32
    %t1 = arith.addf %s, %t0 : f32
    %t2 = arith.mulf %k, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %one, %t3 : f32
    %t5 = arith.mulf %half, %s : f32
    %r = arith.mulf %t5, %t4 : f32
    linalg.yield %r : f32
  } -> tensor<64x96xf32>
  %e2 = tensor.empty() : tensor<64x32xf32>
  %c2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %y = linalg.matmul ins(%g, %W : tensor<64x96xf32>, tensor<96x32xf32>) outs(%c2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// Three consumers, the last a named op (linalg.add of the residual).
// REMARK: remark: tensorop: fused a chain of 3 elementwise consumers into the microkernel's store: epilogue [bias_m, relu, residual]
// CHECK-LABEL: func.func @bias_relu_residual
// CHECK: epilogue = <steps = ["bias_m", "relu", "residual"]>
// CHECK-COUNT-3: attrs = {tensorop.fused_epilogue}
// CHECK-NOT: linalg.add
func.func @bias_relu_residual(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<64xf32>, %R: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %hb = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf32>, tensor<64xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %b, %x : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%hb : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  %out = linalg.add ins(%r, %R : tensor<64x96xf32>, tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %out : tensor<64x96xf32>
}

// The chain stops at a consumer that is no epilogue; what follows it is not
// looked at (it runs after the op that is not fused).
// REMARK: remark: tensorop: the chain of fused consumers stops here: not fused into the matmul's microkernel (runs as a separate op after it): the ops from 'math.exp' on compute none of
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n]
// CHECK-LABEL: func.func @stops_at_exp
// CHECK: epilogue = <steps = ["bias_n"]>
// CHECK: attrs = {tensorop.fused_epilogue}
// CHECK: math.exp
// CHECK-NOT: tensorop.fused_epilogue
// CHECK: return
func.func @stops_at_exp(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %hb = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%hb : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%ex : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// A second bias: the epilogue takes one, so the chain stops there.
// REMARK: remark: tensorop: the chain of fused consumers stops here: not fused into the matmul's microkernel (runs as a separate op after it): with the consumers fused before it, an epilogue takes at most one bias (bias_n or bias_m)
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, relu]
// CHECK-LABEL: func.func @two_biases
// CHECK: epilogue = <steps = ["bias_n", "relu"]>
func.func @two_biases(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %b1: tensor<96xf32>, %b2: tensor<96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %b1 : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%r, %b2 : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %r2 : tensor<64x96xf32>
}

// The intermediate after the bias has a second user: the chain ends there.
// REMARK: remark: tensorop: the chain of fused consumers ends here: this op's result has 2 users (a consumer is fused only as the sole user)
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n]
// CHECK-LABEL: func.func @shared_intermediate
// CHECK: epilogue = <steps = ["bias_n"]>
// CHECK-COUNT-1: tensorop.fused_epilogue
// CHECK-NOT: tensorop.fused_epilogue
// CHECK: return
func.func @shared_intermediate(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<96xf32>) -> (tensor<64x96xf32>, tensor<64x96xf32>) {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %hb = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%hb : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  return %hb, %r : tensor<64x96xf32>, tensor<64x96xf32>
}

// The matmul's own result has two elementwise users: nothing is fused.
// REMARK: remark: tensorop: no consumer fused into the microkernel: the matmul's result has 2 users (a consumer is fused only as the sole user)
// CHECK-LABEL: func.func @shared_result
// CHECK-NOT: epilogue =
// CHECK-NOT: tensorop.fused_epilogue
// CHECK: return
func.func @shared_result(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>) -> (tensor<64x96xf32>, tensor<64x96xf32>) {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  return %mm, %r : tensor<64x96xf32>, tensor<64x96xf32>
}

// A residual computed after the matmul: the microkernel, which reads it
// where the matmul runs, cannot take it.
// REMARK: remark: tensorop: the chain of fused consumers stops here: not fused into the matmul's microkernel (runs as a separate op after it): its residual is computed after the matmul (the microkernel reads it where the matmul runs)
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n]
// CHECK-LABEL: func.func @late_residual
// CHECK: epilogue = <steps = ["bias_n"]>
func.func @late_residual(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<96xf32>, %R: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %hb = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  %e3 = tensor.empty() : tensor<64x96xf32>
  %R2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%R : tensor<64x96xf32>) outs(%e3 : tensor<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  %out = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%hb, %R2 : tensor<64x96xf32>, tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %r : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %out : tensor<64x96xf32>
}

// x + x: the matmul's result read twice (as C and as a residual) is not an
// epilogue (the microkernel would read C while it writes it).
// REMARK: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): it reads the matmul's result more than once
func.func @reads_result_twice(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %mm : tensor<64x96xf32>, tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// On memrefs: consecutive ops writing C in place, up to one that writes
// another buffer.
// REMARK: remark: tensorop: the chain of fused consumers stops here: not fused into the matmul's microkernel (runs as a separate op after it): it writes another buffer than the matmul's C
// REMARK: remark: tensorop: fused a chain of 2 elementwise consumers into the microkernel's store: epilogue [bias_n, silu]
// CHECK-LABEL: func.func @memref_chain
// CHECK: epilogue = <steps = ["bias_n", "silu"]>
// CHECK-COUNT-2: attrs = {tensorop.fused_epilogue}
// CHECK-NOT: tensorop.fused_epilogue
// CHECK: return
func.func @memref_chain(%A: memref<64x32xf32>, %B: memref<32x96xf32>, %bias: memref<96xf32>, %C: memref<64x96xf32>, %D: memref<64x96xf32>) {
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x96xf32>) outs(%C : memref<64x96xf32>)
  linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<96xf32>) outs(%C : memref<64x96xf32>) {
  ^bb0(%b: f32, %x: f32):
    %s = arith.addf %x, %b : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%C : memref<64x96xf32>) {
  ^bb0(%x: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %x : f32
    %ex = math.exp %n : f32
    %d = arith.addf %one, %ex : f32
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%C : memref<64x96xf32>) outs(%D : memref<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }
  return
}
