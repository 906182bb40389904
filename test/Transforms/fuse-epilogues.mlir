// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=x86-avx512 --tensorop-fuse-epilogues 2>/dev/null | FileCheck %s
// RUN: tensorop-opt %s --tensorop-annotate-sketch=target=x86-avx512 --tensorop-fuse-epilogues 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// Which elementwise consumers of a matmul become a fused epilogue (recorded
// on the sketch, the consumer rewritten in place on C and marked), and the
// remark for each that does not.

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, relu]
// CHECK-LABEL: func.func @bias_relu
// CHECK: %[[MM:.*]] = linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}epilogue = <steps = ["bias_n", "relu"]>>}
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<96xf32>) outs(%[[MM]] : tensor<64x96xf32>) attrs = {tensorop.fused_epilogue}
func.func @bias_relu(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %s = arith.addf %b, %x : f32
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// A consumer on tensors that takes the result as its outs (in place
// already, as chains on memrefs are written) is kept as it is: the pass
// crashed on it (it looked for C among the inputs).
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_n, relu]
// CHECK-LABEL: func.func @outs_in_place
// CHECK: %[[MM:.*]] = linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}epilogue = <steps = ["bias_n", "relu"]>>}
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<96xf32>) outs(%[[MM]] : tensor<64x96xf32>) attrs = {tensorop.fused_epilogue}
func.func @outs_in_place(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#col, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<96xf32>) outs(%mm : tensor<64x96xf32>) {
  ^bb0(%b: f32, %x: f32):
    %s = arith.addf %x, %b : f32
    %y = arith.maximumf %s, %z : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// GELU (erf form) spelled (1 + erf(x * 0.7071)) * x / 2, on memrefs in
// place, with a bias along M first.
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [bias_m, gelu_erf]
// CHECK-LABEL: func.func @memref_gelu
// CHECK: linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}epilogue = <steps = ["bias_m", "gelu_erf"]>>}
// CHECK: linalg.generic {{.*}}attrs = {tensorop.fused_epilogue}
func.func @memref_gelu(%A: memref<64x32xf32>, %B: memref<32x96xf32>, %bias: memref<64xf32>, %C: memref<64x96xf32>) {
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x96xf32>) outs(%C : memref<64x96xf32>)
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%bias : memref<64xf32>) outs(%C : memref<64x96xf32>) {
  ^bb0(%b: f32, %x0: f32):
    %x = arith.addf %x0, %b : f32
    %k = arith.constant 0.70710678 : f32
    %one = arith.constant 1.0 : f32
    %two = arith.constant 2.0 : f32
    %u = arith.mulf %x, %k : f32
    %e = math.erf %u : f32
    %p = arith.addf %one, %e : f32
    %q = arith.mulf %p, %x : f32
    %y = arith.divf %q, %two : f32
    linalg.yield %y : f32
  }
  return
}

// A named elementwise op: the residual add (linalg.add), then a clamp (ReLU6).
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [residual]
// CHECK-LABEL: func.func @named_add
// CHECK: epilogue = <steps = ["residual"]>
// CHECK-NOT: linalg.add
func.func @named_add(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %R: tensor<64x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.add ins(%mm, %R : tensor<64x96xf32>, tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// SiLU as x * sigmoid(x) with sigmoid = exp(x) / (1 + exp(x)), then x6 and
// a ReLU6 written as min(max(x, 0), 6).
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [silu, scale(6), clamp(0, 6)]
// CHECK-LABEL: func.func @silu_scale_clamp
func.func @silu_scale_clamp(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %six = arith.constant 6.0 : f32
    %zero = arith.constant 0.0 : f32
    %ex = math.exp %x : f32
    %d = arith.addf %one, %ex : f32
    %s = arith.divf %ex, %d : f32
    %y = arith.mulf %x, %s : f32
    %y6 = arith.mulf %y, %six : f32
    %lo = arith.maximumf %y6, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// Not fused: a function that is none of the steps.
// REMARK: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): the ops from 'math.exp' on compute none of: bias, residual, scale, clamp, ReLU, tanh, sigmoid, SiLU, GELU (tanh or erf)
// CHECK-LABEL: func.func @exp
// CHECK-NOT: epilogue =
// CHECK: linalg.generic
// CHECK-NOT: tensorop.fused_epilogue
func.func @exp(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%mm : tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// Not fused: an operand read transposed (neither bias nor residual).
// REMARK: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): input #1 is neither a bias along N or M nor one M x N residual
func.func @transposed_operand(%A: tensor<64x32xf32>, %B: tensor<32x64xf32>, %R: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %R : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%x: f32, %t: f32, %o: f32):
    %y = arith.addf %x, %t : f32
    linalg.yield %y : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// Not fused: the bias is used other than added (x + b*b).
// REMARK: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): the ops from 'arith.addf' on compute none of
func.func @bias_squared(%A: tensor<64x32xf32>, %B: tensor<32x96xf32>, %bias: tensor<96xf32>) -> tensor<64x96xf32> {
  %e = tensor.empty() : tensor<64x96xf32>
  %z = arith.constant 0.0 : f32
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<64x96xf32>) -> tensor<64x96xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<64x32xf32>, tensor<32x96xf32>) outs(%c : tensor<64x96xf32>) -> tensor<64x96xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%mm, %bias : tensor<64x96xf32>, tensor<96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%x: f32, %b: f32, %o: f32):
    %bb = arith.mulf %b, %b : f32
    %y = arith.addf %x, %bb : f32
    linalg.yield %y : f32
  } -> tensor<64x96xf32>
  return %r : tensor<64x96xf32>
}

