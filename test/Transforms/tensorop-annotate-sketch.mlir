// RUN: rm -rf %t && mkdir -p %t
// (The file's hints less kdot_n_tail_min_saving_pct: N tails vectorized
// along K, which would compute some of these shapes' last columns apart,
// have their own test, annotate-sketch-n-tail.mlir.)
// RUN: mkdir -p %t/nokdot && %python -c "import json, sys; h = json.load(open(sys.argv[1])); h['blocking']['kdot_n_tail_min_saving_pct'] = 0; json.dump(h, open(sys.argv[2], 'w'))" %S/../../hints/x86-avx512.json %t/nokdot/x86-avx512.json
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx512 hints-dir=%t/nokdot" | FileCheck %s --check-prefixes=CHECK,AVX512
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,AVX2
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=riscv-rvv" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,RVV
// RUN: tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=arm-neon" | tensorop-opt -split-input-file | FileCheck %s --check-prefixes=CHECK,NEON

// The advisor's exact tile sizes are its own business; these tests pin what
// must hold for any advisor: a sketch is attached to every static f32
// matmul, it names the requested target, its register block fits that
// target's register file (the second RUN line re-parses the output, so the
// sketch verifier runs again), and tiles never exceed a tiny problem.

// CHECK-LABEL: func.func @memref_matmul
// CHECK:       linalg.matmul {tensorop.sketch = #tensorop.sketch<
// AVX512-SAME:   mr = {{[0-9]+}}, nr = {{16|32|48|64}}, loop_order = "{{[mnk][mnk][mnk]}}", micro_order = "{{mn|nm}}", pack_a = "none", pack_b = "none",
// AVX512-SAME:   ukernel = <emitter = "x86_gemm_fma", k_unroll = {{[0-9]+}}, broadcast = "{{explicit|embedded}}", prefetch_b = {{[0-9]+}}>,
// AVX512-SAME:   target = <name = "x86-avx512", triple = "x86_64-unknown-linux-gnu", cpu = "znver4", features = "{{.*}}+avx512f{{.*}}", vector_bits = 512, vector_registers = 32>, source = "builtin">}
// AVX2-SAME:     mr = {{[1-4]}}, nr = {{8|16|24}}, loop_order = "{{[mnk][mnk][mnk]}}", micro_order = "{{mn|nm}}",
// AVX2-SAME:     broadcast = "explicit"
// AVX2-SAME:     target = <name = "x86-avx2", triple = "x86_64-unknown-linux-gnu", cpu = "haswell", features = "{{.*}}+avx2{{.*}}", vector_bits = 256, vector_registers = 16>, source = "builtin">}
// RVV-SAME:      ukernel = <emitter = "riscv_gemm_rvv"{{.*}}target = <name = "riscv-rvv", triple = "riscv64{{.*}}source = "builtin">}
// NEON-SAME:     ukernel = <emitter = "arm_gemm_neon"{{.*}}target = <name = "arm-neon", triple = "aarch64{{.*}}source = "builtin">}
// CHECK-SAME:  ins(%{{.*}}, %{{.*}} : memref<97x67xf32>, memref<67x131xf32>) outs(%{{.*}} : memref<97x131xf32>)
func.func @memref_matmul(%A: memref<97x67xf32>, %B: memref<67x131xf32>, %C: memref<97x131xf32>) {
  linalg.matmul ins(%A, %B : memref<97x67xf32>, memref<67x131xf32>) outs(%C : memref<97x131xf32>)
  return
}

// -----

// A tensor's rows after bufferization are predicted (identity layout), so
// A is read in place; the apply step re-checks and packs if wrong.
// CHECK-LABEL: func.func @tensor_matmul
// CHECK:       %[[R:.+]] = linalg.matmul {tensorop.sketch = #tensorop.sketch<
// AVX512-SAME:   pack_a = "none"
// AVX512-SAME:   target = <name = "x86-avx512"
// AVX2-SAME:     target = <name = "x86-avx2"
// CHECK-SAME:  ins(%{{.*}}, %{{.*}} : tensor<128x256xf32>, tensor<256x512xf32>) outs(%{{.*}} : tensor<128x512xf32>) -> tensor<128x512xf32>
// CHECK:       return %[[R]]
func.func @tensor_matmul(%A: tensor<128x256xf32>, %B: tensor<256x512xf32>, %C: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %r = linalg.matmul ins(%A, %B : tensor<128x256xf32>, tensor<256x512xf32>) outs(%C : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %r : tensor<128x512xf32>
}

// -----

// A stored K x M (transposed through indexing_maps) is supported; the maps
// are kept as they are.
// CHECK-DAG:   #[[$KM:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG:   #[[$KN:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose_a_memref
// CHECK:       linalg.matmul indexing_maps = [#[[$KM]], #[[$KN]], #[[$MN]]] {tensorop.sketch = #tensorop.sketch<
// AVX512-SAME:   target = <name = "x86-avx512"
// AVX2-SAME:     target = <name = "x86-avx2"
// CHECK-SAME:  ins(%{{.*}}, %{{.*}} : memref<67x97xf32>, memref<67x131xf32>) outs(%{{.*}} : memref<97x131xf32>)
func.func @transpose_a_memref(%A: memref<67x97xf32>, %B: memref<67x131xf32>, %C: memref<97x131xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d2, d1)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%A, %B : memref<67x97xf32>, memref<67x131xf32>) outs(%C : memref<97x131xf32>)
  return
}

// -----

