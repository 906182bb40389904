// bf16 and f16 GEMMs (fp32 C) on CPU targets: bf16 needs the bf16 dot
// product the target's hints list (x86-avx512: vdpbf16ps); a target without
// one is an error at the matmul, not a silent fallback to upstream loops.
// f16 is built for x86 targets. Other element-type mixes stay remarks.

// RUN: tensorop-opt %s -split-input-file -verify-diagnostics --tensorop-annotate-sketch="target=x86-avx512" | FileCheck %s --check-prefix=AVX512
// RUN: not tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=x86-avx2" 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: not tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=riscv-rvv" 2>&1 | FileCheck %s --check-prefix=RVV
// RUN: not tensorop-opt %s -split-input-file --tensorop-annotate-sketch="target=arm-neon" 2>&1 | FileCheck %s --check-prefix=NEON

// AVX512-LABEL: func.func @bf16
// AVX512: linalg.matmul {{.*}}tensorop.sketch = #tensorop.sketch<mc = {{[0-9]+}}, nc = {{[0-9]+}}, kc = 68,
// AVX2: error: tensorop: bf16 GEMMs need a bf16 dot product with fp32 accumulation (AVX512_BF16's vdpbf16ps); target 'x86-avx2' has none ({{.*}}x86-avx2.json lists no bf16_dot); use target=x86-avx512 on a CPU with avx512bf16
// RVV: error: tensorop: bf16 GEMMs are built for x86 targets only (x86-avx512 for bf16; x86-avx512 or x86-avx2 for f16), not 'riscv-rvv'
// NEON: error: tensorop: bf16 GEMMs are built for x86 targets only
func.func @bf16(%A: memref<97x67xbf16>, %B: memref<67x131xbf16>, %C: memref<97x131xf32>) {
  linalg.matmul ins(%A, %B : memref<97x67xbf16>, memref<67x131xbf16>) outs(%C : memref<97x131xf32>)
  return
}

// -----

// AVX512-LABEL: func.func @f16
// AVX512: linalg.matmul {{.*}}tensorop.sketch = #tensorop.sketch<
// AVX2-NOT: error: tensorop: f16
// RVV: error: tensorop: f16 GEMMs are built for x86 targets only
func.func @f16(%A: memref<97x67xf16>, %B: memref<67x131xf16>, %C: memref<97x131xf32>) {
  linalg.matmul ins(%A, %B : memref<97x67xf16>, memref<67x131xf16>) outs(%C : memref<97x131xf32>)
  return
}

// -----

// bf16 output and mixed inputs are not built yet: a remark, upstream loops.
// AVX512-LABEL: func.func @bf16_out
// AVX512-NOT: tensorop.sketch =
func.func @bf16_out(%A: memref<16x16xbf16>, %B: memref<16x16xbf16>, %C: memref<16x16xbf16>) {
  // expected-remark @+1 {{tensorop: not handled (element types other than f32 x f32 -> f32, bf16 x bf16 -> f32 and f16 x f16 -> f32 are not supported on CPU targets yet (got bf16 x bf16 -> bf16); a bf16 C accumulates in that type: for fp32 accumulation write the matmul into an f32 C and narrow it with an arith.truncf consumer (fused on x86 AVX-512)); lowered by the upstream pipeline}}
  linalg.matmul ins(%A, %B : memref<16x16xbf16>, memref<16x16xbf16>) outs(%C : memref<16x16xbf16>)
  return
}

// -----

// AVX512-LABEL: func.func @mixed
func.func @mixed(%A: memref<16x16xbf16>, %B: memref<16x16xf16>, %C: memref<16x16xf32>) {
  // expected-remark @+1 {{(got bf16 x f16 -> f32)}}
  linalg.matmul ins(%A, %B : memref<16x16xbf16>, memref<16x16xf16>) outs(%C : memref<16x16xf32>)
  return
}