// Not fused: on memrefs, a consumer that writes another buffer than C.
// REMARK: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): it writes another buffer than the matmul's C
func.func @other_buffer(%A: memref<64x32xf32>, %B: memref<32x96xf32>, %C: memref<64x96xf32>, %D: memref<64x96xf32>) {
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x96xf32>) outs(%C : memref<64x96xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%C : memref<64x96xf32>) outs(%D : memref<64x96xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }
  return
}

// Not fused: a dynamic K (at K = 0 no microkernel would apply it).
// REMARK: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): K is dynamic (at K = 0 no microkernel runs to apply the epilogue)
func.func @dynamic_k(%A: memref<64x?xf32>, %B: memref<?x96xf32>, %C: memref<64x96xf32>) {
  linalg.matmul ins(%A, %B : memref<64x?xf32>, memref<?x96xf32>) outs(%C : memref<64x96xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%C : memref<64x96xf32>) {
  ^bb0(%x: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }
  return
}

// bf16 inputs: the vdpbf16ps kernel applies it too.
// CHECK-LABEL: func.func @bf16_inputs
// CHECK: linalg.matmul {tensorop.sketch = #tensorop.sketch<{{.*}}epilogue = <steps = ["relu"]>
// REMARK: remark: tensorop: fused the elementwise consumer into the microkernel's store: epilogue [relu]
func.func @bf16_inputs(%A: memref<64x32xbf16>, %B: memref<32x96xbf16>, %C: memref<64x96xf32>) {
  linalg.matmul ins(%A, %B : memref<64x32xbf16>, memref<32x96xbf16>) outs(%C : memref<64x96xf32>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%C : memref<64x96xf32>) {
  ^bb0(%x: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }
  return
}

// A sketch written by hand naming a model-written microkernel: not fused
// (only the shipped emitters apply epilogues).
// REMARK: remark: tensorop: not fused into the matmul's microkernel (runs as a separate op after it): the llm_x86 microkernel has no epilogue yet (x86_gemm_fma, riscv_gemm_rvv, arm_gemm_neon and the NVIDIA tensor-core kernels have one)
// CHECK-LABEL: func.func @model_written
// CHECK-NOT: epilogue =
// CHECK-NOT: tensorop.fused_epilogue
// CHECK: return
func.func @model_written(%A: memref<64x32xf32>, %B: memref<32x96xf32>, %C: memref<64x96xf32>) {
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x96xf32>) outs(%C : memref<64x96xf32>) {tensorop.sketch = #tensorop.sketch<mc = 60, nc = 96, kc = 32, mr = 6, nr = 16, loop_order = "mkn", micro_order = "mn", pack_a = "kmajor_mr", pack_b = "kmajor_nr", ukernel = <emitter = "llm_x86", k_unroll = 4, broadcast = "explicit", prefetch_b = 0>, target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "+avx512f,+avx512bw,+avx512dq,+avx512vl,+avx2,+fma,+bmi2", vector_bits = 512, vector_registers = 32>, source = "test">}
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%C : memref<64x96xf32>) {
  ^bb0(%x: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }
  return
}