// B stored N x K, on tensors.
// CHECK-DAG:   #[[$MK:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose_b_tensor
// CHECK:       linalg.matmul indexing_maps = [#[[$MK]], #[[$NK]], #[[$MN]]] {tensorop.sketch = #tensorop.sketch<
// CHECK-SAME:  ins(%{{.*}}, %{{.*}} : tensor<97x67xf32>, tensor<131x67xf32>) outs(%{{.*}} : tensor<97x131xf32>) -> tensor<97x131xf32>
func.func @transpose_b_tensor(%A: tensor<97x67xf32>, %B: tensor<131x67xf32>, %C: tensor<97x131xf32>) -> tensor<97x131xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                      affine_map<(d0, d1, d2) -> (d1, d2)>,
                                      affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%A, %B : tensor<97x67xf32>, tensor<131x67xf32>) outs(%C : tensor<97x131xf32>) -> tensor<97x131xf32>
  return %r : tensor<97x131xf32>
}

// -----

// Both transposed.
// CHECK-DAG:   #[[$KM:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG:   #[[$NK:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[$MN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @transpose_ab_memref
// CHECK:       linalg.matmul indexing_maps = [#[[$KM]], #[[$NK]], #[[$MN]]] {tensorop.sketch = #tensorop.sketch<
// CHECK-SAME:  ins(%{{.*}}, %{{.*}} : memref<37x50xf32>, memref<70x37xf32>) outs(%{{.*}} : memref<50x70xf32>)
func.func @transpose_ab_memref(%A: memref<37x50xf32>, %B: memref<70x37xf32>, %C: memref<50x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d1, d2)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%A, %B : memref<37x50xf32>, memref<70x37xf32>) outs(%C : memref<50x70xf32>)
  return
}

// -----

// A 1x1x1 problem: the tiles shrink to one register block and kc to 1.
// CHECK-LABEL: func.func @one_by_one
// CHECK:       linalg.matmul {tensorop.sketch = #tensorop.sketch<mc = [[MR:[0-9]+]], nc = [[NR:[0-9]+]], kc = 1, mr = [[MR]], nr = [[NR]],
// CHECK-SAME:  memref<1x1xf32>
func.func @one_by_one(%A: memref<1x1xf32>, %B: memref<1x1xf32>, %C: memref<1x1xf32>) {
  linalg.matmul ins(%A, %B : memref<1x1xf32>, memref<1x1xf32>) outs(%C : memref<1x1xf32>)
  return
}

// -----

// Ops other than linalg.matmul are not touched.
// CHECK-LABEL: func.func @no_matmul
// CHECK-NOT:   tensorop.sketch
// CHECK:       linalg.fill
// CHECK-NOT:   tensorop.sketch
// CHECK:       return
func.func @no_matmul(%C: memref<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%C : memref<8x8xf32>)
  return
}

// -----

// The builtin advisor reads A in place (pack_a = "none") on x86 where A's
// rows allow it and N <= 1024 (docs/benchmarks/cpu-packing-a.md), or K is
// one block (docs/benchmarks/cpu-gemm-classes.md, "A in place in one K
// block"); a wider N over several K blocks, a column-strided A and other
// targets keep A packed. (96 rows: up to 64 the few-rows path reads A in
// place whatever N is.)
// CHECK-LABEL: func.func @pack_a_choice
// AVX512:      pack_a = "none"
// AVX512:      kc = 32,{{.*}}pack_a = "none"
// AVX512:      pack_a = "kmajor_mr"
// AVX512:      pack_a = "kmajor_mr"
// AVX2:        pack_a = "none"
// AVX2:        kc = 32,{{.*}}pack_a = "none"
// AVX2:        pack_a = "kmajor_mr"
// AVX2:        pack_a = "kmajor_mr"
// RVV-NOT:     pack_a = "none"
// NEON-NOT:    pack_a = "none"
func.func @pack_a_choice(%A: memref<96x32xf32>, %B: memref<32x1024xf32>, %C: memref<96x1024xf32>,
                         %B2: memref<32x1040xf32>, %C2: memref<96x1040xf32>,
                         %Ak: memref<96x2048xf32>, %Bk: memref<2048x1040xf32>,
                         %At: memref<96x32xf32, strided<[1, 96]>>) {
  linalg.matmul ins(%A, %B : memref<96x32xf32>, memref<32x1024xf32>) outs(%C : memref<96x1024xf32>)
  linalg.matmul ins(%A, %B2 : memref<96x32xf32>, memref<32x1040xf32>) outs(%C2 : memref<96x1040xf32>)
  linalg.matmul ins(%Ak, %Bk : memref<96x2048xf32>, memref<2048x1040xf32>) outs(%C2 : memref<96x1040xf32>)
  linalg.matmul ins(%At, %B : memref<96x32xf32, strided<[1, 96]>>, memref<32x1024xf32>) outs(%C : memref<96x1024xf32>)
  return
}

// -----

// A one-vector block with embedded broadcasts issues a load per FMA (mr + 1
// loads for mr FMAs per k), so the builtin scores it by that, not only by
// the lanes it wastes on the edges: 333x777x555 takes 9 x 32 (edge waste
// 3%) over 9 x 16 embedded (1%; measured 0.91x against 0.98x the best
// library, docs/benchmarks/cpu-gemm-classes.md).
// CHECK-LABEL: func.func @load_bound_block
// AVX512:      mr = 9, nr = 32,
// AVX512-SAME: broadcast = "explicit"
func.func @load_bound_block(%A: memref<333x555xf32>, %B: memref<555x777xf32>, %C: memref<333x777xf32>) {
  linalg.matmul ins(%A, %B : memref<333x555xf32>, memref<555x777xf32>) outs(%C : memref<333x777xf32>)
  return
}
